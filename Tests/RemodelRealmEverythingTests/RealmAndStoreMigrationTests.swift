import Foundation
import RealmSwift
import RemodelCore
import RemodelMigrate
import RemodelRealm
import RemodelStore
import XCTest

/// The generated Realm migration block and the store's own migration are two translations of
/// one history: the same version-1 data, migrated by each (Realm's block in the mirror, then
/// copied; `Migrator` on SQLite), must give the same version-2 store, value for value, across
/// every step kind of `RealmEverything`'s version 2.
final class RealmAndStoreMigrationTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-realm-agree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Version-1 owners whose values hit the edges of each step: names with extra spaces or
    /// no space, weights that are and are not whole numbers, moods mapped, kept and unknown.
    nonisolated(unsafe) static let owners: [[String: Any]] = [
        ["_id": "650000000000000000000001", "fullName": "Ada Lovelace", "nickname": "Ace", "weight": "61", "mood": ":)", "level": 1],
        ["_id": "650000000000000000000002", "fullName": "  Grace   Brewster Hopper ", "weight": "12.5", "mood": "grumpy", "level": 2],
        ["_id": "650000000000000000000003", "fullName": "", "nickname": "", "weight": " -3 ", "mood": "sad", "level": 1],
        ["_id": "650000000000000000000004", "fullName": "Cher", "weight": "n/a", "mood": ":(", "level": 2],
        ["_id": "650000000000000000000005", "fullName": "Ada", "weight": "", "mood": "happy", "level": 1],
    ]
    nonisolated(unsafe) static let pets: [[String: Any]] = [
        ["id": "00000000-0000-0000-0000-0000000000A1", "name": "Rex"],
        ["id": "00000000-0000-0000-0000-0000000000A2", "name": "Fido"],
    ]
    nonisolated(unsafe) static let logLines: [[String: Any]] = [
        ["message": "", "at": "2026-01-01T00:00:00Z"],
        ["message": "kept", "at": "2026-01-02T00:00:00Z"],
    ]
    static let joined = "2026-06-01T12:00:00Z"

    func testTheRealmBlockAndTheStoreMigrationAgree() throws {
        let history = try XCTUnwrap(RealmEverythingManifest.history)

        // SQLite: import version 1, migrate with Remodel's own migrator.
        let sqlitePath = folder.appendingPathComponent("sqlite.remodel").path
        var owners = Self.owners
        for index in owners.indices {
            owners[index]["joined"] = Self.joined
            owners[index]["code"] = String(format: "00000000-0000-0000-0000-%012d", index + 1)
            owners[index]["pets"] = index == 0 ? [Self.pets[0]["id"]!] : []
        }
        let document = try JSONSerialization.data(withJSONObject: ["Owner": owners, "Pet": Self.pets, "LogLine": Self.logLines])
        do {
            let store = try RemodelStore(path: sqlitePath, schema: try XCTUnwrap(history.schema(at: 1)), version: 1)
            var parser = JSONParser(bytes: [UInt8](document))
            _ = try StoreJSON.importDocument(try parser.parse(), into: store)
        }
        var migrator = Migrator(history: history)
        migrator.register("normalizeTags") { _ in }
        _ = try migrator.migrate(storeAt: sqlitePath)
        let sqlite = try export(RemodelStore(path: sqlitePath, manifest: RealmEverythingManifest.self))

        // Realm: the same objects in an old Realm, the generated block, the copy.
        let bench = MigrationTestBench(oldSchemaVersion: 1)
        var pets: [String: RealmSwift.MigrationObject] = [:]
        for pet in Self.pets {
            let id = try XCTUnwrap(pet["id"] as? String)
            pets[id] = bench.addOld("RealmPet", ["id": UUID(uuidString: id), "name": pet["name"]])
        }
        for owner in owners {
            var values: [String: Any?] = [:]
            for (name, value) in owner { values[name] = value }
            values["_id"] = try ObjectId(string: try XCTUnwrap(owner["_id"] as? String))
            values["joined"] = ISO8601DateFormatter().date(from: Self.joined)
            values["code"] = UUID(uuidString: try XCTUnwrap(owner["code"] as? String))
            values["pets"] = (owner["pets"] as? [String] ?? []).compactMap { pets[$0] }
            if values["nickname"] == nil { values["nickname"] = .some(nil) }
            bench.addOld("RealmOwner", values)
        }
        for line in Self.logLines {
            bench.addOld("RealmLogLine", ["message": line["message"], "at": ISO8601DateFormatter().date(from: line["at"] as? String ?? "")])
        }
        var base = Realm.Configuration()
        base.inMemoryIdentifier = "agree-\(UUID())"
        let realm = try bench.migrate(with: RealmEverythingManifest.realmConfiguration(base, customSteps: .init(normalizeTags: { _, _ in })))
        let realmStore = try RemodelStore(path: folder.appendingPathComponent("realm.remodel").path, manifest: RealmEverythingManifest.self)
        _ = try RealmEverythingManifest.copyRealm(realm, into: realmStore)
        let copied = try export(realmStore)

        XCTAssertEqual(copied, sqlite)
        // Both ran the steps (not merely agreed on nothing).
        for fragment in ["\"greeting\" : \"Hello, Grace (2)\"", "\"lastName\" : \"Brewster Hopper\"", "\"weight\" : -3", "\"mood\" : \"sleepy\"", "\"alias\" : \"Ace\""] {
            XCTAssertTrue(sqlite.contains(fragment), fragment + " in " + sqlite)
        }
        XCTAssertFalse(sqlite.contains("\"message\" : \"\""), "the empty log line is deleted")
        XCTAssertEqual(sqlite.components(separatedBy: "\"CREATED\"").count - 1, 3, "one Rex made, added to both owners named Ada")
    }

    /// The store's export as canonical JSON, with the keys of objects `createObjects` made (new
    /// each run) replaced by `CREATED` and lists in a stable order.
    private func export(_ store: RemodelStore) throws -> String {
        let exported = try store.read { try StoreJSON.export($0) }
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(exported.prettyText.utf8)) as? [String: Any])
        let known = Set(Self.pets.compactMap { $0["id"] as? String })
        func stable(_ key: Any) -> Any { (key as? String).map { known.contains($0) ? $0 : "CREATED" } ?? key }
        var pets = try XCTUnwrap(object["Pet"] as? [[String: Any]])
        for index in pets.indices { pets[index]["id"] = stable(pets[index]["id"] as Any) }
        object["Pet"] = pets.sorted { "\($0["id"]!)\($0["name"]!)" < "\($1["id"]!)\($1["name"]!)" }
        var owners = try XCTUnwrap(object["Owner"] as? [[String: Any]])
        for index in owners.indices {
            owners[index]["pets"] = (owners[index]["pets"] as? [Any] ?? []).map(stable)
        }
        object["Owner"] = owners.sorted { "\($0["_id"]!)" < "\($1["_id"]!)" }
        object["LogLine"] = (object["LogLine"] as? [[String: Any]] ?? []).sorted { "\($0["message"]!)" < "\($1["message"]!)" }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]), as: UTF8.self)
    }
}
