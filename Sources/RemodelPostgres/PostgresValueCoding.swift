import RemodelCore
import RemodelLayout
import RemodelStore

/// Moves one value between its stored form (`StoreValue`, the SQLite store's and the JSON
/// format's currency) and PostgreSQL's text format, for one column of `PostgresLayout`.
///
/// Values are read through `selectExpression`, which asks the server for a text that keeps
/// them exactly and parses without locale or session settings: a date as its microseconds
/// since 1970, `bytea` as hexadecimal, a boolean as 0 or 1. What comes back is then the value
/// the SQLite store holds: the same microseconds, the same decimal text, embedded JSON with
/// its keys sorted again (`jsonb` keeps them in an order of its own).
package struct PostgresValueCoding: Sendable {
    /// What a column holds, as far as its text is concerned.
    package enum Kind: Sendable, Equatable {
        case scalar(ScalarType)
        case embedded
    }

    package let kind: Kind

    package init(_ kind: Kind) {
        self.kind = kind
    }

    /// The coding of one value of `type` (its element, for a collection) in `schema`.
    package init(type: PropertyType, schema: Schema) {
        switch try? StoreTypeMapping.storedKind(of: type.element, in: schema, context: "") {
        case .scalar(let scalar)?, .enumeration(let scalar)?, .link(_, _, let scalar)?: kind = .scalar(scalar)
        case .embedded?: kind = .embedded
        case nil: kind = .scalar(.string)
        }
    }

    /// The coding of a column of PostgreSQL type `columnType` (as `PostgresLayout` declares it).
    package init(columnType: PostgresColumnType) {
        switch columnType {
        case .boolean: kind = .scalar(.bool)
        case .smallint: kind = .scalar(.int16)
        case .integer: kind = .scalar(.int32)
        case .bigint: kind = .scalar(.int64)
        case .real: kind = .scalar(.float)
        case .doublePrecision: kind = .scalar(.double)
        case .bytea: kind = .scalar(.data)
        case .timestamptz: kind = .scalar(.date)
        case .numeric: kind = .scalar(.decimal128)
        case .uuid: kind = .scalar(.uuid)
        case .jsonb: kind = .embedded
        case .text: kind = .scalar(.string)
        }
    }

    /// The expression that reads `column` (already quoted and qualified as needed) as text
    /// `value(fromText:)` parses.
    package func selectExpression(_ column: String) -> String {
        switch kind {
        case .scalar(.date): PostgresFunctions.microseconds(of: column)
        case .scalar(.bool): "\(column)::integer"
        case .scalar(.data), .scalar(.objectId): "encode(\(column), 'hex')"
        default: column
        }
    }

    /// The stored value of a text `selectExpression` returned; `nil` text is NULL.
    package func value(fromText text: String?) throws -> StoreValue {
        guard let text else { return .null }
        func failure() -> PostgresValueError { PostgresValueError(text: text, kind: kind) }
        switch kind {
        case .embedded:
            var parser = JSONParser(text)
            guard let json = try? parser.parse() else { throw failure() }
            return .text(json.canonicalEmbeddedText)
        case .scalar(let scalar):
            switch scalar {
            case .bool, .int, .int8, .int16, .int32, .int64, .date:
                guard let number = Int64(text) else { throw failure() }
                return .integer(number)
            case .float:
                guard let number = Self.real(text).map({ Double(Float($0)) }) else { throw failure() }
                return .real(number)
            case .double:
                guard let number = Self.real(text) else { throw failure() }
                return .real(number)
            case .string, .url:
                return .text(text)
            case .decimal128:
                guard case .success(let stored) = DecimalText.stored(text) else { throw failure() }
                return .text(stored)
            case .data, .objectId:
                guard let bytes = Self.bytes(hex: text) else { throw failure() }
                return .blob(bytes)
            case .uuid:
                guard let bytes = Self.bytes(hex: text.replacingOccurrences(of: "-", with: "")), bytes.count == 16 else { throw failure() }
                return .blob(bytes)
            }
        }
    }

    /// The text parameter that writes `value` into the column (nil for NULL), or why it cannot.
    package func parameter(_ value: StoreValue) throws -> String? {
        func failure(_ reason: String) -> PostgresValueError { PostgresValueError(value: value, kind: kind, reason: reason) }
        if value.isNull { return nil }
        switch (kind, value) {
        case (.embedded, .text(let json)): return json
        case (.scalar(.bool), .integer(let number)): return number != 0 ? "true" : "false"
        case (.scalar(.date), .integer(let micros)):
            // PostgreSQL's timestamptz starts in 4713 BC; ISO 8601 text of years before 1 is not its syntax.
            guard micros >= Self.firstMicroseconds else { throw failure("PostgreSQL's timestamptz holds dates from the year 1 on here") }
            return StoreDateFormat.string(microseconds: micros)
        case (.scalar(let scalar), .integer(let number)) where scalar.isInteger: return String(number)
        case (.scalar(.float), .integer(let number)), (.scalar(.double), .integer(let number)): return String(number)
        case (.scalar(.float), .real(let number)), (.scalar(.double), .real(let number)):
            if number.isNaN { return "NaN" }
            if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
            return "\(number)"
        case (.scalar(.string), .text(let text)), (.scalar(.url), .text(let text)), (.scalar(.decimal128), .text(let text)):
            if text.utf8.contains(0) { throw failure("PostgreSQL's text cannot hold the character U+0000") }
            return text
        case (.scalar(.data), .blob(let bytes)), (.scalar(.objectId), .blob(let bytes)):
            return "\\x" + SQLiteRenderer.hexDigits(bytes)
        case (.scalar(.uuid), .blob(let bytes)) where bytes.count == 16:
            let digits = SQLiteRenderer.hexDigits(bytes)
            let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
                String(digits[digits.index(digits.startIndex, offsetBy: range.lowerBound)..<digits.index(digits.startIndex, offsetBy: range.upperBound)])
            }
            return parts.joined(separator: "-")
        default:
            throw failure("it is not the stored form of this column's type")
        }
    }

    /// 0001-01-01T00:00:00Z.
    static let firstMicroseconds: Int64 = -62_135_596_800 * 1_000_000

    private static func real(_ text: String) -> Double? {
        switch text {
        case "NaN": .nan
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        default: Double(text)
        }
    }

    private static func bytes(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}

/// A value that cannot move between the stored form and PostgreSQL's text.
package struct PostgresValueError: Error, CustomStringConvertible {
    package var description: String

    init(text: String, kind: PostgresValueCoding.Kind) {
        description = "PostgreSQL returned '\(text.prefix(80))', which is not a stored \(kind.name)"
    }

    init(value: StoreValue, kind: PostgresValueCoding.Kind, reason: String) {
        description = "\(value) cannot be written as \(kind.name): \(reason)"
    }
}

extension PostgresValueCoding.Kind {
    var name: String {
        switch self {
        case .scalar(let scalar): scalar.rawValue
        case .embedded: "embedded object"
        }
    }
}
