import RemodelCore

/// How `convert` turns a stored value of one type into another, in SQL: a test for values
/// that convert, and the converted value. Every rule is set-based, so a million objects
/// convert in one statement.
///
/// Text is trimmed of spaces, tabs and newlines before it is parsed. Integers parse only
/// whole decimal numbers (`"12.5"` does not become 12); reals accept decimal and exponent
/// notation; booleans accept true/false, yes/no, on/off, 1/0 in any case.
struct Conversion {
    /// SQL that is true when the non-NULL operand converts; `nil` when every value does.
    var test: String?
    /// SQL of the converted value.
    var value: String
    /// Whether `value` is NULL exactly when a non-NULL operand does not convert, so that
    /// `coalesce(value, fallback)` evaluates the conversion once instead of twice.
    var nullWhenInvalid = false

    /// The converted value, or `fallback` for a non-NULL operand that does not convert.
    func value(orElse fallback: String) -> String {
        if nullWhenInvalid { return "coalesce(\(value), \(fallback))" }
        return test.map { "CASE WHEN \($0) THEN \(value) ELSE \(fallback) END" } ?? value
    }

    /// A conversion by a function that returns NULL for values that do not convert.
    static func parsed(by call: String) -> Conversion {
        Conversion(test: "\(call) IS NOT NULL", value: call, nullWhenInvalid: true)
    }

    static let whitespace = "' ' || char(9) || char(10) || char(13)"

    /// The conversion between two single-value types, or `nil` when there is none.
    static func between(_ from: PropertyType, in fromSchema: Schema, _ to: PropertyType, in toSchema: Schema, operand v: String) -> Conversion? {
        switch (from.base, to.base) {
        case (.scalar(let a), .scalar(let b)):
            return scalar(a, b, v)
        case (.enumeration(let name), .scalar(let b)):
            guard let enumType = fromSchema.enumType(named: name) else { return nil }
            return scalar(enumType.rawType == .string ? .string : .int64, b, v)
        case (.scalar(let a), .enumeration(let name)):
            guard let enumType = toSchema.enumType(named: name) else { return nil }
            let raws = enumType.cases.map { StoredLiteral.raw($0.rawValue) }.joined(separator: ", ")
            let rawType: ScalarType = enumType.rawType == .string ? .string : .int64
            guard let toRaw = scalar(a, rawType, v) else { return nil }
            let inCases = "\(toRaw.value) IN (\(raws))"
            return Conversion(test: toRaw.test.map { "(\($0)) AND \(inCases)" } ?? inCases, value: toRaw.value)
        case (.enumeration(let a), .enumeration(let b)):
            // Same raw values under a renamed enum; a changed enum is remapped by the planner.
            guard let fromEnum = fromSchema.enumType(named: a), let toEnum = toSchema.enumType(named: b), fromEnum.rawType == toEnum.rawType else { return nil }
            let raws = toEnum.cases.map { StoredLiteral.raw($0.rawValue) }.joined(separator: ", ")
            return Conversion(test: "\(v) IN (\(raws))", value: v)
        case (.object(let a), .object(let b)) where a == b || toSchema.objectType(named: b)?.renamedFrom == a:
            return Conversion(test: nil, value: v)
        default:
            return nil
        }
    }

    private static func scalar(_ from: ScalarType, _ to: ScalarType, _ v: String) -> Conversion? {
        let trimmed = "trim(\(v), \(whitespace))"
        switch (from, to) {
        case (let a, let b) where a == b:
            return Conversion(test: nil, value: v)
        case (let a, let b) where a.isInteger && b.isInteger:
            let range = b.integerRange!
            let fromRange = a.integerRange!
            let fits = range.lowerBound <= fromRange.lowerBound && range.upperBound >= fromRange.upperBound
            return Conversion(test: fits ? nil : "\(v) BETWEEN \(range.lowerBound) AND \(range.upperBound)", value: v)
        case (let a, .double) where a.isInteger || a == .float, (let a, .float) where a.isInteger || a == .double:
            return Conversion(test: nil, value: "CAST(\(v) AS REAL)")
        case (.double, let b) where b.isInteger, (.float, let b) where b.isInteger:
            let range = b.integerRange!
            return Conversion(test: "\(v) = CAST(\(v) AS INTEGER) AND \(v) BETWEEN \(range.lowerBound) AND \(range.upperBound)", value: "CAST(\(v) AS INTEGER)")
        case (.bool, let b) where b.isInteger:
            return Conversion(test: nil, value: v)
        case (let a, .bool) where a.isInteger:
            return Conversion(test: "\(v) IN (0, 1)", value: v)
        case (.string, let b) where b.isInteger:
            // Whole decimal numbers only, with an optional sign and at most 18 significant
            // digits, that fit the target type (remodel_parse_integer: NULL for the rest).
            let range = b.integerRange!
            return .parsed(by: "\(MigrationFunctions.parseInteger)(\(v), \(range.lowerBound), \(range.upperBound))")
        case (.string, .double), (.string, .float):
            return Conversion(test: "\(MigrationFunctions.isReal)(\(trimmed))", value: "CAST(\(trimmed) AS REAL)")
        case (.string, .bool):
            let lowered = "lower(\(trimmed))"
            return Conversion(
                test: "\(lowered) IN ('true', 'yes', 'on', '1', 'false', 'no', 'off', '0')",
                value: "(\(lowered) IN ('true', 'yes', 'on', '1'))"
            )
        case (.string, .url), (.url, .string), (.decimal128, .string):
            return Conversion(test: nil, value: v)
        case (.string, .decimal128):
            return Conversion(test: "\(MigrationFunctions.isReal)(\(trimmed))", value: trimmed)
        case (.string, .uuid):
            return .parsed(by: "\(MigrationFunctions.parseUUID)(\(trimmed))")
        case (.string, .objectId):
            return .parsed(by: "\(MigrationFunctions.parseObjectID)(\(trimmed))")
        case (.string, .date):
            return .parsed(by: "\(MigrationFunctions.parseDate)(\(trimmed))")
        case (let a, .string) where a.isInteger || a == .double || a == .float:
            return Conversion(test: nil, value: "CAST(\(v) AS TEXT)")
        case (.bool, .string):
            return Conversion(test: nil, value: "(CASE WHEN \(v) THEN 'true' ELSE 'false' END)")
        case (.uuid, .string):
            return Conversion(test: nil, value: "\(MigrationFunctions.formatUUID)(\(v))")
        case (.objectId, .string):
            return Conversion(test: nil, value: "lower(hex(\(v)))")
        case (.date, .string):
            return Conversion(test: nil, value: "\(MigrationFunctions.formatDate)(\(v))")
        case (.string, .data):
            return Conversion(test: nil, value: "CAST(\(v) AS BLOB)")
        case (.data, .string):
            return Conversion(test: "\(MigrationFunctions.isUTF8)(\(v))", value: "CAST(\(v) AS TEXT)")
        default:
            return nil
        }
    }
}
