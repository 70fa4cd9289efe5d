import CSQLite

/// The checks a store passes before anything changes it in bulk: `PRAGMA quick_check` (every
/// page and B-tree readable and well-formed; index contents are not compared with their
/// tables, which costs `integrity_check` about seven times as long on a large store).
/// Migrations (`remodel migrate` and in-app upgrades) run it first, so that a damaged store
/// is refused instead of migrated into a store that looks fine and is not.
package enum StoreIntegrity {
    /// The most problems `quick_check` lists before it stops.
    static let problemLimit = 10

    /// Throws `StoreError.damaged` when `quick_check` finds a problem in the database behind
    /// `connection`; `StoreError.locked` when another writer holds it too long.
    package static func check(_ connection: Connection, path: String, busyTimeout: Double) throws {
        let rows: [[StoreValue]]
        do {
            rows = try connection.query("PRAGMA quick_check(\(problemLimit))")
        } catch let error as SQLiteError {
            switch error.code {
            case SQLITE_CORRUPT, SQLITE_NOTADB: throw StoreError.damaged(path: path, problems: [error.message])
            case SQLITE_BUSY, SQLITE_LOCKED: throw StoreError.locked(path: path, timeout: busyTimeout, underlying: error)
            default: throw StoreError.sqlite(error)
            }
        }
        // One row per problem, a problem's lines under a "*** in database main ***" heading.
        let problems = rows.flatMap { row -> [String] in
            guard case .text(let text)? = row.first else { return [] }
            return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("*** ") }
        }
        if problems != ["ok"] { throw StoreError.damaged(path: path, problems: problems) }
    }
}

extension RemodelStore {
    /// Checks the store file at `path` with `PRAGMA quick_check` without changing it; throws
    /// `StoreError.damaged` listing what SQLite found, or the errors of `inspect(path:)`.
    /// `remodel migrate` runs it before it makes a backup; migrations run it themselves.
    public static func checkIntegrity(path: String, busyTimeout: Double = 5) throws {
        let options = OpenOptions(busyTimeout: busyTimeout, readOnly: true)
        let connection = try StoreOpener.openForInspection(path: path, options: options)
        try StoreIntegrity.check(connection, path: path, busyTimeout: busyTimeout)
    }

    /// Throws `StoreError.readOnly` when the store file at `path`, or the folder SQLite writes
    /// its journal in, cannot be written: on a read-only file system, or for lack of
    /// permission. Commands that write (`migrate`, `import`) check before any work.
    public static func checkWritable(path: String) throws {
        try StoreOpener.checkWritable(path: path)
    }
}
