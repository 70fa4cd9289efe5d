import Foundation
import RealmSwift
import RemodelCore
import RemodelRealm
import RemodelStore
import XCTest

/// The example's Realm output (`RealmReferences/RealmExample`, compiled here against the
/// RealmSwift mirror) run for real: its migration block takes the example's version-1 data to
/// version 3 exactly as `remodel migrate` does (the golden export), and `copyRealm` moves the
/// result into a RemodelStore.
final class RealmExampleOutputTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-realm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `Tests/RemodelMigrateTests/Resources/fixtures`.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("RemodelMigrateTests/Resources/fixtures")

    func testConfigurationCarriesTheNewestVersionAndEveryClass() {
        var base = Realm.Configuration()
        base.inMemoryIdentifier = "configuration"
        let configuration = RealmExampleManifest.realmConfiguration(base)
        XCTAssertEqual(configuration.schemaVersion, 3)
        XCTAssertEqual(configuration.schemaVersion, UInt64(RealmExampleManifest.version))
        XCTAssertEqual(configuration.inMemoryIdentifier, "configuration", "the base configuration is kept")
        XCTAssertEqual(configuration.objectTypes?.map { String(describing: $0) }, ["RealmPerson", "RealmDog", "RealmNote"])
        XCTAssertNotNil(configuration.migrationBlock)
    }

    /// Version 1 data, migrated by the generated block, copied into a store: the export equals
    /// the golden v1 → v3 export of `remodel migrate`.
    func testVersion1DataBecomesTheGoldenVersion3() throws {
        let start = Date()
        let realm = try migratedVersion1(identifier: "golden")
        let end = Date()
        XCTAssertEqual(realm.objects(RealmPerson.self).count, 10)
        let grace = try XCTUnwrap(realm.object(ofType: RealmPerson.self, forPrimaryKey: try ObjectId(string: "650000000000000000000002")))
        XCTAssertEqual(grace.firstName, "Grace")
        XCTAssertEqual(grace.lastName, "Brewster Hopper")
        XCTAssertEqual(grace.personId, "E-002")
        XCTAssertEqual(grace.businessUnit, .engineering)

        let store = try RemodelStore(path: folder.appendingPathComponent("app.remodel").path, manifest: RealmExampleManifest.self)
        let report = try RealmExampleManifest.copyRealm(realm, into: store)
        XCTAssertEqual(report.counts.map(\.type), ["Dog", "Person", "Note"], "link targets first")
        XCTAssertEqual(report.counts.map(\.store), [8, 10, 2])
        XCTAssertEqual(report.counts.map(\.realm), [8, 10, 2])

        let exported = try store.read { try StoreJSON.export($0) }
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(exported.prettyText.utf8)) as? [String: Any])
        var dogs = try XCTUnwrap(object["Dog"] as? [[String: Any]])
        for index in dogs.indices {
            // Realm gives an added property the class's default: the time of the migration.
            let text = try XCTUnwrap(dogs[index]["dateLastUpdated"] as? String)
            let date = try XCTUnwrap(ISO8601DateFormatter.withFraction.date(from: text), text)
            XCTAssertGreaterThanOrEqual(date.timeIntervalSince1970, start.timeIntervalSince1970 - 0.001)
            XCTAssertLessThanOrEqual(date.timeIntervalSince1970, end.timeIntervalSince1970 + 0.001)
            dogs[index]["dateLastUpdated"] = "MIGRATION-TIME"
        }
        object["Dog"] = dogs
        let golden = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("v1-to-v3.json")))
        XCTAssertEqual(try Self.canonical(object), try Self.canonical(golden))
    }

    /// The same data from version 2 (the Realm of an app that skipped version 3's release).
    func testOldSchemaVersionChoosesTheBlocks() throws {
        let bench = MigrationTestBench(oldSchemaVersion: 2)
        let dog = bench.addOld("RealmDog", ["_id": UUID(), "name": "Rex", "breed": "", "weight": "12"])
        bench.addOld(
            "RealmPerson",
            [
                "_id": ObjectId.generate(), "firstName": "Ada", "lastName": "L", "personId": "E-1", "company": "MongoDB",
                "businessUnit": "Sales", "dogs": [dog],
            ])
        var base = Realm.Configuration()
        base.inMemoryIdentifier = "from-v2-\(UUID())"
        let realm = try bench.migrate(with: RealmExampleManifest.realmConfiguration(base))
        let person = try XCTUnwrap(realm.objects(RealmPerson.self).first)
        // Version 2's block did not run (there is no name to split); version 3's did: "12"
        // became 12.
        XCTAssertEqual(person.firstName, "Ada")
        XCTAssertEqual(person.businessUnit, .sales)
        XCTAssertEqual(realm.objects(RealmDog.self).first?.weight, 12)
        XCTAssertEqual(person.dogs.count, 1)
        XCTAssertEqual(person.dogs.first?.person.count, 1, "LinkingObjects follow the list")
    }

    func testBridgeRoundTripsAndNamesAMissingLink() throws {
        var base = Realm.Configuration()
        base.inMemoryIdentifier = "bridge-\(UUID())"
        let realm = try Realm(configuration: RealmExampleManifest.realmConfiguration(base))
        let rex = Dog(name: "Rex", breed: "Labrador", weight: 30, profileImageUrl: URL(string: "https://example.com/rex.png"))
        let ada = Person(firstName: "Ada", lastName: "Lovelace", businessUnit: .sales, dogs: [rex.id])
        try realm.write { realm.add(RealmDog(dog: rex)) }
        let realmAda = try RealmPerson(person: ada, in: realm)
        try realm.write { realm.add(realmAda) }
        XCTAssertEqual(realmAda.person, ada)
        XCTAssertEqual(realm.objects(RealmDog.self).first?.dog, rex)

        let stranger = Person(firstName: "Grace", dogs: [UUID(uuidString: "00000000-0000-0000-0000-0000000000AA")!])
        XCTAssertThrowsError(try RealmPerson(person: stranger, in: realm)) { error in
            XCTAssertEqual("\(error)", "Person.dogs links to Dog 00000000-0000-0000-0000-0000000000AA, which the Realm does not hold; add that Dog to the Realm first")
        }
        let note = Note(content: "Buy dog food")
        XCTAssertEqual(RealmNote(note: note).note, note)
    }

    func testCopyRefusesAStoreWithObjectsAndWritesNothing() throws {
        let realm = try migratedVersion1(identifier: "not-empty")
        let store = try RemodelStore(path: folder.appendingPathComponent("used.remodel").path, manifest: RealmExampleManifest.self)
        try store.write { try $0.insert(Note(identifier: "mine", content: "already here")) }
        XCTAssertThrowsError(try RealmExampleManifest.copyRealm(realm, into: store)) { error in
            XCTAssertEqual(error as? RealmCopyError, .storeNotEmpty(type: "Note", count: 1))
            XCTAssertTrue("\(error)".contains("copy from Realm into a new, empty store"))
        }
        XCTAssertEqual(try store.read { try $0.count(Person.self) }, 0, "nothing was copied")
        XCTAssertEqual(try store.read { try $0.count(Dog.self) }, 0)
        XCTAssertEqual(try store.read { try $0.count(Note.self) }, 1)
    }

    func testCopyReportsProgressForEveryType() throws {
        let realm = try migratedVersion1(identifier: "progress")
        let store = try RemodelStore(path: folder.appendingPathComponent("progress.remodel").path, manifest: RealmExampleManifest.self)
        var seen: [String] = []
        _ = try RealmExampleManifest.copyRealm(realm, into: store) { seen.append("\($0.type) \($0.copied)/\($0.total) \($0.copiedOverall)/\($0.totalOverall)") }
        XCTAssertEqual(seen, ["Dog 0/8 0/20", "Dog 8/8 8/20", "Person 0/10 8/20", "Person 10/10 18/20", "Note 0/2 18/20", "Note 2/2 20/20"])
    }

    // MARK: Helpers

    /// The example's version-1 fixture as an old Realm, migrated to version 3 by the
    /// generated block.
    private func migratedVersion1(identifier: String) throws -> Realm {
        let data = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("v1.json"))) as? [String: [[String: Any]]])
        let bench = MigrationTestBench(oldSchemaVersion: 1)
        var dogs: [String: MigrationObject] = [:]
        for dog in data["Dog"] ?? [] {
            let key = try XCTUnwrap(dog["_id"] as? String)
            dogs[key] = bench.addOld("RealmDog", ["_id": UUID(uuidString: key), "name": dog["name"], "breed": dog["breed"], "weight": dog["weight"]])
        }
        for person in data["Person"] ?? [] {
            var values: [String: Any?] = [:]
            for (name, value) in person where name != "dogs" && name != "_id" { values[name] = value }
            values["_id"] = try ObjectId(string: try XCTUnwrap(person["_id"] as? String))
            values["dogs"] = try (person["dogs"] as? [String] ?? []).map { try XCTUnwrap(dogs[$0]) }
            bench.addOld("RealmPerson", values)
        }
        for note in data["Note"] ?? [] {
            let edited = try XCTUnwrap(
                ISO8601DateFormatter.withFraction.date(from: try XCTUnwrap(note["lastEdited"] as? String))
                    ?? ISO8601DateFormatter().date(from: note["lastEdited"] as? String ?? ""))
            bench.addOld("RealmNote", ["identifier": note["identifier"], "content": note["content"], "lastEdited": edited])
        }
        var base = Realm.Configuration()
        base.inMemoryIdentifier = "\(identifier)-\(UUID())"
        return try bench.migrate(with: RealmExampleManifest.realmConfiguration(base))
    }

    static func canonical(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]), as: UTF8.self)
    }
}

extension ISO8601DateFormatter {
    /// `2026-11-01T09:30:00.123Z`.
    static var withFraction: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
