import Foundation
import RemodelCore
import RemodelStore

/// A temporary store file for a test, created through RemodelStore at a given version and
/// filled with SQL.
struct StoreFixture {
    let directory: URL
    let path: String

    init(schema: Schema, version: Int, file: String = "store.db") throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent(file).path
        _ = try RemodelStore(path: path, schema: schema, version: version)
    }

    /// Runs statements on the store file.
    func execute(_ sql: String, _ arguments: [StoreValue] = []) throws {
        let connection = try Connection(path: path)
        try connection.execute("PRAGMA foreign_keys = ON")
        if arguments.isEmpty { try connection.execute(sql) } else { try connection.execute(sql, arguments) }
    }

    /// The rows of a query on the store file.
    func query(_ sql: String) throws -> [[StoreValue]] {
        try Connection(path: path, readOnly: true).query(sql)
    }

    /// The SHA-256 of the store file's bytes (and of its WAL, which must not exist).
    func fileHash() throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return SHA256.hexDigest(of: Array(data))
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    static func uuid(_ n: UInt8) -> StoreValue { .blob([UInt8](repeating: 0, count: 15) + [n]) }
    static func objectID(_ n: UInt8) -> StoreValue { .blob([0x65, 0, 0, 0] + [UInt8](repeating: 0, count: 7) + [n]) }
}
