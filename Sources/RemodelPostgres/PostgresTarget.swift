/// Which PostgreSQL database a store lives in, and in which of its schemas: a libpq URL
/// (`postgresql://app@db.internal:5432/notes?sslmode=require&schema=remodel`) or a libpq
/// key/value string (`host=/run/postgresql dbname=notes`).
///
/// `schema` is Remodel's own URL parameter (libpq refuses parameters it does not know), so
/// it is taken out before libpq sees the rest. Passwords come from `PGPASSWORD` or
/// `~/.pgpass` as libpq reads them, or from the URL; no message Remodel writes contains one.
public struct PostgresTarget: Hashable, Sendable {
    /// What libpq receives.
    public var connectionString: String
    /// The schema the store's tables live in: `public` unless `?schema=` names another.
    public var schema: String

    /// The default schema.
    public static let defaultSchema = "public"

    /// Whether `text` is a PostgreSQL URL rather than a file path.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Parses a URL or a key/value string; throws when `?schema=` is empty or repeated.
    public init(_ text: String) throws(PostgresError) {
        schema = Self.defaultSchema
        guard Self.isURL(text), let question = text.firstIndex(of: "?") else {
            connectionString = text
            return
        }
        var kept: [Substring] = []
        var schemas: [String] = []
        for parameter in text[text.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true) {
            if parameter.hasPrefix("schema=") {
                schemas.append(Self.percentDecoded(parameter.dropFirst("schema=".count)))
            } else {
                kept.append(parameter)
            }
        }
        let base = text[..<question]
        let chosen = schemas.first ?? Self.defaultSchema
        guard schemas.count <= 1, !chosen.isEmpty, chosen.utf8.count <= 63 else {
            throw PostgresError(
                kind: .connection, message: "the URL's 'schema' parameter must name one schema of at most 63 bytes, as in '?schema=remodel'",
                target: Self.displayName(ofURL: String(base))
            )
        }
        schema = chosen
        connectionString = kept.isEmpty ? String(base) : String(base) + "?" + kept.joined(separator: "&")
    }

    /// The URL or key/value string with any password replaced by `***`, for messages that
    /// must say which server was meant before a connection exists.
    public var redacted: String {
        Self.isURL(connectionString) ? Self.displayName(ofURL: connectionString) : Self.redactedKeyValues(connectionString)
    }

    /// `postgresql://user:secret@host/db?x=y` → `postgresql://user:***@host/db?x=y`; also
    /// `password=` among the query parameters.
    static func displayName(ofURL url: String) -> String {
        var text = url
        if let scheme = text.firstRange(of: "://") {
            let authorityEnd = text[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? text.endIndex
            let authority = text[scheme.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        if let question = text.firstIndex(of: "?") {
            let parameters = text[text.index(after: question)...].split(separator: "&").map { parameter in
                parameter.hasPrefix("password=") ? "password=***" : String(parameter)
            }
            text = String(text[...question]) + parameters.joined(separator: "&")
        }
        return text
    }

    /// `host=x password=secret` → `host=x password=***` (also `password = 'a b'`).
    static func redactedKeyValues(_ text: String) -> String {
        guard let range = text.firstRange(of: "password") else { return text }
        var index = range.upperBound
        while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
        guard index < text.endIndex, text[index] == "=" else { return text }
        index = text.index(after: index)
        while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
        var end = index
        if end < text.endIndex, text[end] == "'" {
            end = text.index(after: end)
            while end < text.endIndex, text[end] != "'" {
                if text[end] == "\\" { end = text.index(end, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex; continue }
                end = text.index(after: end)
            }
            if end < text.endIndex { end = text.index(after: end) }
        } else {
            while end < text.endIndex, text[end] != " " { end = text.index(after: end) }
        }
        return String(text[..<index]) + "***" + redactedKeyValues(String(text[end...]))
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
