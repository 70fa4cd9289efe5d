import RemodelCore

/// The text of a new migration file, pre-filled from the changes between the newest snapshot
/// and the current schema: every change as a comment with its impact, a real step where one
/// is obviously needed (a `convert` for each retype that can reject values), and commented
/// questions where the changes look like something a step should say: a removed and an added
/// type or property that may be a rename, removed text properties that may combine into a
/// new one.
///
/// Written by `remodel migration new` and re-headed by `remodel migration amend`; the user
/// edits it before committing.
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
        let suggestions = Suggestions(old: old, new: new, answered: Answered())
        var out = header(version: version, from: old, to: new)
        out += "\ndescription: \(CanonicalYAML.quoted(name.replacingOccurrences(of: "-", with: " ")))\n"
        if suggestions.steps.isEmpty && suggestions.questions.isEmpty {
            out += "steps: []\n"
        } else {
            out += "steps:\n"
            for step in suggestions.steps { out += step + "\n" }
            // Only questions: `steps:` stays empty (null, read as no steps) until a question's
            // step is uncommented.
            for question in suggestions.questions { out += question + "\n" }
        }
        return out
    }

    /// `existing` (a migration file) with the comment block it starts with replaced by the
    /// changes between `old` and `new`, its description and steps kept as they are; questions
    /// for changes the file does not mention yet are added at its end, commented. `steps` are
    /// the file's steps: their renames are not listed as removals, and what they already do is
    /// not asked again.
    public static func amended(_ existing: String, steps: [MigrationStep] = [], version: Int, from old: Schema, to new: Schema) -> String {
        var lines = existing.split(separator: "\n", omittingEmptySubsequences: false)
        while let first = lines.first, first.hasPrefix("#") || first.trimmingCharacters(in: .whitespaces).isEmpty {
            lines.removeFirst()
        }
        var body = lines.joined(separator: "\n")
        if !body.hasSuffix("\n") { body += "\n" }
        let answered = Answered(steps: steps, old: old, new: new)
        let suggestions = Suggestions(old: old, new: new, answered: answered)
        // A suggestion whose step the file already has, written or commented, is answered.
        let written = Set(body.split(separator: "\n").map { Self.stepText($0) })
        let missing = (suggestions.steps + suggestions.questions).filter { !written.contains(Self.stepText(Self.stepLine(of: $0))) }
        if !missing.isEmpty {
            body += "  # Suggested by 'remodel migration amend' for changes this file does not handle yet:\n"
            for suggestion in missing {
                body += suggestion.split(separator: "\n").map { $0.hasPrefix("  #") ? String($0) : "  # " + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n") + "\n"
            }
        }
        return header(version: version, from: old, to: new, renames: answered.renames) + "\n" + body
    }

    /// The questions of a migration file that are still open: those whose commented step is
    /// still in `text` (the file) and that `steps` (the file's steps, between `old` and `new`)
    /// do not answer. An uncommented step answers its question; a deleted one leaves none.
    public static func openQuestions(in text: String, steps: [MigrationStep], from old: Schema, to new: Schema) -> [OpenQuestion] {
        // A commented step edited but left commented (its `keep:` chosen, say) is still the
        // question's: matched by its kind and first field too.
        var commented: [String: Int] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
            let step = Self.stepText(line)
            for key in [step, Self.stepIdentity(step)] where !key.isEmpty && commented[key] == nil { commented[key] = index + 1 }
        }
        let suggestions = Suggestions(old: old, new: new, answered: Answered(steps: steps, old: old, new: new))
        return suggestions.questions.compactMap { question in
            let step = Self.stepText(Self.stepLine(of: question))
            guard let line = commented[step] ?? commented[Self.stepIdentity(step)] else { return nil }
            let first = question.split(separator: "\n").first.map { Self.stepText($0) } ?? ""
            return OpenQuestion(question: first, step: Self.stepText(Self.stepLine(of: question)), line: line)
        }
    }

    /// A question of a draft still open in its file.
    public struct OpenQuestion: Hashable, Sendable {
        /// `Question: was type Dog renamed to Pet? (…)`.
        public var question: String
        /// The commented step that answers it: `- renameType: { from: Dog, to: Pet }`.
        public var step: String
        /// The line of that step in the file.
        public var line: Int
    }

    /// A step's kind and first field (`- deduplicate: { type: Trip`), which edits of its other
    /// fields keep; empty for text that is no step.
    static func stepIdentity(_ step: String) -> String {
        guard step.hasPrefix("- "), step.contains(": {") else { return "" }
        return String(step.prefix { $0 != "," })
    }

    /// The line of a suggestion that holds its step (`- kind: { … }`, commented or not).
    private static func stepLine(of suggestion: String) -> Substring {
        suggestion.split(separator: "\n").last { $0.contains("- ") } ?? Substring(suggestion)
    }

    /// A step line as text to compare: without indentation, the `# ` that comments it out, or a
    /// trailing comment (`# string → int: …` after a `convert`).
    static func stepText(_ line: Substring) -> String {
        var text = line.trimmingCharacters(in: .whitespaces)[...]
        while text.hasPrefix("#") { text = text.dropFirst().drop { $0 == " " } }
        // A YAML comment starts at a `#` after a space, outside quotes (which open a scalar:
        // `'` in `don't` is text, `''` inside single quotes is one `'`).
        var quote: Character?
        var previous: Character = " "
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if escaped { escaped = false } else if open == "\"" && character == "\\" { escaped = true } else if character == open { quote = nil }
            } else if character == "\"" || character == "'", previous.isWhitespace || "{[,:'".contains(previous) {
                quote = character
            } else if character == "#" && previous.isWhitespace {
                text = text[..<index]
                break
            }
            previous = character
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The comment block a draft starts with: what changed, with the impact of each change.
    static func header(version: Int, from old: Schema, to new: Schema, renames: SchemaDiff.Renames = SchemaDiff.Renames()) -> String {
        let diff = SchemaDiff(from: old, to: new, renames: renames)
        var out = "# Migration to version \(version): snapshots/v\(version - 1).yaml → snapshots/v\(version).yaml.\n"
        out += "# Written by 'remodel migration new'; check the steps below before you commit it.\n"
        out += "# Step kinds: \(MigrationStep.kinds.joined(separator: ", ")).\n#\n"
        if diff.changes.isEmpty {
            out += "# The schema stores the same data as version \(version - 1): this is a data-only version.\n"
            out += "# Write the steps it runs (set, mapValues, deleteObjects, createObjects, custom, …).\n"
            return out
        }
        out += "# Changes found (applied automatically unless a step handles them):\n"
        for change in diff.changes {
            out += "#   [\(change.impact.rawValue)] \(change.description)\(note(for: change, old: old, new: new))\n"
        }
        return out
    }

    /// What the steps of an existing file already say: the renames they declare (those that
    /// fit the two schemas), and the names they rename or write, which need no question.
    struct Answered {
        var renames = SchemaDiff.Renames()
        /// Types named by a `renameType`, as sources and as targets.
        var typeNames: Set<String> = []
        /// Per type (both its old and new name): properties a step renames (from or to) or
        /// writes (`set`, `split`, `mapValues`, `convert`).
        var properties: [String: Set<String>] = [:]
        /// Per type (as the steps name it): the groups of properties a `deduplicate` step groups by.
        var deduplicated: [String: Set<Set<String>>] = [:]

        init() {}

        init(steps: [MigrationStep], old: Schema, new: Schema) {
            // The renames the planner takes, by the same rules.
            renames = DeclaredRenames(steps: steps, from: old, to: new).renames
            for case .renameType(let from, let to) in steps {
                typeNames.formUnion([from, to])
            }
            func note(_ type: String, _ names: [String]) {
                let other = renames.types.new(for: type) ?? renames.types.old(for: type)
                for key in [type] + (other.map { [$0] } ?? []) { properties[key, default: []].formUnion(names) }
            }
            for step in steps {
                if case .deduplicate(let type, let by, _, _) = step { deduplicated[type, default: []].insert(Set(by)) }
                guard let type = step.typeName, let written = step.writtenProperties, !written.isEmpty else { continue }
                note(type, written)
            }
        }

        func mentions(_ property: String, of type: String) -> Bool {
            properties[type]?.contains(property) ?? false
        }
    }

    /// The steps and questions a draft offers.
    struct Suggestions {
        var steps: [String] = []
        var questions: [String] = []

        init(old: Schema, new: Schema, answered: Answered) {
            let diff = SchemaDiff(from: old, to: new, renames: answered.renames)
            for change in diff.changes {
                if case .propertyRetyped(let type, let property, let from, let to) = change.kind,
                    SchemaDiff.retypeImpact(from: from, to: to) == .dataDependent,
                    // A property the file's steps already convert (or write) needs no convert.
                    !answered.mentions(property, of: type),
                    let convert = MigrationStep.convertFor(type: type, property: property, from: from, to: to)
                {
                    let choices =
                        if from.collection != nil {
                            from.objectName == nil ? "create makes each \(to.objectName ?? "") no value names yet, fail needs them all" : "fail"
                        } else if to.objectName != nil {
                            "fail, null or create"
                        } else {
                            "fail, default or null"
                        }
                    steps.append("  - \(convert)   # \(from) → \(to): \(choices)")
                }
            }
            // Removed and added types that look like one type renamed: the same kind and key
            // type, and most properties in common.
            let removedTypes = old.objects.filter { diff.types.new(for: $0.name) == nil && !answered.typeNames.contains($0.name) }
            let addedTypes = new.objects.filter { diff.types.old(for: $0.name) == nil && !answered.typeNames.contains($0.name) }
            var typeRenames = RenameMap()
            for oldObject in removedTypes {
                let candidates = addedTypes.filter { added in
                    typeRenames.old(for: added.name) == nil && added.isEmbedded == oldObject.isEmbedded
                        && added.primaryKeyProperty?.storedType == oldObject.primaryKeyProperty?.storedType
                }.map { (object: $0, overlap: Self.overlap(oldObject, $0)) }.filter { $0.overlap >= 0.5 }
                guard let match = candidates.max(by: { $0.overlap < $1.overlap })?.object else { continue }
                typeRenames.insert(old: oldObject.name, new: match.name)
                let shared = Set(oldObject.storedProperties.map(\.name)).intersection(match.storedProperties.map(\.name)).sorted()
                let same = Set(oldObject.storedProperties.map(\.name)) == Set(match.storedProperties.map(\.name))
                questions.append(
                    """
                      # Question: was type \(oldObject.name) renamed to \(match.name)? (\(same ? "same key and properties" : "the same key type, and \(shared.count) \(shared.count == 1 ? "property" : "properties") in common: \(shared.joined(separator: ", "))"))
                      # If so, uncomment this step to keep its objects; if not, every \(oldObject.name) is deleted.
                      # - renameType: { from: \(scalar(oldObject.name)), to: \(scalar(match.name)) }
                    """)
            }
            // Removed and added properties of one type.
            for newObject in new.objects {
                guard let originName = diff.types.old(for: newObject.name) ?? typeRenames.old(for: newObject.name), let oldObject = old.objectType(named: originName) else {
                    continue
                }
                let origins = diff.properties[newObject.name] ?? RenameMap()
                let removed = oldObject.properties.filter {
                    origins.new(for: $0.name) == nil && $0.storedType != nil && newObject.property(named: $0.name) == nil && !answered.mentions($0.name, of: newObject.name)
                }
                var added = newObject.properties.filter {
                    origins.old(for: $0.name) == nil && $0.storedType != nil && oldObject.property(named: $0.name) == nil && !answered.mentions($0.name, of: newObject.name)
                }
                // Text that may combine removed text properties: a `set` template.
                let removedText = removed.filter { $0.storedType == .scalar(.string) }
                if removedText.count >= 2, let combined = added.first(where: { $0.storedType?.base == .scalar(.string) && $0.storedType?.collection == nil }) {
                    let template = removedText.map { "{\($0.name)}" }.joined(separator: " ")
                    questions.append(
                        """
                          # Question: does \(newObject.name).\(combined.name) combine \(MessageText.list(removedText.map(\.name)))?
                          # If so, uncomment this step; it reads them before their values are deleted.
                          # - set: { type: \(scalar(newObject.name)), property: \(scalar(combined.name)), value: \(CanonicalYAML.quoted(template)) }
                        """)
                    added.removeAll { $0.name == combined.name }
                }
                // One removed text property and several new ones: a `split` (its separator a guess).
                var splitSources = Set<String>()
                let addedText = added.filter { $0.storedType?.base == .scalar(.string) && $0.storedType?.collection == nil }
                if removedText.count == 1, let source = removedText.first, addedText.count >= 2 {
                    let into = addedText.map(\.name)
                    questions.append(
                        """
                          # Question: does \(newObject.name).\(source.name) split into \(MessageText.list(into))? (the parts in this order, separated by a space)
                          # If so, uncomment this step and check its order and separator; it reads \(source.name) before its values are deleted.
                          # - split: { type: \(scalar(newObject.name)), property: \(scalar(source.name)), into: [\(into.map(scalar).joined(separator: ", "))], separator: " " }
                        """)
                    splitSources.insert(source.name)
                    added.removeAll { into.contains($0.name) }
                }
                var proposed = Set<String>()
                for oldProperty in removed where !splitSources.contains(oldProperty.name) {
                    guard let oldType = oldProperty.storedType else { continue }
                    let candidates = added.filter { property in
                        guard let type = property.storedType, !proposed.contains(property.name), type.collection == oldType.collection else { return false }
                        if type.base == oldType.base { return true }
                        // A link to a type the draft asks about renaming.
                        if case .object(let to) = type.base, case .object(let from) = oldType.base { return typeRenames.new(for: from) == to }
                        return false
                    }.map(\.name)
                    // The most similar name not proposed for another property yet.
                    guard let best = candidates.min(by: { Suggestion.editDistance(oldProperty.name, $0) < Suggestion.editDistance(oldProperty.name, $1) }) else { continue }
                    proposed.insert(best)
                    var question = "  # Question: was \(newObject.name).\(oldProperty.name) renamed to \(best)?"
                    if let from = oldType.objectName, let to = newObject.property(named: best)?.storedType?.objectName, from != to {
                        question += " (if \(from) was renamed to \(to))"
                    }
                    let others = candidates.filter { $0 != best }
                    if !others.isEmpty { question += " (other new \(oldType.description) properties: \(others.joined(separator: ", ")))" }
                    question += "\n  # If so, uncomment this step to keep its values; if not, the values of '\(oldProperty.name)' are deleted.\n"
                    question += "  # - renameProperty: { type: \(scalar(newObject.name)), from: \(scalar(oldProperty.name)), to: \(scalar(best)) }"
                    questions.append(question)
                }
            }
            questions += Self.removedCaseQuestions(old: old, new: new, diff: diff, answered: answered)
            for change in diff.changes {
                guard case .uniqueAdded(let type, let group) = change.kind, answered.deduplicated[type]?.contains(Set(group)) != true else { continue }
                questions.append(
                    """
                      # Question: may two stored \(type) objects have the same \(MessageText.list(group))? Making \(group.count == 1 ? "it" : "them") unique stops the migration on objects that do.
                      # If so, uncomment this step: it keeps one object of each (choose keep: first or last, and an orderBy property) and moves links to it.
                      # - deduplicate: { type: \(scalar(type)), by: [\(group.map(scalar).joined(separator: ", "))], keep: first }
                    """)
            }
        }

        /// Enum cases removed: stored values of them stop the migration, so each property that
        /// keeps holding the enum gets a `mapValues` to answer, each removed case mapped to the
        /// added case of the closest name (a rename), else to the property's default case or
        /// the enum's first.
        static func removedCaseQuestions(old: Schema, new: Schema, diff: SchemaDiff, answered: Answered) -> [String] {
            var questions: [String] = []
            for newEnum in new.enums {
                guard let oldName = diff.enums.old(for: newEnum.name), let oldEnum = old.enumType(named: oldName), let first = newEnum.cases.first else { continue }
                let removed = oldEnum.casesRemoved(in: newEnum)
                guard !removed.isEmpty else { continue }
                // Closest pairs first; a pair whose names differ in more than half their letters is no rename.
                let added = newEnum.cases.filter { oldEnum.enumCase(named: $0.name) == nil }.map(\.name)
                let pairs = removed.flatMap { oldCase in added.map { (old: oldCase.name, new: $0, distance: Suggestion.editDistance(oldCase.name, $0)) } }
                var renamed: [String: String] = [:]
                for pair in pairs.sorted(by: { ($0.distance, $0.old, $0.new) < ($1.distance, $1.old, $1.new) })
                where pair.distance * 2 <= max(pair.old.count, pair.new.count) && renamed[pair.old] == nil && !renamed.values.contains(pair.new) {
                    renamed[pair.old] = pair.new
                }
                for newObject in new.objects {
                    guard let originName = diff.types.old(for: newObject.name), let oldObject = old.objectType(named: originName) else { continue }
                    let origins = diff.properties[newObject.name] ?? RenameMap()
                    for property in newObject.properties {
                        guard let type = property.storedType, type.collection == nil, type.enumName == newEnum.name,
                            let oldProperty = oldObject.property(named: origins.old(for: property.name) ?? property.name), oldProperty.storedType?.enumName == oldName,
                            !answered.mentions(property.name, of: newObject.name)
                        else { continue }
                        let fallback: String = if case .enumCase(let name)? = property.defaultValue, newEnum.enumCase(named: name) != nil { name } else { first.name }
                        let pairs = removed.map { ($0.name, renamed[$0.name] ?? fallback) }
                        let guesses = pairs.map { renamed[$0.0] != nil ? "\($0.0) → \($0.1) looks like a rename" : "\($0.0) → \($0.1) is a guess" }
                        questions.append(
                            """
                              # Question: what do the cases removed from \(newEnum.name) (\(removed.map(\.name).joined(separator: ", "))) become in \(newObject.name).\(property.name)? Stored values of a removed case stop the migration.
                              # Uncomment this step and check each value (\(guesses.joined(separator: "; "))).
                              # - mapValues: { type: \(scalar(newObject.name)), property: \(scalar(property.name)), values: { \(pairs.map { "\(scalar($0.0)): \(scalar($0.1))" }.joined(separator: ", ")) } }
                            """)
                    }
                }
            }
            return questions
        }

        /// How much of two types' properties they share (names of stored properties, the
        /// share of their union).
        static func overlap(_ a: ObjectType, _ b: ObjectType) -> Double {
            let left = Set(a.storedProperties.map(\.name))
            let right = Set(b.storedProperties.map(\.name))
            let union = left.union(right)
            return union.isEmpty ? 0 : Double(left.intersection(right).count) / Double(union.count)
        }
    }

    private static func note(for change: SchemaChange, old: Schema, new: Schema) -> String {
        switch change.kind {
        case .propertyAdded(let type, let property):
            guard let added = new.objectType(named: type)?.property(named: property), let storedType = added.storedType else { return "" }
            if let value = added.defaultValue { return ": existing objects get \(Self.describe(value))" }
            if storedType.isOptional || storedType.collection != nil {
                return ": existing objects get \(storedType.collection == nil ? "null" : "an empty \(storedType.collection!.rawValue)")"
            }
            return ": needs `default:` in the schema, or a step that sets it (set, split, convert)"
        case .propertyRemoved(let type, let property):
            return old.objectType(named: type)?.property(named: property)?.storedType == nil ? ": an inverse, nothing stored" : ": its stored values are deleted"
        case .objectRemoved, .enumRemoved:
            return ": its stored values are deleted"
        case .propertyRetyped(_, _, let from, let to):
            switch SchemaDiff.retypeImpact(from: from, to: to) {
            case .additive: return ": converted automatically"
            case .destructive: return ": its links are deleted (they pointed at another type)"
            case .dataDependent: return ": needs a step (convert, or mapValues for enums)"
            }
        case .enumCaseRemoved:
            return ": stored values of this case need a mapValues step"
        case .uniqueAdded:
            return ": objects that share values stop the migration; a deduplicate step keeps one of each"
        case .embeddedChanged(_, true):
            return ": each object moves into the one object that holds it; objects no one holds are deleted, one held twice stops the migration"
        case .embeddedChanged(_, false):
            return ": each embedded value becomes an object, and its owner links to it"
        default:
            return ""
        }
    }

    private static func scalar(_ text: String) -> String { CanonicalYAML.scalar(text) }

    /// A default as the value existing objects get: generated ones in words.
    private static func describe(_ value: DefaultValue) -> String {
        switch value {
        case .generated(.uuid): "a new UUID each"
        case .generated(.objectId): "a new ObjectID each"
        case .generated(.now): "the time of the migration"
        default: CanonicalYAML.literal(value)
        }
    }
}
