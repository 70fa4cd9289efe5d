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
        let v1 = try XCTUnwrap(history.schema(at: 1))
        let version1: [String: Any]
        do {
            let store = try RemodelStore(path: sqlitePath, schema: v1, version: 1)
            var parser = JSONParser(bytes: [UInt8](document))
            _ = try StoreJSON.importDocument(try parser.parse(), into: store)
            // Every value of version 1, defaults filled in: what an old Realm file holds.
            let exported = try store.read { try StoreJSON.export($0) }
            version1 = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(exported.prettyText.utf8)) as? [String: Any])
        }
        var migrator = Migrator(history: history)
        migrator.register("normalizeTags") { _ in }
        _ = try migrator.migrate(storeAt: sqlitePath)
        let sqlite = try export(RemodelStore(path: sqlitePath, manifest: RealmEverythingManifest.self))

        // Realm: the same objects in an old Realm, the generated block, the copy.
        let bench = MigrationTestBench(oldSchemaVersion: 1)
        var created: [String: [String: RealmSwift.MigrationObject]] = [:]
        for type in ["Pet", "Owner", "LogLine"] {
            let object = try XCTUnwrap(v1.objectType(named: type))
            for values in version1[type] as? [[String: Any]] ?? [] {
                var converted: [String: Any?] = [:]
                for property in object.storedProperties {
                    converted[property.name] = try Self.realmValue(values[property.name], of: try XCTUnwrap(property.storedType), in: v1, objects: created)
                }
                let old = bench.addOld(type + "Object", converted)
                if let key = object.primaryKey, let value = values[key] as? String { created[type, default: [:]][value] = old }
            }
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

    /// A value of the store's JSON as an old Realm holds it (Realm's dynamic values).
    static func realmValue(_ json: Any?, of type: RemodelCore.PropertyType, in schema: RemodelCore.Schema, objects: [String: [String: RealmSwift.MigrationObject]]) throws -> Any? {
        guard let json, !(json is NSNull) else { return nil }
        if let collection = type.collection {
            let element = type.element
            switch collection {
            case .list: return try (json as? [Any] ?? []).map { try realmValue($0, of: element, in: schema, objects: objects) as Any }
            case .set: return Set(try (json as? [Any] ?? []).compactMap { try realmValue($0, of: element, in: schema, objects: objects) as? AnyHashable })
            case .map: return try (json as? [String: Any] ?? [:]).mapValues { try realmValue($0, of: element, in: schema, objects: objects) as Any }
            }
        }
        switch type.base {
        case .object(let name): return objects[name]?[json as? String ?? ""]
        case .enumeration: return json
        case .scalar(let scalar):
            switch scalar {
            case .objectId: return try ObjectId(string: json as? String ?? "")
            case .uuid: return UUID(uuidString: json as? String ?? "")
            case .date: return ISO8601DateFormatter().date(from: json as? String ?? "")
            case .decimal128: return try Decimal128(string: json as? String ?? "")
            case .data: return Data(base64Encoded: json as? String ?? "")
            case .double: return (json as? NSNumber)?.doubleValue
            case .float: return (json as? NSNumber)?.floatValue
            case .bool: return json as? Bool
            case .int, .int8, .int16, .int32, .int64: return (json as? NSNumber)?.intValue
            case .string, .url: return json as? String
            }
        }
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
