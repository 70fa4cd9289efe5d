/// A JSON value as the data tools read and write it: integers kept apart from doubles so
/// that 64-bit integers round-trip exactly, object keys in document order.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }

    /// The member `key` of an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }

    /// What kind of value this is, for error messages: "a string", "an array".
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text.
    public var description: String {
        var out = ""
        JSONWriter(indent: nil).write(self, to: &out, depth: 0)
        return out
    }

    /// JSON text indented by two spaces, object keys in their order.
    public var prettyText: String {
        prettyText(observing: nil)
    }

    /// `prettyText`, telling `observer` the key of each member of the outer object as its
    /// value starts, and nil after each element of an array that is such a value: the object
    /// types and objects of an export document, as they are written.
    package func prettyText(observing observer: ((String?) -> Void)?) -> String {
        var out = ""
        JSONWriter(indent: "  ").write(self, to: &out, depth: 0, observer: observer)
        return out + "\n"
    }
}

/// Writes JSON text.
struct JSONWriter {
    let indent: String?

    /// Writes `value` at `depth`; `observer` (see `JSONValue.prettyText(observing:)`) hears of
    /// the members of an object at depth 0 and of the elements of arrays at depth 1.
    func write(_ value: JSONValue, to out: inout String, depth: Int, observer: ((String?) -> Void)? = nil) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let number): out += String(number)
        case .double(let number):
            if number.isNaN {
                out += "\"NaN\""
            } else if number.isInfinite {
                out += number < 0 ? "\"-Infinity\"" : "\"+Infinity\""
            } else {
                let text = "\(number)"
                out += text.contains(".") || text.contains("e") ? text : text + ".0"
            }
        case .string(let text): Self.string(text, to: &out)
        case .array(let elements):
            if elements.isEmpty {
                out += "[]"
                return
            }
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                newline(&out, depth + 1)
                write(element, to: &out, depth: depth + 1)
                if depth == 1 { observer?(nil) }
            }
            newline(&out, depth)
            out += "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            for (index, (key, element)) in members.enumerated() {
                if index > 0 { out += "," }
                newline(&out, depth + 1)
                Self.string(key, to: &out)
                out += indent == nil ? ":" : ": "
                if depth == 0 { observer?(key) }
                write(element, to: &out, depth: depth + 1, observer: depth == 0 ? observer : nil)
            }
            newline(&out, depth)
            out += "}"
        }
    }

    private func newline(_ out: inout String, _ depth: Int) {
        guard let indent else { return }
        out += "\n" + String(repeating: indent, count: depth)
    }

    static func string(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

/// A JSON syntax error with its 1-based line and column.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(line):\(column): \(message)" }
}

/// Parses JSON text (RFC 8259), keeping integers exact and object keys in order.
public struct JSONParser {
    /// The longest string a store can hold, in bytes: SQLite's limit on one value (its
    /// `SQLITE_MAX_LENGTH`), which PostgreSQL's 1 GB per field also allows. A longer string
    /// is refused where it starts, before the rest of it is decoded.
    public static let maximumStringBytes = 1_000_000_000

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private let maximumStringBytes: Int

    public init(_ text: String, maximumStringBytes: Int = JSONParser.maximumStringBytes) {
        bytes = Array(text.utf8)
        self.maximumStringBytes = maximumStringBytes
    }

    public init(bytes: [UInt8], maximumStringBytes: Int = JSONParser.maximumStringBytes) {
        self.bytes = bytes
        self.maximumStringBytes = maximumStringBytes
    }

    /// The document's value.
    ///
    /// Refused, as RFC 8259 allows a parser to: text that is not UTF-8 (instead of replacing
    /// bytes with U+FFFD), an object with the same key twice (instead of keeping one value),
    /// and numbers beyond a double's range.
    public mutating func parse() throws(JSONSyntaxError) -> JSONValue {
        if let offset = Self.firstInvalidUTF8(bytes) {
            index = offset
            let hex = String(bytes[offset], radix: 16, uppercase: true)
            throw error("invalid UTF-8 at byte offset \(offset) (byte 0x\(hex.count == 1 ? "0" : "")\(hex)); save the file as UTF-8")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        let value = try parseValue()
        skipSpace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        skipSpace()
        guard index < bytes.count else { throw error("unexpected end of the document") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var members: [(String, JSONValue)] = []
        var keys: [String: Int] = [:]
        skipSpace()
        if peek == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyStart = index
            let key = try parseString()
            if let first = keys.updateValue(keyStart, forKey: key) {
                let firstPlace = position(of: first)
                index = keyStart
                throw error("duplicate key \"\(key)\" in an object (first at line \(firstPlace.line), column \(firstPlace.column)); keep one of them")
            }
            skipSpace()
            guard peek == UInt8(ascii: ":") else { throw error("expected ':' after the key \"\(key)\"") }
            index += 1
            members.append((key, try parseValue()))
            skipSpace()
            if peek == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if peek == UInt8(ascii: "}") {
                index += 1
                break
            }
            throw error("expected ',' or '}' in an object")
        }
        depth -= 1
        return .object(members)
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipSpace()
            if peek == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if peek == UInt8(ascii: "]") {
                index += 1
                break
            }
            throw error("expected ',' or ']' in an array")
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > 512 { throw error("the document nests deeper than 512 levels") }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        // Where the string would pass the limit, were it all plain bytes: checked when the
        // scan gets there, and then against what is decoded.
        var checkAt = start + maximumStringBytes
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        while index < bytes.count {
            if index > checkAt {
                if run.count + scalars.count > maximumStringBytes {
                    index = start
                    throw error(
                        "a string of more than \(maximumStringBytes) bytes: no store can hold one value that long; keep the text in a file and store its path, or split it"
                    )
                }
                checkAt = index + (maximumStringBytes - run.count - scalars.count)
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                var result = String(scalars)
                result += String(decoding: run, as: UTF8.self)
                return result
            }
            if byte < 0x20 { throw error("control character in a string: escape it") }
            if byte == UInt8(ascii: "\\") {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll(keepingCapacity: true)
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{c}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code), peek == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid surrogate pair") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape (a lone surrogate)") }
                    scalars.append(scalar)
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            } else {
                run.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var isInteger = true
        if peek == UInt8(ascii: "-") { index += 1 }
        while let byte = peek {
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                index += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                isInteger = false
                index += 1
            } else {
                break
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        let shown = text.count <= 40 ? text : String(text.prefix(37)) + "…"
        guard Self.isJSONNumber(bytes[start..<index]) else {
            index = start
            throw error("invalid number '\(shown)': write digits with an optional '-', '.' fraction and exponent, without leading zeros")
        }
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("the number '\(shown)' is beyond the range of a double (about ±1.8e308)")
        }
        // One rule for numbers a double cannot hold: refused, too large or too small, rather
        // than stored as another number (a non-zero number that would become 0).
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        if value == 0, mantissa.contains(where: { ("1"..."9").contains($0) }) {
            index = start
            throw error("the number '\(shown)' is too small for a double (about ±4.9e-324): it would be stored as 0; write 0 if 0 is meant")
        }
        return .double(value)
    }

    /// Whether `text` is a number by RFC 8259's grammar: `-`? (`0` | [1-9][0-9]*)
    /// (`.` [0-9]+)? ([eE] [+-]? [0-9]+)?.
    private static func isJSONNumber(_ text: ArraySlice<UInt8>) -> Bool {
        var rest = text
        let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        let integer = rest.prefix(while: isDigit)
        guard !integer.isEmpty, integer.count == 1 || integer.first != UInt8(ascii: "0") else { return false }
        rest = rest.dropFirst(integer.count)
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            let fraction = rest.prefix(while: isDigit)
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(fraction.count)
        }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
            let exponent = rest.prefix(while: isDigit)
            guard !exponent.isEmpty else { return false }
            rest = rest.dropFirst(exponent.count)
        }
        return rest.isEmpty
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else { throw error("invalid literal") }
        index += utf8.count
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private func error(_ message: String) -> JSONSyntaxError {
        let place = position(of: index)
        return JSONSyntaxError(line: place.line, column: place.column, message: message)
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    private func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// The offset of the first byte that does not begin or continue a well-formed UTF-8
    /// sequence (no overlong forms, surrogates or code points beyond U+10FFFF), or `nil`.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                second = 0xA0...0xBF
            case 0xED:
                length = 3
                second = 0x80...0x9F
            case 0xE1...0xEF: length = 3
            case 0xF0:
                length = 4
                second = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                second = 0x80...0x8F
            default: return index
            }
            guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return index }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return index + offset }
            index += length
        }
        return nil
    }
}
