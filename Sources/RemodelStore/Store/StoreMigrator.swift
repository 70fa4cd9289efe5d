import Foundation
import RemodelCore

/// The hook through which in-app migration (RemodelMigrate) upgrades a store while it opens.
///
/// When `RemodelStore` opens a store whose `user_version` is below the code's version and
/// `OpenOptions.migrator` is set, it
/// 1. takes the write lock (`BEGIN IMMEDIATE`) with foreign keys off,
/// 2. calls `migrate(_:)` with a `StoreMigration` describing both ends,
/// 3. checks foreign keys (`PRAGMA foreign_key_check`), writes the target schema's metadata
///    (canonical text, hash, `user_version`) and commits — or rolls everything back if any
///    of that throws, leaving the store as it was. A migrator that did either already
///    (RemodelMigrate's `Migrator`, see `StoreMigration.checkedLinks` and
///    `recordedTargetSchema`) is not followed by a second scan or write.
public protocol StoreMigrator: Sendable {
    /// Transforms the store's tables from `migration.storeVersion` to
    /// `migration.targetVersion`, recording each applied migration with
    /// `migration.recordMigration(...)`. Runs inside the open transaction; do not commit.
    func migrate(_ migration: StoreMigration) throws
}

/// One in-progress migration of an opening store: what it is at, what it must become, and
/// SQL access to it inside the migration transaction.
public final class StoreMigration {
    /// The store file.
    public let path: String
    /// The store's schema version (`user_version`).
    public let storeVersion: Int
    /// The canonical YAML of the schema the store was written with (`CanonicalYAML`).
    public let storedSchemaText: String
    /// The schema version the code needs.
    public let targetVersion: Int
    /// The schema the code needs.
    public let targetSchema: Schema
    /// The code's migration history, if its manifest has one.
    public let history: MigrationHistory?
    /// The layout the store must have at the end.
    package let targetLayout: StoreLayout
    /// The migration transaction's connection.
    package let connection: Connection
    /// Set by a migrator that ran `PRAGMA foreign_key_check`, finding nothing, after its last
    /// change: the store does not scan every table again.
    package var checkedLinks = false
    /// Set by a migrator that recorded the target version's schema through `StoreMetadata`:
    /// the store checks the recorded hash is the code's instead of writing it again.
    package var recordedTargetSchema = false

    init(
        path: String, storeVersion: Int, storedSchemaText: String, targetVersion: Int, targetSchema: Schema,
        history: MigrationHistory?, targetLayout: StoreLayout, connection: Connection
    ) {
        self.path = path
        self.storeVersion = storeVersion
        self.storedSchemaText = storedSchemaText
        self.targetVersion = targetVersion
        self.targetSchema = targetSchema
        self.history = history
        self.targetLayout = targetLayout
        self.connection = connection
    }

    /// Runs SQL with bound arguments.
    public func execute(_ sql: String, _ arguments: [StoreValue] = []) throws {
        if arguments.isEmpty { try connection.execute(sql) } else { try connection.execute(sql, arguments) }
    }

    /// Runs a query and returns its rows.
    public func query(_ sql: String, _ arguments: [StoreValue] = []) throws -> [[StoreValue]] {
        try connection.query(sql, arguments)
    }

    /// The statements that create the target schema's tables and indexes in an empty database.
    public var targetCreateStatements: [String] { targetLayout.createStatements.map(SQLiteRenderer().statement) }

    /// Records one applied migration in `_remodel_migrations`.
    public func recordMigration(version: Int, name: String, checksum: String, durationMilliseconds: Int, appliedAt: Date = Date()) throws {
        try StoreMetadata.recordMigration(connection, version: version, name: name, checksum: checksum, appliedAt: appliedAt, durationMilliseconds: Int64(durationMilliseconds))
    }
}
