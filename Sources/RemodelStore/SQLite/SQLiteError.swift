import CSQLite

/// An error reported by SQLite: its result code, extended code, message and the statement
/// that failed.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The primary result code (`SQLITE_CONSTRAINT` = 19 …).
    public var code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_PRIMARYKEY` = 1555 …).
    public var extendedCode: Int32
    /// SQLite's message.
    public var message: String
    /// The SQL that failed, if a statement did.
    public var sql: String?
    /// The operating system's error number behind an I/O error (`sqlite3_system_errno`:
    /// `ENOSPC`, `EFBIG` …), 0 when none.
    public var systemErrno: Int32

    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
        self.code = code & 0xff
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    /// SQLite's name for the code, e.g. "constraint failed".
    public var codeDescription: String {
        String(cString: sqlite3_errstr(extendedCode))
    }

    public var description: String {
        var text = "SQLite error \(extendedCode) (\(codeDescription)): \(message)"
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }
}
