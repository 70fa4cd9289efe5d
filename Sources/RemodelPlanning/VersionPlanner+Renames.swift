import RemodelCore

/// Renames: from `renameType` / `renameProperty` steps and `renamedFrom` in the schema, checked
/// for contradictions before anything else is planned, so that the diff (and every table
/// after it) sees one consistent set.
extension VersionPlanner {
    /// One declared rename and where it is declared.
    struct DeclaredRename {
        var from: String
        var to: String
        var blame: Blame
        var stepIndex: Int?

        var origin: String {
            if let stepIndex { return "step \(stepIndex + 1)" }
            return "'renamedFrom: \(from)' in the schema"
        }
    }

    mutating func resolveRenames() {
        let oldTypes = old.objects.map(\.name) + old.enums.map(\.name)
        let newTypes = new.objects.map(\.name) + new.enums.map(\.name)

        // Types.
        var typeRenames: [DeclaredRename] = []
        for (index, step) in migration.steps.enumerated() {
            guard case .renameType(let from, let to) = step else { continue }
            guard oldTypes.contains(from) else {
                error(
                    "migration-unknown-type", "version \(version - 1) has no type '\(from)' to rename", at: .step(index, field: "from"), hint: Self.suggestion(from, in: oldTypes))
                continue
            }
            guard newTypes.contains(to) else {
                error(
                    "migration-unknown-type", "version \(version) has no type '\(to)' to rename '\(from)' to", at: .step(index, field: "to"),
                    hint: Self.suggestion(to, in: newTypes) ?? "add '\(to)' to the schema, or rename '\(from)' to a type it has")
                continue
            }
            guard (old.enumType(named: from) != nil) == (new.enumType(named: to) != nil) else {
                error(
                    "migration-invalid-step", "'\(from)' is \(old.enumType(named: from) != nil ? "an enum" : "an object type") but '\(to)' is not", at: .step(index, field: "to"),
                    hint: "rename an enum to an enum and an object type to an object type")
                continue
            }
            typeRenames.append(DeclaredRename(from: from, to: to, blame: .step(index), stepIndex: index))
        }
        for declared in new.objects.map({ ($0.name, $0.renamedFrom) }) + new.enums.map({ ($0.name, $0.renamedFrom) }) {
            guard let from = declared.1, oldTypes.contains(from), !newTypes.contains(from) else { continue }
            typeRenames.append(DeclaredRename(from: from, to: declared.0, blame: .schema(type: declared.0)))
        }
        let types = consistent(typeRenames, oldNames: Set(oldTypes), newNames: Set(newTypes), noun: "type", container: nil)
        renames.types = types

        // Properties, by the new name of their type.
        var propertyRenames: [String: [DeclaredRename]] = [:]
        for (index, step) in migration.steps.enumerated() {
            guard case .renameProperty(let typeName, let from, let to) = step else { continue }
            guard let newType = resolveType(typeName, step: index, renames: types) else { continue }
            guard let oldName = types.old(for: newType) ?? old.objectType(named: newType)?.name, let oldObject = old.objectType(named: oldName) else {
                error("migration-unknown-type", "'\(newType)' is new in version \(version), so it has no properties to rename", at: .step(index, field: "type"))
                continue
            }
            guard oldObject.property(named: from) != nil else {
                error(
                    "migration-unknown-property", "'\(oldObject.name)' has no property '\(from)' in version \(version - 1)", at: .step(index, field: "from"),
                    hint: Self.suggestion(from, in: oldObject.properties.map(\.name)))
                continue
            }
            let newProperties = new.objectType(named: newType)?.properties.map(\.name) ?? []
            guard newProperties.contains(to) else {
                error(
                    "migration-unknown-property", "'\(newType)' has no property '\(to)' in version \(version)", at: .step(index, field: "to"),
                    hint: Self.suggestion(to, in: newProperties) ?? "add '\(to)' to the schema")
                continue
            }
            propertyRenames[newType, default: []].append(DeclaredRename(from: from, to: to, blame: .step(index), stepIndex: index))
        }
        for newObject in new.objects {
            guard let oldObject = types.old(for: newObject.name).flatMap(old.objectType(named:)) ?? old.objectType(named: newObject.name) else { continue }
            for property in newObject.properties {
                guard let from = property.renamedFrom, oldObject.property(named: from) != nil, newObject.property(named: from) == nil else { continue }
                propertyRenames[newObject.name, default: []].append(DeclaredRename(from: from, to: property.name, blame: .schema(type: newObject.name, member: property.name)))
            }
        }
        for (newType, declared) in propertyRenames.sorted(by: { $0.key < $1.key }) {
            let oldName = types.old(for: newType) ?? newType
            let oldNames = Set(old.objectType(named: oldName)?.properties.map(\.name) ?? [])
            let newNames = Set(new.objectType(named: newType)?.properties.map(\.name) ?? [])
            renames.properties[newType] = consistent(declared, oldNames: oldNames, newNames: newNames, noun: "property", container: newType)
        }
    }

    /// The renames that do not contradict each other; every contradiction is an error at the
    /// step (or schema line) that makes it.
    private mutating func consistent(_ declared: [DeclaredRename], oldNames: Set<String>, newNames: Set<String>, noun: String, container: String?) -> RenameMap {
        var map = RenameMap()
        var accepted: [DeclaredRename] = []
        let qualified = { (name: String) in container.map { "\($0).\(name)" } ?? name }
        for rename in declared {
            if accepted.contains(where: { $0.from == rename.from && $0.to == rename.to }) { continue }
            if let first = accepted.first(where: { $0.to == rename.to }) {
                blame(
                    rename, first,
                    "renames '\(qualified(rename.from))' to '\(rename.to)', but \(first.origin) already renames '\(first.from)' to it: one \(noun) cannot continue two",
                    hint:
                        "keep one rename; to combine the values of '\(first.from)' and '\(rename.from)', set '\(rename.to)' from both, e.g. set: { value: \"{\(first.from)} {\(rename.from)}\" }"
                )
                continue
            }
            if let first = accepted.first(where: { $0.from == rename.from }) {
                blame(
                    rename, first, "renames '\(qualified(rename.from))' to '\(rename.to)', but \(first.origin) already renames it to '\(first.to)'",
                    hint: "keep one of the renames; to copy the values, set the other with a template: \"{\(first.to)}\"")
                continue
            }
            accepted.append(rename)
        }
        for rename in accepted {
            // The target's own old values would be lost unless it is renamed away too.
            if oldNames.contains(rename.to), rename.to != rename.from, !accepted.contains(where: { $0.from == rename.to }) {
                error(
                    "migration-rename-conflict",
                    "renames '\(qualified(rename.from))' to '\(rename.to)', but version \(version - 1) has a \(noun) '\(rename.to)' too, which this version neither renames nor keeps apart; its values would be lost",
                    at: rename.blame,
                    hint:
                        "rename '\(rename.to)' away in this version too (for a swap, rename both), or remove '\(rename.to)' in one version and rename '\(rename.from)' to it in the next"
                )
                continue
            }
            // The source continuing under its old name as well would be left empty.
            if newNames.contains(rename.from), rename.to != rename.from, !accepted.contains(where: { $0.to == rename.from }) {
                error(
                    "migration-rename-conflict",
                    "renames '\(qualified(rename.from))' to '\(rename.to)', but version \(version) still has '\(rename.from)'; a rename moves the values, and '\(rename.from)' would start empty",
                    at: rename.blame,
                    hint:
                        "to keep '\(rename.from)' and copy its values, remove the rename and add: set: { \(container.map { "type: \($0), " } ?? "")property: \(rename.to), value: \"{\(rename.from)}\" }; to rename it, remove '\(rename.from)' from the schema"
                )
                continue
            }
            map.insert(old: rename.from, new: rename.to)
        }
        return map
    }

    private mutating func blame(_ rename: DeclaredRename, _ first: DeclaredRename, _ message: String, hint: String) {
        let note = Diagnostic.Note("the other rename is here", at: location(first.blame))
        error("migration-rename-conflict", message, at: rename.blame, hint: hint, notes: [note])
    }

    /// The new name of an object type a step names (by its new or its old name).
    mutating func resolveType(_ name: String, step: Int, renames types: RenameMap? = nil, field: String = "type") -> String? {
        let types = types ?? renames.types
        if new.objectType(named: name) != nil { return name }
        if let renamed = types.new(for: name), new.objectType(named: renamed) != nil { return renamed }
        if let renamed = new.objects.first(where: { $0.renamedFrom == name })?.name { return renamed }
        if old.objectType(named: name) != nil {
            // A type removed in this version: steps may still read and delete its objects.
            return name
        }
        let names = new.objects.map(\.name)
        error("migration-unknown-type", "version \(version) has no object type '\(name)'", at: .step(step, field: field), hint: Self.suggestion(name, in: names))
        return nil
    }
}
