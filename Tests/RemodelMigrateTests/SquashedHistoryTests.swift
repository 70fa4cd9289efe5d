import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import Testing

/// An app whose embedded history was squashed (it starts at a baseline after version 1):
/// stores from the baseline on upgrade when opened; an older one is refused with the message
/// users see, and left as it was.
@Suite struct SquashedHistoryTests {
    /// The in-app history with versions 1 and 2 folded into the baseline 2.
    static func squashed() -> (v1: Schema, history: MigrationHistory) {
        let (v1, full) = StepSemanticsTests.inAppHistory()
        var baseline = full.migrations[1]
        baseline.steps = []
        return (v1, MigrationHistory(snapshots: Array(full.snapshots.dropFirst()), migrations: [baseline, full.migrations[2]], baseVersion: 2))
    }

    @Test func theHistoryIsCountedFromItsBaseline() {
        let (_, history) = Self.squashed()
        #expect(history.currentVersion == 3)
        #expect(history.versions == 2...3)
        #expect(history.schema(at: 1) == nil)
        #expect(history.schema(at: 2) == StepSemanticsTests.inAppHistory().history.schema(at: 2))
    }

    @Test func aStoreOlderThanTheBaselineIsRefusedWhenOpened() throws {
        let (v1, history) = Self.squashed()
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Dog\" VALUES (1, '12')")
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        #expect {
            _ = try RemodelStore(path: store.path, schema: history.schema(at: 3)!, version: 3, options: OpenOptions(migrator: StepSemanticsTests.inAppMigrator(history)))
        } throws: { error in
            "\(error)".contains("the store is at version 1, older than version 2, the oldest this history supports")
                && "\(error)".contains("upgrade the store first with a release built before the squash")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
    }

    @Test func aStoreAtTheBaselineUpgrades() throws {
        let (_, history) = Self.squashed()
        let store = try StoreFixture(schema: history.schema(at: 2)!, version: 2)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Dog\" VALUES (1, 12)")
        let opened = try RemodelStore(path: store.path, schema: history.schema(at: 3)!, version: 3, options: OpenOptions(migrator: StepSemanticsTests.inAppMigrator(history)))
        let toys = try opened.read { db in try db.dynamicObjects(ofType: "Dog").map { $0["toy"] } }
        #expect(toys == [.text("toy for 12")])
    }
}
