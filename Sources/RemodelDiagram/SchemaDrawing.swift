import RemodelCore

/// The nodes and edges of one schema, unmarked: what `Diagram(schema:)` shows, and each side of
/// a comparison before the two are matched.
///
/// Identifiers here are provisional and unique by construction (`o:Person`, `e:BusinessUnitEnum`,
/// `p:Profile`; members by name); `Diagram.finished()` turns them into the final ones.
struct SchemaDrawing {
    var objects: [Diagram.Node] = []
    var enums: [Diagram.Node] = []
    var projections: [Diagram.Node] = []
    var edges: [Diagram.Edge] = []

    static func objectID(_ name: String) -> String { "o:" + name }
    static func enumID(_ name: String) -> String { "e:" + name }
    static func projectionID(_ name: String) -> String { "p:" + name }

    init(schema: Schema, projections includeProjections: Bool) {
        for object in schema.objects {
            let id = Self.objectID(object.name)
            objects.append(
                Diagram.Node(
                    id: id, kind: object.isEmbedded ? .embedded : .object, name: object.name,
                    members: object.properties.map { Self.member($0, of: object) }
                ))
            for property in object.properties {
                if let edge = Self.edge(from: id, property, schema: schema) { edges.append(edge) }
            }
        }
        for enumType in schema.enums {
            enums.append(
                Diagram.Node(
                    id: Self.enumID(enumType.name), kind: .enumeration, name: enumType.name,
                    members: enumType.cases.map { enumCase in
                        Diagram.Member(id: enumCase.name, kind: .enumCase, name: enumCase.name, detail: Self.rawValueDetail(enumCase, of: enumType))
                    }))
        }
        guard includeProjections else { return }
        for projection in schema.projections {
            let model = schema.objectType(named: projection.of)
            let id = Self.projectionID(projection.name)
            projections.append(
                Diagram.Node(
                    id: id, kind: .projection, name: projection.name,
                    members: projection.properties.map { property in
                        // The type a key path of one component gets from the model property.
                        let modelType = property.keyPathComponents.count == 1 ? model?.property(named: property.keyPath).flatMap(Self.detail) : nil
                        return Diagram.Member(
                            id: property.name, kind: .projected, name: property.name, detail: property.type.map(Diagram.visible) ?? modelType,
                            notes: property.keyPath == property.name ? [] : ["from " + Diagram.visible(property.keyPath)]
                        )
                    }))
            if model != nil {
                edges.append(Diagram.Edge(from: id, member: nil, to: Self.objectID(projection.of), kind: .projection, label: "projects"))
            }
        }
    }

    /// A property as one line of its type's box.
    static func member(_ property: Property, of object: ObjectType) -> Diagram.Member {
        Diagram.Member(
            id: property.name, kind: property.storedType == nil ? .inverse : .property, name: property.name,
            detail: detail(property), isPrimaryKey: object.primaryKey == property.name, isIndexed: property.isIndexed
        )
    }

    /// What a property's line says after its name: its type as the schema spells it, or the
    /// link an inverse relationship follows.
    static func detail(_ property: Property) -> String {
        switch property.kind {
        case .stored(let type): type.description
        case .inverse(let type, let origin): "inverse of \(type).\(origin)"
        }
    }

    /// An enum case's raw value when the name does not already say it: always for `int`
    /// enums, for `string` enums when it differs from the name.
    static func rawValueDetail(_ enumCase: EnumType.Case, of enumType: EnumType) -> String? {
        if case .string(let text) = enumCase.rawValue, text == enumCase.name { return nil }
        return Diagram.visible(enumCase.rawValue.description)
    }

    /// The edge a property draws, if it refers to another node: a link, an embedded object, an
    /// enum value or an inverse relationship. References to undeclared types draw nothing.
    static func edge(from id: String, _ property: Property, schema: Schema) -> Diagram.Edge? {
        switch property.kind {
        case .inverse(let type, let origin):
            guard schema.objectType(named: type) != nil else { return nil }
            return Diagram.Edge(
                from: id, member: property.name, to: objectID(type), toMember: origin, kind: .inverse, label: property.name, cardinality: .linking, inverseOf: origin
            )
        case .stored(let type):
            let cardinality: Diagram.Edge.Cardinality =
                switch type.collection {
                case nil: .one
                case .list: .list
                case .set: .set
                case .map: .map
                }
            if let name = type.objectName, let target = schema.objectType(named: name) {
                return Diagram.Edge(
                    from: id, member: property.name, to: objectID(name), kind: target.isEmbedded ? .embedding : .link, label: property.name, cardinality: cardinality)
            }
            if let name = type.enumName, schema.enumType(named: name) != nil {
                return Diagram.Edge(from: id, member: property.name, to: enumID(name), kind: .enumeration, label: property.name, cardinality: cardinality)
            }
            return nil
        }
    }
}

extension Diagram {
    /// The diagram of one schema: every object type with its properties, embedded types
    /// with their owners, enums with their cases, projections, and every link, embedding,
    /// inverse relationship, enum use and projection as an edge.
    public init(schema: Schema, title: String? = nil) {
        let drawing = SchemaDrawing(schema: schema, projections: true)
        self = Diagram(title: title, nodes: drawing.objects + drawing.enums + drawing.projections, edges: drawing.edges).finished()
    }

    /// The diagram with its final identifiers (ASCII letters, digits and `_`, unique; the
    /// names themselves where they are such, the nodes and members that remain before those
    /// removed) and embedded types grouped with the object types that alone own them.
    func finished() -> Diagram {
        var nodeIDs: [String: String] = [:]
        var taken = Set<String>()
        var memberIDs: [String: [String: String]] = [:]
        // Removed things get what is left, so that what remains keeps its plain name.
        let order = nodes.indices.filter { nodes[$0].mark != .removed } + nodes.indices.filter { nodes[$0].mark == .removed }
        for index in order {
            let node = nodes[index]
            nodeIDs[node.id] = Self.unique(Self.identifier(node.name), in: &taken)
            var memberTaken = Set<String>()
            var ids: [String: String] = [:]
            let members = node.members.indices.filter { node.members[$0].mark != .removed } + node.members.indices.filter { node.members[$0].mark == .removed }
            for member in members {
                ids[node.members[member].id] = Self.unique(Self.identifier(node.members[member].name), in: &memberTaken)
            }
            memberIDs[node.id] = ids
        }
        var result = self
        result.nodes = nodes.map { node in
            var node = node
            node.members = node.members.map { member in
                var member = member
                member.id = memberIDs[node.id]![member.id]!
                return member
            }
            node.id = nodeIDs[node.id]!
            return node
        }
        result.edges = edges.compactMap { edge in
            guard let from = nodeIDs[edge.from], let to = nodeIDs[edge.to] else { return nil }
            var edge = edge
            edge.member = edge.member.map { memberIDs[edge.from]?[$0] ?? $0 }
            // A link that is not there (an inverse whose origin is not a link) points at the node.
            edge.toMember = edge.toMember.flatMap { memberIDs[edge.to]?[$0] }
            edge.from = from
            edge.to = to
            return edge
        }
        result.groupEmbeddedTypes()
        return result
    }

    /// Sets each embedded node's group: the object type that owns it through embedding edges
    /// from one owner only, directly or through other embedded types.
    private mutating func groupEmbeddedTypes() {
        let kinds = Dictionary(nodes.map { ($0.id, $0.kind) }, uniquingKeysWith: { first, _ in first })
        var owners: [String: [String]] = [:]
        for edge in edges where edge.kind == .embedding && edge.from != edge.to {
            if owners[edge.to]?.contains(edge.from) != true { owners[edge.to, default: []].append(edge.from) }
        }
        func root(of id: String, visited: Set<String>) -> String? {
            guard let owned = owners[id], owned.count == 1, let owner = owned.first, !visited.contains(owner) else { return nil }
            return kinds[owner] == .embedded ? root(of: owner, visited: visited.union([id])) : owner
        }
        for index in nodes.indices where nodes[index].kind == .embedded {
            nodes[index].group = root(of: nodes[index].id, visited: [nodes[index].id])
        }
    }

    /// `name` with every character other than an ASCII letter, digit or `_` written as `_` and
    /// its code point in hexadecimal (`café` → `caf_e9`).
    static func identifier(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "_" + String(scalar.value, radix: 16)
            }
        }
        return out.isEmpty ? "_" : out
    }

    /// `base`, or `base_2`, `base_3`… whichever is not taken yet; marks it taken.
    private static func unique(_ base: String, in taken: inout Set<String>) -> String {
        var candidate = base
        var number = 2
        while taken.contains(candidate) {
            candidate = "\(base)_\(number)"
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }
}

extension Diagram {
    /// Free text from a schema (a raw value, a key path, a type) as a drawing shows it:
    /// control, format and line-separating characters written as `\u{…}`, so that what cannot
    /// be seen, or would break a line, stays visible and harmless in every format.
    static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
