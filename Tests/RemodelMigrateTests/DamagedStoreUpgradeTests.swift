import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import Testing

/// An app opening a damaged older store with a migrator: the upgrade is refused before it
/// changes anything (`PRAGMA quick_check` under the write lock).
@Suite struct DamagedStoreUpgradeTests {
    @Test func aDamagedStoreIsNotMigratedInApp() throws {
        let (v1, history) = StepSemanticsTests.inAppHistory()
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO \"Dog\" SELECT i, '12' FROM n")
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: store.path))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: (size / 2 / 4096) * 4096 + 100)
        handle.write(Data(repeating: 0xDE, count: 2000))
        try handle.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        let migrator = StepSemanticsTests.inAppMigrator(history)
        #expect {
            _ = try RemodelStore(path: store.path, schema: history.snapshots[2], version: 3, options: OpenOptions(migrator: migrator))
        } throws: { error in
            guard case StoreError.damaged(let path, let problems) = error else { return false }
            return path == store.path && !problems.isEmpty && "\(error)".contains("restore it from a backup")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
    }
}
