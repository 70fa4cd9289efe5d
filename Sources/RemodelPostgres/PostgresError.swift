/// An error from a PostgreSQL server or from connecting to one: the SQLSTATE, the server's
/// message with its detail and hint, and the statement that failed, like `SQLiteError`.
///
/// No password is ever part of it: connection errors name the server by
/// `PostgresTarget.displayName`, which leaves the password out.
public struct PostgresError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the error happened.
    public enum Kind: Hashable, Sendable {
        /// Connecting (or the connection broke): `target` names the server.
        case connection
        /// The server refused a statement.
        case statement
    }

    public var kind: Kind
    /// The five-character SQLSTATE (`23505` unique violation, `42P01` undefined table …);
    /// empty when the error did not come from the server.
    public var sqlState: String
    /// The server's (or libpq's) primary message.
    public var message: String
    /// The server's detail line, if any.
    public var detail: String?
    /// The server's hint, if any.
    public var hint: String?
    /// The statement that failed, if a statement did.
    public var statement: String?
    /// The server, without its password: `postgresql://app@127.0.0.1:5432/notes`.
    public var target: String?

    public init(kind: Kind, sqlState: String = "", message: String, detail: String? = nil, hint: String? = nil, statement: String? = nil, target: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.hint = hint
        self.statement = statement
        self.target = target
    }

    /// The SQLSTATE's class: its first two characters (`23` integrity constraint violation).
    public var sqlStateClass: String { String(sqlState.prefix(2)) }

    /// PostgreSQL's condition name for the SQLSTATEs Remodel handles, e.g. `unique_violation`.
    public var conditionName: String? { Self.conditionNames[sqlState] }

    /// The SQLSTATEs Remodel tells apart (PostgreSQL's Appendix A names).
    static let conditionNames: [String: String] = [
        "08000": "connection_exception", "08001": "sqlclient_unable_to_establish_sqlconnection",
        "08006": "connection_failure", "22P02": "invalid_text_representation", "22003": "numeric_value_out_of_range",
        "23502": "not_null_violation", "23503": "foreign_key_violation", "23505": "unique_violation",
        "23514": "check_violation", "25P02": "in_failed_sql_transaction", "28000": "invalid_authorization_specification",
        "28P01": "invalid_password", "3D000": "invalid_catalog_name", "3F000": "invalid_schema_name",
        "40001": "serialization_failure", "40P01": "deadlock_detected", "42501": "insufficient_privilege",
        "42601": "syntax_error", "42703": "undefined_column", "42P01": "undefined_table", "42P07": "duplicate_table",
        "53100": "disk_full", "55P03": "lock_not_available", "57014": "query_canceled", "57P01": "admin_shutdown",
    ]

    public var description: String {
        var text: String
        switch kind {
        case .connection:
            text = "cannot connect to PostgreSQL" + (target.map { " at \($0)" } ?? "") + ": " + message
        case .statement:
            text = "PostgreSQL error" + (sqlState.isEmpty ? "" : " \(sqlState)") + (conditionName.map { " (\($0))" } ?? "") + ": " + message
        }
        if let detail { text += " (\(detail))" }
        if let hint { text += "; hint: \(hint)" }
        if let statement { text += " — while executing `\(statement)`" }
        return text
    }
}
