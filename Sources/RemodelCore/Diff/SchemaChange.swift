/// One difference between two schemas, as a migration sees it.
public struct SchemaChange: Hashable, Sendable, CustomStringConvertible {
    /// How a change affects data already stored.
    public enum Impact: String, Hashable, Sendable, Comparable, CaseIterable {
        /// Nothing stored is lost or needs checking: added types and properties, renames,
        /// index changes, a property becoming optional.
        case additive
        /// Whether it succeeds depends on the data: a property becoming required, a retype,
        /// a removed enum case, a new primary key.
        case dataDependent = "data-dependent"
        /// Stored data is deleted: a removed type or property.
        case destructive

        private var rank: Int {
            switch self {
            case .additive: 0
            case .dataDependent: 1
            case .destructive: 2
            }
        }

        public static func < (lhs: Impact, rhs: Impact) -> Bool { lhs.rank < rhs.rank }
    }

    /// What changed. Type and property names are the *new* names, except for removals,
    /// which name what was removed.
    public enum Kind: Hashable, Sendable {
        case objectAdded(String)
        case objectRemoved(String)
        case objectRenamed(from: String, to: String)
        case embeddedChanged(type: String, isEmbedded: Bool)
        case primaryKeyChanged(type: String, from: String?, to: String?)
        case propertyAdded(type: String, property: String)
        case propertyRemoved(type: String, property: String)
        case propertyRenamed(type: String, from: String, to: String)
        case propertyRetyped(type: String, property: String, from: PropertyType, to: PropertyType)
        case propertyMadeOptional(type: String, property: String)
        case propertyMadeRequired(type: String, property: String)
        case inverseChanged(type: String, property: String)
        case indexAdded(type: String, property: String)
        case indexRemoved(type: String, property: String)
        /// Properties became unique, alone (`unique: true`) or together (a `unique:` group):
        /// stored objects may already share values.
        case uniqueAdded(type: String, properties: [String])
        case uniqueRemoved(type: String, properties: [String])
        /// A group of properties indexed together (`indexes:`).
        case indexGroupAdded(type: String, properties: [String])
        case indexGroupRemoved(type: String, properties: [String])
        case defaultChanged(type: String, property: String)
        case enumAdded(String)
        case enumRemoved(String)
        case enumRenamed(from: String, to: String)
        case enumRawTypeChanged(enum: String, from: EnumType.RawType, to: EnumType.RawType)
        case enumCaseAdded(enum: String, case: String)
        case enumCaseRemoved(enum: String, case: String)
        case enumCaseRawValueChanged(enum: String, case: String, from: EnumType.RawValue, to: EnumType.RawValue)
    }

    public var kind: Kind
    public var impact: Impact

    public init(_ kind: Kind, impact: Impact) {
        self.kind = kind
        self.impact = impact
    }

    /// `Trip.name`, or `Trip's (destination, start)` for a group.
    static func members(_ type: String, _ properties: [String]) -> String {
        properties.count == 1 ? "\(type).\(properties[0])" : "\(type)'s (\(properties.joined(separator: ", ")))"
    }

    /// A one-line summary, e.g. `property Person.name removed`.
    public var description: String {
        switch kind {
        case .objectAdded(let type): "type \(type) added"
        case .objectRemoved(let type): "type \(type) removed"
        case .objectRenamed(let from, let to): "type \(from) renamed to \(to)"
        case .embeddedChanged(let type, let embedded): "type \(type) \(embedded ? "became embedded" : "is no longer embedded")"
        case .primaryKeyChanged(let type, let from, let to): "primary key of \(type) changed from \(from ?? "none") to \(to ?? "none")"
        case .propertyAdded(let type, let property): "property \(type).\(property) added"
        case .propertyRemoved(let type, let property): "property \(type).\(property) removed"
        case .propertyRenamed(let type, let from, let to): "property \(type).\(from) renamed to \(to)"
        case .propertyRetyped(let type, let property, let from, let to): "property \(type).\(property) changed type from \(from) to \(to)"
        case .propertyMadeOptional(let type, let property): "property \(type).\(property) became optional"
        case .propertyMadeRequired(let type, let property): "property \(type).\(property) became required"
        case .inverseChanged(let type, let property): "inverse relationship \(type).\(property) changed"
        case .indexAdded(let type, let property): "index on \(type).\(property) added"
        case .indexRemoved(let type, let property): "index on \(type).\(property) removed"
        case .uniqueAdded(let type, let properties): "\(Self.members(type, properties)) made unique"
        case .uniqueRemoved(let type, let properties): "\(Self.members(type, properties)) no longer unique"
        case .indexGroupAdded(let type, let properties): "index on \(Self.members(type, properties)) added"
        case .indexGroupRemoved(let type, let properties): "index on \(Self.members(type, properties)) removed"
        case .defaultChanged(let type, let property): "default of \(type).\(property) changed"
        case .enumAdded(let name): "enum \(name) added"
        case .enumRemoved(let name): "enum \(name) removed"
        case .enumRenamed(let from, let to): "enum \(from) renamed to \(to)"
        case .enumRawTypeChanged(let name, let from, let to): "enum \(name) changed raw type from \(from.rawValue) to \(to.rawValue)"
        case .enumCaseAdded(let name, let enumCase): "case \(name).\(enumCase) added"
        case .enumCaseRemoved(let name, let enumCase): "case \(name).\(enumCase) removed"
        case .enumCaseRawValueChanged(let name, let enumCase, let from, let to): "raw value of \(name).\(enumCase) changed from \(from) to \(to)"
        }
    }
}

extension SchemaChange.Kind {
    /// The type (object or enum, by its new name or the removed one) and member the change is
    /// about, for pointing at its declaration.
    public var declaration: (type: String, member: String?) {
        switch self {
        case .objectAdded(let type), .objectRemoved(let type), .enumAdded(let type), .enumRemoved(let type): (type, nil)
        case .objectRenamed(_, let to), .enumRenamed(_, let to): (to, nil)
        case .embeddedChanged(let type, _), .primaryKeyChanged(let type, _, _), .enumRawTypeChanged(let type, _, _): (type, nil)
        case .propertyAdded(let type, let property), .propertyRemoved(let type, let property), .propertyRetyped(let type, let property, _, _),
            .propertyMadeOptional(let type, let property), .propertyMadeRequired(let type, let property), .inverseChanged(let type, let property),
            .indexAdded(let type, let property), .indexRemoved(let type, let property), .defaultChanged(let type, let property):
            (type, property)
        case .uniqueAdded(let type, let properties), .uniqueRemoved(let type, let properties), .indexGroupAdded(let type, let properties),
            .indexGroupRemoved(let type, let properties):
            (type, properties.count == 1 ? properties[0] : nil)
        case .propertyRenamed(let type, _, let to): (type, to)
        case .enumCaseAdded(let name, let enumCase), .enumCaseRemoved(let name, let enumCase), .enumCaseRawValueChanged(let name, let enumCase, _, _):
            (name, enumCase)
        }
    }
}
