import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import XCTest

/// The Squashed reference: a manifest whose embedded history starts at the baseline 2 that
/// `remodel migration squash --through 2 --keep-upgrade-path` left, with versions 1 and 2 as
/// the upgrade path. A store at the baseline upgrades when the app opens it, and so does an
/// older one, through the upgrade path; without it, the older one is refused with the message
/// the app's users see, unchanged.
final class SquashedTests: XCTestCase {
    func testTheManifestEmbedsTheHistoryFromItsBaseline() throws {
        try Reference.assertManifest(SquashedManifest.self, matches: "Squashed")
        let history = try XCTUnwrap(SquashedManifest.history)
        XCTAssertEqual(history.baseVersion, 2)
        XCTAssertEqual(history.versions, 2...3)
        XCTAssertEqual(SquashedManifest.version, 3)
        XCTAssertEqual(history.upgradePath?.versions, 1...2)
        XCTAssertEqual(history.upgradePath?.schema(at: 2), history.schema(at: 2))
    }

    func testAStoreAtTheBaselineUpgradesAndAnOlderOneIsRefused() throws {
        let history = try XCTUnwrap(SquashedManifest.history)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-squashed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let v2 = folder.appendingPathComponent("v2.sqlite").path
        try RemodelStore(path: v2, schema: try XCTUnwrap(history.schema(at: 2)), version: 2).write { tx in
            try tx.insert(["id": .integer(1), "amount": .integer(12)], ofType: "LedgerEntry")
        }
        let store = try RemodelStore(path: v2, manifest: SquashedManifest.self, options: OpenOptions(migrator: Migrator(history: history)))
        XCTAssertEqual(try store.read { try $0.objects(LedgerEntry.self).fetchAll() }, [LedgerEntry(id: 1, amount: 12, memo: nil)])

        // Version 1, as the history before the squash had it.
        let v1Schema = Schema(objects: [
            ObjectType(name: "LedgerEntry", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("amount", .scalar(.string), default: .string("0"))])
        ])
        let v1 = folder.appendingPathComponent("v1.sqlite").path
        try RemodelStore(path: v1, schema: v1Schema, version: 1).write { tx in try tx.insert(["id": .integer(1), "amount": .text("12")], ofType: "LedgerEntry") }
        let before = try Data(contentsOf: URL(fileURLWithPath: v1))
        // Without the upgrade path the app refuses it, and leaves it as it was.
        let withoutPath = MigrationHistory(snapshots: history.snapshots, migrations: history.migrations, baseVersion: history.baseVersion)
        XCTAssertThrowsError(try RemodelStore(path: v1, manifest: SquashedManifest.self, options: OpenOptions(migrator: Migrator(history: withoutPath)))) { error in
            XCTAssertTrue("\(error)".contains("the store is at version 1, older than version 2, the oldest this history supports"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: v1)), before)
        // With it (as generated), version 1 goes through 2 to 3.
        let upgraded = try RemodelStore(path: v1, manifest: SquashedManifest.self, options: OpenOptions(migrator: Migrator(history: history)))
        XCTAssertEqual(try upgraded.read { try $0.objects(LedgerEntry.self).fetchAll() }, [LedgerEntry(id: 1, amount: 12, memo: nil)])
    }
}
