import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import Testing

/// An app rolled back to version 2 opening a store its version 3 wrote
/// (`OpenOptions(allowNewerCompatibleStore: true)`): allowed when version 3 only added, with
/// the app's writes keeping version 3's values; refused, naming version 3, when it did more.
@Suite struct NewerCompatibleStoreTests {
    static let v1 = Schema(objects: [ObjectType(name: "Memo", primaryKey: "id", properties: [Property("id", .scalar(.string)), Property("text", .scalar(.string))])])
    static let v2 = Schema(objects: [
        ObjectType(
            name: "Memo", primaryKey: "id",
            properties: [Property("id", .scalar(.string)), Property("text", .scalar(.string)), Property("color", PropertyType(.scalar(.string), optional: true))])
    ])

    /// Version 3 adds `pinned`: optional (backward-readable), or required with a default (not).
    static func history(pinnedOptional: Bool) -> MigrationHistory {
        var v3 = v2
        v3.objects[0].properties.append(
            pinnedOptional ? Property("pinned", PropertyType(.scalar(.bool), optional: true)) : Property("pinned", .scalar(.bool), default: .bool(false)))
        return StepSemanticsTests.history([v1, v2, v3], [], [])
    }

    /// A store at version 1 with one memo, migrated to version 3 as the version-3 app does.
    static func storeAtVersion3(_ history: MigrationHistory) throws -> StoreFixture {
        let store = try StoreFixture(schema: v1, version: 1)
        try store.execute("INSERT INTO \"Memo\" VALUES ('m1', 'milk')")
        let v3 = try RemodelStore(path: store.path, schema: history.schema(at: 3)!, version: 3, options: OpenOptions(migrator: Migrator(history: history)))
        try v3.write { tx in try tx.upsert(["id": .text("m1"), "text": .text("milk"), "color": .text("blue"), "pinned": .integer(1)], ofType: "Memo") }
        return store
    }

    @Test func checkMarksOnlyAdditiveVersionsBackwardReadable() {
        #expect(Self.history(pinnedOptional: true).isBackwardReadable(3))
        #expect(!Self.history(pinnedOptional: false).isBackwardReadable(3))
        #expect(Self.history(pinnedOptional: true).isBackwardReadable(2))
        #expect(Self.history(pinnedOptional: true).incompatibleVersions(through: 3) == [])
        #expect(Self.history(pinnedOptional: false).incompatibleVersions(through: 3) == [3])
    }

    @Test func aVersion2AppWritesIntoAVersion3StoreKeepingVersion3sValues() throws {
        let history = Self.history(pinnedOptional: true)
        let store = try Self.storeAtVersion3(history)
        defer { store.remove() }
        // Without the option: superseded, as always.
        #expect(throws: StoreError.self) { _ = try RemodelStore(path: store.path, schema: Self.v2, version: 2) }

        let v2 = try RemodelStore(path: store.path, schema: Self.v2, version: 2, options: OpenOptions(allowNewerCompatibleStore: true))
        #expect(try v2.read { try $0.dynamicObjects(ofType: "Memo") } == [["id": .text("m1"), "text": .text("milk"), "color": .text("blue")]])
        try v2.write { tx in
            try tx.upsert(["id": .text("m1"), "text": .text("oat milk"), "color": .text("green")], ofType: "Memo")
            try tx.insert(["id": .text("m2"), "text": .text("eggs")], ofType: "Memo")
        }
        let v3 = try RemodelStore(path: store.path, schema: history.schema(at: 3)!, version: 3)
        let memos = try v3.read { try $0.dynamicObjects(ofType: "Memo") }.sorted { "\($0["id"]!)" < "\($1["id"]!)" }
        #expect(memos.map { $0["text"] } == [.text("oat milk"), .text("eggs")])
        #expect(memos.map { $0["pinned"] } == [.integer(1), .null], "version 3's value is kept; version 2's new memo has none")
    }

    @Test func aVersion3ThatIsNotBackwardReadableIsRefusedNamingIt() throws {
        let history = Self.history(pinnedOptional: false)
        let store = try Self.storeAtVersion3(history)
        defer { store.remove() }
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        #expect {
            _ = try RemodelStore(path: store.path, schema: Self.v2, version: 2, options: OpenOptions(allowNewerCompatibleStore: true))
        } throws: { error in
            guard case StoreError.supersededIncompatibly(_, 3, 2, 3) = error else { return false }
            return "\(error)".contains("version 3 changed what version 2 reads and writes")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
    }
}
