import Foundation
import RemodelCore

/// Reads a property's `default:` against the property's type: a plain `null` or `~` is null,
/// plain `$uuid` / `$objectId` / `$now` are generated values (a quoted `"$uuid"` is the
/// literal string), numbers are range-checked per type, dates are ISO 8601, and an enum's
/// default is one of its case names.
struct DefaultValueResolver {
    let log: DiagnosticLog

    /// The default written in `node` for a property of `type` (`what` names the property in
    /// messages), or `nil` after reporting why it does not fit.
    func resolve(_ node: YAMLNode, for type: PropertyType, enumType: EnumType?, what describe: @autoclosure () -> String) -> DefaultValue? {
        if let scalar = node.scalar, type.collection == nil, let fast = fastPath(scalar, type: type) { return fast }
        let what = describe()
        guard let scalar = node.scalar else {
            return mismatch(node, "the default of \(what) must be a single value, found \(node.kindDescription)", hint: "write one value after 'default:'")
        }
        if type.collection != nil {
            log.error(
                "default-on-collection", "collection \(what) cannot have a default", at: node.location,
                hint: "remove 'default': a \(type.collection!.rawValue) starts empty"
            )
            return nil
        }
        if scalar.isNull {
            if type.isOptional { return .null }
            return mismatch(node, "null is not a value of \(what), whose type '\(type)' is required", hint: "make the property optional ('\(type)?') or give a value")
        }
        if scalar.isPlain, scalar.text.hasPrefix("$") {
            return generated(scalar, node: node, type: type, what: what)
        }
        switch type.base {
        case .object(let name):
            return mismatch(node, "\(what) holds a '\(name)' object and can only default to null", hint: "remove 'default', or write 'default: null' on an optional property")
        case .enumeration(let name):
            return enumCase(scalar, node: node, enumType: enumType, enumName: name, what: what)
        case .scalar(let scalarType):
            return literal(scalar, node: node, scalarType: scalarType, what: what)
        }
    }

    /// The defaults large schemas are full of (`""`, `0`, `false`, `$uuid`, `$now`, plain
    /// strings), resolved without building messages.
    private func fastPath(_ scalar: YAMLScalar, type: PropertyType) -> DefaultValue? {
        switch type.scalar {
        case .string?:
            if scalar.isNull || (scalar.isPlain && scalar.text.hasPrefix("$")) { return nil }
            return .string(scalar.text)
        case .bool?:
            return scalar.bool.map(DefaultValue.bool)
        case .int?, .int64?:
            guard scalar.isPlain else { return nil }
            return IntegerLiteral.parse(scalar.text).map(DefaultValue.int)
        case .uuid?, .objectId?, .date?:
            guard scalar.isPlain, let generated = DefaultValue.Generated(rawValue: scalar.text) else { return nil }
            let fits =
                switch generated {
                case .uuid: type.scalar == .uuid
                case .objectId: type.scalar == .objectId
                case .now: type.scalar == .date
                }
            return fits ? .generated(generated) : nil
        default:
            return nil
        }
    }

    private func generated(_ scalar: YAMLScalar, node: YAMLNode, type: PropertyType, what: String) -> DefaultValue? {
        guard let value = DefaultValue.Generated(rawValue: scalar.text) else {
            let suggestion = Suggestion.closest(to: scalar.text, in: DefaultValue.Generated.allCases.map(\.rawValue))
            var hint = suggestion.map { "did you mean '\($0)'?" } ?? "generated defaults are $uuid, $objectId and $now"
            if type.scalar == .string { hint += "; quote it (\"\(scalar.text)\") for the literal string" }
            log.error("default-unknown-generator", "unknown generated default '\(scalar.text)' for \(what)", at: node.location, hint: hint)
            return nil
        }
        let fits =
            switch value {
            case .uuid: type.scalar == .uuid || type.scalar == .string
            case .objectId: type.scalar == .objectId
            case .now: type.scalar == .date
            }
        guard fits else {
            let expected =
                switch value {
                case .uuid: "uuid or string"
                case .objectId: "objectId"
                case .now: "date"
                }
            var hint = "'\(value.rawValue)' makes a value for \(expected) properties"
            if type.scalar == .string { hint += "; quote it (\"\(scalar.text)\") for the literal string" }
            log.error("default-generator-type", "'\(value.rawValue)' cannot be the default of \(what), whose type is '\(type)'", at: node.location, hint: hint)
            return nil
        }
        return .generated(value)
    }

    private func enumCase(_ scalar: YAMLScalar, node: YAMLNode, enumType: EnumType?, enumName: String, what: String) -> DefaultValue? {
        guard let enumType else { return nil }  // unknown enums are reported elsewhere
        if enumType.enumCase(named: scalar.text) != nil { return .enumCase(scalar.text) }
        var hint: String
        if let byRaw = enumType.cases.first(where: { $0.rawValue.description == scalar.text }) {
            hint = "'\(scalar.text)' is the raw value of case '\(byRaw.name)': write the case name"
        } else if let suggestion = Suggestion.closest(to: scalar.text, in: enumType.cases.map(\.name)) {
            hint = "did you mean '\(suggestion)'?"
        } else {
            hint = "use one of the cases of '\(enumName)': \(enumType.cases.prefix(8).map(\.name).joined(separator: ", "))\(enumType.cases.count > 8 ? ", …" : "")"
        }
        log.error("default-not-a-case", "default '\(scalar.text)' of \(what) is not a case of enum '\(enumName)'", at: node.location, hint: hint)
        return nil
    }

    private func literal(_ scalar: YAMLScalar, node: YAMLNode, scalarType: ScalarType, what: String) -> DefaultValue? {
        let text = scalar.text
        let typeName = scalarType.rawValue
        switch scalarType {
        case .bool:
            if let flag = scalar.bool { return .bool(flag) }
            return mismatch(node, "default '\(text)' of \(what) is not a bool", hint: "write true or false, without quotes")
        case .int, .int8, .int16, .int32, .int64:
            guard scalar.isPlain else {
                return mismatch(node, "default \(node.kindDescription) of \(what) is a string, not an \(typeName)", hint: "remove the quotes: write a whole number")
            }
            let range = scalarType.integerRange!
            guard let value = IntegerLiteral.parse(text) else {
                if IntegerLiteral.looksLikeInteger(text) { return outOfRange(node, text, what, scalarType) }
                return mismatch(node, "default '\(text)' of \(what) is not an integer", hint: "write a whole number such as 0 for an \(typeName) property")
            }
            guard range.contains(value) else { return outOfRange(node, text, what, scalarType) }
            return .int(value)
        case .float, .double:
            guard scalar.isPlain else {
                return mismatch(node, "default \(node.kindDescription) of \(what) is a string, not a \(typeName)", hint: "remove the quotes: write a number")
            }
            guard let value = FloatLiteral.parse(text) else {
                return mismatch(node, "default '\(text)' of \(what) is not a number", hint: "write a number such as 0.0 for a \(typeName) property")
            }
            if value.isNaN {
                return mismatch(node, "default \(text) of \(what) cannot be stored: SQLite stores NaN as NULL", hint: "use an optional property with default null, or a number")
            }
            if scalarType == .float, value.isFinite, abs(value) > Double(Float.greatestFiniteMagnitude) {
                log.error("default-out-of-range", "default \(text) of \(what) does not fit in float", at: node.location, hint: "use a double property, or a smaller value")
                return nil
            }
            return .double(value)
        case .string:
            return .string(text)
        case .url:
            guard !text.isEmpty, URL(string: text) != nil else {
                return mismatch(node, "default '\(text)' of \(what) is not a URL", hint: "write an absolute URL such as https://example.com")
            }
            return .string(text)
        case .uuid:
            guard UUID(uuidString: text) != nil else {
                return mismatch(node, "default '\(text)' of \(what) is not a UUID", hint: "write a UUID such as 123E4567-E89B-12D3-A456-426614174000, or $uuid for a new one")
            }
            return .string(text)
        case .objectId:
            guard ObjectID(text) != nil else {
                return mismatch(node, "default '\(text)' of \(what) is not an objectId", hint: "write 24 hexadecimal digits, or $objectId for a new one")
            }
            return .string(text)
        case .date:
            if case .failure(let problem) = ISODateText.parse(text) {
                return mismatch(node, "default '\(text)' of \(what) \(problem)", hint: "write a date such as 2024-05-01T12:00:00Z, or $now for the current time")
            }
            return .string(text)
        case .data:
            guard Data(base64Encoded: text) != nil else {
                return mismatch(node, "default '\(text)' of \(what) is not base64 data", hint: "write the bytes in base64, e.g. \"AAEC\"")
            }
            return .string(text)
        case .decimal128:
            if case .failure(let problem) = DecimalText.parse(text) {
                return mismatch(node, "default '\(text)' of \(what) \(problem)", hint: "write a decimal number such as 12.50, in quotes to keep its digits")
            }
            return .string(text)
        }
    }

    private func outOfRange(_ node: YAMLNode, _ text: String, _ what: String, _ type: ScalarType) -> DefaultValue? {
        let range = type.integerRange!
        log.error(
            "default-out-of-range", "default \(text) of \(what) does not fit in \(type.rawValue) (\(range.lowerBound)...\(range.upperBound))",
            at: node.location, hint: "write a value in range, or use a wider type such as int64"
        )
        return nil
    }

    private func mismatch(_ node: YAMLNode, _ message: String, hint: String) -> DefaultValue? {
        log.error("default-type-mismatch", message, at: node.location, hint: hint)
        return nil
    }
}
