/// One property of an object type.
public struct Property: Hashable, Sendable {
    /// What a property is: a stored value, or the inverse of another type's link.
    public enum Kind: Hashable, Sendable {
        /// A value held by the object (a scalar, enum, link, embedded object or collection).
        case stored(PropertyType)
        /// The objects of `type` whose `property` links to this object (Realm's
        /// `LinkingObjects`). Computed by the store, never stored.
        case inverse(type: String, property: String)
    }

    public var name: String
    public var kind: Kind
    /// The value used when none is given: by the generated initialiser and when a migration
    /// adds the property to existing objects.
    public var defaultValue: DefaultValue?
    public var isIndexed: Bool
    /// No two objects of the type hold the same value (`null`s never collide, as in SQL).
    public var isUnique: Bool
    public var renamedFrom: String?
    public var doc: String?

    public init(
        name: String,
        kind: Kind,
        defaultValue: DefaultValue? = nil,
        isIndexed: Bool = false,
        isUnique: Bool = false,
        renamedFrom: String? = nil,
        doc: String? = nil
    ) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        self.isUnique = isUnique
        self.renamedFrom = renamedFrom
        self.doc = doc
    }

    /// Shorthand for a stored property.
    public init(
        _ name: String,
        _ type: PropertyType,
        default defaultValue: DefaultValue? = nil,
        indexed: Bool = false,
        unique: Bool = false,
        renamedFrom: String? = nil,
        doc: String? = nil
    ) {
        self.init(name: name, kind: .stored(type), defaultValue: defaultValue, isIndexed: indexed, isUnique: unique, renamedFrom: renamedFrom, doc: doc)
    }

    /// The stored type, or `nil` for an inverse relationship.
    public var storedType: PropertyType? {
        if case .stored(let type) = kind { return type }
        return nil
    }

    /// The origin of an inverse relationship, or `nil` for a stored property.
    public var inverseOrigin: (type: String, property: String)? {
        if case .inverse(let type, let property) = kind { return (type, property) }
        return nil
    }
}
