import RemodelCore

/// Reads the declarations of one schema file from its YAML tree, reporting every shape
/// problem (wrong kinds of values, unknown or missing keys) and carrying on.
struct SchemaFileReader {
    // The keys each mapping may have: the vocabulary's, which the JSON Schemas describe too.
    static let fileKeys = FileVocabulary.schemaFile.keyNames
    static let enumKeys = FileVocabulary.enumDeclaration.keyNames
    static let objectKeys = FileVocabulary.objectDeclaration.keyNames
    static let propertyKeys = FileVocabulary.property.keyNames
    static let projectionKeys = FileVocabulary.projectionDeclaration.keyNames
    static let projectionPropertyKeys = FileVocabulary.projectionProperty.keyNames

    /// An example name for each kind of declaration, for hints.
    static let exampleName = ["enum": "MyEnum", "object": "MyType", "projection": "MyProjection", "property": "name"]

    let log: DiagnosticLog

    /// The declarations in the document rooted at `root`.
    func read(_ root: YAMLNode) -> SchemaSyntax {
        var syntax = SchemaSyntax()
        guard let file = YAMLMappingReader(root, what: "a schema file", knownKeys: Self.fileKeys, log: log) else { return syntax }
        if let node = file.node("enums") {
            syntax.enums = named(node, what: "'enums'", noun: "enum").compactMap(readEnum)
        }
        if let node = file.node("objects") {
            syntax.objects = named(node, what: "'objects'", noun: "object").compactMap(readObject)
        }
        if let node = file.node("projections") {
            syntax.projections = named(node, what: "'projections'", noun: "projection").compactMap(readProjection)
        }
        return syntax
    }

    /// The entries of a mapping from names to declarations; reports a value that is not a
    /// mapping. Duplicate names are left to the validator, which sees every file.
    private func named(_ node: YAMLNode, what: String, noun: String) -> [YAMLMapping.Entry] {
        if node.isNull { return [] }
        guard let mapping = node.mapping else {
            log.error(
                "invalid-structure", "\(what) must map each \(noun) name to its declaration, found \(node.kindDescription)", at: node.location,
                hint: "write one '\(Self.exampleName[noun] ?? "Name"):' line per \(noun), indented under \(what)"
            )
            return []
        }
        return mapping.entries
    }

    // MARK: - Enums

    private func readEnum(_ entry: YAMLMapping.Entry) -> EnumDeclaration? {
        let what = "enum '\(entry.key)'"
        guard let reader = YAMLMappingReader(entry.value, what: what, knownKeys: Self.enumKeys, log: log) else { return nil }
        var cases: [EnumDeclaration.Case] = []
        var casesLocation = reader.location
        if let node = reader.node("cases") {
            casesLocation = node.location
            switch node.content {
            case .mapping(let mapping):
                cases = mapping.entries.map { EnumDeclaration.Case(name: Located($0.key, at: $0.keyLocation), raw: $0.value) }
            case .sequence(let items):
                for item in items {
                    if let scalar = item.scalar, !scalar.isNull {
                        cases.append(EnumDeclaration.Case(name: Located(scalar.text, at: item.location), raw: nil))
                    } else {
                        log.error(
                            "invalid-structure", "each case of \(what) must be a name, found \(item.kindDescription)", at: item.location,
                            hint: "list case names ('- engineering'), or map names to raw values ('engineering: Engineering')"
                        )
                    }
                }
            case .scalar:
                if !node.isNull {
                    log.error(
                        "invalid-structure", "'cases' of \(what) must be a mapping or a list, found \(node.kindDescription)", at: node.location,
                        hint: "list case names ('- engineering'), or map names to raw values ('engineering: Engineering')"
                    )
                }
            }
        } else {
            reader.require("cases", hint: "add 'cases:' with a list of case names, or a mapping of names to raw values", blame: entry.keyLocation)
        }
        return EnumDeclaration(
            name: Located(entry.key, at: entry.keyLocation),
            rawType: reader.string("type"),
            cases: cases,
            casesLocation: casesLocation,
            renamedFrom: reader.string("renamedFrom"),
            doc: reader.string("doc")?.value
        )
    }

    // MARK: - Objects

    private func readObject(_ entry: YAMLMapping.Entry) -> ObjectDeclaration? {
        let what = "object '\(entry.key)'"
        guard let reader = YAMLMappingReader(entry.value, what: what, knownKeys: Self.objectKeys, log: log) else { return nil }
        var properties: [PropertyDeclaration] = []
        if let node = reader.node("properties") {
            let entries = named(node, what: "'properties' of \(what)", noun: "property")
            properties.reserveCapacity(entries.count)
            for property in entries {
                if let declaration = readProperty(property, of: entry.key) { properties.append(declaration) }
            }
        } else {
            reader.require("properties", hint: "add 'properties:' with one 'name: type' line per property", blame: entry.keyLocation)
        }
        return ObjectDeclaration(
            name: Located(entry.key, at: entry.keyLocation),
            primaryKey: reader.string("primaryKey"),
            embedded: reader.bool("embedded"),
            properties: properties,
            uniqueGroups: groups(reader.node("unique"), key: "unique", of: what),
            indexes: groups(reader.node("indexes"), key: "indexes", of: what),
            renamedFrom: reader.string("renamedFrom"),
            doc: reader.string("doc")?.value
        )
    }

    /// `[[a, b], [c]]`: groups of property names, each located; what is not is reported.
    private func groups(_ node: YAMLNode?, key: String, of what: String) -> [[Located<String>]] {
        guard let node else { return [] }
        let example = "'\(key): [[name], [firstName, lastName]]'"
        guard let outer = node.sequence else {
            log.error("invalid-value", "'\(key)' of \(what) must be a list of lists of property names, found \(node.kindDescription)", at: node.location, hint: "write \(example)")
            return []
        }
        var groups: [[Located<String>]] = []
        for group in outer {
            guard let inner = group.sequence, !inner.isEmpty else {
                log.error(
                    "invalid-value", "each group in '\(key)' of \(what) must be a non-empty list of property names, found \(group.kindDescription)", at: group.location,
                    hint: "write \(example)")
                continue
            }
            var names: [Located<String>] = []
            for name in inner {
                guard let scalar = name.scalar, !scalar.isNull else {
                    log.error("invalid-value", "'\(key)' of \(what) lists \(name.kindDescription) where a property name belongs", at: name.location, hint: "write \(example)")
                    continue
                }
                names.append(Located(scalar.text, at: name.location))
            }
            if names.count == inner.count { groups.append(names) }
        }
        return groups
    }

    private func readProperty(_ entry: YAMLMapping.Entry, of owner: String) -> PropertyDeclaration? {
        let name = Located(entry.key, at: entry.keyLocation)
        if let scalar = entry.value.scalar {
            if scalar.isNull {
                log.error(
                    "missing-key", "property '\(owner).\(entry.key)' has no type", at: entry.value.location, hint: "write '\(entry.key): string' or another type after the colon")
                return PropertyDeclaration(name: name, kind: .missing)
            }
            return PropertyDeclaration(name: name, kind: .stored(entry.value))
        }
        guard let reader = YAMLMappingReader(entry.value, what: "property '\(owner).\(entry.key)'", knownKeys: Self.propertyKeys, log: log) else {
            return PropertyDeclaration(name: name, kind: .missing)
        }
        var kind = PropertyDeclaration.Kind.missing
        if let inverse = reader.node("inverse") {
            kind = .inverse(inverse)
            for key in FileVocabulary.inverseExcludes {
                if let conflicting = reader.entry(key) {
                    log.error(
                        "inverse-conflict", "inverse \(reader.what) cannot have '\(key)'", at: conflicting.keyLocation,
                        hint: "an inverse is computed from its origin's links: remove '\(key)'"
                    )
                }
            }
        } else if let type = reader.node("type") {
            kind = .stored(type)
        } else {
            reader.require("type", hint: "add 'type: string' (or another type), or 'inverse: Type.property' for an inverse relationship", blame: entry.keyLocation)
        }
        if case .stored(let node) = kind, node.scalar == nil || node.isNull {
            log.error(
                "invalid-value", "the type of \(reader.what) must be a type name, found \(node.kindDescription)", at: node.location,
                hint: "write a type such as 'string', 'Dog?' or 'list<Dog>'"
            )
            kind = .missing
        }
        if case .inverse(let node) = kind, node.scalar == nil || node.isNull {
            log.error(
                "inverse-syntax", "the inverse of \(reader.what) must be written 'Type.property', found \(node.kindDescription)", at: node.location,
                hint: "write the link it inverts, e.g. 'inverse: Person.dogs'"
            )
            kind = .missing
        }
        return PropertyDeclaration(
            name: name,
            kind: kind,
            defaultValue: reader.node("default"),
            isPrimaryKey: reader.bool("primaryKey"),
            indexed: reader.bool("indexed"),
            unique: reader.bool("unique"),
            renamedFrom: reader.string("renamedFrom"),
            doc: reader.string("doc")?.value
        )
    }

    // MARK: - Projections

    private func readProjection(_ entry: YAMLMapping.Entry) -> ProjectionDeclaration? {
        let what = "projection '\(entry.key)'"
        guard let reader = YAMLMappingReader(entry.value, what: what, knownKeys: Self.projectionKeys, log: log) else { return nil }
        reader.require("of", hint: "add 'of: Person' naming the object type it projects", blame: entry.keyLocation)
        var properties: [ProjectionDeclaration.Property] = []
        if let node = reader.node("properties") {
            for property in named(node, what: "'properties' of \(what)", noun: "property") {
                if let declaration = readProjectionProperty(property, of: entry.key) { properties.append(declaration) }
            }
        } else {
            reader.require("properties", hint: "add 'properties:' with one 'name: keyPath' line per property", blame: entry.keyLocation)
        }
        return ProjectionDeclaration(
            name: Located(entry.key, at: entry.keyLocation),
            of: reader.string("of"),
            properties: properties,
            doc: reader.string("doc")?.value
        )
    }

    private func readProjectionProperty(_ entry: YAMLMapping.Entry, of owner: String) -> ProjectionDeclaration.Property? {
        let name = Located(entry.key, at: entry.keyLocation)
        let what = "projection property '\(owner).\(entry.key)'"
        if let scalar = entry.value.scalar {
            if scalar.isNull {
                log.error("missing-key", "\(what) has no key path", at: entry.value.location, hint: "write '\(entry.key): \(entry.key)' to pass the model's property through")
                return nil
            }
            return ProjectionDeclaration.Property(name: name, keyPath: entry.value)
        }
        guard let reader = YAMLMappingReader(entry.value, what: what, knownKeys: Self.projectionPropertyKeys, log: log) else { return nil }
        guard reader.require("keyPath", hint: "add 'keyPath: property' naming the model property it reads", blame: entry.keyLocation),
            let keyPath = reader.node("keyPath")
        else { return nil }
        guard let scalar = keyPath.scalar, !scalar.isNull else {
            log.error(
                "invalid-value", "'keyPath' of \(what) must be a key path, found \(keyPath.kindDescription)", at: keyPath.location,
                hint: "write a key path such as 'lastName' or 'lastName.first'"
            )
            return nil
        }
        return ProjectionDeclaration.Property(name: name, keyPath: keyPath, type: reader.string("type"), doc: reader.string("doc")?.value)
    }
}
