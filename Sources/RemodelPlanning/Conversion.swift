import RemodelCore
import RemodelLayout

/// How `convert` turns a stored value of one type into another: a test for values that
/// convert, and the converted value, both as SQL over the old value. Every rule is set-based,
/// so a million objects convert in one statement.
///
/// Text is trimmed of spaces, tabs and newlines before it is parsed. Integers parse only
/// whole decimal numbers (`"12.5"` does not become 12); reals accept decimal and exponent
/// notation; booleans accept true/false, yes/no, on/off, 1/0 in any case.
package struct Conversion {
    /// The text that reads as a bool (compared in lower case): in `convert` from text, and as
    /// `mapValues` keys of an old bool property.
    static let truthWords = ["true", "yes", "on", "1"]
    static let falsehoodWords = ["false", "no", "off", "0"]

    /// True when the non-NULL operand converts; `nil` when every value does.
    package var test: SQLExpression?
    /// The converted value.
    package var value: SQLExpression
    /// Whether `value` is NULL exactly when a non-NULL operand does not convert, so that
    /// `coalesce(value, fallback)` evaluates the conversion once instead of twice.
    var nullWhenInvalid = false

    /// The converted value, or `fallback` for a non-NULL operand that does not convert.
    package func value(orElse fallback: SQLExpression) -> SQLExpression {
        if nullWhenInvalid { return fallback.isNullLiteral ? value : .call(.coalesce, value, fallback) }
        guard let test else { return value }
        return .caseWhen(operand: nil, branches: [SQLCaseBranch(test, value)], otherwise: fallback)
    }

    /// The values a conversion to `type` accepts, for the hints of data errors, when they
    /// are narrower than the type's name suggests.
    static func acceptedValues(of type: PropertyType) -> String? {
        switch type.scalar {
        case .date?: "dates convert from ISO 8601 text within \(ISODateText.rangeDescription)"
        case .float?: "floats hold numbers within ±\(Float.greatestFiniteMagnitude), written in decimal"
        case .double?: "doubles convert from decimal text such as 1.5 or -2e10 (not NaN, which SQLite cannot store)"
        case .decimal128?: "decimals convert from decimal text with at most \(DecimalText.maximumDigits) significant digits"
        case .url?: "URLs convert from text that is a URL, such as https://example.com (not empty text), as import accepts them"
        default: nil
        }
    }

    /// A conversion by a function that returns NULL for values that do not convert.
    static func parsed(by call: SQLExpression) -> Conversion {
        Conversion(test: .isNotNull(call), value: call, nullWhenInvalid: true)
    }

    /// The conversion between two single-value types, or `nil` when there is none.
    package static func between(_ from: PropertyType, in fromSchema: Schema, _ to: PropertyType, in toSchema: Schema, operand v: SQLExpression) -> Conversion? {
        switch (from.base, to.base) {
        case (.scalar(let a), .scalar(let b)):
            return scalar(a, b, v)
        case (.enumeration(let name), .scalar(let b)):
            guard let enumType = fromSchema.enumType(named: name) else { return nil }
            return scalar(enumType.rawType == .string ? .string : .int64, b, v)
        case (.scalar(let a), .enumeration(let name)):
            guard let enumType = toSchema.enumType(named: name) else { return nil }
            let rawType: ScalarType = enumType.rawType == .string ? .string : .int64
            guard let toRaw = scalar(a, rawType, v) else { return nil }
            let inCases = SQLExpression.inList(toRaw.value, enumType.cases.map { StoredLiteral.raw($0.rawValue) }, negated: false)
            return Conversion(test: toRaw.test.map { .binary(.and, $0, inCases) } ?? inCases, value: toRaw.value)
        case (.enumeration(let a), .enumeration(let b)):
            // Same raw values under a renamed enum; a changed enum is remapped by the planner.
            guard let fromEnum = fromSchema.enumType(named: a), let toEnum = toSchema.enumType(named: b), fromEnum.rawType == toEnum.rawType else { return nil }
            return Conversion(test: .inList(v, toEnum.cases.map { StoredLiteral.raw($0.rawValue) }, negated: false), value: v)
        case (.object(let a), .object(let b)) where a == b || toSchema.objectType(named: b)?.renamedFrom == a:
            return Conversion(test: nil, value: v)
        case (.object(let name), .scalar), (.object(let name), .enumeration):
            // A link becomes the primary key of the object it points at, which it stores.
            guard let target = fromSchema.objectType(named: name), !target.isEmbedded, let key = target.primaryKeyProperty?.storedType else { return nil }
            return between(PropertyType(key.base), in: fromSchema, to, in: toSchema, operand: v)
        default:
            return nil
        }
    }

    private static func scalar(_ from: ScalarType, _ to: ScalarType, _ v: SQLExpression) -> Conversion? {
        let trimmed = SQLExpression.call(.trimWhitespace, v)
        func range(_ type: ScalarType) -> (SQLExpression, SQLExpression) {
            let range = type.integerRange!
            return (.integer(range.lowerBound), .integer(range.upperBound))
        }
        switch (from, to) {
        case (let a, let b) where a == b:
            return Conversion(test: nil, value: v)
        case (let a, let b) where a.isInteger && b.isInteger:
            let target = b.integerRange!
            let source = a.integerRange!
            let fits = target.lowerBound <= source.lowerBound && target.upperBound >= source.upperBound
            let (lower, upper) = range(b)
            return Conversion(test: fits ? nil : .between(v, lower: lower, upper: upper), value: v)
        case (let a, .double) where a.isInteger || a == .float, (let a, .float) where a.isInteger:
            return Conversion(test: nil, value: .cast(v, .real))
        case (.double, .float):
            // Finite doubles beyond Float's range do not convert; infinities do.
            let limit = SQLExpression.real(Double(Float.greatestFiniteMagnitude))
            let fits = SQLExpression.binary(
                .or, .between(v, lower: .real(-Double(Float.greatestFiniteMagnitude)), upper: limit),
                .inList(v, [.real(.infinity), .real(-.infinity)], negated: false))
            return Conversion(test: fits, value: v)
        case (.double, let b) where b.isInteger, (.float, let b) where b.isInteger:
            let (lower, upper) = range(b)
            let whole = SQLExpression.equals(v, .cast(v, .integer))
            return Conversion(test: .binary(.and, whole, .between(v, lower: lower, upper: upper)), value: .cast(v, .integer))
        case (.bool, let b) where b.isInteger:
            return Conversion(test: nil, value: v)
        case (let a, .bool) where a.isInteger:
            return Conversion(test: .inList(v, [.integer(0), .integer(1)], negated: false), value: v)
        case (.string, let b) where b.isInteger:
            // Whole decimal numbers only, with an optional sign and at most 18 significant
            // digits, that fit the target type (NULL for the rest).
            let (lower, upper) = range(b)
            return .parsed(by: .call(.parseInteger, v, lower, upper))
        case (.string, let b) where b == .double || b == .float:
            // Decimal text only (not hexadecimal, NaN or infinities), within the target's range.
            let limit = b == .float ? Double(Float.greatestFiniteMagnitude) : Double.greatestFiniteMagnitude
            return .parsed(by: .call(.parseReal, trimmed, .real(limit)))
        case (.string, .bool):
            let lowered = SQLExpression.call(.lower, trimmed)
            let truths: [SQLExpression] = Self.truthWords.map { .text($0) }
            let falsehoods: [SQLExpression] = Self.falsehoodWords.map { .text($0) }
            return Conversion(test: .inList(lowered, truths + falsehoods, negated: false), value: .inList(lowered, truths, negated: false))
        case (.url, .string), (.decimal128, .string):
            return Conversion(test: nil, value: v)
        case (.string, .url):
            return .parsed(by: .call(.parseURL, trimmed))
        case (.string, .decimal128):
            return .parsed(by: .call(.parseDecimal, trimmed))
        case (.string, .uuid):
            return .parsed(by: .call(.parseUUID, trimmed))
        case (.string, .objectId):
            return .parsed(by: .call(.parseObjectID, trimmed))
        case (.string, .date):
            return .parsed(by: .call(.parseDate, trimmed))
        case (let a, .string) where a.isInteger || a == .double || a == .float:
            return Conversion(test: nil, value: .cast(v, .text))
        case (.bool, .string):
            return Conversion(test: nil, value: .caseWhen(operand: nil, branches: [SQLCaseBranch(v, .text("true"))], otherwise: .text("false")))
        case (.uuid, .string):
            return Conversion(test: nil, value: .call(.formatUUID, v))
        case (.objectId, .string):
            return Conversion(test: nil, value: .call(.lower, .call(.hex, v)))
        case (.date, .string):
            return Conversion(test: nil, value: .call(.formatDate, v))
        case (.string, .data):
            return Conversion(test: nil, value: .cast(v, .blob))
        case (.data, .string):
            return Conversion(test: .call(.isUTF8, v), value: .cast(v, .text))
        default:
            return nil
        }
    }
}
