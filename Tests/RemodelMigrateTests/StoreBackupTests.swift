import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import RemodelTestSupport
import Testing

/// Backups are complete single-file copies made with SQLite's backup API, named after the
/// store, its version and the time, and never overwrite anything.
@Suite struct StoreBackupTests {
    @Test func backupIsACompleteCopyAndNeverOverwrites() throws {
        let store = try ExampleMigrationTests().makeV1Store()
        defer { store.remove() }
        let date = Date(timeIntervalSince1970: 1_796_044_500)
        let first = try StoreBackup.make(ofStoreAt: store.path, version: 1, date: date)
        #expect(first == store.path + ".v1-backup-20261130T131500Z")
        let second = try StoreBackup.make(ofStoreAt: store.path, version: 1, date: date)
        #expect(second == first + "-2")
        let third = try StoreBackup.make(ofStoreAt: store.path, version: 1, date: date)
        #expect(third == first + "-3")

        let copy = try Connection(path: first, readOnly: true)
        #expect(try copy.query("PRAGMA integrity_check") == [[.text("ok")]])
        #expect(try copy.query("PRAGMA journal_mode") == [[.text("delete")]])
        #expect(try copy.query("SELECT count(*) FROM \"Person\"") == [[.integer(7)]])
        #expect(try copy.query("SELECT \"name\" FROM \"Person\" ORDER BY \"_id\"") == store.query("SELECT \"name\" FROM \"Person\" ORDER BY \"_id\""))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).filter { $0.contains("partial") }
        #expect(leftovers.isEmpty)
        // The backup is itself a store the migrator can read.
        #expect(try Migrator(history: ExampleHistory.history).inspect(storeAt: first).version == 1)
    }

    @Test func backupOfAMissingStoreFails() {
        #expect {
            try StoreBackup.make(ofStoreAt: "/nonexistent-folder/store.db", version: 1)
        } throws: { error in
            "\(error)".contains("cannot back up the store") && "\(error)".contains("--no-backup")
        }
    }

    @Test func planAndReportRendering() throws {
        let plan = try Migrator(history: ExampleHistory.history).plan(from: 1, now: Date(timeIntervalSince1970: 1_800_000_000))
        let text = MigrationPlanRenderer.text(of: plan, store: "app.db")
        #expect(text.hasPrefix("Plan: migrate 'app.db' from version 1 to 3 (2 migrations, destructive)\n\nversion 2 — split-person-name\n"))
        #expect(
            text.contains(
                "  [additive]       rename property Person.employeeId to personId  (step 1 (renameProperty))\n      1. ALTER TABLE \"Person\" RENAME COLUMN \"employeeId\" TO \"personId\"\n"
            ))
        #expect(text.contains("  [data-dependent] split Person.name at \" \" into firstName, lastName  (step 2 (split))\n      \"firstName\" = "))
        #expect(text.contains("  [destructive]    remove property Person.name and its values  (schema)\n"))
        #expect(text.contains("      3. UPDATE OR ROLLBACK \"Person\" SET "))
        #expect(text.contains("\nversion 3 — dog-details\n"))
        #expect(MigrationPlanRenderer.text(of: plan, store: "app.db") == text, "deterministic")

        let store = try ExampleMigrationTests().makeV1Store()
        defer { store.remove() }
        let (_, report) = try Migrator(history: ExampleHistory.history).migrate(storeAt: store.path, dryRun: true)
        let summary = MigrationPlanRenderer.text(of: report, store: "app.db")
        #expect(summary.hasPrefix("Dry run: migrated 'app.db' from version 1 to 3 in "))
        #expect(summary.contains("  version 2 (split-person-name): "))
        #expect(summary.contains("Objects (after, in the rolled-back transaction):\n  Dog     6 → 6\n  Note    0 → 0\n  Person  7 → 7\n"))
        #expect(MigrationPlanRenderer.seconds(.milliseconds(1500)) == "1.500 s")
    }
}
