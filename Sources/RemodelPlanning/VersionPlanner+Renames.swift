import RemodelCore

/// Renames: from `renameType` / `renameProperty` steps and `renamedFrom` in the schema, checked
/// for contradictions before anything else is planned (by `DeclaredRenames`, which every
/// reader of a history shares), so that the diff (and every table after it) sees one
/// consistent set.
extension VersionPlanner {
    /// The version's renames, from the one resolution every reader shares
    /// (`DeclaredRenames`); each problem is reported at the step or schema line that makes it.
    mutating func resolveRenames() {
        let declared = DeclaredRenames(steps: migration.steps, from: old, to: new)
        renames = declared.renames
        let newObjects = new.objects.map(\.name)
        for problem in declared.problems {
            switch problem {
            case .noOldType(let index, let name):
                let oldTypes = old.objects.map(\.name) + old.enums.map(\.name)
                error(
                    "migration-unknown-type", "version \(version - 1) has no type '\(name)' to rename", at: .step(index, field: .key(.from)),
                    hint: Self.suggestion(name, in: oldTypes))
            case .noNewType(let index, let name, let from):
                let newTypes = newObjects + new.enums.map(\.name)
                error(
                    "migration-unknown-type", "version \(version) has no type '\(name)' to rename '\(from)' to", at: .step(index, field: .key(.to)),
                    hint: Self.suggestion(name, in: newTypes) ?? "add '\(name)' to the schema, or rename '\(from)' to a type it has")
            case .kindMismatch(let index, let from, let fromIsEnum, let to):
                error(
                    "migration-invalid-step", "'\(from)' is \(fromIsEnum ? "an enum" : "an object type") but '\(to)' is not", at: .step(index, field: .key(.to)),
                    hint: "rename an enum to an enum and an object type to an object type")
            case .unknownType(let index, let name):
                error(
                    "migration-unknown-type", "version \(version) has no object type '\(name)'", at: .step(index, field: .key(.type)), hint: Self.suggestion(name, in: newObjects))
            case .newType(let index, let type):
                error("migration-unknown-type", "'\(type)' is new in version \(version), so it has no properties to rename", at: .step(index, field: .key(.type)))
            case .noOldProperty(let index, let type, let name):
                error(
                    "migration-unknown-property", "'\(type)' has no property '\(name)' in version \(version - 1)", at: .step(index, field: .key(.from)),
                    hint: Self.suggestion(name, in: old.objectType(named: type)?.properties.map(\.name) ?? []))
            case .noNewProperty(let index, let type, let name):
                let newProperties = new.objectType(named: type)?.properties.map(\.name) ?? []
                error(
                    "migration-unknown-property", "'\(type)' has no property '\(name)' in version \(version)", at: .step(index, field: .key(.to)),
                    hint: Self.suggestion(name, in: newProperties) ?? "add '\(name)' to the schema")
            case .twoIntoOne(let rename, let first):
                let noun = rename.container == nil ? "type" : "property"
                blame(
                    rename, first,
                    "renames '\(qualified(rename))' to '\(rename.to)', but \(origin(first)) already renames '\(first.from)' to it: one \(noun) cannot continue two",
                    hint:
                        "keep one rename; to combine the values of '\(first.from)' and '\(rename.from)', set '\(rename.to)' from both, e.g. set: { value: \"{\(first.from)} {\(rename.from)}\" }"
                )
            case .renamedTwice(let rename, let first):
                blame(
                    rename, first, "renames '\(qualified(rename))' to '\(rename.to)', but \(origin(first)) already renames it to '\(first.to)'",
                    hint: "keep one of the renames; to copy the values, set the other with a template: \"{\(first.to)}\"")
            case .targetTaken(let rename):
                let noun = rename.container == nil ? "type" : "property"
                error(
                    "migration-rename-conflict",
                    "renames '\(qualified(rename))' to '\(rename.to)', but version \(version - 1) has a \(noun) '\(rename.to)' too, which this version neither renames nor keeps apart; its values would be lost",
                    at: blame(of: rename),
                    hint:
                        "rename '\(rename.to)' away in this version too (for a swap, rename both), or remove '\(rename.to)' in one version and rename '\(rename.from)' to it in the next"
                )
            case .sourceKept(let rename):
                error(
                    "migration-rename-conflict",
                    "renames '\(qualified(rename))' to '\(rename.to)', but version \(version) still has '\(rename.from)'; a rename moves the values, and '\(rename.from)' would start empty",
                    at: blame(of: rename),
                    hint:
                        "to keep '\(rename.from)' and copy its values, remove the rename and add: set: { \(rename.container.map { "type: \($0), " } ?? "")property: \(rename.to), value: \"{\(rename.from)}\" }; to rename it, remove '\(rename.from)' from the schema"
                )
            }
        }
    }

    private func qualified(_ rename: DeclaredRenames.Rename) -> String {
        rename.container.map { "\($0).\(rename.from)" } ?? rename.from
    }

    private func origin(_ rename: DeclaredRenames.Rename) -> String {
        if case .step(let index) = rename.origin { return "step \(index + 1)" }
        return "'renamedFrom: \(rename.from)' in the schema"
    }

    private func blame(of rename: DeclaredRenames.Rename) -> Blame {
        switch rename.origin {
        case .step(let index): .step(index)
        case .schema(let type, let member): .schema(type: type, member: member)
        }
    }

    private mutating func blame(_ rename: DeclaredRenames.Rename, _ first: DeclaredRenames.Rename, _ message: String, hint: String) {
        let note = Diagnostic.Note("the other rename is here", at: location(blame(of: first)))
        error("migration-rename-conflict", message, at: blame(of: rename), hint: hint, notes: [note])
    }

    /// The new name of an object type a step names (by its new or its old name).
    mutating func resolveType(_ name: String, step: Int, field: StepField = .key(.type)) -> String? {
        if let found = DeclaredRenames.newTypeName(name, types: renames.types, old: old, new: new) { return found }
        let names = new.objects.map(\.name)
        error("migration-unknown-type", "version \(version) has no object type '\(name)'", at: .step(step, field: field), hint: Self.suggestion(name, in: names))
        return nil
    }
}
