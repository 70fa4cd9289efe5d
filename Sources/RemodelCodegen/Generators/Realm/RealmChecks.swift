import RemodelCore

/// What `remodel generate --realm` checks beyond the generator's own checks: the schema must
/// be one Realm can hold (realm-swift's rules, including those it enforces only at run time,
/// when a Realm opens), and its names must not clash with the members of Realm's classes or
/// the generated bridges.
enum RealmChecks {
    /// Members of realm-swift's `Object` and `EmbeddedObject` (and of `NSObject`, which they
    /// are on Apple platforms) a property must not redeclare.
    static let objectMembers: Set<String> = [
        "realm", "objectSchema", "isInvalidated", "isFrozen", "freeze", "thaw", "observe", "objectWillChange",
        "description", "debugDescription", "hash", "superclass", "className", "primaryKey", "ignoredProperties",
        "indexedProperties", "propertiesMapping", "isSameObject", "dynamicList", "dynamicMutableSet", "dynamicMap",
        "setValue", "init",
    ]

    /// Types the Realm output names unqualified, which a schema type must not shadow.
    static let reservedTypeNames: Set<String> = [
        "Object", "EmbeddedObject", "ObjectBase", "List", "MutableSet", "Map", "LinkingObjects", "Results", "Realm",
        "ObjectId", "Decimal128", "MigrationObject", "MigrationBlock", "PersistableEnum", "RealmCollectionValue",
        "FailableCustomPersistable", "RealmSwift", "RemodelRealm", "RealmMigrationValue", "RealmCondition",
        "RealmCopyReport", "RealmCopyProgress", "RealmCopyCounter", "RealmCopyError", "RealmBridgeError",
    ]

    /// Members of realm-swift's `Projection` a projected property must not redeclare.
    static let projectionMembers: Set<String> = ["rootObject", "realm", "isInvalidated", "isFrozen", "freeze", "thaw", "observe", "description", "hash"]

    /// The problems of `schema` for Realm, located by `source` where it is known.
    static func diagnostics(for schema: Schema, source: SchemaSource? = nil) -> [Diagnostic] {
        var found: [Diagnostic] = []
        var type = ""
        var member: String?
        func error(_ rule: String, _ message: String, hint: String) {
            found.append(.error(rule, message, at: source?.location(of: type, member: member), hint: hint))
        }
        for name in schema.enums.map(\.name) + schema.objects.map(\.name) + schema.projections.map(\.name) {
            (type, member) = (name, nil)
            if reservedTypeNames.contains(name) {
                error("realm-reserved-name", "type name '\(name)' shadows a type the Realm output uses", hint: "rename the type, e.g. '\(name)Model'")
            } else if !schema.enums.contains(where: { $0.name == name }), reservedTypeNames.contains(RealmTypeMapper.className(name)) {
                error("realm-reserved-name", "the Realm class of '\(name)', '\(RealmTypeMapper.className(name))', shadows a type the Realm output uses", hint: "rename the type")
            }
        }
        for object in schema.objects {
            let bridge = RealmTypeMapper.bridgeName(object.name)
            if objectMembers.contains(bridge) {
                (type, member) = (object.name, nil)
                error("realm-reserved-name", "the bridge 'Realm\(object.name).\(bridge)' of type '\(object.name)' clashes with a member of Realm's Object", hint: "rename the type")
            }
            if let group = object.uniqueGroups.first {
                (type, member) = (object.name, nil)
                error(
                    "realm-unsupported-unique",
                    "type '\(object.name)' makes (\(group.joined(separator: ", "))) unique together, but Realm enforces no uniqueness other than the primary key",
                    hint: "leave 'unique:' out of the schema the Realm output is generated from; the Remodel store the app moves to can add it in a later version")
            }
            for property in object.properties {
                (type, member) = (object.name, property.name)
                let name = "\(object.name).\(property.name)"
                if property.isUnique {
                    error(
                        "realm-unsupported-unique", "property '\(name)' is unique, but Realm enforces no uniqueness other than the primary key",
                        hint:
                            "remove 'unique: true' from the schema the Realm output is generated from (or make '\(property.name)' the primary key); the Remodel store the app moves to can add it in a later version"
                    )
                }
                if objectMembers.contains(property.name) {
                    error(
                        "realm-reserved-name", "property '\(name)' clashes with a member of Realm's \(object.isEmbedded ? "EmbeddedObject" : "Object")",
                        hint: "rename the property (Realm apps map a different name with `propertiesMapping`, which Remodel does not generate)")
                }
                if property.name == bridge {
                    error(
                        "realm-reserved-name", "property '\(name)' clashes with the bridge 'Realm\(object.name).\(bridge)' that returns the plain \(object.name)",
                        hint: "rename the property")
                }
                guard let type = property.storedType, let target = type.objectName, let targetType = schema.objectType(named: target) else { continue }
                if targetType.isEmbedded, type.collection == nil, !type.isOptional {
                    error("realm-required-object", "property '\(name)' holds a required \(target), but Realm holds every to-one object optionally", hint: "make it '\(target)?'")
                }
                if targetType.isEmbedded, type.collection == .set {
                    error("realm-unsupported-type", "property '\(name)' is a set of embedded \(target) objects, which Realm cannot hold", hint: "use 'list<\(target)>'")
                }
                if type.collection != nil, type.collection != .map, type.isOptional {
                    error(
                        "realm-unsupported-type", "property '\(name)' holds optional \(target) links, which Realm's lists and sets cannot hold",
                        hint: "write '\(type.collection!.rawValue)<\(target)>'")
                }
            }
        }
        for projection in schema.projections {
            guard let model = schema.objectType(named: projection.of) else { continue }
            for property in projection.properties {
                (type, member) = (projection.name, property.name)
                if projectionMembers.contains(property.name) {
                    error("realm-reserved-name", "property '\(projection.name).\(property.name)' clashes with a member of Realm's Projection", hint: "rename the property")
                }
                let components = property.keyPathComponents
                guard components.count > 1, let first = model.property(named: components[0])?.storedType else { continue }
                let realmDiffers = first.objectName != nil || first.scalar == .objectId || first.scalar == .decimal128 || first.collection != nil
                if realmDiffers {
                    error(
                        "realm-unsupported-projection",
                        "'\(projection.name).\(property.name)' transforms '\(components[0])', a \(first) whose Realm type differs from the model's, so the key path means something else on Realm's class",
                        hint: "project '\(components[0])' as it is, or transform a text, number or date property")
                }
            }
        }
        return found
    }
}
