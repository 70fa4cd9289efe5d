/// What a diagram of an object model shows, whatever it is drawn with: boxes (object types,
/// embedded types, enums, projections) with their members, the edges between them, and, in a
/// comparison of two schemas, what changed.
///
/// Built from a schema (`Diagram(schema:)`) or from two (`Diagram(comparing:to:renames:)`),
/// and drawn by `MermaidRenderer` and `DotRenderer`: the renderers decide how things look, the
/// diagram decides what is there. Everything is in declaration order, so the same schema gives
/// the same diagram, and the same text, every time.
public struct Diagram: Hashable, Sendable {
    /// A line above the drawing (a comparison's "Changes from version 1 to version 3").
    public var title: String?
    /// Object types first, then enums, then projections; each in declaration order.
    public var nodes: [Node]
    /// Links, embeddings, inverses, enum uses and projections, in the order of the members
    /// they come from.
    public var edges: [Edge]
    /// Whether this compares two schemas: marks mean something, and a legend says what.
    public var isComparison: Bool

    /// A diagram of these nodes and edges; `Diagram(schema:)` and `Diagram(comparing:to:)` make
    /// the ones `remodel diagram` draws.
    public init(title: String? = nil, nodes: [Node], edges: [Edge], isComparison: Bool = false) {
        self.title = title
        self.nodes = nodes
        self.edges = edges
        self.isComparison = isComparison
    }

    /// `old → new`, or `new` alone when nothing changed: how every drawing shows a rename or
    /// a retype.
    static func change(from old: String?, to new: String) -> String {
        old.map { "\($0) → \(new)" } ?? new
    }

    /// The node with identifier `id`.
    public func node(_ id: String) -> Node? {
        nodes.first { $0.id == id }
    }
}

extension Diagram {
    /// How an element fares in a comparison; `unchanged` everywhere in a diagram of one schema.
    public enum Mark: String, Hashable, Sendable, CaseIterable {
        case unchanged
        case added
        case removed
        /// Renamed, retyped, or changed otherwise (the element's notes say how).
        case changed

        /// One character for readers who cannot tell the colours apart: `+`, `−`, `~`, or none.
        public var symbol: String? {
            switch self {
            case .unchanged: nil
            case .added: "+"
            case .removed: "−"
            case .changed: "~"
            }
        }
    }

    /// One box: an object type, an embedded type, an enum or a projection.
    public struct Node: Hashable, Sendable {
        public enum Kind: String, Hashable, Sendable {
            case object
            case embedded
            case enumeration
            case projection

            /// The word a drawing shows above the name (`«embedded»`); `nil` for object types,
            /// the common case.
            public var stereotype: String? {
                switch self {
                case .object: nil
                case .embedded: "embedded"
                case .enumeration: "enum"
                case .projection: "projection"
                }
            }
        }

        /// Unique in the diagram, made of ASCII letters, digits and `_` only (the type's name
        /// when it is one), so that every format can use it as it is.
        public var id: String
        public var kind: Kind
        /// The type's name (its new name in a comparison; its old one if it was removed).
        public var name: String
        /// The name before a rename.
        public var oldName: String?
        public var mark: Mark
        /// What else is worth saying: in a comparison, the
        /// changes that are not renames (`became embedded`, `raw type string → int`).
        public var notes: [String]
        /// The node this one is drawn with: the object type that alone owns an embedded type
        /// (directly or through other embedded types); `nil` otherwise.
        public var group: String?
        public var members: [Member]

        /// A node; `id` must be unique in its diagram and made of ASCII letters, digits and `_`.
        public init(id: String, kind: Kind, name: String, oldName: String? = nil, mark: Mark = .unchanged, notes: [String] = [], group: String? = nil, members: [Member]) {
            self.id = id
            self.kind = kind
            self.name = name
            self.oldName = oldName
            self.mark = mark
            self.notes = notes
            self.group = group
            self.members = members
        }

        /// The name as drawn: `Doggo → Dog` after a rename.
        public var title: String {
            Diagram.change(from: oldName, to: name)
        }
    }

    /// One line of a box: a property, an inverse relationship, an enum case or a projected value.
    public struct Member: Hashable, Sendable {
        public enum Kind: String, Hashable, Sendable {
            case property
            case inverse
            case enumCase
            case projected
        }

        /// Unique in its node, made of ASCII letters, digits and `_` only: where edges start.
        public var id: String
        public var kind: Kind
        public var name: String
        public var oldName: String?
        /// The type as the schema spells it (`list<Dog>`, `url?`), `inverse of Person.dogs`,
        /// an enum case's raw value where it differs from the name, or a projected value's
        /// type; `nil` for nothing to say.
        public var detail: String?
        /// The detail before a retype (or before a raw value changed).
        public var oldDetail: String?
        public var isPrimaryKey: Bool
        public var isIndexed: Bool
        public var mark: Mark
        /// What else is worth saying: a projected value's key path; in a comparison the
        /// changes that are not renames or retypes (`default changed`, `index added`).
        public var notes: [String]

        /// A member; `id` must be unique in its node and made of ASCII letters, digits and `_`.
        public init(
            id: String, kind: Kind, name: String, oldName: String? = nil, detail: String? = nil, oldDetail: String? = nil,
            isPrimaryKey: Bool = false, isIndexed: Bool = false, mark: Mark = .unchanged, notes: [String] = []
        ) {
            self.id = id
            self.kind = kind
            self.name = name
            self.oldName = oldName
            self.detail = detail
            self.oldDetail = oldDetail
            self.isPrimaryKey = isPrimaryKey
            self.isIndexed = isIndexed
            self.mark = mark
            self.notes = notes
        }

        /// The name as drawn: `employeeId → personId` after a rename.
        public var title: String {
            Diagram.change(from: oldName, to: name)
        }

        /// The detail as drawn: `string → int` after a retype.
        public var detailText: String? {
            guard oldDetail != nil || detail != nil else { return nil }
            return Diagram.change(from: oldDetail, to: detail ?? "none")
        }

        /// The short tags a drawing shows after the detail: `PK`, `indexed`, then the notes.
        public var tags: [String] {
            (isPrimaryKey ? ["PK"] : []) + (isIndexed ? ["indexed"] : []) + notes
        }
    }

    /// A line between two nodes, starting at the member it comes from.
    public struct Edge: Hashable, Sendable {
        public enum Kind: String, Hashable, Sendable {
            /// A property holding (links to) objects of another type.
            case link
            /// A property holding embedded objects: owned values, drawn as composition.
            case embedding
            /// An inverse relationship, pointing at the type whose link it follows.
            case inverse
            /// A property holding values of an enum.
            case enumeration
            /// A projection, pointing at the type it projects.
            case projection
        }

        /// How many values the member holds.
        public enum Cardinality: Hashable, Sendable {
            /// At most one (a to-one link or embedded object, always optional; an enum value).
            case one
            /// Ordered, duplicates allowed.
            case list
            /// Unordered, no duplicates.
            case set
            /// Values by string key.
            case map
            /// The objects whose link holds this one (an inverse relationship).
            case linking

            /// The UML multiplicity at the far end: `0..1` or `*`.
            public var multiplicity: String {
                self == .one ? "0..1" : "*"
            }

            /// What kind of collection, in words; `nil` for a single value.
            public var collection: String? {
                switch self {
                case .one: nil
                case .list: "list"
                case .set: "set"
                case .map: "map, string keys"
                case .linking: nil
                }
            }
        }

        /// The node the edge starts at.
        public var from: String
        /// The member of `from` it starts at; `nil` for a projection's edge.
        public var member: String?
        /// The node it points at.
        public var to: String
        /// The member of `to` it points at: for an inverse relationship, the link it follows.
        public var toMember: String?
        public var kind: Kind
        /// The member's name (`dogs`), or `projects`.
        public var label: String
        public var cardinality: Cardinality?
        /// For an inverse relationship, the link it follows (`dogs`).
        public var inverseOf: String?
        public var mark: Mark

        /// An edge between the nodes (and members) with these identifiers.
        public init(
            from: String, member: String?, to: String, toMember: String? = nil, kind: Kind, label: String, cardinality: Cardinality? = nil,
            inverseOf: String? = nil, mark: Mark = .unchanged
        ) {
            self.from = from
            self.member = member
            self.to = to
            self.toMember = toMember
            self.kind = kind
            self.label = label
            self.cardinality = cardinality
            self.inverseOf = inverseOf
            self.mark = mark
        }

        /// The label as drawn: `dogs (list)`, `person (inverse of dogs)`, `tags (set)`.
        public var text: String {
            var qualifiers: [String] = []
            if let collection = cardinality?.collection { qualifiers.append(collection) }
            if let inverseOf { qualifiers.append("inverse of \(inverseOf)") }
            return qualifiers.isEmpty ? label : "\(label) (\(qualifiers.joined(separator: "; ")))"
        }

        /// The multiplicity shown at the far end; `nil` where it says nothing (an enum
        /// value, a projection).
        public var multiplicity: String? {
            guard let cardinality, !(kind == .enumeration && cardinality == .one) else { return nil }
            return cardinality.multiplicity
        }

        /// What identifies the edge across two versions: where it starts and ends, and how.
        var key: String {
            "\(from)\u{0}\(member ?? "")\u{0}\(to)\u{0}\(kind.rawValue)"
        }
    }
}
