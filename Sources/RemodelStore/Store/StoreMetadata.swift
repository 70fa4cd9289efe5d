import Foundation
import RemodelCore

/// The one place that writes what a store says about itself: the schema it is laid out for
/// (`_remodel_metadata` and `PRAGMA user_version`) and the migrations applied to it
/// (`_remodel_migrations`). Creating a store, `remodel migrate` and in-app upgrades all write
/// through here.
package enum StoreMetadata {
    /// Records `schema` (canonical text and hash) at `version`, with the layout rules' version.
    package static func writeSchema(_ connection: Connection, schema: Schema, hash: String, version: Int) throws {
        let upsert = "INSERT INTO \"_remodel_metadata\" (\"key\", \"value\") VALUES (?, ?) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = excluded.\"value\""
        try connection.execute(upsert, [.text(StoreFormat.Key.schema), .text(CanonicalYAML.text(of: schema))])
        try connection.execute(upsert, [.text(StoreFormat.Key.schemaHash), .text(hash)])
        try connection.execute(upsert, [.text(StoreFormat.Key.formatVersion), .integer(Int64(StoreFormat.formatVersion))])
        try connection.execute("PRAGMA user_version = \(version)")
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
