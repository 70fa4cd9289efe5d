import CSQLite
import Foundation
import RemodelCore

/// One SQLite connection, used by one thread at a time (the store serialises access): the
/// handle, a statement cache and the per-model coding contexts.
@usableFromInline
package final class Connection {
    package let pointer: OpaquePointer
    package let path: String
    private var statements: [String: Statement] = [:]
    /// Per-model prepared state, keyed by the model type.
    @usableFromInline var contexts: [ObjectIdentifier: RowCodingContext] = [:]
    /// Coding contexts of the dynamic API, keyed by table name.
    var dynamicContexts: [String: RowCodingContext] = [:]
    /// Side-table statements, keyed by side-table name.
    var sideStatements: [String: SideTableStatements] = [:]
    /// Tables changed since the last `takeChangedTables()`, filled by SQLite's update hook.
    private let changes = ChangeRecorder()
    /// The tables each prepared statement reads, and those a tracked read touched
    /// (`trackingReads`), filled by SQLite's authorizer and statement trace.
    let reads = ReadRecorder()

    /// Opens an existing database to read it without writing. The connection is read-write
    /// when the file and its folder allow, though: the last read-only connection to a WAL
    /// database cannot remove the -wal and -shm files, and would leave them behind.
    package static func forReading(path: String) throws -> Connection {
        let manager = FileManager.default
        if manager.isWritableFile(atPath: path), manager.isWritableFile(atPath: folder(of: path)),
            let connection = try? Connection(path: path)
        {
            return connection
        }
        return try readOnly(path: path)
    }

    /// Opens an existing database read-only, also on read-only storage: when SQLite cannot
    /// create the shared-memory file a WAL database needs beside it (a read-only folder or
    /// mount), the file is opened as immutable, which is exact as long as no write-ahead log
    /// holds changes that are not in the file yet. Such a log is refused with how to read it.
    package static func readOnly(path: String) throws -> Connection {
        let connection = try Connection(path: path, readOnly: true)
        do {
            _ = try connection.scalar("PRAGMA schema_version")
            return connection
        } catch let error as SQLiteError where error.code == SQLITE_CANTOPEN || error.code == SQLITE_READONLY {
            let walSize = ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? NSNumber)?.int64Value ?? 0
            guard walSize == 0 else {
                throw StoreError.readOnly(
                    path: path,
                    reason:
                        "its write-ahead log '\(path)-wal' holds changes that are not in the file yet, and SQLite cannot read them here without writing '\(path)-shm' (\(error.message)); copy the store with its -wal file to writable storage and open the copy"
                )
            }
            return try Connection(path: path, readOnly: true, immutable: true)
        }
    }

    /// The folder that holds the database file `path` ("." for a bare file name), where SQLite
    /// writes its journal.
    package static func folder(of path: String) -> String {
        FilePaths.folder(of: path)
    }

    /// Opens (without creating, unless `create`) the database at `path`; `immutable` (with
    /// `readOnly`) tells SQLite the file cannot change, so that it takes no locks and writes no
    /// -shm file.
    package init(path: String, readOnly: Bool = false, create: Bool = false, immutable: Bool = false) throws {
        var pointer: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        var filename = path
        if immutable && readOnly {
            flags |= SQLITE_OPEN_URI
            var escaped = ""
            for character in path {
                switch character {
                case "%": escaped += "%25"
                case "?": escaped += "%3f"
                case "#": escaped += "%23"
                default: escaped.append(character)
                }
            }
            filename = "file:" + escaped + "?immutable=1"
        }
        let code = sqlite3_open_v2(filename, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            let systemErrno = pointer.map { sqlite3_system_errno($0) } ?? 0
            sqlite3_close_v2(pointer)
            throw SQLiteError(code: code, extendedCode: code, message: message, sql: nil, systemErrno: systemErrno)
        }
        self.pointer = pointer
        self.path = path
        sqlite3_extended_result_codes(pointer, 1)
        sqlite3_update_hook(
            pointer,
            { context, _, _, table, _ in
                guard let context, let table else { return }
                Unmanaged<ChangeRecorder>.fromOpaque(context).takeUnretainedValue().record(table)
            }, Unmanaged.passUnretained(changes).toOpaque())
        TextFolding.register(on: pointer)
    }

    /// Records, from now on, the tables each statement prepared here reads (SQLite's
    /// authorizer), for `trackingReads`. Only the store's readers, which run observations'
    /// fetches, pay for it; the writer and migrations do not.
    package func recordReads() {
        sqlite3_set_authorizer(
            pointer,
            { context, action, table, _, _, _ in
                if action == SQLITE_READ, let context, let table {
                    Unmanaged<ReadRecorder>.fromOpaque(context).takeUnretainedValue().preparing(table)
                }
                return SQLITE_OK
            }, Unmanaged.passUnretained(reads).toOpaque())
    }

    deinit {
        sqlite3_update_hook(pointer, nil, nil)
        sqlite3_set_authorizer(pointer, nil, nil)
        contexts.removeAll()
        dynamicContexts.removeAll()
        sideStatements.removeAll()
        statements.removeAll()
        sqlite3_close_v2(pointer)
    }

    /// The error for result `code`, with the connection's current message.
    package func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(
            code: code, extendedCode: sqlite3_extended_errcode(pointer), message: String(cString: sqlite3_errmsg(pointer)), sql: sql, systemErrno: sqlite3_system_errno(pointer))
    }

    /// Runs one or more statements with no arguments.
    package func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(pointer, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(pointer))
            sqlite3_free(message)
            throw SQLiteError(code: code, extendedCode: sqlite3_extended_errcode(pointer), message: text, sql: sql, systemErrno: sqlite3_system_errno(pointer))
        }
    }

    /// Runs one statement with arguments.
    package func execute(_ sql: String, _ arguments: [StoreValue]) throws {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        try statement.run()
    }

    /// The rows of a query.
    package func query(_ sql: String, _ arguments: [StoreValue] = []) throws -> [[StoreValue]] {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        return try statement.rows()
    }

    /// The first column of the first row of a query.
    package func scalar(_ sql: String, _ arguments: [StoreValue] = []) throws -> StoreValue {
        try query(sql, arguments).first?.first ?? .null
    }

    /// A prepared statement for `sql`, reused across calls.
    package func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statements[sql] {
            statement.reset()
            return statement
        }
        let statement = try Statement(connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// The cached statement for `sql` when no running query is using it.
    func cachedStatementIfIdle(_ sql: String) -> Statement? {
        guard let statement = statements[sql], sqlite3_stmt_busy(statement.handle.pointer) == 0 else { return nil }
        return statement
    }

    func hasCachedStatement(_ sql: String) -> Bool {
        statements[sql] != nil
    }

    /// A statement used once.
    package func statement(_ sql: String) throws -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// Rows changed by the last statement.
    package var changeCount: Int { Int(sqlite3_changes64(pointer)) }

    /// Whether a transaction is open.
    package var isInTransaction: Bool { sqlite3_get_autocommit(pointer) == 0 }

    /// Sets how long a statement waits for another connection's lock before SQLITE_BUSY.
    package func setBusyTimeout(_ seconds: Double) {
        sqlite3_busy_timeout(pointer, Int32((seconds * 1000).rounded()))
    }

    /// The condition of a DELETE meant to delete every row: `DELETE FROM t` with no condition
    /// lets SQLite truncate the table without calling the update hook, and then no observation
    /// and no `changes(to:)` stream would hear of it; with a condition it deletes row by row.
    package static let everyRow = " WHERE true"

    /// The names of tables written since the last call, then forgets them.
    package func takeChangedTables() -> Set<String> {
        changes.take()
    }

    /// Runs `body` and returns the tables its statements read: those it prepares (SQLite's
    /// authorizer) and the cached ones it runs (each statement's tables, recorded when it was
    /// prepared, collected as SQLite starts it). What an observation re-runs the fetch for.
    package func trackingReads<T>(_ body: () throws -> T) throws -> (value: T, read: Set<String>) {
        reads.startTracking()
        sqlite3_trace_v2(
            pointer, UInt32(SQLITE_TRACE_STMT),
            { _, context, statement, _ in
                if let context, let statement {
                    Unmanaged<ReadRecorder>.fromOpaque(context).takeUnretainedValue().started(OpaquePointer(statement))
                }
                return 0
            }, Unmanaged.passUnretained(reads).toOpaque())
        defer { sqlite3_trace_v2(pointer, 0, nil, nil) }
        let value = try body()
        return (value, reads.stopTracking())
    }

    /// Drops prepared state (after a schema change).
    package func clearCaches() {
        contexts.removeAll()
        dynamicContexts.removeAll()
        sideStatements.removeAll()
        statements.removeAll()
    }
}

/// Collects table names from SQLite's update hook. Comparing the C string pointer with the
/// previous one keeps the per-row cost of bulk writes to a pointer comparison.
final class ChangeRecorder {
    private var last: UnsafePointer<CChar>?
    private var tables: Set<String> = []

    func record(_ table: UnsafePointer<CChar>) {
        if table == last { return }
        last = table
        tables.insert(String(cString: table))
    }

    func take() -> Set<String> {
        defer {
            tables = []
            last = nil
        }
        return tables
    }
}

/// The tables statements read: recorded by the authorizer as each is prepared, kept per
/// prepared statement, and gathered while a read is tracked. Used on the connection's thread
/// only.
final class ReadRecorder {
    private var prepared: Set<String> = []
    private var byStatement: [OpaquePointer: Set<String>] = [:]
    private var tracked: Set<String>?

    func preparing(_ table: UnsafePointer<CChar>) {
        let name = String(cString: table)
        prepared.insert(name)
        tracked?.insert(name)
    }

    /// Before a statement is prepared: forgets what earlier one-off statements read.
    func beginPrepare() {
        prepared = []
    }

    /// After `statement` is prepared: what it reads, kept for its runs.
    func finishPrepare(_ statement: OpaquePointer) {
        byStatement[statement] = prepared
        prepared = []
    }

    func finalized(_ statement: OpaquePointer) {
        byStatement[statement] = nil
    }

    func started(_ statement: OpaquePointer) {
        if let tables = byStatement[statement] { tracked?.formUnion(tables) }
    }

    func startTracking() {
        tracked = []
    }

    func stopTracking() -> Set<String> {
        defer { tracked = nil }
        return tracked ?? []
    }
}
