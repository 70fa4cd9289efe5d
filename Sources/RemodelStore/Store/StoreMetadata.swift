import Foundation
import RemodelCore

/// The one place that writes what a store says about itself: the schema it is laid out for
/// (`_remodel_metadata` and `PRAGMA user_version`) and the migrations applied to it
/// (`_remodel_migrations`). Creating a store, `remodel migrate` and in-app upgrades all write
/// through here.
package enum StoreMetadata {
    /// Records `schema` (canonical text and hash) at `version`, with the layout rules' version.
    package static func writeSchema(_ connection: Connection, schema: Schema, hash: String, version: Int) throws {
        try writeSchema(connection, text: CanonicalYAML.text(of: schema), hash: hash, version: version)
    }

    /// `writeSchema` with the schema's canonical text already made.
    package static func writeSchema(_ connection: Connection, text: String, hash: String, version: Int) throws {
        let upsert = "INSERT INTO \"_remodel_metadata\" (\"key\", \"value\") VALUES (?, ?) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = excluded.\"value\""
        try connection.execute(upsert, [.text(StoreFormat.Key.schema), .text(text)])
        try connection.execute(upsert, [.text(StoreFormat.Key.schemaHash), .text(hash)])
        try connection.execute(upsert, [.text(StoreFormat.Key.formatVersion), .integer(Int64(StoreFormat.formatVersion))])
        try connection.execute("PRAGMA user_version = \(version)")
    }

    /// Records which versions up to the store's are not backward-readable (see
    /// `StoreFormat.Key.incompatibleVersions`).
    package static func writeIncompatibleVersions(_ connection: Connection, _ versions: [Int]) throws {
        try connection.execute(
            "INSERT INTO \"_remodel_metadata\" (\"key\", \"value\") VALUES (?, ?) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = excluded.\"value\"",
            [.text(StoreFormat.Key.incompatibleVersions), .text(versions.map(String.init).joined(separator: ","))])
    }

    /// The versions the store records as not backward-readable; nil when it records none (a
    /// store written before Remodel recorded them: then no older code may assume anything).
    package static func incompatibleVersions(_ connection: Connection) throws -> [Int]? {
        guard let text = try entry(connection, StoreFormat.Key.incompatibleVersions) else { return nil }
        return text.split(separator: ",").compactMap { Int($0) }
    }

    /// Records one applied migration: its version, name, the SHA-256 of its file, when it ran
    /// and how long it took.
    package static func recordMigration(_ connection: Connection, version: Int, name: String, checksum: String, appliedAt: Date, durationMilliseconds: Int64) throws {
        try connection.execute(
            "INSERT INTO \"_remodel_migrations\" (\"version\", \"name\", \"checksum\", \"applied_at\", \"duration_ms\") VALUES (?, ?, ?, ?, ?) "
                + "ON CONFLICT (\"version\") DO UPDATE SET \"name\" = excluded.\"name\", \"checksum\" = excluded.\"checksum\", \"applied_at\" = excluded.\"applied_at\", \"duration_ms\" = excluded.\"duration_ms\"",
            [.integer(Int64(version)), .text(name), .text(checksum), .text(StoreDateFormat.string(from: appliedAt)), .integer(durationMilliseconds)]
        )
    }

    /// The schema version a store records (`PRAGMA user_version`).
    package static func version(_ connection: Connection) throws -> Int {
        if case .integer(let value) = try connection.scalar("PRAGMA user_version") { return Int(value) }
        return 0
    }

    /// Refuses a file with Remodel's application_id that this Remodel cannot read as a store:
    /// its metadata tables missing, a schema version below 1, or a newer store format.
    package static func checkFormat(_ connection: Connection, path: String) throws {
        let tables = try connection.query(
            "SELECT \"name\" FROM sqlite_schema WHERE \"type\" = 'table' AND \"name\" IN (?, ?)",
            [.text(StoreFormat.metadataTable), .text(StoreFormat.migrationsTable)]
        ).compactMap { row -> String? in if case .text(let name)? = row.first { name } else { nil } }
        for table in [StoreFormat.metadataTable, StoreFormat.migrationsTable] where !tables.contains(table) {
            throw StoreError.incompleteStore(path: path, reason: "it has Remodel's application_id but no '\(table)' table (its creation was interrupted, or the table was dropped)")
        }
        let version = try self.version(connection)
        if version < 1 {
            throw StoreError.incompleteStore(path: path, reason: "its schema version (PRAGMA user_version) is \(version); a Remodel store's is 1 or more")
        }
        if let text = try entry(connection, StoreFormat.Key.formatVersion) {
            guard let format = Int(text), format >= 1 else {
                throw StoreError.incompleteStore(
                    path: path, reason: "its store format ('\(StoreFormat.Key.formatVersion)' in '\(StoreFormat.metadataTable)') is '\(text)', not a format number")
            }
            if format > StoreFormat.formatVersion { throw StoreError.newerFormat(path: path, formatVersion: format) }
        }
    }

    /// Refuses a store at `version` whose recorded schema hash is not `expected`: it was
    /// written with another schema under the same version number.
    package static func checkSchemaHash(_ connection: Connection, path: String, version: Int, expected: String) throws {
        let stored = try entry(connection, StoreFormat.Key.schemaHash) ?? "(none)"
        if stored != expected {
            throw StoreError.schemaMismatch(path: path, version: version, storeHash: stored, codeHash: expected)
        }
    }

    /// A metadata entry, as text.
    package static func entry(_ connection: Connection, _ key: String) throws -> String? {
        let value = try connection.scalar("SELECT \"value\" FROM \"_remodel_metadata\" WHERE \"key\" = ?", [.text(key)])
        switch value {
        case .text(let text): return text
        case .integer(let number): return String(number)
        default: return nil
        }
    }
}
