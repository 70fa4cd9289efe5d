/// The scalar types of the schema language.
public enum ScalarType: String, Hashable, Sendable, CaseIterable {
    case bool, int, int8, int16, int32, int64, float, double, string, data, date, decimal128, objectId, uuid, url

    /// Whether values of this type can identify an object (be a primary key).
    public var canBePrimaryKey: Bool {
        switch self {
        case .string, .int, .int8, .int16, .int32, .int64, .objectId, .uuid: true
        default: false
        }
    }

    /// Whether this is one of the integer types.
    public var isInteger: Bool {
        switch self {
        case .int, .int8, .int16, .int32, .int64: true
        default: false
        }
    }

    /// The inclusive range of an integer type, `nil` for other types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .int8: Int64(Int8.min)...Int64(Int8.max)
        case .int16: Int64(Int16.min)...Int64(Int16.max)
        case .int32: Int64(Int32.min)...Int64(Int32.max)
        case .int, .int64: Int64.min...Int64.max
        default: nil
        }
    }
}

/// The type of a property's value(s), before optionality and collections.
public enum BaseType: Hashable, Sendable, CustomStringConvertible {
    case scalar(ScalarType)
    /// An enum declared in the schema, persisted as its raw value.
    case enumeration(String)
    /// An object declared in the schema: a link to it, or the object itself when it is
    /// embedded.
    case object(String)

    public var description: String {
        switch self {
        case .scalar(let scalar): scalar.rawValue
        case .enumeration(let name), .object(let name): name
        }
    }
}

/// A collection of values held by one property.
public enum CollectionKind: String, Hashable, Sendable, CaseIterable {
    /// Ordered, duplicates allowed.
    case list
    /// Unordered, no duplicates.
    case set
    /// String keys to values.
    case map
}

/// A stored property's full type, as written in YAML: `string`, `url?`, `list<Dog>`,
/// `map<int?>`.
///
/// For a collection, `isOptional` says whether its *elements* may be null; collections
/// themselves are never optional (an empty collection is the absence of values).
public struct PropertyType: Hashable, Sendable, CustomStringConvertible {
    public var base: BaseType
    public var isOptional: Bool
    public var collection: CollectionKind?

    public init(_ base: BaseType, optional: Bool = false, collection: CollectionKind? = nil) {
        self.base = base
        self.isOptional = optional
        self.collection = collection
    }

    /// A required scalar.
    public static func scalar(_ scalar: ScalarType, optional: Bool = false) -> PropertyType {
        PropertyType(.scalar(scalar), optional: optional)
    }

    /// The type written the way the schema language spells it: `list<Dog>`, `int?`.
    public var description: String {
        let element = base.description + (isOptional ? "?" : "")
        if let collection { return "\(collection.rawValue)<\(element)>" }
        return element
    }

    /// The same type with its collection removed: the type of one element.
    public var element: PropertyType {
        PropertyType(base, optional: isOptional)
    }

    /// The object type this property links to or embeds, if any.
    public var objectName: String? {
        if case .object(let name) = base { return name }
        return nil
    }

    /// The enum this property holds, if any.
    public var enumName: String? {
        if case .enumeration(let name) = base { return name }
        return nil
    }

    /// The scalar this property holds, if any.
    public var scalar: ScalarType? {
        if case .scalar(let scalar) = base { return scalar }
        return nil
    }
}
