import Foundation
import RealmSwift
import XCTest

final class RuntimeTests: XCTestCase {
    private func makeRealm(_ types: [ObjectBase.Type]? = [MirrorPerson.self, MirrorDog.self, MirrorAddress.self, MirrorKeyed.self]) throws -> Realm {
        try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "runtime-\(UUID().uuidString)", objectTypes: types))
    }

    func testClassNameIsTheSwiftClassName() {
        XCTAssertEqual(MirrorPerson.className(), "MirrorPerson")
        XCTAssertEqual(MirrorAddress.className(), "MirrorAddress")
    }

    func testAddAndFetchByPrimaryKey() throws {
        let realm = try makeRealm()
        let ada = MirrorPerson(name: "Ada")
        ada.age = 36
        XCTAssertNil(ada.realm)
        try realm.write { realm.add(ada) }
        XCTAssertNotNil(ada.realm)
        XCTAssertFalse(realm.isEmpty)

        let found = try XCTUnwrap(realm.object(ofType: MirrorPerson.self, forPrimaryKey: ada._id))
        XCTAssertTrue(found === ada)
        XCTAssertEqual(found.age, 36)
        XCTAssertNil(realm.object(ofType: MirrorPerson.self, forPrimaryKey: ObjectId.generate()))
        XCTAssertEqual(realm.objects(MirrorPerson.self).count, 1)

        // Another Realm with the same identifier sees the same objects.
        let again = try Realm(configuration: realm.configuration)
        XCTAssertEqual(again, realm)
        XCTAssertEqual(again.objects(MirrorPerson.self).first?.name, "Ada")

        // Results are live.
        let people = realm.objects(MirrorPerson.self)
        try realm.write { realm.add(MirrorPerson(name: "Grace")) }
        XCTAssertEqual(people.count, 2)
        XCTAssertEqual(people.map(\.name), ["Ada", "Grace"])
        XCTAssertEqual(people.index(of: ada), 0)
    }

    func testPrimaryKeysOfOtherTypes() throws {
        let realm = try makeRealm()
        try realm.write {
            realm.create(MirrorKeyed.self, value: ["key": "a", "value": 1])
            realm.create(MirrorKeyed.self, value: ["b", 2])
        }
        XCTAssertEqual(realm.object(ofType: MirrorKeyed.self, forPrimaryKey: "b")?.value, 2)
        XCTAssertNil(realm.object(ofType: MirrorKeyed.self, forPrimaryKey: "c"))
    }

    func testUpsertUpdatesTheExistingObject() throws {
        let realm = try makeRealm()
        let first = MirrorKeyed(value: ["key": "k", "value": 1, "note": "first"])
        try realm.write { realm.add(first) }

        let second = MirrorKeyed(value: ["key": "k", "value": 2])
        try realm.write { realm.add(second, update: .modified) }
        XCTAssertEqual(realm.objects(MirrorKeyed.self).count, 1)
        XCTAssertEqual(first.value, 2)
        XCTAssertNil(first.note, "an added object sets every property")
        XCTAssertTrue(second.isSameObject(as: first))
        XCTAssertEqual(second, first)
        try realm.write { second.value = 3 }
        XCTAssertEqual(first.value, 3, "both stand for the same object")

        // create with .modified updates only the keys given.
        try realm.write { realm.create(MirrorKeyed.self, value: ["key": "k", "note": "kept"], update: .all) }
        XCTAssertEqual(first.value, 3)
        XCTAssertEqual(first.note, "kept")
    }

    func testListsOfLinksAndLinkingObjects() throws {
        let realm = try makeRealm()
        let ada = MirrorPerson(name: "Ada")
        let rex = MirrorDog(value: ["name": "Rex"])
        let fido = MirrorDog(value: ["name": "Fido"])
        ada.dogs.append(objectsIn: [rex, fido])
        ada.bestFriend = fido
        XCTAssertEqual(rex.owners.count, 0, "unmanaged objects have no linking objects")
        try realm.write { realm.add(ada) }

        XCTAssertNotNil(rex.realm, "adding an object adds the objects it links to")
        XCTAssertEqual(realm.objects(MirrorDog.self).map(\.name), ["Rex", "Fido"])
        XCTAssertEqual(rex.owners.count, 1)
        XCTAssertTrue(rex.owners.first === ada)
        XCTAssertNotNil(ada.dogs.realm)

        let grace = MirrorPerson(name: "Grace")
        try realm.write {
            realm.add(grace)
            grace.dogs.append(rex)
            ada.dogs.remove(at: 0)
        }
        XCTAssertEqual(rex.owners.map(\.name), ["Grace"])
        XCTAssertEqual(ada.dogs.map(\.name), ["Fido"])

        // Deleting an object removes it from lists and links.
        try realm.write { realm.delete(fido) }
        XCTAssertTrue(fido.isInvalidated)
        XCTAssertEqual(ada.dogs.count, 0)
        XCTAssertNil(ada.bestFriend)
        XCTAssertEqual(realm.objects(MirrorDog.self).count, 1)
    }

    func testEmbeddedObjects() throws {
        let realm = try makeRealm()
        let ada = MirrorPerson(name: "Ada")
        ada.address = MirrorAddress(value: ["street": "Broadway"])
        ada.previousAddresses.append(MirrorAddress(value: ["street": "Old Street", "city": "London"]))
        try realm.write { realm.add(ada) }
        let address = try XCTUnwrap(ada.address)
        XCTAssertNotNil(address.realm)
        XCTAssertEqual(address.city, "Paris")
        XCTAssertEqual(ada.previousAddresses.first?.city, "London")

        try realm.write { realm.delete(ada) }
        XCTAssertTrue(ada.isInvalidated)
        XCTAssertTrue(address.isInvalidated, "embedded objects are deleted with their parent")
        XCTAssertTrue(realm.isEmpty)
    }

    func testEnumsThroughTheDynamicAPI() throws {
        let realm = try makeRealm()
        let rex = MirrorDog(value: ["name": "Rex", "mood": "grumpy", "size": 2])
        XCTAssertEqual(rex.mood, .grumpy)
        XCTAssertEqual(rex.size, .large)
        try realm.write { realm.add(rex) }
        XCTAssertEqual(rex["mood"] as? String, "grumpy", "the dynamic API gives an enum's raw value")
        XCTAssertEqual(rex["size"] as? Int, 2)
        try realm.write {
            rex["mood"] = "happy"
            rex["size"] = nil
        }
        XCTAssertEqual(rex.mood, .happy)
        XCTAssertNil(rex.size)
        XCTAssertNil(rex["size"])
        XCTAssertEqual(Mood(), .happy, "PersistableEnum's init() is the first case")
    }

    func testURLThroughFailableCustomPersistable() throws {
        let realm = try makeRealm()
        let ada = MirrorPerson(name: "Ada")
        ada.homepage = URL(string: "https://example.com/ada")
        try realm.write { realm.add(ada) }
        XCTAssertEqual(ada.homepage?.host, "example.com")
        XCTAssertEqual(ada["homepage"] as? String, "https://example.com/ada", "the dynamic API gives the persisted value")
        try realm.write { ada["homepage"] = "https://example.org" }
        XCTAssertEqual(ada.homepage, URL(string: "https://example.org"))
    }

    func testMapAndMutableSet() throws {
        let realm = try makeRealm()
        let ada = MirrorPerson(name: "Ada")
        ada.tags.insert("math")
        ada.tags.insert(objectsIn: ["math", "poetry"])
        ada.scores["a"] = 1
        ada.scores["b"] = .some(nil)
        try realm.write { realm.add(ada) }
        XCTAssertEqual(ada.tags.count, 2)
        XCTAssertTrue(ada.tags.contains("poetry"))
        XCTAssertEqual(ada.scores.count, 2)
        XCTAssertEqual(ada.scores.keys, ["a", "b"])
        XCTAssertEqual(ada.scores["a"], .some(1))
        XCTAssertEqual(ada.scores["b"], .some(nil))
        var entries: [String: Int?] = [:]
        for entry in ada.scores { entries[entry.key] = entry.value }
        XCTAssertEqual(entries, ["a": 1, "b": nil])

        try realm.write {
            ada.scores["a"] = nil
            ada.tags.remove("math")
        }
        XCTAssertEqual(ada.scores.keys, ["b"])
        XCTAssertEqual(Array(ada.tags), ["poetry"])
        try realm.write {
            ada.scores.removeAll()
            ada.tags.removeAll()
        }
        XCTAssertEqual(ada.scores.count, 0)
        XCTAssertEqual(ada.tags.count, 0)
    }

    func testProjections() throws {
        let realm = try makeRealm()
        let ada = MirrorPerson(name: "Ada")
        ada.dogs.append(MirrorDog(value: ["name": "Rex"]))
        try realm.write { realm.add(ada) }
        let summaries = realm.objects(PersonSummary.self)
        XCTAssertEqual(summaries.count, 1)
        let summary = try XCTUnwrap(summaries.first)
        XCTAssertEqual(summary.name, "Ada")
        XCTAssertEqual(Array(summary.dogNames), ["Rex"])
        XCTAssertTrue(summary.rootObject === ada)
        try realm.write { summary.name = "Ada Lovelace" }
        XCTAssertEqual(ada.name, "Ada Lovelace", "a projection writes through to its root object")
    }

    func testCancelWriteRevertsChanges() throws {
        let realm = try makeRealm()
        let ada = MirrorPerson(name: "Ada")
        try realm.write { realm.add(ada) }
        realm.beginWrite()
        XCTAssertTrue(realm.isInWriteTransaction)
        ada.name = "Changed"
        ada.tags.insert("x")
        let grace = MirrorPerson(name: "Grace")
        realm.add(grace)
        realm.cancelWrite()
        XCTAssertFalse(realm.isInWriteTransaction)
        XCTAssertEqual(ada.name, "Ada")
        XCTAssertEqual(ada.tags.count, 0)
        XCTAssertTrue(grace.isInvalidated, "objects added in a cancelled transaction are invalidated")
        XCTAssertEqual(realm.objects(MirrorPerson.self).count, 1)

        struct Failure: Error {}
        XCTAssertThrowsError(
            try realm.write {
                ada.name = "Thrown"
                throw Failure()
            })
        XCTAssertEqual(ada.name, "Ada", "write(_:) cancels when its block throws")
        let result = try realm.write { () -> Int in
            ada.age = 7
            return 42
        }
        XCTAssertEqual(result, 42)
        XCTAssertEqual(ada.age, 7)
    }

    func testInitWithValue() {
        let ada = MirrorPerson(value: ["name": "Ada", "age": 36, "dogs": [["name": "Rex"], MirrorDog(value: ["name": "Fido"])], "tags": ["a"], "scores": ["x": 3]])
        XCTAssertEqual(ada.name, "Ada")
        XCTAssertEqual(ada.age, 36)
        XCTAssertEqual(ada.dogs.map(\.name), ["Rex", "Fido"])
        XCTAssertEqual(Array(ada.tags), ["a"])
        XCTAssertEqual(ada.scores["x"], .some(3))
        let copy = MirrorPerson(value: ada)
        XCTAssertEqual(copy.name, "Ada")
        XCTAssertEqual(copy._id, ada._id)
        XCTAssertTrue(copy.dogs[0] === ada.dogs[0], "a copy links the same objects")
        XCTAssertEqual(ada["name"] as? String, "Ada")
    }

    func testSchemaChecksRealmRunsWhenOpening() {
        XCTAssertThrowsError(try makeRealm([NonOptionalLink.self, MirrorDog.self, MirrorPerson.self, MirrorAddress.self])) { error in
            XCTAssertTrue("\(error)".contains("Object property 'dog' must be marked as optional."), "\(error)")
        }
        XCTAssertThrowsError(try makeRealm([OptionalObjectsInList.self, MirrorDog.self, MirrorPerson.self, MirrorAddress.self])) { error in
            XCTAssertTrue("\(error)".contains("List<MirrorDog> property 'dogs' must not be marked as optional."), "\(error)")
        }
        XCTAssertThrowsError(try makeRealm([DatePrimaryKeyByAccident.self])) { error in
            XCTAssertTrue("\(error)".contains("cannot be made the primary key of 'DatePrimaryKeyByAccident'"), "\(error)")
        }
        XCTAssertThrowsError(try makeRealm([MirrorDog.self])) { error in
            XCTAssertTrue("\(error)".contains("has unknown object type 'MirrorPerson'"), "\(error)")
        }
    }

    func testObjectIdAndDecimal128() throws {
        let id = try ObjectId(string: "0123456789abcdef01234567")
        XCTAssertEqual(id.stringValue, "0123456789abcdef01234567")
        XCTAssertEqual(id, try ObjectId(string: "0123456789ABCDEF01234567"))
        XCTAssertEqual(Set([id, try ObjectId(string: id.stringValue)]).count, 1)
        XCTAssertThrowsError(try ObjectId(string: "not an id"))
        XCTAssertNotEqual(ObjectId.generate(), ObjectId.generate())
        XCTAssertEqual(ObjectId().stringValue, String(repeating: "0", count: 24))

        let decimal = try Decimal128(string: "12.50")
        XCTAssertEqual(Decimal(string: decimal.stringValue), Decimal(string: "12.5"))
        XCTAssertEqual(decimal, Decimal128(value: 12.5))
        XCTAssertTrue(try Decimal128(string: "NaN").isNaN)
        XCTAssertThrowsError(try Decimal128(string: "twelve"))
        XCTAssertEqual(decimal + 1, Decimal128(value: 13.5))
    }

    func testDefaultConfigurationAndDeleteFiles() throws {
        let saved = Realm.Configuration.defaultConfiguration
        defer { Realm.Configuration.defaultConfiguration = saved }
        var configuration = Realm.Configuration(inMemoryIdentifier: "default-\(UUID().uuidString)")
        configuration.schemaVersion = 4
        Realm.Configuration.defaultConfiguration = configuration
        XCTAssertEqual(Realm.Configuration.defaultConfiguration.schemaVersion, 4)
        let realm = try Realm()
        XCTAssertEqual(realm.configuration.inMemoryIdentifier, configuration.inMemoryIdentifier)
        XCTAssertNil(realm.configuration.fileURL, "setting inMemoryIdentifier clears fileURL")
        try realm.write { realm.add(MirrorKeyed(value: ["key": "k"])) }
        XCTAssertTrue(try Realm.deleteFiles(for: configuration))
        XCTAssertTrue(try Realm().isEmpty)
        XCTAssertNotNil(Realm.Configuration().fileURL, "the default configuration names a file")
    }
}
