import Foundation
import RemodelCore
import RemodelLayout

/// Schema values (defaults, `mapValues` targets, conditions, new objects' values) as SQL
/// literals of their stored form: dates as microseconds, UUIDs and ObjectIDs as blobs, enum
/// cases as raw values.
struct StoredLiteral {
    var schema: Schema
    /// The migration's clock, in stored form: `$now` is the same instant for every object.
    var nowMicroseconds: Int64

    /// Why a literal cannot be stored in a property, and how to fix it when that is not
    /// obvious from the message.
    struct Mismatch: Error, CustomStringConvertible {
        var description: String
        /// How to write a value that fits, when there is more to say than the description.
        var hint: String?

        init(description: String, hint: String? = nil) {
            self.description = description
            self.hint = hint
        }
    }

    /// The expression storing `value` in a property of `type` (one element, for collections).
    func expression(for value: DefaultValue, type: PropertyType) throws -> SQLExpression {
        // Quoted text read as a `set` step's literal is: a quoted number is that number.
        let value = StepLiteral.value(value, for: type)
        switch (value, type.base) {
        case (.null, _):
            guard type.isOptional else { throw Mismatch(description: "null is not allowed: the property is required (\(type))") }
            return .null
        case (.generated(.now), .scalar(.date)):
            return .integer(nowMicroseconds)
        case (.generated(.uuid), .scalar(.uuid)):
            return .call(.newUUID)
        case (.generated(.uuid), .scalar(.string)):
            return .call(.newUUIDText)
        case (.generated(.objectId), .scalar(.objectId)):
            return .call(.newObjectID)
        case (.generated(let generated), _):
            throw Mismatch(description: "\(generated.rawValue) cannot make a value of type \(type)")
        case (.enumCase(let name), .enumeration(let enumName)), (.string(let name), .enumeration(let enumName)):
            guard let enumType = schema.enumType(named: enumName) else { throw Mismatch(description: "unknown enum \(enumName)") }
            guard let enumCase = enumType.enumCase(named: name) else { throw Self.notACase(name, of: enumType) }
            return Self.raw(enumCase.rawValue)
        case (.int(let number), .enumeration(let enumName)):
            guard let enumType = schema.enumType(named: enumName) else { throw Mismatch(description: "unknown enum \(enumName)") }
            throw Self.notACase(String(number), of: enumType)
        case (_, .scalar(let scalar)):
            return try scalarLiteral(value, scalar: scalar)
        case (_, .object(let name)):
            // A link: the target's primary key, written as the key's literal.
            guard let target = schema.objectType(named: name), !target.isEmbedded, let key = target.primaryKeyProperty?.storedType else {
                throw Mismatch(description: "\(CanonicalYAML.literal(value)) cannot be stored in a property of type \(type)")
            }
            var keyType = key
            keyType.isOptional = type.isOptional
            return try expression(for: value, type: keyType)
        default:
            throw Mismatch(description: "\(CanonicalYAML.literal(value)) cannot be stored in a property of type \(type)")
        }
    }

    /// Why `text` is not a value of an enum property: values are written as case names.
    static func notACase(_ text: String, of enumType: EnumType) -> Mismatch {
        if let byRaw = enumType.cases.first(where: { $0.rawValue.description == text }) {
            return Mismatch(description: "\(text) is the raw value of case '\(byRaw.name)' of \(enumType.name): write the case name")
        }
        let guess = Suggestion.closest(to: text, in: enumType.cases.map(\.name)).map { "did you mean '\($0)'? " } ?? ""
        return Mismatch(description: "\(CanonicalYAML.quoted(text)) is not a case of \(enumType.name) (\(guess)its cases: \(caseList(enumType)))")
    }

    /// The case names of an enum, for messages (the first eight).
    static func caseList(_ enumType: EnumType) -> String {
        enumType.cases.prefix(8).map(\.name).joined(separator: ", ") + (enumType.cases.count > 8 ? ", …" : "")
    }

    /// The SQL literal of an enum raw value.
    static func raw(_ value: EnumType.RawValue) -> SQLExpression {
        switch value {
        case .string(let text): .text(text)
        case .int(let number): .integer(number)
        }
    }

    /// How values of the types written as text look, for error messages.
    static func expectedForm(of scalar: ScalarType) -> String? {
        switch scalar {
        case .date: "write an ISO 8601 date or date and time, e.g. \"2026-01-01\" or \"2026-01-01T09:30:00Z\""
        case .uuid: "write a UUID, e.g. \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\""
        case .objectId: "write 24 hexadecimal digits, e.g. \"65a1b2c3d4e5f60718293a4b\""
        case .data: "write base64 text"
        case .decimal128: "write a decimal number"
        default: nil
        }
    }

    /// A literal of a scalar type, through `StoredForm` (the conversion `import` and dynamic
    /// defaults use): the same stored value whichever way it arrives.
    private func scalarLiteral(_ value: DefaultValue, scalar: ScalarType) throws -> SQLExpression {
        let mismatch = Mismatch(
            description: "\(CanonicalYAML.literal(value)) is not a valid \(scalar.rawValue)\(Self.expectedForm(of: scalar).map { " (\($0))" } ?? "")",
            hint: StepLiteral.numericForm(of: scalar))
        let result: Result<StoreValue, ValueProblem>
        switch (scalar, value) {
        case (.bool, .bool(let flag)): return .integer(flag ? 1 : 0)
        case (_, .int(let number)) where scalar.isInteger || [.float, .double, .decimal128].contains(scalar):
            result = StoredForm.integer(number, as: scalar)
        case (_, .double(let number)) where scalar.isInteger || scalar == .float || scalar == .double:
            result = StoredForm.real(number, as: scalar)
        case (.decimal128, .double(let number)):
            guard number.isFinite else { throw mismatch }
            result = StoredForm.text(CanonicalYAML.double(number), as: scalar)
        case (.string, .int(let number)): return .text(String(number))
        case (.string, .double(let number)): return .text(CanonicalYAML.double(number))
        case (.string, .bool(let flag)): return .text(flag ? "true" : "false")
        case (_, .string(let text)) where scalar != .bool && !scalar.isInteger && scalar != .float && scalar != .double:
            result = StoredForm.text(text, as: scalar)
        default:
            throw mismatch
        }
        switch result {
        case .success(let stored): return Self.expression(stored)
        case .failure(let problem): throw Mismatch(description: "\(CanonicalYAML.literal(value)) \(problem)", hint: problem.hint)
        }
    }

    /// The SQL literal of a stored scalar.
    private static func expression(_ value: StoreValue) -> SQLExpression {
        switch value {
        case .null, .list, .map: .null
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(bytes)
        }
    }
}
