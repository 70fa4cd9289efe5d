import RemodelCore

/// Writes RemodelCore values (schema, migration history) as Swift constructor expressions,
/// so that generated code carries them with no YAML at run time. Every type is qualified
/// with `RemodelCore.` so that a model called `Schema` or `Property` cannot capture a name.
enum SchemaExpressions {
    private static func core(_ name: String) -> SwiftExpression {
        .member(.identifier("RemodelCore"), name)
    }

    private static func core(_ path: String, _ member: String) -> SwiftExpression {
        .member(core(path), member)
    }

    private static func optionalString(_ text: String?) -> SwiftExpression {
        text.map(SwiftExpression.string) ?? .nil
    }

    /// An enum as arrays of literals (`caseNames:` and raw values), which the compiler checks
    /// in time and memory linear in the cases: an array of `Case(…)` calls took gigabytes at
    /// a thousand cases.
    static func enumType(_ enumType: EnumType) -> SwiftExpression {
        var arguments = [SwiftArgument("name", .string(enumType.name)), SwiftArgument("caseNames", .array(enumType.cases.map { .string($0.name) }))]
        var strings: [String] = []
        var ints: [Int64] = []
        for enumCase in enumType.cases {
            switch enumCase.rawValue {
            case .string(let text): strings.append(text)
            case .int(let number): ints.append(number)
            }
        }
        if enumType.rawType == .int {
            arguments.append(SwiftArgument("intRawValues", .array(ints.map { .int($0) })))
        } else if strings != enumType.cases.map(\.name) {
            arguments.append(SwiftArgument("rawValues", .array(strings.map { .string($0) })))
        }
        if let renamedFrom = enumType.renamedFrom { arguments.append(SwiftArgument("renamedFrom", .string(renamedFrom))) }
        if let doc = enumType.doc { arguments.append(SwiftArgument("doc", .string(doc))) }
        return .call(core("EnumType"), arguments)
    }

    /// An object type; its properties as an array literal, or the expression `properties`.
    static func objectType(_ object: ObjectType, properties: SwiftExpression? = nil) -> SwiftExpression {
        var arguments = [SwiftArgument("name", .string(object.name))]
        if let primaryKey = object.primaryKey { arguments.append(SwiftArgument("primaryKey", .string(primaryKey))) }
        if object.isEmbedded { arguments.append(SwiftArgument("isEmbedded", .bool(true))) }
        arguments.append(SwiftArgument("properties", properties ?? .array(object.properties.map(property))))
        if !object.uniqueGroups.isEmpty { arguments.append(SwiftArgument("uniqueGroups", groups(object.uniqueGroups))) }
        if !object.indexes.isEmpty { arguments.append(SwiftArgument("indexes", groups(object.indexes))) }
        if let renamedFrom = object.renamedFrom { arguments.append(SwiftArgument("renamedFrom", .string(renamedFrom))) }
        if let doc = object.doc { arguments.append(SwiftArgument("doc", .string(doc))) }
        return .call(core("ObjectType"), arguments)
    }

    /// Groups of property names: `[["a", "b"], ["c"]]`.
    private static func groups(_ groups: [[String]]) -> SwiftExpression {
        .array(groups.map { .array($0.map { .string($0) }) })
    }

    /// A stored property uses the short initialiser, `Property("name", .scalar(.string), default: …)`;
    /// an inverse the long one.
    static func property(_ property: Property) -> SwiftExpression {
        var arguments: [SwiftArgument]
        switch property.kind {
        case .stored(let type):
            arguments = [.unlabelled(.string(property.name)), .unlabelled(propertyType(type))]
            if let value = property.defaultValue { arguments.append(SwiftArgument("default", defaultValue(value))) }
            if property.isIndexed { arguments.append(SwiftArgument("indexed", .bool(true))) }
            if property.isUnique { arguments.append(SwiftArgument("unique", .bool(true))) }
        case .inverse(let type, let origin):
            let kind = SwiftExpression.call(.implicitMember("inverse"), [SwiftArgument("type", .string(type)), SwiftArgument("property", .string(origin))])
            arguments = [SwiftArgument("name", .string(property.name)), SwiftArgument("kind", kind)]
            if let value = property.defaultValue { arguments.append(SwiftArgument("defaultValue", defaultValue(value))) }
            if property.isIndexed { arguments.append(SwiftArgument("isIndexed", .bool(true))) }
        }
        if let renamedFrom = property.renamedFrom { arguments.append(SwiftArgument("renamedFrom", .string(renamedFrom))) }
        if let doc = property.doc { arguments.append(SwiftArgument("doc", .string(doc))) }
        return .call(core("Property"), arguments)
    }

    /// `.scalar(.string)`, `.scalar(.url, optional: true)`, `.init(.object("Dog"), collection: .list)`.
    static func propertyType(_ type: PropertyType) -> SwiftExpression {
        if type.collection == nil, let scalar = type.scalar {
            var arguments = [SwiftArgument.unlabelled(.implicitMember(scalar.rawValue))]
            if type.isOptional { arguments.append(SwiftArgument("optional", .bool(true))) }
            return .call(.implicitMember("scalar"), arguments)
        }
        let base: SwiftExpression =
            switch type.base {
            case .scalar(let scalar): .call(.implicitMember("scalar"), [.unlabelled(.implicitMember(scalar.rawValue))])
            case .enumeration(let name): .call(.implicitMember("enumeration"), [.unlabelled(.string(name))])
            case .object(let name): .call(.implicitMember("object"), [.unlabelled(.string(name))])
            }
        var arguments = [SwiftArgument.unlabelled(base)]
        if type.isOptional { arguments.append(SwiftArgument("optional", .bool(true))) }
        if let collection = type.collection { arguments.append(SwiftArgument("collection", .implicitMember(collection.rawValue))) }
        return .call(.token(".init"), arguments)
    }

    static func defaultValue(_ value: DefaultValue) -> SwiftExpression {
        switch value {
        case .null: .implicitMember("null")
        case .bool(let flag): .call(.implicitMember("bool"), [.unlabelled(.bool(flag))])
        case .int(let number): .call(.implicitMember("int"), [.unlabelled(.int(number))])
        case .double(let number): .call(.implicitMember("double"), [.unlabelled(.double(number))])
        case .string(let text): .call(.implicitMember("string"), [.unlabelled(.string(text))])
        case .enumCase(let name): .call(.implicitMember("enumCase"), [.unlabelled(.string(name))])
        case .generated(let generated):
            .call(.implicitMember("generated"), [.unlabelled(.implicitMember(generatedName(generated)))])
        }
    }

    private static func generatedName(_ generated: DefaultValue.Generated) -> String {
        switch generated {
        case .uuid: "uuid"
        case .objectId: "objectId"
        case .now: "now"
        }
    }

    static func projection(_ projection: Projection) -> SwiftExpression {
        var arguments = [SwiftArgument("name", .string(projection.name)), SwiftArgument("of", .string(projection.of))]
        arguments.append(
            SwiftArgument(
                "properties",
                .array(
                    projection.properties.map { property in
                        var fields = [SwiftArgument("name", .string(property.name)), SwiftArgument("keyPath", .string(property.keyPath))]
                        if let type = property.type { fields.append(SwiftArgument("type", .string(type))) }
                        if let doc = property.doc { fields.append(SwiftArgument("doc", .string(doc))) }
                        return .call(core("Projection", "Property"), fields)
                    })))
        if let doc = projection.doc { arguments.append(SwiftArgument("doc", .string(doc))) }
        return .call(core("Projection"), arguments)
    }

    /// The body of a function returning `schema`, one statement per enum, property, object type
    /// and projection. The compiler checks each statement on its own, so the time and memory it
    /// takes grow with the schema's size; as one expression, a few hundred types took minutes
    /// and gigabytes.
    static func schemaStatements(_ schema: Schema) -> [SwiftStatement] {
        func array(_ name: String, of type: String) -> SwiftStatement {
            .variable(name, .array(.member(.name("RemodelCore"), type)), .array([]))
        }
        func append(_ array: String, _ value: SwiftExpression) -> SwiftStatement {
            .expression(.call(.member(.identifier(array), "append"), [.unlabelled(value)]))
        }
        // Only the arrays that get elements are variables (an empty one is `[]` below).
        let kinds = [("enums", "EnumType", !schema.enums.isEmpty), ("objects", "ObjectType", !schema.objects.isEmpty), ("projections", "Projection", !schema.projections.isEmpty)]
        var statements = kinds.filter(\.2).map { array($0.0, of: $0.1) }
        if schema.objects.contains(where: { !$0.properties.isEmpty }) { statements.append(array("properties", of: "Property")) }
        statements += schema.enums.map { append("enums", enumType($0)) }
        for object in schema.objects {
            statements += object.properties.map { append("properties", property($0)) }
            statements.append(append("objects", objectType(object, properties: object.properties.isEmpty ? .array([]) : .identifier("properties"))))
            if !object.properties.isEmpty {
                statements.append(.expression(.call(.member(.identifier("properties"), "removeAll"), [SwiftArgument("keepingCapacity", .bool(true))])))
            }
        }
        statements += schema.projections.map { append("projections", projection($0)) }
        statements.append(
            .returnValue(
                .call(
                    core("Schema"),
                    kinds.filter(\.2).map { SwiftArgument($0.0, .identifier($0.0)) })))
        return statements
    }

    /// The history; a snapshot equal to `current` is spelled as that expression instead of
    /// a second copy of the schema.
    /// `snapshot(version)` is the expression of any other snapshot.
    static func history(
        _ history: MigrationHistory, current: (schema: Schema, expression: SwiftExpression)? = nil, snapshot: (Int) -> SwiftExpression
    ) -> SwiftExpression {
        .call(
            core("MigrationHistory"),
            [
                SwiftArgument(
                    "snapshots",
                    .array(history.snapshots.enumerated().map { $0.element == current?.schema ? current!.expression : snapshot(history.baseVersion + $0.offset) })),
                SwiftArgument("migrations", .array(history.migrations.map(migration))),
            ] + (history.baseVersion == 1 ? [] : [SwiftArgument("baseVersion", .int(history.baseVersion))])
                + (history.upgradePath.map { [SwiftArgument("upgradePath", Self.history($0, current: current, snapshot: snapshot))] } ?? []))
    }

    static func migration(_ migration: Migration) -> SwiftExpression {
        var arguments = [SwiftArgument("version", .int(migration.version)), SwiftArgument("name", .string(migration.name))]
        if let description = migration.description { arguments.append(SwiftArgument("description", .string(description))) }
        arguments.append(SwiftArgument("steps", .array(migration.steps.map(step))))
        arguments.append(SwiftArgument("checksum", .string(migration.checksum)))
        return .call(core("Migration"), arguments)
    }

    static func step(_ step: MigrationStep) -> SwiftExpression {
        func call(_ name: String, _ arguments: [SwiftArgument]) -> SwiftExpression { .call(.implicitMember(name), arguments) }
        switch step {
        case .renameType(let from, let to):
            return call("renameType", [SwiftArgument("from", .string(from)), SwiftArgument("to", .string(to))])
        case .renameProperty(let type, let from, let to):
            return call("renameProperty", [SwiftArgument("type", .string(type)), SwiftArgument("from", .string(from)), SwiftArgument("to", .string(to))])
        case .set(let type, let property, let value):
            let written: SwiftExpression =
                switch value {
                case .null: .implicitMember("null")
                case .template(let template): .call(.implicitMember("template"), [.unlabelled(.string(template))])
                }
            return call("set", [SwiftArgument("type", .string(type)), SwiftArgument("property", .string(property)), SwiftArgument("value", written)])
        case .convert(let type, let property, let to, let onError):
            return call(
                "convert",
                [
                    SwiftArgument("type", .string(type)), SwiftArgument("property", .string(property)),
                    SwiftArgument("to", propertyType(to)), SwiftArgument("onError", .implicitMember(onError.rawValue)),
                ])
        case .split(let type, let property, let into, let separator):
            return call(
                "split",
                [
                    SwiftArgument("type", .string(type)), SwiftArgument("property", .string(property)),
                    SwiftArgument("into", .array(into.map(SwiftExpression.string))), SwiftArgument("separator", .string(separator)),
                ])
        case .mapValues(let type, let property, let values, let otherwise):
            return call(
                "mapValues",
                [
                    SwiftArgument("type", .string(type)), SwiftArgument("property", .string(property)),
                    SwiftArgument(
                        "values",
                        .array(
                            values.map { mapping in
                                .call(core("MigrationStep", "ValueMapping"), [SwiftArgument("from", .string(mapping.from)), SwiftArgument("to", defaultValue(mapping.to))])
                            })),
                    SwiftArgument("otherwise", otherwise.map(defaultValue) ?? .nil),
                ])
        case .deleteObjects(let type, let matches):
            return call("deleteObjects", [SwiftArgument("type", .string(type)), SwiftArgument("where", .array(matches.map(match)))])
        case .deduplicate(let type, let by, let keep, let orderBy):
            return call(
                "deduplicate",
                [
                    SwiftArgument("type", .string(type)), SwiftArgument("by", .array(by.map(SwiftExpression.string))), SwiftArgument("keep", .implicitMember(keep.rawValue)),
                    SwiftArgument("orderBy", orderBy.map(SwiftExpression.string) ?? .nil),
                ])
        case .createObjects(let type, let objects, let addTo):
            return call(
                "createObjects",
                [
                    SwiftArgument("type", .string(type)),
                    SwiftArgument(
                        "objects",
                        .array(
                            objects.map { object in
                                .array(
                                    object.map { value in
                                        .call(
                                            core("MigrationStep", "PropertyValue"),
                                            [SwiftArgument("property", .string(value.property)), SwiftArgument("value", defaultValue(value.value))])
                                    })
                            })),
                    SwiftArgument(
                        "addTo",
                        addTo.map { target in
                            .call(
                                core("MigrationStep", "LinkTarget"),
                                [
                                    SwiftArgument("type", .string(target.type)), SwiftArgument("property", .string(target.property)),
                                    SwiftArgument("where", .array(target.where.map(match))),
                                ])
                        } ?? .nil),
                ])
        case .custom(let name, let type, let reads, let writes):
            var arguments = [SwiftArgument("name", .string(name)), SwiftArgument("type", optionalString(type))]
            if !reads.isEmpty { arguments.append(SwiftArgument("reads", .array(reads.map(SwiftExpression.string)))) }
            if !writes.isEmpty { arguments.append(SwiftArgument("writes", .array(writes.map(SwiftExpression.string)))) }
            return call("custom", arguments)
        }
    }

    /// `.init(property: "weight", condition: .lessThan(.int(0)))`.
    private static func match(_ match: MigrationStep.PropertyMatch) -> SwiftExpression {
        let condition: SwiftExpression =
            switch match.condition {
            case .equals(let value): .call(.implicitMember("equals"), [.unlabelled(defaultValue(value))])
            case .notEquals(let value): .call(.implicitMember("notEquals"), [.unlabelled(defaultValue(value))])
            case .lessThan(let value): .call(.implicitMember("lessThan"), [.unlabelled(defaultValue(value))])
            case .lessThanOrEqual(let value): .call(.implicitMember("lessThanOrEqual"), [.unlabelled(defaultValue(value))])
            case .greaterThan(let value): .call(.implicitMember("greaterThan"), [.unlabelled(defaultValue(value))])
            case .greaterThanOrEqual(let value): .call(.implicitMember("greaterThanOrEqual"), [.unlabelled(defaultValue(value))])
            case .isIn(let values): .call(.implicitMember("isIn"), [.unlabelled(.array(values.map(defaultValue)))])
            case .isNotIn(let values): .call(.implicitMember("isNotIn"), [.unlabelled(.array(values.map(defaultValue)))])
            case .contains(let text): .call(.implicitMember("contains"), [.unlabelled(.string(text))])
            case .startsWith(let text): .call(.implicitMember("startsWith"), [.unlabelled(.string(text))])
            case .endsWith(let text): .call(.implicitMember("endsWith"), [.unlabelled(.string(text))])
            }
        return .call(core("MigrationStep", "PropertyMatch"), [SwiftArgument("property", .string(match.property)), SwiftArgument("condition", condition)])
    }
}
