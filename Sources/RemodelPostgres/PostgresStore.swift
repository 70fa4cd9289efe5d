import Foundation
import RemodelCore
import RemodelLayout
import RemodelPlanning
import RemodelStore

/// A Remodel store in one schema of a PostgreSQL database (`PostgresLayout`): creating it, and
/// what it says about itself. The metadata are the SQLite store's (`StoreFormat`): the
/// schema's canonical text and hash, the layout rules' version, and here also the schema
/// version, in `_remodel_metadata`; applied migrations in `_remodel_migrations`.
public enum PostgresStore {
    /// Creates the layout of `schema` at `version` in `target`'s schema, all or nothing (one
    /// transaction; PostgreSQL's DDL is transactional). Creates the database schema when it
    /// does not exist; refuses one that already holds a store or any table the layout needs.
    @discardableResult
    public static func create(at target: PostgresTarget, schema: Schema, version: Int) throws -> PostgresStoreInfo {
        let layout: PostgresLayout
        do {
            layout = try PostgresLayout(schema: schema, schemaName: target.schema)
        } catch let error as UnsupportedSchema {
            throw PostgresStoreError.unsupportedSchema(error.message)
        }
        let connection = try PostgresConnection(target)
        try connection.transaction {
            // Two `init`s at once: the second waits here, then finds the first one's store.
            try lock(connection)
            try createLayout(connection, schema: schema, version: version, layout: layout)
        }
        return try info(connection) { _ in schema }
    }

    /// Creates the layout and its metadata in the connection's schema, inside the caller's
    /// transaction (which holds `lock`): the database schema when it is missing, then every
    /// table; refuses a schema that already holds a store or a table the layout needs.
    static func createLayout(_ connection: PostgresConnection, schema: Schema, version: Int, layout given: PostgresLayout? = nil) throws {
        let target = connection.target
        let layout: PostgresLayout
        do {
            layout = try given ?? PostgresLayout(schema: schema, schemaName: target.schema)
        } catch let error as UnsupportedSchema {
            throw PostgresStoreError.unsupportedSchema(error.message)
        }
        // Only when missing: CREATE SCHEMA needs the CREATE right on the database even
        // with IF NOT EXISTS, which a role that owns its schema may not have.
        if try connection.scalar("SELECT count(*) FROM pg_namespace WHERE nspname = $1", [target.schema]) == "0" {
            try connection.execute("CREATE SCHEMA " + SQLiteRenderer.identifier(target.schema))
        }
        let names = [StoreFormat.metadataTable, StoreFormat.migrationsTable] + layout.layout.tables.flatMap { [$0.name] + $0.sideTables.map(\.name) }
        let existing = try tables(in: connection, schema: target.schema)
        if existing.contains(StoreFormat.metadataTable) {
            throw PostgresStoreError.alreadyAStore(schema: target.schema, database: connection.displayName)
        }
        let clashes = names.filter(existing.contains)
        if !clashes.isEmpty {
            throw PostgresStoreError.tablesExist(schema: target.schema, database: connection.displayName, tables: clashes)
        }
        for statement in layout.createStatements { try connection.execute(statement) }
        try PostgresMetadata.writeSchema(connection, layout: layout, schema: schema, hash: schema.storageHash, version: version)
    }

    /// What the store at `target` says about itself, and how many objects of each type it
    /// holds, by the tables of the schema it records: `recordedSchema` reads that schema's
    /// canonical text (RemodelSchema's `loadSchema`; nil counts nothing).
    public static func info(at target: PostgresTarget, recordedSchema: (String) -> Schema?) throws -> PostgresStoreInfo {
        try info(try PostgresConnection(target), recordedSchema: recordedSchema)
    }

    static func info(_ connection: PostgresConnection, recordedSchema: (String) -> Schema?) throws -> PostgresStoreInfo {
        let schemaName = connection.target.schema
        guard try tables(in: connection, schema: schemaName).contains(StoreFormat.metadataTable) else {
            throw PostgresStoreError.notAStore(schema: schemaName, database: connection.displayName)
        }
        let entries = try PostgresMetadata.entries(connection, schemaName: schemaName)
        guard let versionText = entries[StoreFormat.Key.schemaVersion], let version = Int(versionText), version >= 1 else {
            throw PostgresStoreError.incomplete(
                schema: schemaName, database: connection.displayName, reason: "its '\(StoreFormat.Key.schemaVersion)' entry is missing or not a version number")
        }
        if let format = entries[StoreFormat.Key.formatVersion].flatMap(Int.init), format > StoreFormat.formatVersion {
            throw PostgresStoreError.newerFormat(schema: schemaName, database: connection.displayName, formatVersion: format)
        }
        var counts: [(type: String, count: Int)] = []
        if let text = entries[StoreFormat.Key.schema], let schema = recordedSchema(text), let layout = try? PostgresLayout(schema: schema, schemaName: schemaName) {
            for table in layout.layout.tables {
                counts.append((table.name, try count(of: table.name, in: layout, connection)))
            }
        }
        let migrations = PostgresLayout.qualified(StoreFormat.migrationsTable, in: schemaName)
        let applied = try connection.query("SELECT \"version\", \"name\", \"checksum\", \"applied_at\", \"duration_ms\" FROM \(migrations) ORDER BY \"version\"").rows.map { row in
            AppliedMigration(version: Int(row[0] ?? "") ?? 0, name: row[1] ?? "", checksum: row[2] ?? "", appliedAt: row[3] ?? "", durationMilliseconds: Int(row[4] ?? "") ?? 0)
        }
        return PostgresStoreInfo(
            database: connection.displayName, schemaName: schemaName, version: version,
            schemaHash: entries[StoreFormat.Key.schemaHash] ?? "", objectCounts: counts, appliedMigrations: applied
        )
    }

    /// The number of rows of `table` in `layout`'s schema.
    static func count(of table: String, in layout: PostgresLayout, _ connection: PostgresConnection) throws -> Int {
        Int(try connection.scalar("SELECT count(*) FROM " + layout.qualified(table)) ?? "0") ?? 0
    }

    /// The tables (and views, sequences …: anything a table name would clash with) of
    /// `schema`, those of other roles included, which `information_schema` would hide.
    static func tables(in connection: PostgresConnection, schema: String) throws -> Set<String> {
        let rows = try connection.query("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1", [schema]).rows
        return Set(rows.compactMap { $0.first ?? nil })
    }
}

/// What a PostgreSQL store says about itself.
public struct PostgresStoreInfo: Sendable {
    /// The server and database, without a password.
    public var database: String
    public var schemaName: String
    public var version: Int
    public var schemaHash: String
    /// Objects per type, in schema order.
    public var objectCounts: [(type: String, count: Int)]
    /// The migrations applied to the store, oldest first (rows of `_remodel_migrations`).
    public var appliedMigrations: [AppliedMigration]

    /// The store, for messages: `postgresql://app@db:5432/notes (schema remodel)`.
    public var name: String { "\(database) (schema \(schemaName))" }
}

/// Why a PostgreSQL store cannot be created or read; each says where and how to fix it.
public enum PostgresStoreError: Error, CustomStringConvertible {
    case unsupportedSchema(String)
    case alreadyAStore(schema: String, database: String)
    case tablesExist(schema: String, database: String, tables: [String])
    case notAStore(schema: String, database: String)
    case incomplete(schema: String, database: String, reason: String)
    case newerFormat(schema: String, database: String, formatVersion: Int)
    case wrongVersion(schema: String, database: String, version: Int, expected: Int)

    public var description: String {
        switch self {
        case .unsupportedSchema(let reason):
            "the schema cannot be stored in PostgreSQL: \(reason)"
        case .alreadyAStore(let schema, let database):
            "the schema '\(schema)' of \(database) already holds a Remodel store; nothing was changed: use 'remodel status' to see it, or another schema (?schema=NAME) for a new store"
        case .tablesExist(let schema, let database, let tables):
            "the schema '\(schema)' of \(database) already has tables the store needs (\(tables.sorted().map { "'\($0)'" }.joined(separator: ", "))); nothing was changed: choose another schema (?schema=NAME) or drop those tables"
        case .notAStore(let schema, let database):
            "the schema '\(schema)' of \(database) holds no Remodel store (no '\(StoreFormat.metadataTable)' table): create one with 'remodel init', or name the schema it is in (?schema=NAME)"
        case .incomplete(let schema, let database, let reason):
            "the Remodel store in schema '\(schema)' of \(database) is incomplete: \(reason); restore it from a backup"
        case .newerFormat(let schema, let database, let format):
            "the Remodel store in schema '\(schema)' of \(database) has store format \(format), newer than this Remodel's \(StoreFormat.formatVersion): upgrade Remodel"
        case .wrongVersion(let schema, let database, let version, let expected):
            "the Remodel store in schema '\(schema)' of \(database) is at schema version \(version), not \(expected); nothing was changed: pass --version \(version), or migrate the store first (remodel migrate --store URL)"
        }
    }
}

/// The one place that writes what a PostgreSQL store says about itself (the counterpart of
/// the SQLite store's `StoreMetadata`).
enum PostgresMetadata {
    static func writeSchema(_ connection: PostgresConnection, layout: PostgresLayout, schema: Schema, hash: String, version: Int) throws {
        let upsert =
            "INSERT INTO \(layout.qualified(StoreFormat.metadataTable)) (\"key\", \"value\") VALUES ($1, $2) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = excluded.\"value\""
        for (key, value) in [
            (StoreFormat.Key.schema, CanonicalYAML.text(of: schema)), (StoreFormat.Key.schemaHash, hash),
            (StoreFormat.Key.formatVersion, String(StoreFormat.formatVersion)), (StoreFormat.Key.schemaVersion, String(version)),
        ] {
            try connection.query(upsert, [key, value])
        }
    }

    /// Records `version` as the store's schema and as an applied migration.
    static func record(_ connection: PostgresConnection, version: VersionPlan, schemaName: String, milliseconds: Int, now: Date) throws {
        let layout = try PostgresLayout(schema: version.schema, schemaName: schemaName)
        try writeSchema(connection, layout: layout, schema: version.schema, hash: version.schemaHash, version: version.version)
        try connection.query(
            "INSERT INTO \(layout.qualified(StoreFormat.migrationsTable)) (\"version\", \"name\", \"checksum\", \"applied_at\", \"duration_ms\") VALUES ($1, $2, $3, $4, $5)",
            [String(version.version), version.name, version.checksum, StoreDateFormat.string(from: Date()), String(milliseconds)]
        )
    }

    static func entries(_ connection: PostgresConnection, schemaName: String) throws -> [String: String] {
        let table = PostgresLayout.qualified(StoreFormat.metadataTable, in: schemaName)
        var entries: [String: String] = [:]
        for row in try connection.query("SELECT \"key\", \"value\" FROM \(table)").rows {
            if let key = row[0], let value = row[1] { entries[key] = value }
        }
        return entries
    }
}
