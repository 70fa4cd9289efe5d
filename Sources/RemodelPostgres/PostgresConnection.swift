/// One connection to a PostgreSQL server through libpq, used by one thread at a time.
///
/// Statements run in libpq's text format: parameters are sent as text (or NULL) and results
/// come back as text, which keeps every value exact (`numeric`, `timestamptz` with its
/// microseconds, `bytea` in hex) and leaves conversion to the layout that knows each
/// column's type. The server's notices are collected in `notices` rather than printed.
public final class PostgresConnection {
    private let pointer: OpaquePointer
    private let pq: LibPQ
    /// The database and schema this connection was opened for.
    public let target: PostgresTarget
    private let noticeBox = NoticeBox()

    /// Connects to `target`; throws `PostgresError` (kind `.connection`) naming the server
    /// without its password and saying what to check.
    public init(_ target: PostgresTarget) throws(PostgresError) {
        self.target = target
        let pq = try LibPQ.shared(for: target)
        self.pq = pq
        // A string libpq cannot parse: its message may quote the string, password included.
        var parseError: UnsafeMutablePointer<CChar>?
        if let options = pq.conninfoParse(target.connectionString, &parseError) {
            pq.conninfoFree(options)
        } else {
            let message = parseError.map { String(cString: $0) } ?? "out of memory"
            pq.freemem(parseError)
            throw PostgresError(
                kind: .connection, message: target.redacting("libpq cannot read the URL or connection string: " + Self.oneLine(message)),
                hint: "write it as postgresql://user@host:port/database (percent-encode '%', '@', '/' and ':' in the user and password), or as key=value pairs",
                target: target.redacted
            )
        }
        guard let pointer = pq.connectdb(target.connectionString) else {
            throw PostgresError(kind: .connection, message: "libpq could not allocate a connection (out of memory)", target: target.redacted)
        }
        guard pq.status(pointer) == LibPQ.connectionOK else {
            let error = Self.connectionError(pointer, pq, target: target)
            pq.finish(pointer)
            throw error
        }
        self.pointer = pointer
        _ = pq.setNoticeProcessor(
            pointer,
            { context, message in
                guard let context, let message else { return }
                Unmanaged<NoticeBox>.fromOpaque(context).takeUnretainedValue().add(String(cString: message))
            }, Unmanaged.passUnretained(noticeBox).toOpaque())
    }

    /// Connects to a URL or key/value string (see `PostgresTarget`).
    public convenience init(url: String) throws(PostgresError) {
        try self.init(try PostgresTarget(url))
    }

    deinit {
        pq.finish(pointer)
    }

    /// The server, as connected, without a password: `postgresql://app@127.0.0.1:5432/notes`,
    /// or `postgresql://app@/notes?host=/run/postgresql&port=5432` for a Unix socket.
    public var displayName: String { Self.displayName(pointer, pq) }

    /// The server's version as a number, e.g. 150018 for 15.18.
    public var serverVersion: Int { Int(pq.serverVersion(pointer)) }

    /// The notices the server sent so far (`NOTICE: … skipping`), oldest first.
    public var notices: [String] { noticeBox.messages }

    /// Runs one or more statements separated by semicolons, with no parameters and no result.
    public func execute(_ sql: String) throws(PostgresError) {
        let result = pq.exec(pointer, sql)
        defer { pq.clear(result) }
        try check(result, statement: sql)
    }

    /// Runs one statement with `$1`, `$2`, … bound to `parameters` (text, or nil for NULL)
    /// and returns its rows as text.
    @discardableResult
    public func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresResult {
        // libpq takes text parameters as C strings, which end at a NUL: refuse, rather than cut.
        if let index = parameters.firstIndex(where: { $0?.utf8.contains(0) == true }) {
            throw PostgresError(
                kind: .statement, message: "parameter $\(index + 1) contains a NUL character, which PostgreSQL text cannot hold", statement: sql, target: displayName)
        }
        let result = Self.withCStrings(parameters) { values in
            pq.execParams(pointer, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        defer { pq.clear(result) }
        try check(result, statement: sql)
        return PostgresResult(result!, pq)
    }

    /// The first column of the first row, or nil when there is no row or it is NULL.
    public func scalar(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> String? {
        let result = try query(sql, parameters)
        return result.rows.first?.first ?? nil
    }

    /// The connection's socket: readable when the server sent something, such as a
    /// notification on a channel the connection listens to.
    var socket: Int32 { pq.socket(pointer) }

    /// The notifications the server sent since the last call, as channel and payload, without
    /// waiting. Throws when the connection is lost.
    func takeNotifications() throws(PostgresError) -> [(channel: String, payload: String)] {
        guard pq.consumeInput(pointer) == 1 else {
            throw PostgresError(kind: .connection, message: "the connection was lost: " + Self.trimmed(pq.errorMessage(pointer)), target: displayName)
        }
        var notifications: [(channel: String, payload: String)] = []
        while let notification = pq.notifies(pointer) {
            let fields = notification.load(as: LibPQ.Notify.self)
            notifications.append((String(cString: fields.relname), String(cString: fields.extra)))
            pq.freemem(notification)
        }
        return notifications
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    // MARK: - Errors

    private func check(_ result: OpaquePointer?, statement: String) throws(PostgresError) {
        guard let result else {
            throw Self.connectionError(pointer, pq, target: target, statement: statement)
        }
        switch pq.resultStatus(result) {
        case LibPQ.ExecStatus.commandOK, LibPQ.ExecStatus.tuplesOK, LibPQ.ExecStatus.emptyQuery:
            return
        case LibPQ.ExecStatus.copyIn, LibPQ.ExecStatus.copyOut, LibPQ.ExecStatus.copyBoth:
            // Nothing here speaks COPY's sub-protocol; leave the connection usable.
            while let pending = pq.getResult(pointer) { pq.clear(pending) }
            throw PostgresError(kind: .statement, message: "COPY is not supported through this connection", statement: statement, target: Self.displayName(pointer, pq))
        default:
            if pq.status(pointer) != LibPQ.connectionOK {
                throw Self.connectionError(pointer, pq, target: target, statement: statement)
            }
            func field(_ code: UInt8) -> String? {
                pq.resultErrorField(result, Int32(code)).map { String(cString: $0) }
            }
            // The diagnostic field codes of libpq's PG_DIAG_* macros.
            throw PostgresError(
                kind: .statement,
                sqlState: field(UInt8(ascii: "C")) ?? "",
                message: field(UInt8(ascii: "M")) ?? Self.trimmed(pq.resultErrorMessage(result)),
                detail: field(UInt8(ascii: "D")),
                hint: field(UInt8(ascii: "H")),
                statement: statement,
                target: Self.displayName(pointer, pq)
            )
        }
    }

    private static func connectionError(_ pointer: OpaquePointer, _ pq: LibPQ, target: PostgresTarget, statement: String? = nil) -> PostgresError {
        var message = target.redacting(trimmed(pq.errorMessage(pointer)))
        if message.isEmpty { message = "the connection failed" }
        let hint: String
        if pq.connectionNeedsPassword(pointer) == 1 {
            hint = "the server wants a password: set PGPASSWORD, add the server to ~/.pgpass, or put it in the URL"
        } else if pq.status(pointer) == LibPQ.connectionOK || statement != nil {
            hint = "the connection broke; check that the server still runs, then try again"
        } else {
            hint = "check the URL (postgresql://user@host:port/database), that the server runs and accepts connections from here, and the user's password"
        }
        return PostgresError(kind: .connection, message: message, hint: hint, statement: statement, target: displayName(pointer, pq))
    }

    /// `postgresql://user@host:port/database` from what libpq resolved (URL, environment and
    /// defaults), never with the password.
    static func displayName(_ pointer: OpaquePointer, _ pq: LibPQ) -> String {
        func text(_ value: UnsafeMutablePointer<CChar>?) -> String { value.map { String(cString: $0) } ?? "" }
        let host = text(pq.host(pointer))
        let port = text(pq.port(pointer))
        let user = text(pq.user(pointer))
        let database = text(pq.database(pointer))
        let credentials = user.isEmpty ? "" : user + "@"
        // A Unix socket's folder goes in the query, where libpq reads it too.
        if host.hasPrefix("/") {
            return "postgresql://" + credentials + "/" + database + "?host=" + host + (port.isEmpty ? "" : "&port=" + port)
        }
        let authority = host.contains(":") ? "[\(host)]" : host
        return "postgresql://" + credentials + authority + (port.isEmpty ? "" : ":" + port) + "/" + database
    }

    /// libpq's message on one line: its lines (`…failed: Connection refused` and a tab-indented
    /// `Is the server running…`) joined by "; ".
    private static func trimmed(_ message: UnsafeMutablePointer<CChar>?) -> String {
        guard let message else { return "" }
        return oneLine(String(cString: message))
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline)
            .map { line in String(line.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }

    private static func withCStrings<R>(_ values: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        var storage: [[CChar]?] = values.map { $0.map { Array($0.utf8CString) } }
        func pointers(_ index: Int, _ collected: [UnsafePointer<CChar>?]) -> R {
            guard index < storage.count else { return body(collected) }
            guard storage[index] != nil else { return pointers(index + 1, collected + [nil]) }
            return storage[index]!.withUnsafeBufferPointer { pointers(index + 1, collected + [$0.baseAddress]) }
        }
        defer { storage.removeAll() }
        return pointers(0, [])
    }
}

/// The rows of one statement, as text.
public struct PostgresResult: Sendable {
    /// The column names, in order.
    public var columns: [String]
    /// The columns' type OIDs (`pg_type.oid`: 25 text, 20 int8, 2950 uuid …).
    public var types: [UInt32]
    /// Each row's values, nil for NULL.
    public var rows: [[String?]]
    /// The number of rows the statement changed (`UPDATE 3` → 3), 0 when it says none.
    public var affectedRows: Int

    init(_ result: OpaquePointer, _ pq: LibPQ) {
        let columnCount = Int(pq.nfields(result))
        columns = (0..<columnCount).map { pq.fname(result, Int32($0)).map { String(cString: $0) } ?? "" }
        types = (0..<columnCount).map { pq.ftype(result, Int32($0)) }
        rows = (0..<Int(pq.ntuples(result))).map { row in
            (0..<columnCount).map { column in
                pq.getisnull(result, Int32(row), Int32(column)) == 1 ? nil : pq.getvalue(result, Int32(row), Int32(column)).map { String(cString: $0) }
            }
        }
        affectedRows = pq.cmdTuples(result).map { Int(String(cString: $0)) ?? 0 } ?? 0
    }
}

/// The notices a connection received; libpq calls its processor on the connection's thread.
private final class NoticeBox {
    private(set) var messages: [String] = []

    func add(_ message: String) {
        var text = message
        while let last = text.last, last.isWhitespace { text.removeLast() }
        messages.append(text)
    }
}
