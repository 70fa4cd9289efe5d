import RemodelCore

/// Reads one migration file (`description:` and `steps:`) from its YAML tree into
/// `MigrationStep` values and where each is written (its kind and every value, as a
/// `StepSource`), reporting every shape problem with its location and carrying on.
///
/// Values in steps (`mapValues` targets, `otherwise`, `deleteObjects` conditions) follow the
/// YAML core schema: plain `null`, `true`/`false`, integers and decimals are those values;
/// everything else, quoted scalars included, is text (the planner resolves text to enum cases).
struct MigrationFileReader {
    // The keys each mapping may have: the vocabulary's, which the JSON Schemas describe too.
    static let fileKeys = FileVocabulary.migrationFile.keyNames

    /// Every step kind with its keys: required first, then optional ones.
    static let stepKeys: [MigrationStep.Kind: (required: [String], optional: [String])] = Dictionary(
        uniqueKeysWithValues: FileVocabulary.stepKinds.map { ($0.kind, ($0.mapping.requiredKeys, $0.mapping.optionalKeys)) }
    )

    /// The keys of `createObjects`' `addTo:`.
    static let linkTargetKeys = FileVocabulary.linkTarget.keyNames

    /// What one file holds.
    struct Contents {
        var description: String?
        var steps: [MigrationStep] = []
        /// Where each step is written, in step order.
        var sources: [StepSource] = []
        /// Where `steps:` is.
        var stepsLocation: SourceLocation?
        /// The changes the file declares intended (`accept:`).
        var acceptances: [ChangeAcceptance] = []
        /// In a baseline `remodel migration squash` wrote: the first version it folds.
        var squashedFrom: Located<Int>?
    }

    /// The locations of one step's values, gathered while it is read.
    private final class Fields {
        var locations: [StepField: SourceLocation] = [:]
        var values: [StepField: SourceLocation] = [:]

        func note(_ field: StepField, _ location: SourceLocation) {
            if locations[field] == nil { locations[field] = location }
        }

        /// Where the value of a nested key is, for problems with the value rather than the name.
        func noteValue(_ field: StepField, _ location: SourceLocation) {
            if values[field] == nil { values[field] = location }
        }
    }

    let log: DiagnosticLog
    /// The schema of the version the file produces, to tell enums from objects in `convert`'s
    /// `to:`; `nil` when its snapshot is missing.
    let target: Schema?

    func read(_ root: YAMLNode, file: String) -> Contents {
        var contents = Contents()
        guard let reader = YAMLMappingReader(root, what: "a migration file", knownKeys: Self.fileKeys, log: log) else { return contents }
        contents.description = reader.string("description")?.value
        contents.stepsLocation = reader.entry("steps")?.keyLocation
        if let node = reader.node("accept") { contents.acceptances = readAcceptances(node) }
        if let squashed = reader.string("squashedFrom") {
            if let number = Int(squashed.value), number >= 1 {
                contents.squashedFrom = Located(number, at: squashed.location)
            } else {
                log.error(
                    "invalid-value", "'squashedFrom' must be the number of the first version the baseline folds, found '\(squashed.value)'", at: squashed.location,
                    hint: "'remodel migration squash' writes it; restore the file from version control")
            }
        }
        guard let stepsNode = reader.node("steps"), !stepsNode.isNull else { return contents }
        guard let items = stepsNode.sequence else {
            log.error(
                "invalid-structure", "'steps' must be a list of steps, found \(stepsNode.kindDescription)", at: stepsNode.location,
                hint: "write one '- kind: { … }' line per step, e.g. '- renameProperty: { type: Person, from: employeeId, to: personId }'"
            )
            return contents
        }
        for item in items {
            guard let (step, source) = readStep(item) else { continue }
            contents.sources.append(source)
            contents.steps.append(step)
        }
        return contents
    }

    // MARK: - Acceptances

    /// `accept: { destructive: { Person.name: why }, data-dependent: { … }, breaking: { … } }`.
    private func readAcceptances(_ node: YAMLNode) -> [ChangeAcceptance] {
        let example = "accept:\n  destructive:\n    Person.name: its values move into firstName and lastName"
        guard !node.isNull else { return [] }
        let kinds = ChangeAcceptance.Kind.allCases.map(\.rawValue)
        guard let reader = YAMLMappingReader(node, what: "'accept'", knownKeys: kinds, log: log) else { return [] }
        var acceptances: [ChangeAcceptance] = []
        for entry in reader.mapping.entries {
            guard let kind = ChangeAcceptance.Kind(rawValue: entry.key) else { continue }
            guard let subjects = entry.value.mapping else {
                log.error(
                    "invalid-structure", "'\(entry.key)' under 'accept' must map each accepted change to the reason it is intended, found \(entry.value.kindDescription)",
                    at: entry.value.location, hint: "write one 'Type.property: why' line per change, e.g.\n\(example)"
                )
                continue
            }
            YAMLMappingReader.reportDuplicates(in: subjects, what: "'accept: \(entry.key)'", rule: "duplicate-key", noun: "change", log: log)
            for subject in subjects.entries {
                guard let reason = subject.value.scalar, !reason.isNull, !reason.text.trimmingCharacters(in: .whitespaces).isEmpty else {
                    log.error(
                        "invalid-value", "the \(entry.key) change '\(subject.key)' is accepted without a reason",
                        at: subject.keyLocation, hint: "say why it is intended after the colon ('\(subject.key): <why>'); reviewers read it"
                    )
                    continue
                }
                acceptances.append(ChangeAcceptance(kind: kind, subject: subject.key, reason: reason.text, location: subject.keyLocation))
            }
        }
        return acceptances
    }

    // MARK: - Steps

    private func readStep(_ item: YAMLNode) -> (MigrationStep, StepSource)? {
        guard let mapping = item.mapping, mapping.entries.count == 1, let entry = mapping.entries.first else {
            let found = item.mapping.map { "a mapping with \($0.entries.count) keys (\($0.keys.joined(separator: ", ")))" } ?? item.kindDescription
            log.error(
                "invalid-step", "each step must be a mapping with one key naming its kind, found \(found)", at: item.location,
                hint: "write '- renameProperty: { type: Person, from: employeeId, to: personId }'; step kinds: \(MigrationStep.kinds.joined(separator: ", "))"
            )
            return nil
        }
        guard let kind = MigrationStep.Kind(rawValue: entry.key), let keys = Self.stepKeys[kind] else {
            let kind = entry.key
            let hint =
                Suggestion.closest(to: kind, in: MigrationStep.kinds).map { "did you mean '\($0)'?" }
                ?? "step kinds: \(MigrationStep.kinds.joined(separator: ", "))"
            log.error("unknown-step", "unknown step kind '\(kind)'", at: entry.keyLocation, hint: hint)
            return nil
        }
        let what = "step '\(kind.rawValue)'"
        guard let reader = YAMLMappingReader(entry.value, what: what, knownKeys: keys.required + keys.optional, log: log) else { return nil }
        var complete = true
        for key in keys.required where !reader.require(key, hint: "add '\(key):'; \(what) needs \(keys.required.joined(separator: ", "))", blame: entry.keyLocation) {
            complete = false
        }
        guard complete else { return nil }
        let fields = Fields()
        for field in reader.mapping.entries { if let key = StepKey(rawValue: field.key) { fields.note(.key(key), field.value.location) } }
        let step: MigrationStep?
        switch kind {
        case .renameType:
            step = name(reader, "from").flatMap { from in name(reader, "to").map { .renameType(from: from, to: $0) } }
        case .renameProperty:
            guard let type = name(reader, "type"), let from = name(reader, "from"), let to = name(reader, "to") else { return nil }
            step = .renameProperty(type: type, from: from, to: to)
        case .set:
            guard let type = name(reader, "type"), let property = name(reader, "property"), let value = setValue(reader) else { return nil }
            step = .set(type: type, property: property, value: value)
        case .convert:
            guard let type = name(reader, "type"), let property = name(reader, "property"), let to = propertyType(reader), let onError = onError(reader) else { return nil }
            step = .convert(type: type, property: property, to: to, onError: onError)
        case .split:
            guard let type = name(reader, "type"), let property = name(reader, "property"), let into = names(reader, .into, fields: fields), let separator = separator(reader)
            else { return nil }
            step = .split(type: type, property: property, into: into, separator: separator)
        case .mapValues:
            guard let type = name(reader, "type"), let property = name(reader, "property"), let values = valueMappings(reader, fields: fields) else { return nil }
            var otherwise: DefaultValue?
            if let node = reader.node("otherwise") {
                guard let value = value(node, what: "'otherwise' in \(what)") else { return nil }
                otherwise = value
            }
            step = .mapValues(type: type, property: property, values: values, otherwise: otherwise)
        case .deleteObjects:
            guard let type = name(reader, "type") else { return nil }
            if reader.contains("all") {
                guard let all = reader.bool("all") else { return nil }
                guard all.value else {
                    log.error(
                        "invalid-value", "'all: false' in \(what) deletes nothing", at: all.location,
                        hint: "write 'where:' conditions instead, or 'all: true' to delete every \(type)")
                    return nil
                }
                guard !reader.contains("where") else {
                    log.error(
                        "invalid-step", "\(what) has both 'all: true' and 'where:'", at: entry.keyLocation,
                        hint: "keep 'where:' to delete the objects it matches, or 'all: true' to delete every \(type)")
                    return nil
                }
                step = .deleteObjects(type: type, where: [])
            } else {
                guard reader.contains("where") else {
                    log.error(
                        "missing-key", "\(what) has no 'where'", at: entry.keyLocation,
                        hint: "add 'where:' conditions (e.g. 'where: { content: \"\" }'), or 'all: true' to delete every \(type)"
                    )
                    return nil
                }
                guard let matches = conditions(reader, fields: fields, at: .key(.where), deleting: true) else { return nil }
                step = .deleteObjects(type: type, where: matches)
            }
        case .deduplicate:
            guard let type = name(reader, "type"), let by = names(reader, .by, fields: fields, example: "by: [email]") else { return nil }
            if let repeated = by.indices.first(where: { by[..<$0].contains(by[$0]) }) {
                log.error(
                    "invalid-value", "'by' in \(what) lists '\(by[repeated])' twice", at: fields.locations[StepField.key(.by).position(repeated)] ?? entry.keyLocation,
                    hint: "list each property once")
                return nil
            }
            var keep = MigrationStep.Keep.first
            if reader.contains("keep") {
                guard let value = reader.string("keep") else { return nil }
                guard let chosen = MigrationStep.Keep(rawValue: value.value) else {
                    let choices = MigrationStep.Keep.allCases.map(\.rawValue)
                    log.error(
                        "invalid-value", "'keep' in \(what) must be one of \(choices.joined(separator: ", ")), found '\(value.value)'", at: value.location,
                        hint: Suggestion.closest(to: value.value, in: choices).map { "did you mean '\($0)'?" }
                            ?? "first keeps the object that comes first by 'orderBy' (then by key), last the one that comes last")
                    return nil
                }
                keep = chosen
            }
            var orderBy: String?
            if reader.contains("orderBy") {
                guard let value = name(reader, "orderBy") else { return nil }
                orderBy = value
            }
            step = .deduplicate(type: type, by: by, keep: keep, orderBy: orderBy)
        case .createObjects:
            guard let type = name(reader, "type"), let objects = objects(reader, fields: fields) else { return nil }
            var addTo: MigrationStep.LinkTarget?
            if let node = reader.node("addTo") {
                guard let target = linkTarget(node, what: "'addTo' in \(what)", fields: fields) else { return nil }
                addTo = target
            }
            step = .createObjects(type: type, objects: objects, addTo: addTo)
        case .custom:
            guard let stepName = name(reader, "name") else { return nil }
            var type: String?
            if reader.contains("type") {
                guard let value = name(reader, "type") else { return nil }
                type = value
            }
            var reads: [String] = []
            if reader.contains("reads") {
                guard let names = names(reader, .reads, noun: "type", fields: fields, example: "reads: [Dog, Address]") else { return nil }
                reads = names
            }
            var writes: [String] = []
            if reader.contains("writes") {
                guard let names = names(reader, .writes, fields: fields, example: "writes: [tags]") else { return nil }
                writes = names
            }
            step = .custom(name: stepName, type: type, reads: reads, writes: writes)
        }
        return step.map { ($0, StepSource(location: entry.keyLocation, fields: fields.locations, values: fields.values)) }
    }

    /// A type or property name: a non-empty scalar.
    private func name(_ reader: YAMLMappingReader, _ key: String) -> String? {
        guard let value = reader.string(key) else { return nil }
        guard !value.value.trimmingCharacters(in: .whitespaces).isEmpty else {
            log.error("invalid-value", "'\(key)' in \(reader.what) must not be empty", at: value.location, hint: "write the name of a type or property")
            return nil
        }
        return value.value
    }

    /// `set`'s `value:`: its text as written (plain null as `null`, which sets null).
    /// A `set` step's value: YAML null (unquoted `null`, `~`) is no value; any other scalar,
    /// quoted or not, is its text (so `"null"` is four letters).
    private func setValue(_ reader: YAMLMappingReader) -> MigrationStep.SetValue? {
        guard let node = reader.node("value") else { return nil }
        guard let scalar = node.scalar else {
            log.error(
                "invalid-value", "'value' in \(reader.what) must be a single value or a template, found \(node.kindDescription)", at: node.location,
                hint: "write a literal or a quoted template such as \"{firstName} {lastName}\""
            )
            return nil
        }
        return scalar.isNull ? .null : .template(scalar.text)
    }

    /// A non-empty list of names under `key`; `noun` is what each names (`property`, `type`).
    private func names(_ reader: YAMLMappingReader, _ stepKey: StepKey, noun: String = "property", fields: Fields, example: String? = nil) -> [String]? {
        let key = stepKey.rawValue
        guard let node = reader.node(key) else { return nil }
        let example = example ?? "\(key): [firstName, lastName]"
        guard let items = node.sequence, !items.isEmpty else {
            log.error(
                "invalid-value", "'\(key)' in \(reader.what) must be a list of \(noun) names, found \(node.isNull ? "nothing" : node.kindDescription)", at: node.location,
                hint: "write '\(example)'"
            )
            return nil
        }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard let scalar = item.scalar, !scalar.isNull, !scalar.text.isEmpty else {
                log.error(
                    "invalid-value", "each entry of '\(key)' in \(reader.what) must be a \(noun) name, found \(item.kindDescription)", at: item.location, hint: "write '\(example)'"
                )
                return nil
            }
            fields.note(StepField.key(stepKey).position(index), item.location)
            result.append(scalar.text)
        }
        return result
    }

    private func separator(_ reader: YAMLMappingReader) -> String? {
        guard let node = reader.node("separator") else { return nil }
        guard let scalar = node.scalar, !scalar.isNull, !scalar.text.isEmpty else {
            log.error(
                "invalid-value", "'separator' in \(reader.what) must be non-empty text, found \(node.kindDescription)", at: node.location,
                hint: "quote it: separator: \" \""
            )
            return nil
        }
        return scalar.text
    }

    private func onError(_ reader: YAMLMappingReader) -> MigrationStep.ConversionFailure? {
        // `onError: null` is YAML's null, which here means the mode that stores null.
        if let node = reader.node("onError"), node.scalar?.isNull == true {
            return .null
        }
        guard let value = reader.string("onError") else {
            return reader.contains("onError") ? nil : .fail
        }
        guard let failure = MigrationStep.ConversionFailure(rawValue: value.value) else {
            let choices = MigrationStep.ConversionFailure.allCases.map(\.rawValue)
            log.error(
                "invalid-value", "'onError' in \(reader.what) must be one of \(choices.joined(separator: ", ")), found '\(value.value)'", at: value.location,
                hint: Suggestion.closest(to: value.value, in: choices).map { "did you mean '\($0)'?" }
                    ?? "fail stops the migration, default uses the property's default, null stores null, create makes the objects values becoming links name"
            )
            return nil
        }
        return failure
    }

    /// `convert`'s `to:`: a type (a list or set of objects or values too, for elements that
    /// become links or keys), enum and object names resolved against the schema the migration
    /// produces.
    private func propertyType(_ reader: YAMLMappingReader) -> PropertyType? {
        guard let text = reader.string("to") else { return nil }
        let expression: TypeExpression
        switch TypeExpression.parse(text.value) {
        case .success(let parsed): expression = parsed
        case .failure(let problem):
            log.error(problem.rule, problem.message, at: text.location, hint: problem.hint)
            return nil
        }
        let base: BaseType
        if let scalar = ScalarType(rawValue: expression.name) {
            base = .scalar(scalar)
        } else if let target, target.enumType(named: expression.name) != nil {
            base = .enumeration(expression.name)
        } else if let target, target.objectType(named: expression.name) != nil {
            base = .object(expression.name)
        } else if target == nil {
            base = .enumeration(expression.name)
        } else {
            let candidates = ScalarType.allCases.map(\.rawValue) + (target?.enums.map(\.name) ?? [])
            log.error(
                "unknown-type", "unknown type '\(expression.name)' in 'to' of \(reader.what)", at: text.location,
                hint: Suggestion.closest(to: expression.name, in: candidates).map { "did you mean '\($0)'?" }
                    ?? "write a scalar type (int, double, string, …) or an enum of the schema"
            )
            return nil
        }
        return PropertyType(base, optional: expression.isOptional, collection: expression.collection)
    }

    private func valueMappings(_ reader: YAMLMappingReader, fields: Fields) -> [MigrationStep.ValueMapping]? {
        guard
            let entries = entries(
                reader.node("values"), key: "values", what: reader.what, meaning: "old values to new ones", noun: "old value",
                example: "write 'values: { Eng: engineering, HR: humanResourcesAndRescruiting }'")
        else { return nil }
        var result: [MigrationStep.ValueMapping] = []
        for entry in entries {
            guard let value = value(entry.value, what: "the new value for '\(entry.key)'") else { return nil }
            fields.note(StepField.key(.values).name(entry.key), entry.keyLocation)
            fields.noteValue(StepField.key(.values).name(entry.key), entry.value.location)
            result.append(MigrationStep.ValueMapping(from: entry.key, to: value))
        }
        return result
    }

    /// Conditions on properties: `{ content: "", weight: { lt: 0 }, owner.name: Ada }`.
    /// `deleting`: the objects they match are deleted (`deleteObjects`), not chosen (`addTo`).
    private func conditions(_ reader: YAMLMappingReader, fields: Fields, at place: StepField, deleting: Bool) -> [MigrationStep.PropertyMatch]? {
        let key = StepKey.where.rawValue
        var example = "write '\(key): { content: \"\" }' or '\(key): { weight: { lt: 0 } }'; objects matching every condition are \(deleting ? "deleted" : "chosen")"
        if deleting { example += "; to delete every object, write 'all: true' instead of '\(key):'" }
        guard let entries = entries(reader.node(key), key: key, what: reader.what, meaning: "property names to values", noun: "property", example: example) else { return nil }
        var result: [MigrationStep.PropertyMatch] = []
        for entry in entries {
            fields.note(place.name(entry.key), entry.keyLocation)
            guard let condition = condition(entry.value, property: entry.key, fields: fields, path: place.name(entry.key)) else { return nil }
            result.append(MigrationStep.PropertyMatch(property: entry.key, condition: condition))
        }
        return result
    }

    /// A value (equality) or a one-key mapping of a comparison: `{ lt: 0 }`, `{ in: [a, b] }`.
    private func condition(_ node: YAMLNode, property: String, fields: Fields, path: StepField) -> MigrationStep.Condition? {
        guard let mapping = node.mapping else {
            fields.noteValue(path, node.location)
            return value(node, what: "the value of '\(property)'").map { .equals($0) }
        }
        let keywords = MigrationStep.Condition.keywords
        guard mapping.entries.count == 1, let entry = mapping.entries.first else {
            log.error(
                "invalid-value", "the condition on '\(property)' must be one comparison, found a mapping with \(mapping.entries.count) keys", at: node.location,
                hint: "write '\(property): { lt: 10 }'; to require two things, delete in two steps; comparisons: \(keywords.joined(separator: ", "))"
            )
            return nil
        }
        fields.note(path, entry.keyLocation)
        fields.noteValue(path, entry.value.location)
        let what = "'\(entry.key)' of '\(property)'"
        func single() -> DefaultValue? { value(entry.value, what: what) }
        func text() -> String? {
            guard let scalar = entry.value.scalar, !scalar.isNull else {
                log.error(
                    "invalid-value", "\(what) must be text, found \(entry.value.kindDescription)", at: entry.value.location, hint: "write '\(property): { \(entry.key): \"text\" }'"
                )
                return nil
            }
            return scalar.text
        }
        func list() -> [DefaultValue]? {
            guard let items = entry.value.sequence, !items.isEmpty else {
                let needs = entry.value.sequence == nil ? "must be a list of values" : "must list at least one value"
                log.error(
                    "invalid-value", "\(what) \(needs), found \(entry.value.kindDescription)", at: entry.value.location, hint: "write '\(property): { \(entry.key): [a, b] }'")
                return nil
            }
            var values: [DefaultValue] = []
            for item in items {
                guard let value = value(item, what: "each entry of \(what)") else { return nil }
                values.append(value)
            }
            return values
        }
        switch entry.key {
        case "equals": return single().map { .equals($0) }
        case "not": return single().map { .notEquals($0) }
        case "lt": return single().map { .lessThan($0) }
        case "lte": return single().map { .lessThanOrEqual($0) }
        case "gt": return single().map { .greaterThan($0) }
        case "gte": return single().map { .greaterThanOrEqual($0) }
        case "in": return list().map { .isIn($0) }
        case "notIn": return list().map { .isNotIn($0) }
        case "contains": return text().map { .contains($0) }
        case "startsWith": return text().map { .startsWith($0) }
        case "endsWith": return text().map { .endsWith($0) }
        default:
            let hint = Suggestion.closest(to: entry.key, in: keywords).map { "did you mean '\($0)'?" } ?? "comparisons: \(keywords.joined(separator: ", "))"
            log.error("unknown-key", "unknown comparison '\(entry.key)' for '\(property)'", at: entry.keyLocation, hint: hint)
            return nil
        }
    }

    /// `createObjects`' `objects:`: a non-empty list of mappings from property names to values.
    private func objects(_ reader: YAMLMappingReader, fields: Fields) -> [[MigrationStep.PropertyValue]]? {
        guard let node = reader.node("objects") else { return nil }
        let example = "write 'objects: [{ name: Rex }, { name: Fido }]', one mapping of property values per object"
        guard let items = node.sequence, !items.isEmpty else {
            let needs = node.sequence == nil ? "must be a list of objects" : "must list at least one object"
            log.error("invalid-value", "'objects' in \(reader.what) \(needs), found \(node.isNull ? "nothing" : node.kindDescription)", at: node.location, hint: example)
            return nil
        }
        var result: [[MigrationStep.PropertyValue]] = []
        for (index, item) in items.enumerated() {
            fields.note(StepField.key(.objects).position(index), item.location)
            if item.isNull {
                result.append([])
                continue
            }
            guard let entries = entries(item, key: "objects", what: reader.what, meaning: "property names to values", noun: "property", example: example, allowEmpty: true) else {
                return nil
            }
            var values: [MigrationStep.PropertyValue] = []
            for entry in entries {
                guard let value = value(entry.value, what: "the value of '\(entry.key)' for a new object", hint: Self.newObjectValueHint) else { return nil }
                let place = StepField.key(.objects).position(index).name(entry.key)
                fields.note(place, entry.keyLocation)
                fields.noteValue(place, entry.value.location)
                values.append(MigrationStep.PropertyValue(property: entry.key, value: value))
            }
            result.append(values)
        }
        return result
    }

    /// `addTo: { type: Person, property: dogs, where: { name: Ada } }`.
    private func linkTarget(_ node: YAMLNode, what: String, fields: Fields) -> MigrationStep.LinkTarget? {
        guard let reader = YAMLMappingReader(node, what: what, knownKeys: Self.linkTargetKeys, log: log) else { return nil }
        var complete = true
        for key in Self.linkTargetKeys where !reader.require(key, hint: "write 'addTo: { type: Person, property: dogs, where: { name: Ada } }'") {
            complete = false
        }
        guard complete, let type = name(reader, "type"), let property = name(reader, "property") else { return nil }
        fields.note(StepField.key(.addTo).key(.type), reader.node("type")!.location)
        fields.note(StepField.key(.addTo).key(.property), reader.node("property")!.location)
        guard let matches = conditions(reader, fields: fields, at: StepField.key(.addTo).key(.where), deleting: false) else { return nil }
        return MigrationStep.LinkTarget(type: type, property: property, where: matches)
    }

    /// The entries of the mapping `node` (under `key`), non-empty unless `allowEmpty`; `nil`
    /// (after reporting, with `example` as the hint) when it is not one.
    private func entries(
        _ node: YAMLNode?, key: String, what: String, meaning: String, noun: String, example: String, allowEmpty: Bool = false
    ) -> [YAMLMapping.Entry]? {
        guard let node else { return nil }
        guard let mapping = node.mapping, allowEmpty || !mapping.entries.isEmpty else {
            let needs = node.mapping == nil ? "must map \(meaning)" : "must name at least one \(noun)"
            log.error("invalid-value", "'\(key)' in \(what) \(needs), found \(node.kindDescription)", at: node.location, hint: example)
            return nil
        }
        YAMLMappingReader.reportDuplicates(in: mapping, what: "'\(key)' of \(what)", rule: "duplicate-key", noun: noun, log: log)
        return mapping.entries
    }

    /// The hint for a value of `createObjects` that is not a single value.
    static let newObjectValueHint =
        "steps set single values: fill lists, sets, maps and embedded objects in a custom step (or add links with createObjects' addTo); text that contains ': ' must be quoted"

    /// A single value, or an error naming `what` with `hint`.
    private func value(_ node: YAMLNode, what: String, hint: String = "write one value; quote text that contains ': ' or starts with a special character") -> DefaultValue? {
        guard let scalar = node.scalar else {
            log.error("invalid-value", "\(what) must be a single value, found \(node.kindDescription)", at: node.location, hint: hint)
            return nil
        }
        return Self.value(of: scalar)
    }

    /// The value of a scalar under the YAML core schema, read as schema defaults read it:
    /// plain null, booleans, integers (`42`, `0x1F`, `0o17`) and floats (`1.5`, `-2e10`,
    /// `.inf`, `.nan`) resolve; everything else is text. An integer too large for 64 bits is
    /// the nearest double, which the planner reports as out of range for integer properties.
    static func value(of scalar: YAMLScalar) -> DefaultValue {
        if scalar.isNull { return .null }
        if let flag = scalar.bool { return .bool(flag) }
        guard scalar.isPlain else { return .string(scalar.text) }
        let text = scalar.text
        if let number = IntegerLiteral.parse(text) { return .int(number) }
        if let number = FloatLiteral.parse(text) { return .double(number) }
        return .string(text)
    }
}
