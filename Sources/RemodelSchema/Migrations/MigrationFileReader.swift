import RemodelCore

/// Reads one migration file (`description:` and `steps:`) from its YAML tree into
/// `MigrationStep` values, reporting every shape problem with its location and carrying on.
///
/// Values in steps (`mapValues` targets, `otherwise`, `deleteObjects` conditions) follow the
/// YAML core schema: plain `null`, `true`/`false`, integers and decimals are those values;
/// everything else, quoted scalars included, is text (the planner resolves text to enum cases).
struct MigrationFileReader {
    static let fileKeys = ["description", "steps"]

    /// Every step kind with its keys: required first, then optional ones.
    static let stepKeys: [String: (required: [String], optional: [String])] = [
        "renameType": (["from", "to"], []),
        "renameProperty": (["type", "from", "to"], []),
        "set": (["type", "property", "value"], []),
        "convert": (["type", "property", "to"], ["onError"]),
        "split": (["type", "property", "into", "separator"], []),
        "mapValues": (["type", "property", "values"], ["otherwise"]),
        "deleteObjects": (["type", "where"], []),
        "custom": (["name"], ["type"]),
    ]

    /// The step kinds in the order the documentation lists them.
    static let stepKinds = ["renameType", "renameProperty", "set", "convert", "split", "mapValues", "deleteObjects", "custom"]

    /// What one file holds.
    struct Contents {
        var description: String?
        var steps: [MigrationStep] = []
        /// Step index → where the step's kind is written.
        var locations: [Int: SourceLocation] = [:]
    }

    let log: DiagnosticLog
    /// The schema of the version the file produces, to tell enums from objects in `convert`'s
    /// `to:`; `nil` when its snapshot is missing.
    let target: Schema?

    func read(_ root: YAMLNode, file: String) -> Contents {
        var contents = Contents()
        guard let reader = YAMLMappingReader(root, what: "a migration file", knownKeys: Self.fileKeys, log: log) else { return contents }
        contents.description = reader.string("description")?.value
        guard let stepsNode = reader.node("steps"), !stepsNode.isNull else { return contents }
        guard let items = stepsNode.sequence else {
            log.error(
                "invalid-structure", "'steps' must be a list of steps, found \(stepsNode.kindDescription)", at: stepsNode.location,
                hint: "write one '- kind: { … }' line per step, e.g. '- renameProperty: { type: Person, from: employeeId, to: personId }'"
            )
            return contents
        }
        for item in items {
            guard let (step, location) = readStep(item) else { continue }
            contents.locations[contents.steps.count] = location
            contents.steps.append(step)
        }
        return contents
    }

    // MARK: - Steps

    private func readStep(_ item: YAMLNode) -> (MigrationStep, SourceLocation)? {
        guard let mapping = item.mapping, mapping.entries.count == 1, let entry = mapping.entries.first else {
            let found = item.mapping.map { "a mapping with \($0.entries.count) keys (\($0.keys.joined(separator: ", ")))" } ?? item.kindDescription
            log.error(
                "invalid-step", "each step must be a mapping with one key naming its kind, found \(found)", at: item.location,
                hint: "write '- renameProperty: { type: Person, from: employeeId, to: personId }'; step kinds: \(Self.stepKinds.joined(separator: ", "))"
            )
            return nil
        }
        let kind = entry.key
        guard let keys = Self.stepKeys[kind] else {
            let hint = Suggestion.closest(to: kind, in: Self.stepKinds).map { "did you mean '\($0)'?" }
                ?? "step kinds: \(Self.stepKinds.joined(separator: ", "))"
            log.error("unknown-step", "unknown step kind '\(kind)'", at: entry.keyLocation, hint: hint)
            return nil
        }
        let what = "step '\(kind)'"
        guard let reader = YAMLMappingReader(entry.value, what: what, knownKeys: keys.required + keys.optional, log: log) else { return nil }
        var complete = true
        for key in keys.required where !reader.require(key, hint: "add '\(key):'; \(what) needs \(keys.required.joined(separator: ", "))", blame: entry.keyLocation) {
            complete = false
        }
        guard complete else { return nil }
        let step: MigrationStep?
        switch kind {
        case "renameType":
            step = name(reader, "from").flatMap { from in name(reader, "to").map { .renameType(from: from, to: $0) } }
        case "renameProperty":
            guard let type = name(reader, "type"), let from = name(reader, "from"), let to = name(reader, "to") else { return nil }
            step = .renameProperty(type: type, from: from, to: to)
        case "set":
            guard let type = name(reader, "type"), let property = name(reader, "property"), let template = template(reader) else { return nil }
            step = .set(type: type, property: property, template: template)
        case "convert":
            guard let type = name(reader, "type"), let property = name(reader, "property"), let to = propertyType(reader), let onError = onError(reader) else { return nil }
            step = .convert(type: type, property: property, to: to, onError: onError)
        case "split":
            guard let type = name(reader, "type"), let property = name(reader, "property"), let into = names(reader, "into"), let separator = separator(reader) else { return nil }
            step = .split(type: type, property: property, into: into, separator: separator)
        case "mapValues":
            guard let type = name(reader, "type"), let property = name(reader, "property"), let values = valueMappings(reader) else { return nil }
            var otherwise: DefaultValue?
            if let node = reader.node("otherwise") {
                guard let value = value(node, what: "'otherwise' in \(what)") else { return nil }
                otherwise = value
            }
            step = .mapValues(type: type, property: property, values: values, otherwise: otherwise)
        case "deleteObjects":
            guard let type = name(reader, "type"), let matches = conditions(reader) else { return nil }
            step = .deleteObjects(type: type, where: matches)
        case "custom":
            guard let stepName = name(reader, "name") else { return nil }
            var type: String?
            if reader.contains("type") {
                guard let value = name(reader, "type") else { return nil }
                type = value
            }
            step = .custom(name: stepName, type: type)
        default:
            step = nil
        }
        return step.map { ($0, entry.keyLocation) }
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
    private func template(_ reader: YAMLMappingReader) -> String? {
        guard let node = reader.node("value") else { return nil }
        guard let scalar = node.scalar else {
            log.error(
                "invalid-value", "'value' in \(reader.what) must be a single value or a template, found \(node.kindDescription)", at: node.location,
                hint: "write a literal or a quoted template such as \"{firstName} {lastName}\""
            )
            return nil
        }
        return scalar.isNull ? "null" : scalar.text
    }

    private func names(_ reader: YAMLMappingReader, _ key: String) -> [String]? {
        guard let node = reader.node(key) else { return nil }
        guard let items = node.sequence, !items.isEmpty else {
            log.error(
                "invalid-value", "'\(key)' in \(reader.what) must be a list of property names, found \(node.isNull ? "nothing" : node.kindDescription)", at: node.location,
                hint: "write '\(key): [firstName, lastName]'"
            )
            return nil
        }
        var result: [String] = []
        for item in items {
            guard let scalar = item.scalar, !scalar.isNull, !scalar.text.isEmpty else {
                log.error("invalid-value", "each entry of '\(key)' in \(reader.what) must be a property name, found \(item.kindDescription)", at: item.location, hint: "write '\(key): [firstName, lastName]'")
                return nil
            }
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
                hint: Suggestion.closest(to: value.value, in: choices).map { "did you mean '\($0)'?" } ?? "fail stops the migration, default uses the property's default, null stores null"
            )
            return nil
        }
        return failure
    }

    /// `convert`'s `to:`: a single-value type, enum and object names resolved against the
    /// schema the migration produces.
    private func propertyType(_ reader: YAMLMappingReader) -> PropertyType? {
        guard let text = reader.string("to") else { return nil }
        let expression: TypeExpression
        switch TypeExpression.parse(text.value) {
        case .success(let parsed): expression = parsed
        case .failure(let problem):
            log.error(problem.rule, problem.message, at: text.location, hint: problem.hint)
            return nil
        }
        guard expression.collection == nil else {
            log.error("invalid-value", "convert works on single values, not \(text.value)", at: text.location, hint: "use a custom step to change collections")
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
                hint: Suggestion.closest(to: expression.name, in: candidates).map { "did you mean '\($0)'?" } ?? "write a scalar type (int, double, string, …) or an enum of the schema"
            )
            return nil
        }
        return PropertyType(base, optional: expression.isOptional)
    }

    private func valueMappings(_ reader: YAMLMappingReader) -> [MigrationStep.ValueMapping]? {
        pairs(reader, key: "values", meaning: "old values to new ones", noun: "old value", valueName: { "the new value for '\($0)'" },
              example: "write 'values: { Eng: engineering, HR: humanResourcesAndRescruiting }'")?
            .map { MigrationStep.ValueMapping(from: $0.key, to: $0.value) }
    }

    private func conditions(_ reader: YAMLMappingReader) -> [MigrationStep.PropertyMatch]? {
        pairs(reader, key: "where", meaning: "property names to values", noun: "property", valueName: { "the value of '\($0)'" },
              example: "write 'where: { content: \"\" }'; objects matching every condition are deleted")?
            .map { MigrationStep.PropertyMatch(property: $0.key, value: $0.value) }
    }

    /// The entries of the non-empty mapping under `key`, each value read as a literal; `nil`
    /// (after reporting) when the mapping or a value is invalid.
    private func pairs(
        _ reader: YAMLMappingReader, key: String, meaning: String, noun: String, valueName: (String) -> String, example: String
    ) -> [(key: String, value: DefaultValue)]? {
        guard let node = reader.node(key) else { return nil }
        guard let mapping = node.mapping, !mapping.entries.isEmpty else {
            log.error("invalid-value", "'\(key)' in \(reader.what) must map \(meaning), found \(node.kindDescription)", at: node.location, hint: example)
            return nil
        }
        YAMLMappingReader.reportDuplicates(in: mapping, what: "'\(key)' of \(reader.what)", rule: "duplicate-key", noun: noun, log: log)
        var result: [(key: String, value: DefaultValue)] = []
        for entry in mapping.entries {
            guard let value = value(entry.value, what: valueName(entry.key)) else { return nil }
            result.append((entry.key, value))
        }
        return result
    }

    /// A single value, or an error naming `what`.
    private func value(_ node: YAMLNode, what: String) -> DefaultValue? {
        guard let scalar = node.scalar else {
            log.error("invalid-value", "\(what) must be a single value, found \(node.kindDescription)", at: node.location, hint: "write one value; quote text that contains ': ' or starts with a special character")
            return nil
        }
        return Self.value(of: scalar)
    }

    /// The value of a scalar under the YAML core schema: plain null, booleans, integers and
    /// decimals resolve; everything else is text.
    static func value(of scalar: YAMLScalar) -> DefaultValue {
        if scalar.isNull { return .null }
        if let flag = scalar.bool { return .bool(flag) }
        guard scalar.isPlain else { return .string(scalar.text) }
        let text = scalar.text
        if let number = Int64(text) { return .int(number) }
        let numeric = text.unicodeScalars.allSatisfy { "0123456789+-.eE".unicodeScalars.contains($0) }
        if numeric, text.unicodeScalars.contains(where: { ("0"..."9").contains($0) }), let number = Double(text) {
            return .double(number)
        }
        return .string(text)
    }
}
