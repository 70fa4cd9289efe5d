import RemodelCore

extension Diagram {
    /// The diagram of what changes from `old` to `new`, as `SchemaDiff` sees it: the new
    /// schema's types, with those removed drawn where they were; each type, member and edge
    /// marked added, removed or changed (renamed `old → new`, retyped `old type → new type`,
    /// or a note such as `default changed`); what did not change drawn plain, for context.
    ///
    /// `renames` are those the migration steps between the two declare (as `SchemaDiff`
    /// takes them); without them, renames are matched by name and `renamedFrom` only.
    /// Projections are left out: migrations do not change them.
    public init(comparing old: Schema, to new: Schema, renames: SchemaDiff.Renames = SchemaDiff.Renames(), title: String? = nil) {
        let diff = SchemaDiff(from: old, to: new, renames: renames)
        var comparison = Comparison(diff: diff)
        let before = SchemaDrawing(schema: old, projections: false)
        let after = SchemaDrawing(schema: new, projections: false)
        let nodes =
            comparison.merge(old: before.objects, new: after.objects, origin: { diff.types.old(for: $0) })
            + comparison.merge(old: before.enums, new: after.enums, origin: { diff.enums.old(for: $0) })
        let edges = comparison.merge(old: before.edges, new: after.edges)
        self = Diagram(title: title, nodes: nodes, edges: edges, isComparison: true).finished()
    }
}

/// Matches the two sides of a comparison through a `SchemaDiff`: its rename maps say what
/// continues, its changes what is marked and how.
private struct Comparison {
    let diff: SchemaDiff
    /// The changes to a type itself, by its new name (or the removed name).
    private var typeChanges: [String: [SchemaChange.Kind]] = [:]
    /// The changes to members, by type name and member name (the new names).
    private var memberChanges: [String: [String: [SchemaChange.Kind]]] = [:]
    /// Old provisional node identifiers to the identifiers they have in the comparison.
    private var nodeIDs: [String: String] = [:]
    /// Per old provisional node identifier, old member identifiers to theirs in the comparison.
    private var memberIDs: [String: [String: String]] = [:]

    init(diff: SchemaDiff) {
        self.diff = diff
        for change in diff.changes {
            let (type, member) = change.kind.declaration
            if let member {
                memberChanges[type, default: [:]][member, default: []].append(change.kind)
            } else {
                typeChanges[type, default: []].append(change.kind)
            }
        }
    }

    /// The new nodes, each marked against the old node it continues, with the old nodes that
    /// do not continue marked removed and placed after the node that came before them.
    mutating func merge(old: [Diagram.Node], new: [Diagram.Node], origin: (String) -> String?) -> [Diagram.Node] {
        let oldByName = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var continuing: [String: String] = [:]  // old name → new node id
        var merged: [Diagram.Node] = []
        for node in new {
            guard let originName = origin(node.name), let before = oldByName[originName] else {
                merged.append(Self.marked(node, .added))
                continue
            }
            continuing[originName] = node.id
            nodeIDs[before.id] = node.id
            merged.append(mergeNode(old: before, new: node))
        }
        let removed = old.filter { continuing[$0.name] == nil }.map { node in
            nodeIDs[node.id] = "-" + node.id
            memberIDs[node.id] = Dictionary(node.members.map { ($0.id, "-" + $0.id) }, uniquingKeysWith: { first, _ in first })
            var node = Self.marked(node, .removed)
            node.id = "-" + node.id
            node.members = node.members.map { member in
                var member = member
                member.id = "-" + member.id
                return member
            }
            return node
        }
        return Self.interleave(removed: removed, into: merged, oldOrder: old.map(\.name)) { node in
            node.mark == .removed ? node.name : old.first { nodeIDs[$0.id] == node.id }?.name
        }
    }

    /// A node that continues: renamed, changed as a whole, and its members matched.
    private mutating func mergeNode(old: Diagram.Node, new: Diagram.Node) -> Diagram.Node {
        var node = new
        if old.name != new.name { node.oldName = old.name }
        for change in typeChanges[new.name] ?? [] {
            switch change {
            case .embeddedChanged(_, let isEmbedded): node.notes.append(isEmbedded ? "became embedded" : "no longer embedded")
            case .primaryKeyChanged(_, let from, let to): node.notes.append("primary key \(from ?? "none") → \(to ?? "none")")
            case .enumRawTypeChanged(_, let from, let to): node.notes.append("raw type \(from.rawValue) → \(to.rawValue)")
            default: break
            }
        }
        if node.oldName != nil || !node.notes.isEmpty { node.mark = .changed }

        let properties = new.kind == .enumeration ? nil : diff.properties[new.name]
        let oldMembers = Dictionary(old.members.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var ids: [String: String] = [:]
        var members: [Diagram.Member] = []
        var continuing = Set<String>()
        for member in new.members {
            // Properties continue as the diff matched them; enum cases by name.
            let originName = properties.map { $0.old(for: member.name) } ?? (oldMembers[member.name] != nil ? member.name : nil)
            guard let originName, let before = oldMembers[originName] else {
                var added = member
                added.mark = .added
                members.append(added)
                continue
            }
            continuing.insert(originName)
            ids[before.id] = member.id
            members.append(mergeMember(old: before, new: member, type: new.name))
        }
        let removed = old.members.filter { !continuing.contains($0.name) }.map { member in
            ids[member.id] = "-" + member.id
            var member = member
            member.id = "-" + member.id
            member.mark = .removed
            return member
        }
        memberIDs[old.id] = ids
        node.members = Self.interleave(removed: removed, into: members, oldOrder: old.members.map(\.name)) { member in
            member.mark == .removed ? member.name : (member.mark == .added ? nil : member.oldName ?? member.name)
        }
        return node
    }

    /// A member that continues, with what the diff says changed about it.
    private func mergeMember(old: Diagram.Member, new: Diagram.Member, type: String) -> Diagram.Member {
        var member = new
        if old.name != new.name { member.oldName = old.name }
        for change in memberChanges[type]?[new.name] ?? [] {
            switch change {
            case .propertyRetyped, .propertyMadeOptional, .propertyMadeRequired, .inverseChanged:
                member.oldDetail = old.detail
            case .enumCaseRawValueChanged(_, _, let from, let to):
                member.oldDetail = Diagram.visible(from.description)
                member.detail = Diagram.visible(to.description)
            case .indexAdded: member.notes.append("index added")
            case .indexRemoved: member.notes.append("index removed")
            case .defaultChanged: member.notes.append("default changed")
            default: break
            }
        }
        if member.oldName != nil || member.oldDetail != nil || !member.notes.isEmpty { member.mark = .changed }
        return member
    }

    /// The new edges, each marked against the old edge between the same ends from the same
    /// member (changed when its label or multiplicity differs), then the old edges that are gone.
    func merge(old: [Diagram.Edge], new: [Diagram.Edge]) -> [Diagram.Edge] {
        let moved = old.map { edge in
            var edge = edge
            edge.member = edge.member.map { memberIDs[edge.from]?[$0] ?? $0 }
            edge.toMember = edge.toMember.map { memberIDs[edge.to]?[$0] ?? $0 }
            edge.from = nodeIDs[edge.from] ?? edge.from
            edge.to = nodeIDs[edge.to] ?? edge.to
            return edge
        }
        let oldByKey = Dictionary(moved.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let newKeys = Set(new.map(\.key))
        var merged = new.map { edge in
            var edge = edge
            if let before = oldByKey[edge.key] {
                if before.text != edge.text || before.multiplicity != edge.multiplicity { edge.mark = .changed }
            } else {
                edge.mark = .added
            }
            return edge
        }
        for edge in moved where !newKeys.contains(edge.key) {
            var removed = edge
            removed.mark = .removed
            merged.append(removed)
        }
        return merged
    }

    /// `node` and its members all marked `mark`.
    private static func marked(_ node: Diagram.Node, _ mark: Diagram.Mark) -> Diagram.Node {
        var node = node
        node.mark = mark
        node.members = node.members.map { member in
            var member = member
            member.mark = mark
            return member
        }
        return node
    }

    /// `elements` with each of `removed` placed after the element that continues the one
    /// before it in `oldOrder` (at the start when none does), so that a removed member shows
    /// where it was. `oldName` gives an element's name in `oldOrder`, `nil` for one added.
    private static func interleave<Element>(removed: [Element], into elements: [Element], oldOrder: [String], oldName: (Element) -> String?) -> [Element] {
        guard !removed.isEmpty else { return elements }
        let position = Dictionary(oldOrder.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var result = elements
        for element in removed {
            guard let name = oldName(element), let index = position[name] else {
                result.append(element)
                continue
            }
            // After the last element whose old position comes before this one's.
            var insertion = 0
            for (offset, existing) in result.enumerated() {
                if let existingName = oldName(existing), let existingIndex = position[existingName], existingIndex < index {
                    insertion = offset + 1
                }
            }
            result.insert(element, at: insertion)
        }
        return result
    }
}
