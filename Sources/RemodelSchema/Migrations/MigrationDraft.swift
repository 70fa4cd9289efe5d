import RemodelCore

/// The text of a new migration file, pre-filled from the changes between the newest snapshot
/// and the current schema: every change as a comment with its impact, a real step where one
/// is obviously needed (a `convert` for each retype that can reject values), and a commented
/// question where a removed and an added type or property look like a rename.
///
/// Written once by `remodel migration new`; the user edits it before committing.
public enum MigrationDraft {
    /// The baseline migration file (version 1): no steps.
    public static func baseline(name: String) -> String {
        """
        # Version 1, the baseline: the schema as first released, frozen in snapshots/v1.yaml.
        # A baseline has no steps: there is nothing older to migrate from. Later versions are
        # made with 'remodel migration new NAME'.
        description: The first released version of the schema.
        steps: []

        """
    }

    /// A migration file from `old` (version `version - 1`) to `new`.
    public static func text(version: Int, name: String, from old: Schema, to new: Schema) -> String {
        let diff = SchemaDiff(from: old, to: new)
        var out = "# Migration to version \(version): snapshots/v\(version - 1).yaml → snapshots/v\(version).yaml.\n"
        out += "# Written by 'remodel migration new'; check the steps below before you commit it.\n"
        out += "# Step kinds: renameType, renameProperty, set, convert, split, mapValues, deleteObjects, custom.\n#\n"
        out += "# Changes found (applied automatically unless a step handles them):\n"
        for change in diff.changes {
            out += "#   [\(change.impact.rawValue)] \(change.description)\(note(for: change, old: old, new: new))\n"
        }
        if diff.changes.isEmpty { out += "#   none that affect stored data\n" }

        var steps: [String] = []
        var questions: [String] = []
        for change in diff.changes {
            if case .propertyRetyped(let type, let property, let from, let to) = change.kind,
               SchemaDiff.retypeImpact(from: from, to: to) != .additive, from.collection == nil, to.collection == nil {
                let target = to.element.description.replacingOccurrences(of: "?", with: "") + (to.isOptional ? "?" : "")
                steps.append("  - convert: { type: \(scalar(type)), property: \(scalar(property)), to: \(scalar(target)), onError: fail }   # \(from) → \(to): fail, default or null")
            }
        }
        // A removed and an added object type with the same key and property names: perhaps
        // a rename.
        let removedTypes = old.objects.filter { diff.types.new(for: $0.name) == nil }
        let addedTypes = new.objects.filter { diff.types.old(for: $0.name) == nil }
        var proposedTypes = Set<String>()
        for oldObject in removedTypes {
            let shape = Set(oldObject.properties.map(\.name))
            guard let match = addedTypes.first(where: { !proposedTypes.contains($0.name) && $0.primaryKey == oldObject.primaryKey && $0.isEmbedded == oldObject.isEmbedded && Set($0.properties.map(\.name)) == shape }) else { continue }
            proposedTypes.insert(match.name)
            questions.append("""
                  # Question: was type \(oldObject.name) renamed to \(match.name)? (same key and properties)
                  # If so, uncomment this step to keep its objects; if not, every \(oldObject.name) is deleted.
                  # - renameType: { from: \(scalar(oldObject.name)), to: \(scalar(match.name)) }
                """)
        }
        // Removed + added properties of the same type: perhaps a rename.
        for newObject in new.objects {
            guard let originName = diff.types.old(for: newObject.name), let oldObject = old.objectType(named: originName) else { continue }
            let origins = diff.properties[newObject.name] ?? RenameMap()
            let removed = oldObject.properties.filter { origins.new(for: $0.name) == nil && $0.storedType != nil }
            let added = newObject.properties.filter { origins.old(for: $0.name) == nil && $0.storedType != nil }
            var proposed = Set<String>()
            for oldProperty in removed {
                let candidates = added.filter { $0.storedType?.base == oldProperty.storedType?.base && $0.storedType?.collection == oldProperty.storedType?.collection }.map(\.name)
                // The most similar name not proposed for another property yet.
                let ranked = candidates.sorted { Suggestion.editDistance(oldProperty.name, $0) < Suggestion.editDistance(oldProperty.name, $1) }
                guard let best = ranked.first(where: { !proposed.contains($0) }) ?? ranked.first else { continue }
                proposed.insert(best)
                var question = "  # Question: was \(newObject.name).\(oldProperty.name) renamed to \(best)?"
                if candidates.count > 1 { question += " (other new \(oldProperty.storedType!.description) properties: \(candidates.filter { $0 != best }.joined(separator: ", ")))" }
                question += "\n  # If so, uncomment this step to keep its values; if not, \(oldProperty.name)'s values are deleted.\n"
                question += "  # - renameProperty: { type: \(scalar(newObject.name)), from: \(scalar(oldProperty.name)), to: \(scalar(best)) }"
                questions.append(question)
            }
        }
        out += "\ndescription: \(CanonicalYAML.quoted(name.replacingOccurrences(of: "-", with: " ")))\n"
        if steps.isEmpty && questions.isEmpty {
            out += "steps: []\n"
        } else {
            out += "steps:\n"
            for step in steps { out += step + "\n" }
            // Only questions: `steps:` stays empty (null, read as no steps) until a question's
            // step is uncommented.
            for question in questions { out += question + "\n" }
        }
        return out
    }

    private static func note(for change: SchemaChange, old: Schema, new: Schema) -> String {
        switch change.kind {
        case .propertyAdded(let type, let property):
            guard let added = new.objectType(named: type)?.property(named: property), let storedType = added.storedType else { return "" }
            if let value = added.defaultValue { return ": existing objects get \(CanonicalYAML.literal(value))" }
            if storedType.isOptional || storedType.collection != nil { return ": existing objects get \(storedType.collection == nil ? "null" : "an empty \(storedType.collection!.rawValue)")" }
            return ": needs `default:` in the schema, or a step that sets it (set, split)"
        case .propertyRemoved, .objectRemoved, .enumRemoved:
            return ": its stored values are deleted"
        case .propertyRetyped(_, _, let from, let to):
            return SchemaDiff.retypeImpact(from: from, to: to) == .additive ? ": converted automatically" : ": needs a step (convert, or mapValues for enums)"
        case .enumCaseRemoved:
            return ": stored values of this case need a mapValues step"
        default:
            return ""
        }
    }

    private static func scalar(_ text: String) -> String { CanonicalYAML.scalar(text) }
}
