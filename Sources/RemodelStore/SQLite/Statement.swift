import CSQLite

/// A prepared statement owned by a connection; finalized when released.
@usableFromInline
package final class Statement {
    @usableFromInline package let handle: StatementHandle
    package let sql: String
    unowned let connection: Connection
    /// The connection's recorder of what statements read (kept here: the statement may be
    /// released while its connection is being released).
    private let reads: ReadRecorder

    init(connection: Connection, sql: String) throws {
        var pointer: OpaquePointer?
        connection.reads.beginPrepare()
        let code = sqlite3_prepare_v3(connection.pointer, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil)
        guard code == SQLITE_OK, let pointer else {
            sqlite3_finalize(pointer)
            throw connection.error(code, sql: sql)
        }
        connection.reads.finishPrepare(pointer)
        reads = connection.reads
        self.connection = connection
        self.sql = sql
        handle = StatementHandle(pointer)
    }

    deinit {
        reads.finalized(handle.pointer)
        sqlite3_finalize(handle.pointer)
    }

    /// Resets the statement for a new execution, keeping bindings that are overwritten anyway.
    @inlinable
    package func reset() {
        sqlite3_reset(handle.pointer)
    }

    /// Binds dynamic values to parameters 1…n.
    package func bind(_ values: [StoreValue]) throws {
        sqlite3_reset(handle.pointer)
        sqlite3_clear_bindings(handle.pointer)
        for (offset, value) in values.enumerated() {
            let code = handle.bind(value, Int32(offset + 1))
            if code != SQLITE_OK { throw connection.error(code, sql: sql) }
        }
    }

    /// Steps once: `true` when a row is available, `false` when done.
    @inlinable
    package func step() throws -> Bool {
        let code = sqlite3_step(handle.pointer)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw stepFailure(code)
    }

    @usableFromInline
    func stepFailure(_ code: Int32) -> SQLiteError {
        let error = connection.error(code, sql: sql)
        sqlite3_reset(handle.pointer)
        return error
    }

    /// Runs to completion, ignoring rows.
    package func run() throws {
        while try step() {}
        sqlite3_reset(handle.pointer)
    }

    /// All rows as dynamic values.
    package func rows() throws -> [[StoreValue]] {
        var result: [[StoreValue]] = []
        let count = sqlite3_column_count(handle.pointer)
        while try step() {
            result.append((0..<count).map { handle.value($0) })
        }
        sqlite3_reset(handle.pointer)
        return result
    }
}
