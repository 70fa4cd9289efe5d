import Foundation
import RemodelCore

/// Maps schema types and defaults to Swift types and expressions, for one schema.
struct SwiftTypeMapper: Sendable {
    let schema: Schema
    /// Object types by name (the schema's own lookup is linear).
    private let objectsByName: [String: ObjectType]

    init(schema: Schema) {
        self.schema = schema
        objectsByName = Dictionary(schema.objects.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The Swift type of a scalar.
    static func swiftType(of scalar: ScalarType) -> SwiftType {
        switch scalar {
        case .bool: .name("Bool")
        case .int: .name("Int")
        case .int8: .name("Int8")
        case .int16: .name("Int16")
        case .int32: .name("Int32")
        case .int64: .name("Int64")
        case .float: .name("Float")
        case .double: .name("Double")
        case .string: .name("String")
        case .data: .name("Data")
        case .date: .name("Date")
        case .decimal128: .name("Decimal")
        case .objectId: .name("ObjectID")
        case .uuid: .name("UUID")
        case .url: .name("URL")
        }
    }

    /// Whether `name` is an embedded object type (held by value, not by key).
    func isEmbedded(_ name: String) -> Bool {
        objectsByName[name]?.isEmbedded ?? false
    }

    /// The Swift type of one value of `type`, before collections: links become the
    /// target's `ID`, embedded objects stay values.
    func elementType(_ type: PropertyType) -> SwiftType {
        let base: SwiftType =
            switch type.base {
            case .scalar(let scalar): Self.swiftType(of: scalar)
            case .enumeration(let name): .name(name)
            case .object(let name): isEmbedded(name) ? .name(name) : .member(.name(name), "ID")
            }
        return type.isOptional ? .optional(base) : base
    }

    /// The Swift type of a stored property.
    func swiftType(_ type: PropertyType) -> SwiftType {
        let element = elementType(type)
        switch type.collection {
        case nil: return element
        case .list?: return .array(element)
        case .set?: return .named("Set", generics: [element])
        case .map?: return .dictionary(.name("String"), element)
        }
    }

    /// The Swift type of an object's primary key, if it has one.
    func primaryKeyType(of object: ObjectType) -> SwiftType? {
        object.primaryKeyProperty?.storedType.map(swiftType)
    }

    /// The initialiser's default for a property: the schema default, else `nil` for
    /// optionals and an empty collection for collections; `nil` when the caller must pass a
    /// value. Invalid literals also give `nil` (the checks report them first).
    func defaultExpression(for property: Property) -> SwiftExpression? {
        guard let type = property.storedType else { return nil }
        if let collection = type.collection {
            if let value = property.defaultValue, value != .null, let expression = Self.literal(value, for: type.element, schema: schema) {
                return expression
            }
            return collection == .map ? .dictionary([]) : .array([])
        }
        if let value = property.defaultValue {
            // An optional enum's case is qualified: `.none` would mean `Optional.none`.
            if type.isOptional, let enumName = type.enumName, case .enumCase(let name) = value {
                return .member(.identifier(enumName), name)
            }
            return Self.literal(value, for: type, schema: schema)
        }
        return type.isOptional ? .nil : nil
    }

    /// A Swift expression for a schema default of a (non-collection) `type`, or `nil` when the
    /// default cannot be a value of that type.
    static func literal(_ value: DefaultValue, for type: PropertyType, schema: Schema) -> SwiftExpression? {
        switch (value, type.base) {
        case (.null, _):
            return type.isOptional ? .nil : nil
        case (.generated(let generated), .scalar(let scalar)):
            switch (generated, scalar) {
            case (.uuid, .uuid): return .call(.identifier("UUID"), [])
            case (.uuid, .string): return .member(.call(.identifier("UUID"), []), "uuidString")
            case (.objectId, .objectId): return .call(.identifier("ObjectID"), [])
            case (.now, .date): return .call(.identifier("Date"), [])
            default: return nil
            }
        case (.enumCase(let name), .enumeration(let enumName)), (.string(let name), .enumeration(let enumName)):
            guard schema.enumType(named: enumName)?.enumCase(named: name) != nil else { return nil }
            return .implicitMember(name)
        case (.bool(let flag), .scalar(.bool)):
            return .bool(flag)
        case (.int(let number), .scalar(let scalar)):
            if let range = scalar.integerRange { return range.contains(number) ? .int(number) : nil }
            if scalar == .double || scalar == .float { return .int(number) }
            if scalar == .decimal128 { return .call(.identifier("Decimal"), [.unlabelled(.int(number))]) }
            return nil
        case (.double(let number), .scalar(.double)):
            return .double(number)
        case (.double(let number), .scalar(.float)):
            return .float(number)
        case (.double(let number), .scalar(.decimal128)):
            guard number.isFinite else { return nil }
            return literal(.string("\(number)"), for: type, schema: schema)
        case (.string(let text), .scalar(let scalar)):
            return stringLiteral(text, for: scalar)
        default:
            return nil
        }
    }

    /// The expression for a textual literal of `scalar`; checked now, so that the force
    /// unwraps in generated code cannot fail at run time.
    private static func stringLiteral(_ text: String, for scalar: ScalarType) -> SwiftExpression? {
        let literal = SwiftExpression.string(text)
        switch scalar {
        case .string:
            return literal
        case .url:
            guard URL(string: text) != nil else { return nil }
            return .forceUnwrap(.call(.identifier("URL"), [SwiftArgument("string", literal)]))
        case .uuid:
            guard UUID(uuidString: text) != nil else { return nil }
            return .forceUnwrap(.call(.identifier("UUID"), [SwiftArgument("uuidString", literal)]))
        case .objectId:
            guard ObjectID(text) != nil else { return nil }
            return .forceUnwrap(.call(.identifier("ObjectID"), [.unlabelled(literal)]))
        case .data:
            guard Data(base64Encoded: text) != nil else { return nil }
            return .forceUnwrap(.call(.identifier("Data"), [SwiftArgument("base64Encoded", literal)]))
        case .decimal128:
            // The stored text (`DecimalText`): the value the store holds for the same default.
            guard case .success(let stored) = DecimalText.stored(text) else { return nil }
            return .forceUnwrap(.call(.identifier("Decimal"), [SwiftArgument("string", .string(stored))]))
        case .date:
            guard let seconds = secondsSince1970(text) else { return nil }
            return .call(.identifier("Date"), [SwiftArgument("timeIntervalSince1970", .double(seconds))])
        default:
            return nil
        }
    }

    /// The seconds since 1970 of ISO 8601 text (`ISODateText`'s forms), at the microsecond
    /// the store keeps: the same `Double` as `Date(storeMicroseconds:)` makes of them.
    static func secondsSince1970(_ text: String) -> Double? {
        guard let microseconds = ISODateText.microseconds(from: text) else { return nil }
        let (seconds, micros) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        return Double(seconds) + Double(micros) / 1_000_000
    }

    /// Words for the initialiser's documentation of a default.
    func defaultDescription(for property: Property) -> String? {
        guard let value = property.defaultValue else { return nil }
        switch value {
        case .null: return "`nil`"
        case .generated(.uuid): return property.storedType?.scalar == .string ? "a new UUID string" : "a new UUID"
        case .generated(.objectId): return "a new `ObjectID`"
        case .generated(.now): return "the current date"
        case .enumCase(let name): return "`." + name + "`"
        default: return "`" + CanonicalYAML.literal(value) + "`"
        }
    }
}
