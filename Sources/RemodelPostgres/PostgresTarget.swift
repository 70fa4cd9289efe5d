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
        guard Self.isURL(text), let question = Self.queryStart(ofURL: text) else {
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
                target: Self.redactedURL(String(base))
            )
        }
        schema = chosen
        connectionString = kept.isEmpty ? String(base) : String(base) + "?" + kept.joined(separator: "&")
    }

    /// The URL or key/value string with every password replaced by `***`, for messages that
    /// must say which server was meant before a connection exists.
    public var redacted: String {
        Self.isURL(connectionString) ? Self.redactedURL(connectionString) : Self.redactedKeyValues(connectionString)
    }

    /// What to pass as `--store` to reach the same store again, without a password: the
    /// redacted URL, with `schema=` when the store is not in `public`.
    public var storeArgument: String {
        guard Self.isURL(connectionString), schema != Self.defaultSchema else { return redacted }
        var encoded = ""
        for byte in schema.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return redacted + (redacted.contains("?") ? "&" : "?") + "schema=" + encoded
    }

    /// Whether `key` holds a secret: `password`, `sslpassword`, any key ending in "password".
    static func isSecretKey(_ key: some StringProtocol) -> Bool {
        key.lowercased().hasSuffix("password")
    }

    /// Where a URL's user part ends: its last `@` (a password may hold `/`, `?` or `#`, which
    /// a host and a path before the query do not), or nil without one.
    private static func userInfoEnd(ofURL url: String) -> String.Index? {
        url.lastIndex(of: "@")
    }

    /// The `?` that starts a URL's query: the first after its user part.
    static func queryStart(ofURL url: String) -> String.Index? {
        let from = userInfoEnd(ofURL: url) ?? url.firstRange(of: "://")?.upperBound ?? url.startIndex
        return url[from...].firstIndex(of: "?")
    }

    /// The secrets a connection string holds: a URL's password, the values of `*password`
    /// keys. libpq quotes parts of the string in some of its messages; these are taken out.
    var secrets: [String] {
        var found: [String] = []
        if Self.isURL(connectionString) {
            if let at = Self.userInfoEnd(ofURL: connectionString), let scheme = connectionString.firstRange(of: "://"), scheme.upperBound <= at,
                let colon = connectionString[scheme.upperBound..<at].firstIndex(of: ":")
            {
                let password = String(connectionString[connectionString.index(after: colon)..<at])
                found += [password, Self.percentDecoded(Substring(password))]
            }
            if let question = Self.queryStart(ofURL: connectionString) {
                for parameter in connectionString[connectionString.index(after: question)...].split(separator: "&") {
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    if pair.count == 2, Self.isSecretKey(pair[0]) { found += [String(pair[1]), Self.percentDecoded(pair[1])] }
                }
            }
        } else {
            found = Self.keyValues(connectionString).filter { Self.isSecretKey($0.key) }.map(\.value)
        }
        return found.filter { !$0.isEmpty }
    }

    /// `text` with every secret of this target replaced by `***`.
    func redacting(_ text: String) -> String {
        var result = text
        for secret in secrets.sorted(by: { $0.count > $1.count }) { result = result.replacing(secret, with: "***") }
        return result
    }

    /// `postgresql://user:secret@host/db?sslpassword=x` → `postgresql://user:***@host/db?sslpassword=***`.
    static func redactedURL(_ url: String) -> String {
        var text = url
        if let at = userInfoEnd(ofURL: text), let scheme = text.firstRange(of: "://"), scheme.upperBound <= at,
            let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
        {
            text.replaceSubrange(text.index(after: colon)..<at, with: "***")
        }
        if let question = queryStart(ofURL: text) {
            let parameters = text[text.index(after: question)...].split(separator: "&").map { parameter in
                let key = parameter.split(separator: "=", maxSplits: 1).first ?? ""
                return isSecretKey(key) ? key + "=***" : String(parameter)
            }
            text = String(text[...question]) + parameters.joined(separator: "&")
        }
        return text
    }

    /// The key/value pairs of a libpq key/value string (`key = value`, values optionally in
    /// single quotes with backslash escapes), with where each value is written.
    static func keyValues(_ text: String) -> [(key: String, value: String, range: Range<String.Index>)] {
        var pairs: [(String, String, Range<String.Index>)] = []
        var index = text.startIndex
        func skipSpaces() { while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) } }
        while true {
            skipSpaces()
            guard index < text.endIndex else { break }
            let keyStart = index
            while index < text.endIndex, text[index] != "=", !text[index].isWhitespace { index = text.index(after: index) }
            let key = String(text[keyStart..<index])
            skipSpaces()
            guard index < text.endIndex, text[index] == "=" else { break }
            index = text.index(after: index)
            skipSpaces()
            let valueStart = index
            var value = ""
            if index < text.endIndex, text[index] == "'" {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "'" {
                    if text[index] == "\\", text.index(after: index) < text.endIndex { index = text.index(after: index) }
                    value.append(text[index])
                    index = text.index(after: index)
                }
                if index < text.endIndex { index = text.index(after: index) }
            } else {
                while index < text.endIndex, !text[index].isWhitespace {
                    value.append(text[index])
                    index = text.index(after: index)
                }
            }
            pairs.append((key, value, valueStart..<index))
        }
        return pairs
    }

    /// `host=x password='a b' sslpassword=y` → `host=x password=*** sslpassword=***`.
    static func redactedKeyValues(_ text: String) -> String {
        var result = text
        for pair in keyValues(text).reversed() where isSecretKey(pair.key) {
            result.replaceSubrange(pair.range, with: "***")
        }
        return result
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
