/// The value a `set` step writes when it is a literal, read in one place for every back end:
/// the SQLite and PostgreSQL planner and the Realm migration block both take it from here, so
/// that a literal one of them accepts the other accepts too, with the same meaning.
///
/// An unquoted YAML `null` is no value (`MigrationStep.SetValue.null`); text, quoted or not,
/// is read as the property's type: numbers as YAML core-schema numbers (`42`, `-7`, `0x1F`,
/// `0o17`, `1e3`, `.inf`, `-.inf`, `.nan`), flags as `true` or `false`, enum values as case
/// names, and everything else as the text itself (ISO 8601 for dates, base64 for data), which
/// each back end checks as it checks any value of that type. So a quoted `"null"` is the text
/// `null` for a string property, and no number at all for an int.
public enum StepLiteral {
    /// What a `set` step's value is for a property: a literal, or a template that reads the
    /// object's values.
    public enum Resolved: Hashable, Sendable {
        /// The value written to every object.
        case literal(DefaultValue)
        /// Text made for each object from its values (a template with placeholders).
        case template(Template)
    }

    /// Why a value does not fit its property.
    public struct Mismatch: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        /// How to write a value that fits.
        public var hint: String?

        public init(description: String, hint: String? = nil) {
            self.description = description
            self.hint = hint
        }
    }

    /// What `value` writes to a property of `type`: null, a literal (a template without
    /// placeholders, read by `literal(_:for:)`), or a template with placeholders.
    public static func resolve(_ value: MigrationStep.SetValue, for type: PropertyType) throws -> Resolved {
        switch value {
        case .null:
            guard type.isOptional else {
                throw Mismatch(description: "null is not allowed: the property is required (\(type))", hint: "write a value, or make the property optional")
            }
            return .literal(.null)
        case .template(let source):
            let template = try Template(parsing: source)
            guard let text = template.literalText else { return .template(template) }
            return .literal(try literal(text, for: type))
        }
    }

    /// The literal text of a `set` step read as a value of a property of `type`.
    public static func literal(_ text: String, for type: PropertyType) throws(Mismatch) -> DefaultValue {
        switch type.base {
        case .enumeration: return .enumCase(text)
        case .object: return .string(text)  // a link, by the target's primary key
        case .scalar(let scalar):
            switch scalar {
            case .bool:
                if let flag = BoolLiteral.parse(text) { return .bool(flag) }
            case _ where scalar.isInteger:
                if let number = IntegerLiteral.parse(text) { return .int(number) }
                // Not whole, or too large: the back end says which.
                if let number = FloatLiteral.parse(text) { return .double(number) }
            case .double, .float:
                if let number = FloatLiteral.parse(text) { return .double(number) }
            default:
                return .string(text)
            }
            let hint = text == "null" ? "write null without quotes for no value" : numericForm(of: scalar)
            throw Mismatch(description: "\(CanonicalYAML.quoted(text)) is not a valid \(type)", hint: hint)
        }
    }

    /// A value of any other step (a created object's, a mapped one, a condition's) for a
    /// property of `type`, as every back end writes it: quoted text is read as
    /// `literal(_:for:)` reads a `set` step's, so that a quoted number or flag means the same in
    /// every step; a plain number or flag for a text property is the text of YAML's value
    /// (`0x1F` is `"31"` there, where a `set` step keeps the text as written). Text that is no
    /// value of the type stays text, for each back end to refuse as it refuses any text there.
    public static func value(_ value: DefaultValue, for type: PropertyType) -> DefaultValue {
        switch (value, type.base) {
        case (.string(let text), _): (try? literal(text, for: type)) ?? value
        // A plain number or flag for a text property: the text YAML's value is written as.
        case (.int(let number), .scalar(.string)): .string(String(number))
        case (.double(let number), .scalar(.string)): .string(CanonicalYAML.double(number))
        case (.bool(let flag), .scalar(.string)): .string(flag ? "true" : "false")
        // A whole number for a floating-point property is that number as one (`0x1F` is 31.0).
        case (.int(let number), .scalar(.double)), (.int(let number), .scalar(.float)): .double(Double(number))
        default: value
        }
    }

    /// How numbers and flags are written, for the hints of messages.
    public static func numericForm(of scalar: ScalarType) -> String? {
        switch scalar {
        case .bool: "write true or false, without quotes"
        case _ where scalar.isInteger: "write a whole number, without quotes"
        case .double, .float: "write a number such as 1.5, without quotes"
        default: nil
        }
    }
}
