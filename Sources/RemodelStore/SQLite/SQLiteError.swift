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

    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code & 0xff
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
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
