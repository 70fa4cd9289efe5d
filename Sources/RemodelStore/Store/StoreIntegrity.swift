import CSQLite
import Foundation

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

/// `StoreIntegrity.check` of a store's committed state, on a second connection and another
/// thread, while its writer works: a migration starts it once it holds the write lock, runs
/// beside it (on another core), and commits only after `wait()` found no damage. The check
/// reads the state the migration started from (a WAL read snapshot taken when it is made), so
/// it is the same check as before the migration, at no cost in time when a core is free.
package final class ConcurrentIntegrityCheck: @unchecked Sendable {
    /// What the checking thread owns: the connection (closed by that thread when it is done,
    /// before the writer closes, so that the writer's close still removes the WAL files) and
    /// the outcome, written before `done` is signalled and read after.
    private final class Work: @unchecked Sendable {
        var connection: Connection?
        var outcome: Result<Void, any Error> = .success(())
        let done = DispatchSemaphore(value: 0)
        init(_ connection: Connection) { self.connection = connection }
    }

    private let work: Work
    private var waited = false

    /// Starts the check of the store at `path`, whose write lock the caller holds.
    package init(path: String, busyTimeout: Double) throws {
        let connection = try Connection(path: path, readOnly: true)
        connection.setBusyTimeout(busyTimeout)
        // The read snapshot starts at the first read, now: the state the writer starts from.
        try connection.execute("BEGIN")
        _ = try connection.query("SELECT count(*) FROM sqlite_master")
        let work = Work(connection)
        self.work = work
        Thread.detachNewThread {
            work.outcome = Result { try StoreIntegrity.check(work.connection!, path: path, busyTimeout: busyTimeout) }
            try? work.connection?.execute("ROLLBACK")
            work.connection = nil
            work.done.signal()
        }
    }

    /// Waits for the check; throws `StoreError.damaged` when it found damage.
    package func wait() throws {
        if !waited {
            work.done.wait()
            waited = true
        }
        try work.outcome.get()
    }

    /// The damage the check found, waiting for it: for a migration that failed, whose error
    /// a damaged store explains better.
    package func damage() -> StoreError? {
        do { try wait() } catch let error as StoreError {
            if case .damaged = error { return error }
        } catch {}
        return nil
    }

    deinit {
        if !waited { work.done.wait() }
    }
}

extension RemodelStore {
    /// Checks the store file at `path` with `PRAGMA quick_check` without changing it; throws
    /// `StoreError.damaged` listing what SQLite found, or the errors of `inspect(path:)`.
    /// `remodel import` runs it before it adds to a store; migrations run the check themselves.
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
