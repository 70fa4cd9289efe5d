import Foundation

/// What a store file says about itself, read without knowing its schema: the schema version,
/// the canonical schema text and hash it was written with, and its size. The data tools use
/// it to open any store with the schema it records.
public struct StoreInfo: Hashable, Sendable {
    /// The store file.
    public var path: String
    /// `PRAGMA user_version`: the schema version.
    public var version: Int
    /// The canonical YAML of the store's schema (`CanonicalYAML.text(of:)`).
    public var schemaText: String
    /// The schema's storage hash.
    public var schemaHash: String
    /// The layout rules' version (`StoreFormat.formatVersion` when written).
    public var formatVersion: Int
    /// Bytes on disk: the file plus its write-ahead log.
    public var size: Int64
    /// The migrations the store records as applied, oldest first.
    public var appliedMigrations: [AppliedMigration] = []
}

extension RemodelStore {
    /// Reads a store's self-description without opening it for writing; the file is not
    /// changed. Throws the same typed errors as opening (not SQLite, not a Remodel store,
    /// corrupted, …).
    public static func inspect(path: String, busyTimeout: Double = 5) throws -> StoreInfo {
        let options = OpenOptions(busyTimeout: busyTimeout, readOnly: true)
        let connection = try StoreOpener.openForInspection(path: path, options: options)
        do {
            guard case .integer(let applicationID) = try connection.scalar("PRAGMA application_id"), Int32(truncatingIfNeeded: applicationID) == StoreFormat.applicationID else {
                let id: Int32 = if case .integer(let value) = try connection.scalar("PRAGMA application_id") { Int32(truncatingIfNeeded: value) } else { 0 }
                throw StoreError.notARemodelStore(path: path, applicationID: id)
            }
            try StoreMetadata.checkFormat(connection, path: path)
            let version = try StoreMetadata.version(connection)
            let files = [path, path + "-wal"]
            let size = files.compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? NSNumber }.reduce(Int64(0)) { $0 + $1.int64Value }
            return StoreInfo(
                path: path, version: version,
                schemaText: try StoreMetadata.entry(connection, StoreFormat.Key.schema) ?? "",
                schemaHash: try StoreMetadata.entry(connection, StoreFormat.Key.schemaHash) ?? "",
                formatVersion: Int(try StoreMetadata.entry(connection, StoreFormat.Key.formatVersion) ?? "") ?? 0,
                size: size,
                appliedMigrations: try AppliedMigration.all(in: connection)
            )
        } catch let error as SQLiteError {
            throw StoreOpener.classify(error, path: path, options: options)
        }
    }
}
