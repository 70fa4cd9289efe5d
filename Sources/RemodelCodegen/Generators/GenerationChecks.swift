import RemodelCore

/// What the generator checks before emitting anything, beyond schema validation: every name
/// must be a plain identifier (so nothing can reach the output unescaped and no file name can
/// leave the output folder), type names must not shadow the types generated code uses, and
/// every default, link and projection must have a Swift form.
///
/// `validate` and `check` run these too (after `RemodelSchema`'s validation, which refuses the
/// same `GeneratedNames`), so the gate refuses what `generate` and the build plugin would; they
/// also guard schemas built in code.
enum GenerationChecks {
    /// The problems of `schema`, located by `source` where it is known. The names come from
    /// `GeneratedNames`, which `validate` refuses too.
    static func diagnostics(for schema: Schema, manifestName: String, source: SchemaSource? = nil) -> [Diagnostic] {
        var findings = Findings(source: source)
        func error(_ rule: String, _ message: String, hint: String) { findings.error(rule, message, hint: hint) }
        func checkName(_ name: String, _ what: @autoclosure () -> String) { findings.checkName(name, what()) }

        checkName(manifestName, "manifest name")
        var typeNames: [String: String] = [manifestName.lowercased(): manifestName]
        let allTypes = schema.enums.map(\.name) + schema.objects.map(\.name) + schema.projections.map(\.name)
        for name in allTypes {
            findings.at(name, nil)
            checkName(name, "type name")
            if GeneratedNames.typeNames.contains(name) {
                error("codegen-reserved-name", "type name '\(name)' shadows a type that generated code uses", hint: "rename the type, e.g. '\(name)Model'")
            }
            if let other = typeNames[name.lowercased()] {
                error(
                    "codegen-name-collision", "type name '\(name)' collides with '\(other)' (file names must differ on case-insensitive file systems)",
                    hint: "rename one of the two")
            } else {
                typeNames[name.lowercased()] = name
            }
        }

        for enumType in schema.enums {
            for enumCase in enumType.cases {
                findings.at(enumType.name, enumCase.name)
                checkName(enumCase.name, "case name of \(enumType.name)")
                if GeneratedNames.enumMembers.contains(enumCase.name) {
                    error("codegen-reserved-name", "case '\(enumCase.name)' of \(enumType.name) clashes with a member every enum has", hint: "rename the case")
                }
                switch (enumType.rawType, enumCase.rawValue) {
                case (.string, .string), (.int, .int): break
                default:
                    error(
                        "codegen-invalid-raw-value", "case '\(enumCase.name)' of \(enumType.name) has a raw value of the wrong type",
                        hint: "use \(enumType.rawType.rawValue) raw values")
                }
            }
        }

        // Each object's checks read only the schema: runs of objects are checked on all cores,
        // their findings gathered in order.
        let objectsByName = Dictionary(schema.objects.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let enumNames = Set(schema.enums.map(\.name))
        let objects = schema.objects
        let perRun = Range.runs(covering: objects.count).concurrentMap { run in
            var findings = Findings(source: source)
            for object in objects[run] {
                findings.check(object, objectsByName: objectsByName, enumNames: enumNames, schema: schema)
            }
            return findings.found
        }
        for found in perRun { findings.found += found }

        for projection in schema.projections {
            findings.at(projection.name, nil)
            guard let model = schema.objectType(named: projection.of) else {
                error("codegen-unknown-type", "projection \(projection.name) is of unknown type '\(projection.of)'", hint: "name an object type")
                continue
            }
            for property in projection.properties {
                findings.at(projection.name, property.name)
                checkName(property.name, "property name of \(projection.name)")
                let components = property.keyPathComponents
                for component in components { checkName(component, "key path component of \(projection.name).\(property.name)") }
                if model.property(named: components[0])?.storedType == nil {
                    error(
                        "codegen-invalid-projection",
                        "'\(projection.name).\(property.name)' reads '\(SwiftLiteral.commentLine(components[0]))', which is not a stored property of \(model.name)",
                        hint: "name a stored property of \(model.name) (inverses are store queries)")
                }
                if let type = property.type, SwiftType(parsing: type) == nil {
                    error(
                        "codegen-invalid-projection", "type '\(SwiftLiteral.commentLine(type))' of '\(projection.name).\(property.name)' is not a Swift type name",
                        hint: "write a type such as 'String', 'Character?', '[Int]' or '[String: Int]'")
                }
                if components.count > 1, property.type == nil {
                    error(
                        "codegen-invalid-projection", "'\(projection.name).\(property.name)' transforms a value but does not state its type",
                        hint: "add 'type:' with the Swift type of '\(SwiftLiteral.commentLine(property.keyPath))'")
                }
            }
        }
        return findings.found
    }

    /// What the checks found so far, and the declaration they are at (where an error points).
    private struct Findings {
        let source: SchemaSource?
        var found: [Diagnostic] = []
        private var type = ""
        private var member: String?

        init(source: SchemaSource?) { self.source = source }

        mutating func at(_ type: String, _ member: String?) { (self.type, self.member) = (type, member) }

        mutating func error(_ rule: String, _ message: String, hint: String) {
            found.append(.error(rule, message, at: source?.location(of: type, member: member), hint: hint))
        }

        mutating func checkName(_ name: String, _ what: @autoclosure () -> String) {
            if !SwiftNames.isIdentifier(name) {
                error(
                    "codegen-invalid-name", "\(what()) '\(SwiftLiteral.commentLine(name))' is not a Swift identifier",
                    hint: "use letters, digits and underscores, starting with a letter")
            }
        }

        /// The checks of one object type and its properties.
        mutating func check(_ object: ObjectType, objectsByName: [String: ObjectType], enumNames: Set<String>, schema: Schema) {
            for property in object.properties {
                at(object.name, property.name)
                checkName(property.name, "property name of \(object.name)")
                if property.name == "self" {
                    error("codegen-reserved-name", "property '\(object.name).self' cannot be initialised in Swift, even in backticks", hint: "rename the property")
                } else if property.name != "id" && property.name != "self", GeneratedNames.modelMembers.contains(property.name) {
                    error("codegen-reserved-name", "property '\(object.name).\(property.name)' clashes with a member every generated model has", hint: "rename the property")
                } else if object.isEmbedded, GeneratedNames.embeddedMembers.contains(property.name) {
                    error(
                        "codegen-reserved-name", "property '\(object.name).\(property.name)' of an embedded type would stand in for StorableValue's '\(property.name)'",
                        hint: "rename the property")
                }
                if property.name == "id", object.primaryKey != nil, object.primaryKey != "id" {
                    error(
                        "codegen-name-collision", "property '\(object.name).id' clashes with the generated 'id' (the primary key '\(object.primaryKey!)' for Identifiable)",
                        hint: "rename the property or make it the primary key")
                }
                if let origin = property.inverseOrigin {
                    if objectsByName[origin.type]?.property(named: origin.property)?.storedType?.objectName != object.name {
                        error(
                            "codegen-invalid-inverse", "inverse '\(object.name).\(property.name)' names '\(origin.type).\(origin.property)', which is not a link to \(object.name)",
                            hint: "name a link property of another type that points to \(object.name)")
                    }
                    continue
                }
                guard let type = property.storedType else { continue }
                switch type.base {
                case .scalar: break
                case .enumeration(let name):
                    if !enumNames.contains(name) {
                        error("codegen-unknown-type", "property '\(object.name).\(property.name)' has unknown enum type '\(name)'", hint: "declare the enum under 'enums:'")
                    }
                case .object(let name):
                    if let target = objectsByName[name] {
                        if !target.isEmbedded && target.primaryKey == nil {
                            error(
                                "codegen-link-without-key", "property '\(object.name).\(property.name)' links to \(name), which has no primary key",
                                hint: "give \(name) a primaryKey, or mark it 'embedded: true'")
                        }
                    } else {
                        error("codegen-unknown-type", "property '\(object.name).\(property.name)' has unknown type '\(name)'", hint: "declare \(name) under 'objects:'")
                    }
                }
                if let value = property.defaultValue, !(value == .null && type.collection != nil),
                    SwiftTypeMapper.literal(value, for: type.element, schema: schema) == nil
                {
                    error(
                        "codegen-invalid-default",
                        "default \(SwiftLiteral.commentLine(CanonicalYAML.literal(value))) of '\(object.name).\(property.name)' is not a valid \(type.element.description)",
                        hint: "write a literal of the property's type")
                }
                if type.collection != nil, !object.isEmbedded, object.primaryKey == nil {
                    error(
                        "codegen-collection-without-key", "\(object.name) has collection property '\(property.name)' but no primary key", hint: "give \(object.name) a primaryKey")
                }
            }
            at(object.name, object.primaryKey)
            if let primaryKey = object.primaryKey, object.property(named: primaryKey)?.storedType == nil {
                error("codegen-invalid-primary-key", "primary key '\(primaryKey)' of \(object.name) is not a stored property", hint: "name one of \(object.name)'s properties")
            }
        }
    }
}
