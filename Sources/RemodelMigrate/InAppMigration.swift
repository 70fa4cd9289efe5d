import Foundation
import RemodelCore
import RemodelStore

/// What an app does when it opens a store written by an older version of its schema.
public enum UpgradePolicy: Sendable {
    /// Run the migrations (the default for `Migrator` as a store's migrator).
    case migrate
    /// Refuse with `StoreError.migrationNeeded` (leave `OpenOptions.migrator` unset).
    case fail
    /// Delete every object and recreate the store at the new version. For development only:
    /// it destroys data, and says so on standard error each time it does.
    case deleteAndRecreate
}

extension Migrator: StoreMigrator {
    /// Called by `RemodelStore` inside its migration transaction when an app opens an older
    /// store with `OpenOptions(migrator: migrator)`.
    public func migrate(_ migration: StoreMigration) throws {
        switch upgradePolicy {
        case .fail:
            throw StoreError.migrationNeeded(path: migration.path, storeVersion: migration.storeVersion, codeVersion: migration.targetVersion)
        case .deleteAndRecreate:
            FileHandle.standardError.write(
                Data(
                    "remodel: WARNING: deleting every object in \(migration.path) to recreate it at version \(migration.targetVersion) (UpgradePolicy.deleteAndRecreate is for development only)\n"
                        .utf8))
            let tables = try migration.query(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_remodel\\_%' ESCAPE '\\'")
            for row in tables {
                if case .text(let name) = row[0] { try migration.execute("DROP TABLE \(SQLiteRenderer.identifier(name))") }
            }
            for statement in migration.targetCreateStatements { try migration.execute(statement) }
        case .migrate:
            let plan = try self.plan(from: migration.storeVersion, to: migration.targetVersion)
            var executor = MigrationExecutor(plan: plan, customSteps: customSteps, dryRun: false, progress: progress)
            executor.generatedValues = generatedValues
            let report = try executor.runInTransaction(on: migration.connection)
            // The store need not scan for dangling links again, nor write the metadata each
            // version recorded.
            migration.checkedLinks = report.checkedLinks
            migration.recordedTargetSchema = report.versions.last?.version == migration.targetVersion
        }
    }
}
