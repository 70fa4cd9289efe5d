import RemodelCore

/// The part of two consecutive schemas that decides whether a version can be planned, so
/// that checking a long history of a large schema costs what its versions change, not the
/// schema's size times the number of versions.
///
/// A type identical in both schemas and named by no step is *inert*: the planner gives it
/// no change and no statement. The scope keeps, in full, every type that changed or that a
/// step names, every type that refers to one of those (its links, collections, embedded
/// objects or inverses may have to follow), and the embedded types they hold; the types
/// those refer to stay as *stubs* (their own references outside the scope dropped), so
/// that links still resolve to the same keys and tables. Planning the scope succeeds with no
/// diagnostic only where planning the whole schemas does; any other outcome is re-planned
/// in full (`HistoryCheck`), so every diagnostic comes from the whole schemas.
struct PlanningScope {
    /// The reduced schemas; `nil` when the scope is most of the schema (plan it whole).
    let reduced: (old: Schema, new: Schema)?

    /// The scope of one version; `referrers` says which types of `old` and `new` refer to
    /// each type (`ReferenceIndex`, kept up to date along a history).
    init(old: Schema, new: Schema, migration: Migration, changed: Set<String>, referrers: (String) -> Set<String>) {
        var names: [String] = old.objects.map(\.name)
        for object in new.objects where old.objectType(named: object.name) == nil { names.append(object.name) }
        // Changed or named by a step.
        var affected = changed
        for step in migration.steps {
            if let type = step.typeName { affected.insert(type) }
            switch step {
            case .renameType(let from, let to): affected.formUnion([from, to])
            case .custom(_, _, let reads, _): affected.formUnion(reads)
            case .createObjects(_, _, let addTo?): affected.insert(addTo.type)
            default: break
            }
        }
        // Whatever refers to an affected type, and the embedded types held in full.
        var full = affected
        for name in affected { full.formUnion(referrers(name)) }
        var grew = true
        while grew {
            grew = false
            for name in full {
                for schema in [old, new] {
                    for property in schema.objectType(named: name)?.properties ?? [] {
                        guard let target = Self.referenced(by: property), !full.contains(target),
                            schema.objectType(named: target)?.isEmbedded == true
                        else { continue }
                        full.insert(target)
                        grew = true
                    }
                }
            }
        }
        var stubs = Set<String>()
        for name in full {
            for schema in [old, new] {
                for property in schema.objectType(named: name)?.properties ?? [] {
                    if let target = Self.referenced(by: property), !full.contains(target) { stubs.insert(target) }
                }
            }
        }
        let kept = full.union(stubs)
        guard kept.count * 4 < names.count * 3 else {
            reduced = nil
            return
        }
        func reduce(_ schema: Schema) -> Schema {
            var result = Schema(enums: schema.enums, objects: [], projections: [])
            for object in schema.objects where kept.contains(object.name) {
                var copy = object
                if !full.contains(object.name) {
                    copy.properties.removeAll { property in
                        guard let target = Self.referenced(by: property) else { return false }
                        return !kept.contains(target) || property.inverseOrigin != nil
                    }
                }
                result.objects.append(copy)
            }
            return result
        }
        reduced = (reduce(old), reduce(new))
    }

    /// The scope of one version, its references found by reading both schemas whole.
    init(old: Schema, new: Schema, migration: Migration) {
        let before = ReferenceIndex(old)
        let after = ReferenceIndex(new)
        self.init(old: old, new: new, migration: migration, changed: Self.changedTypes(from: old, to: new)) { before[$0].union(after[$0]) }
    }

    /// The object types that differ between the schemas (present in one only, or declared otherwise).
    static func changedTypes(from old: Schema, to new: Schema) -> Set<String> {
        var changed = Set<String>()
        // Most types keep their place: compare them there, and look up only the others.
        let shared = min(old.objects.count, new.objects.count)
        var moved = false
        for index in 0..<shared where old.objects[index] != new.objects[index] {
            if old.objects[index].name != new.objects[index].name {
                moved = true
                break
            }
            changed.insert(old.objects[index].name)
        }
        if moved || old.objects.count != new.objects.count {
            changed = []
            for object in old.objects where new.objectType(named: object.name) != object { changed.insert(object.name) }
            for object in new.objects where old.objectType(named: object.name) == nil { changed.insert(object.name) }
        }
        return changed
    }

    /// The object type a property refers to: the target of a link or collection of links,
    /// an embedded type, or an inverse's origin; `nil` for scalars and enums.
    static func referenced(by property: Property) -> String? {
        switch property.kind {
        case .stored(let type): type.objectName
        case .inverse(let type, _): type
        }
    }
}

/// Which object types refer to each type (by links, collections, embedded objects or
/// inverses); moved from one version to the next by what changed, not rebuilt.
struct ReferenceIndex {
    private var referrers: [String: Set<String>] = [:]

    init(_ schema: Schema) {
        for object in schema.objects { add(object) }
    }

    subscript(name: String) -> Set<String> { referrers[name] ?? [] }

    mutating func add(_ object: ObjectType) {
        for property in object.properties {
            if let target = PlanningScope.referenced(by: property) { referrers[target, default: []].insert(object.name) }
        }
    }

    mutating func remove(_ object: ObjectType) {
        for property in object.properties {
            if let target = PlanningScope.referenced(by: property) { referrers[target]?.remove(object.name) }
        }
    }

    /// The index of `new`, from this one (of `old`) and the types that differ.
    func moved(from old: Schema, to new: Schema, changed: Set<String>) -> ReferenceIndex {
        var index = self
        for name in changed {
            if let object = old.objectType(named: name) { index.remove(object) }
        }
        for name in changed {
            if let object = new.objectType(named: name) { index.add(object) }
        }
        return index
    }
}
