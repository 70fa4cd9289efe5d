import Foundation
import RealmSwift
import RemodelCore
import RemodelRealm
import RemodelStore
import XCTest

/// The Realm output of a history with every type, collection, embedded object, inverse,
/// projection and step kind (`RealmReferences/RealmEverything`), compiled against the
/// RealmSwift mirror and run: every property through the bridge both ways, every step kind
/// through the migration block, every type through the copy.
final class RealmEverythingOutputTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-realm-everything-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func realm(_ name: String, customSteps: RealmEverythingManifest.RealmCustomSteps = .lowercasedTags) throws -> Realm {
        var base = Realm.Configuration()
        base.inMemoryIdentifier = "\(name)-\(UUID())"
        return try Realm(configuration: RealmEverythingManifest.realmConfiguration(base, customSteps: customSteps))
    }

    /// An owner with a value in every property.
    private func fullOwner(pets: [Pet]) -> Owner {
        Owner(
            firstName: "Ada", lastName: "Lovelace", alias: "Ace", greeting: "Hi", weight: 61, mood: .sleepy,
            homepage: URL(string: "https://example.com/ada?x=1"), balance: Decimal(string: "12345.6789")!, avatar: Data([0, 1, 2, 255]),
            joined: Date(timeIntervalSince1970: 1_700_000_000.25), pets: pets.map(\.id), favorite: pets.first?.id,
            tags: ["math", "engines"], scores: ["a": 1, "b": nil], petsByName: ["rex": pets[0].id],
            address: Address(street: "St James's Square", geo: Geo(lat: 51.5, lon: -0.13)),
            previousAddresses: [Address(street: "Marylebone"), Address(street: "Ockham", geo: Geo(lat: 51.3, lon: -0.45))],
            level: .high, ratio: 0.25, small: -8, flag: true, rating: 4.5, code: UUID()
        )
    }

    func testEveryPropertyRoundTripsThroughTheBridge() throws {
        let realm = try realm("bridge")
        let pets = [Pet(name: "Rex"), Pet(name: "Fido")]
        try realm.write { realm.add(pets.map(RealmPet.init(pet:))) }
        let owner = fullOwner(pets: pets)
        let realmOwner = try RealmOwner(owner: owner, in: realm)
        try realm.write { realm.add(realmOwner) }
        XCTAssertEqual(realmOwner.owner, owner)
        XCTAssertEqual(realmOwner.pets.first?.owners.count, 1, "the inverse follows Owner.pets")
        let line = LogLine(message: "started")
        XCTAssertEqual(RealmLogLine(logLine: line).logLine, line)

        let card = RealmOwnerCard(projecting: realmOwner)
        XCTAssertEqual(card.firstName, "Ada")
        XCTAssertEqual(card.initial, "L")
        XCTAssertEqual(card.level, .high)
        XCTAssertEqual(card.pets.count, 2)
    }

    func testEveryStepKindRunsInTheMigrationBlock() throws {
        let bench = MigrationTestBench(oldSchemaVersion: 1)
        let rex = bench.addOld("PetObject", ["id": UUID(), "name": "Rex"])
        let ada = bench.addOld(
            "OwnerObject",
            [
                "_id": ObjectId.generate(), "fullName": " Ada  Lovelace ", "nickname": "Ace", "weight": "61", "mood": ":)",
                "level": 1, "tags": Set<AnyHashable>(["MATH", "Engines"]), "pets": [rex],
            ])
        bench.addOld("OwnerObject", ["_id": ObjectId.generate(), "fullName": "Grace", "nickname": nil, "weight": "12.5", "mood": "grumpy", "level": 1])
        bench.addOld("LogLineObject", ["message": "", "at": Date()])
        bench.addOld("LogLineObject", ["message": "kept", "at": Date()])
        _ = ada
        var base = Realm.Configuration()
        base.inMemoryIdentifier = "steps-\(UUID())"
        let realm = try bench.migrate(with: RealmEverythingManifest.realmConfiguration(base, customSteps: .lowercasedTags))

        let owners = Dictionary(uniqueKeysWithValues: realm.objects(RealmOwner.self).map { ($0.firstName, $0) })
        let first = try XCTUnwrap(owners["Ada"], "split")
        XCTAssertEqual(first.lastName, "Lovelace")
        XCTAssertEqual(first.alias, "Ace", "renameProperty")
        XCTAssertEqual(first.greeting, "Hello, Ada (1)", "set with a template, read before the level is set")
        XCTAssertEqual(first.level, .high, "set with a literal")
        XCTAssertEqual(first.weight, 61, "convert")
        XCTAssertEqual(first.mood, .happy, "mapValues")
        XCTAssertEqual(Set(first.tags), ["math", "engines"], "custom step")
        XCTAssertEqual(first.pets.map(\.name), ["Rex", "Rex"], "createObjects adds a new Rex to Ada's pets")
        XCTAssertNotEqual(first.pets[0].id, first.pets[1].id, "each created object has its own key")
        let grace = try XCTUnwrap(owners["Grace"])
        XCTAssertEqual(grace.lastName, "")
        XCTAssertNil(grace.alias)
        XCTAssertEqual(grace.weight, 0, "12.5 is not a whole number: the default")
        XCTAssertEqual(grace.mood, .sleepy, "otherwise")
        XCTAssertEqual(grace.pets.count, 0, "addTo only where firstName is Ada")
        XCTAssertEqual(realm.objects(RealmLogLine.self).map(\.message), ["kept"], "deleteObjects")
        XCTAssertEqual(realm.objects(RealmPet.self).count, 2)
    }

    func testARealmFromBeforeRemodelGetsKeysAndKeepsItsLinks() throws {
        // Schema version 0: Pet had no primary key and Owner linked to it by object.
        let bench = MigrationTestBench(oldSchemaVersion: 0)
        let rex = bench.addOld("PetObject", ["name": "Rex"])
        let fido = bench.addOld("PetObject", ["name": "Fido"])
        bench.addOld("OwnerObject", ["fullName": "Ada Lovelace", "nickname": "Ace", "weight": "1", "mood": "sad", "level": 1, "pets": [rex, fido]])
        var base = Realm.Configuration()
        base.inMemoryIdentifier = "keys-\(UUID())"
        let realm = try bench.migrate(with: RealmEverythingManifest.realmConfiguration(base, customSteps: .lowercasedTags))
        let pets = Array(realm.objects(RealmPet.self))
        XCTAssertEqual(pets.count, 3, "the two old pets and the one version 2 creates")
        XCTAssertEqual(Set(pets.map(\.id)).count, 3, "every pet has its own key")
        let owner = try XCTUnwrap(realm.objects(RealmOwner.self).first)
        XCTAssertEqual(owner.pets.map(\.name), ["Rex", "Fido", "Rex"], "version 2 adds a new Rex to Ada's pets")
        let store = try RemodelStore(path: folder.appendingPathComponent("keys.remodel").path, manifest: RealmEverythingManifest.self)
        _ = try RealmEverythingManifest.copyRealm(realm, into: store)
        let stored = try XCTUnwrap(try store.read { try $0.objects(Owner.self).fetchOne() })
        XCTAssertEqual(stored.pets, owner.pets.map(\.id), "the links survive, by key")
    }

    func testTheClassesHaveTheRealmFilesNames() {
        XCTAssertEqual(RealmOwner._realmObjectName(), "OwnerObject")
        XCTAssertEqual(RealmAddress._realmObjectName(), "AddressObject")
    }

    /// An app whose Realm was at schema version 5 when it adopted Remodel: its own block runs
    /// for older Realms, then Remodel's; Remodel's version 2 is schema version 6.
    func testALegacyBlockRunsFirstAndVersionsAreOffset() throws {
        final class Seen: @unchecked Sendable { var versions: [UInt64] = [] }
        let seen = Seen()
        let legacy: MigrationBlock = { migration, oldSchemaVersion in
            seen.versions.append(oldSchemaVersion)
            migration.enumerateObjects(ofType: "OwnerObject") { _, newObject in newObject?["alias"] = "legacy" }
        }
        func migrate(from schemaVersion: UInt64) throws -> RealmOwner? {
            let bench = MigrationTestBench(oldSchemaVersion: schemaVersion)
            bench.addOld("OwnerObject", ["_id": ObjectId.generate(), "fullName": "Ada Lovelace", "nickname": "Ace", "weight": "1", "mood": "sad", "level": 1])
            var base = Realm.Configuration()
            base.inMemoryIdentifier = "legacy-\(schemaVersion)-\(UUID())"
            let configuration = RealmEverythingManifest.realmConfiguration(base, customSteps: .lowercasedTags, firstSchemaVersion: 5, legacyMigration: legacy)
            XCTAssertEqual(configuration.schemaVersion, 6)
            return try bench.migrate(with: configuration).objects(RealmOwner.self).first
        }
        let fromThree = try XCTUnwrap(try migrate(from: 3))
        XCTAssertEqual(seen.versions, [3], "the legacy block runs for a Realm older than version 1")
        XCTAssertEqual(fromThree.firstName, "Ada", "then version 2's steps")
        XCTAssertEqual(fromThree.alias, "Ace", "version 2 renames the nickname after the legacy block")
        let fromFive = try XCTUnwrap(try migrate(from: 5))
        XCTAssertEqual(seen.versions, [3], "a Realm at version 1 needs no legacy block")
        XCTAssertEqual(fromFive.lastName, "Lovelace")
    }

    func testCopyMovesEveryTypeIntoTheStore() throws {
        let realm = try realm("copy")
        let pets = [Pet(name: "Rex"), Pet(name: "Fido")]
        try realm.write { realm.add(pets.map(RealmPet.init(pet:))) }
        let owner = fullOwner(pets: pets)
        try realm.write {
            realm.add(try RealmOwner(owner: owner, in: realm))
            realm.add(RealmLogLine(logLine: LogLine(message: "one")))
            realm.add(RealmLogLine(logLine: LogLine(message: "two")))
        }
        let store = try RemodelStore(path: folder.appendingPathComponent("copy.remodel").path, manifest: RealmEverythingManifest.self)
        let report = try RealmEverythingManifest.copyRealm(realm, into: store)
        XCTAssertEqual(report.counts.map { "\($0.type) \($0.store)" }, ["Pet 2", "Owner 1", "LogLine 2"])
        XCTAssertEqual(try store.read { try $0.object(Owner.self, forKey: owner.id) }, owner)
        XCTAssertEqual(Set(try store.read { try $0.objects(LogLine.self).fetchAll() }.map(\.message)), ["one", "two"])
        XCTAssertEqual(try store.read { try $0.objects(linkingTo: pets[0].id, via: Pet.Inverses.owners).fetchAll() }.map(\.id), [owner.id])
    }
}

extension RealmEverythingManifest.RealmCustomSteps {
    /// `normalizeTags`: every tag in lower case.
    static let lowercasedTags = Self(normalizeTags: { _, newObject in
        guard let tags = newObject["tags"] as? MutableSet<String> else { return }
        let lowered = tags.map { $0.lowercased() }
        tags.removeAll()
        tags.insert(objectsIn: lowered)
    })
}
