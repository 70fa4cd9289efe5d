/// An object type: a table in the store, a struct in generated Swift.
public struct ObjectType: Hashable, Sendable {
    public var name: String
    /// The name of the primary-key property; `nil` for embedded objects and for top-level
    /// objects that nothing links to and that have no key.
    public var primaryKey: String?
    /// Embedded objects are owned values: they have no primary key and live and die with
    /// the object that holds them.
    public var isEmbedded: Bool
    public var properties: [Property]
    /// Groups of properties whose values together are unique (`unique: [[a, b]]`), in order.
    public var uniqueGroups: [[String]]
    /// Groups of properties indexed together, in order (`indexes: [[a, b]]`).
    public var indexes: [[String]]
    public var renamedFrom: String?
    public var doc: String?

    public init(
        name: String,
        primaryKey: String? = nil,
        isEmbedded: Bool = false,
        properties: [Property],
        uniqueGroups: [[String]] = [],
        indexes: [[String]] = [],
        renamedFrom: String? = nil,
        doc: String? = nil
    ) {
        self.name = name
        self.primaryKey = primaryKey
        self.isEmbedded = isEmbedded
        self.properties = properties
        self.uniqueGroups = uniqueGroups
        self.indexes = indexes
        self.renamedFrom = renamedFrom
        self.doc = doc
    }

    /// The property named `name`, if any.
    public func property(named name: String) -> Property? {
        properties.first { $0.name == name }
    }

    /// The primary-key property, if the type has one.
    public var primaryKeyProperty: Property? {
        primaryKey.flatMap(property(named:))
    }

    /// Properties that hold data (everything but inverse relationships), in declaration order.
    public var storedProperties: [Property] {
        properties.filter { $0.storedType != nil }
    }

    /// Every group of properties whose values no two objects share: each unique property
    /// alone, then the `unique:` groups; a group that says again what an earlier one says
    /// (the same properties in any order) is left out.
    public var uniquenessGroups: [[String]] {
        var seen = Set<Set<String>>()
        return (storedProperties.filter(\.isUnique).map { [$0.name] } + uniqueGroups).filter { seen.insert(Set($0)).inserted }
    }
}
