import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import Testing

/// What a store opening with a migrator leaves to the migrator and what it does itself, and
/// the executor's answer to a store another process migrated meanwhile.
@Suite struct InAppUpgradeTests {
    /// A migrator around `Migrator` that records what it told the store it did.
    struct Observing: StoreMigrator {
        let migrator: Migrator
        let seen = Recorder<Flags>()

        struct Flags: Sendable, Equatable {
            var checkedLinks: Bool
            var recordedTargetSchema: Bool
        }

        func migrate(_ migration: StoreMigration) throws {
            try migrator.migrate(migration)
            seen.append(Flags(checkedLinks: migration.checkedLinks, recordedTargetSchema: migration.recordedTargetSchema))
        }
    }

    /// A plan that checks links last: the store neither scans for dangling links again nor
    /// writes the metadata the executor recorded.
    @Test func aPlanThatChecksLinksIsNotCheckedAgain() throws {
        let store = try TrialFaultTests.store()
        defer { store.remove() }
        let history = TrialFaultTests.history([
            .createObjects(
                type: "Dog", objects: [[.init(property: "id", value: .string("max")), .init(property: "owner", value: .string("p1"))]], addTo: nil
            )
        ])
        let observing = Observing(migrator: Migrator(history: history))
        let opened = try RemodelStore(path: store.path, schema: TrialFaultTests.schema, version: 2, options: OpenOptions(migrator: observing))
        #expect(observing.seen.all == [.init(checkedLinks: true, recordedTargetSchema: true)])
        #expect(opened.version == 2)
        #expect(try store.query("SELECT \"id\", \"owner\" FROM \"Dog\" WHERE \"id\" = 'max'") == [[.text("max"), .text("p1")]])
        #expect(try store.query("SELECT value FROM _remodel_metadata WHERE key = 'schemaHash'") == [[.text(TrialFaultTests.schema.storageHash)]])
        #expect(try store.query("PRAGMA user_version") == [[.integer(2)]])
    }

    /// A plan without a link check leaves the scan to the store. (Version 2 of the history
    /// only converts a value; version 3's custom step, which may write links, checks them.)
    @Test func aPlanWithoutALinkCheckIsCheckedByTheStore() throws {
        let (v1, history) = StepSemanticsTests.inAppHistory()
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Dog\" VALUES (1, '12')")
        let observing = Observing(migrator: StepSemanticsTests.inAppMigrator(history))
        let opened = try RemodelStore(path: store.path, schema: history.snapshots[1], version: 2, options: OpenOptions(migrator: observing))
        #expect(observing.seen.all == [.init(checkedLinks: false, recordedTargetSchema: true)])
        #expect(opened.version == 2)
    }

    /// A migrator of another kind, which neither checks links nor writes metadata: the store
    /// does both.
    @Test func aMigratorThatChecksNothingIsChecked() throws {
        struct AddDanglingDog: StoreMigrator {
            let dangling: Bool
            func migrate(_ migration: StoreMigration) throws {
                try migration.execute("INSERT INTO \"Dog\" VALUES ('max', 1, ?)", [.text(dangling ? "p9" : "p1")])
            }
        }
        let store = try TrialFaultTests.store()
        defer { store.remove() }
        let hash = try store.fileHash()
        let error = #expect(throws: StoreError.self) {
            try RemodelStore(path: store.path, schema: TrialFaultTests.schema, version: 2, options: OpenOptions(migrator: AddDanglingDog(dangling: true)))
        }
        guard case .danglingLink(let from, let property, let fromKey, let to, let toKey) = error else {
            Issue.record("expected danglingLink, got \(String(describing: error))")
            return
        }
        #expect([from, property, fromKey, to, toKey] == ["Dog", "owner", "\"max\"", "Person", "\"p9\""])
        #expect(try store.fileHash() == hash)

        let opened = try RemodelStore(path: store.path, schema: TrialFaultTests.schema, version: 2, options: OpenOptions(migrator: AddDanglingDog(dangling: false)))
        #expect(opened.version == 2)
        #expect(try store.query("SELECT value FROM _remodel_metadata WHERE key = 'schemaHash'") == [[.text(TrialFaultTests.schema.storageHash)]])
        #expect(try store.query("PRAGMA user_version") == [[.integer(2)]])
    }

    /// A history whose last snapshot is not the code's schema: the metadata the executor
    /// recorded is not silently replaced by the code's.
    @Test func aHistoryEndingInAnotherSchemaIsRefused() throws {
        let (v1, history) = StepSemanticsTests.inAppHistory()
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        var code = history.snapshots[2]
        code.objects[0].properties.append(Property("name", PropertyType(.scalar(.string), optional: true)))
        let hash = try store.fileHash()
        let error = #expect(throws: StoreError.self) {
            try RemodelStore(path: store.path, schema: code, version: 3, options: OpenOptions(migrator: StepSemanticsTests.inAppMigrator(history)))
        }
        guard case .schemaMismatch(_, let version, let storeHash, let codeHash) = error else {
            Issue.record("expected schemaMismatch, got \(String(describing: error))")
            return
        }
        #expect(version == 3 && storeHash == history.snapshots[2].storageHash && codeHash == code.storageHash)
        #expect(try store.fileHash() == hash)
    }

    // MARK: Migrated by another process

    /// The store reached the plan's target version while the plan was made: through this
    /// history it is left alone; through another (another schema at the same version number)
    /// it is refused as a store opening at that version refuses it. It was accepted.
    @Test func aStoreMigratedMeanwhileThroughAnotherHistoryIsRefused() throws {
        let (_, history) = StepSemanticsTests.inAppHistory()
        let plan = try StepSemanticsTests.inAppMigrator(history).plan(from: 1)
        let executor = MigrationExecutor(plan: plan, customSteps: [:], dryRun: false, progress: nil)

        let same = try StoreFixture(schema: history.snapshots[2], version: 3, file: "same.db")
        defer { same.remove() }
        #expect(try executor.run(on: Connection(path: same.path)).outcome == .migratedByAnotherProcess)

        var other = history.snapshots[2]
        other.objects[0].properties.append(Property("name", PropertyType(.scalar(.string), optional: true)))
        let store = try StoreFixture(schema: other, version: 3)
        defer { store.remove() }
        let hash = try store.fileHash()
        let error = #expect(throws: StoreError.self) { try executor.run(on: Connection(path: store.path)) }
        guard case .schemaMismatch(_, let version, let storeHash, let codeHash) = error else {
            Issue.record("expected schemaMismatch, got \(String(describing: error))")
            return
        }
        #expect(version == 3 && storeHash == other.storageHash && codeHash == history.snapshots[2].storageHash)
        #expect(try store.fileHash() == hash)
    }
}
