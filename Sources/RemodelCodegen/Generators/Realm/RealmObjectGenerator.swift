import RemodelCore

/// Generates the Realm side of each schema type: `final class RealmNote: Object` (or
/// `EmbeddedObject`) with `@Persisted` properties and the bridge both ways
/// (`convenience init(note:)`, `var note: Note`), `PersistableEnum` conformances, and
/// projections as `Projection<RealmPerson>` subclasses.
struct RealmObjectGenerator: Sendable {
    let types: RealmTypeMapper

    func declaration(for object: ObjectType) -> SwiftDeclaration {
        let className = RealmTypeMapper.className(object.name)
        let bridge = RealmTypeMapper.bridgeName(object.name)
        var members: [SwiftDeclaration] = object.properties.map { property in
            .property(
                SwiftProperty(
                    doc: property.doc,
                    attribute: types.attribute(property, of: object),
                    name: property.name,
                    type: types.propertyType(property),
                    value: types.initialValue(property)
                ))
        }
        let needsRealm = types.needsRealm(object)
        var parameters = [SwiftParameter(name: bridge, type: .name(object.name))]
        if needsRealm { parameters.append(SwiftParameter(label: "in", name: "realm", type: .name("Realm"))) }
        let stored = object.storedProperties
        var body: [SwiftStatement] = [.expression(.call(.token("self.init"), []))]
        for property in stored {
            body += types.assignments(property, from: .member(.identifier(bridge), property.name), in: object)
        }
        let lookups = needsRealm ? " Linked objects are looked up in `realm` by primary key; one it does not hold is a `RealmBridgeError`." : ""
        members.append(
            .initializer(
                SwiftInitializer(
                    doc: "Creates the Realm object of `\(bridge)`, unmanaged until it is added to a Realm.\(lookups)",
                    isConvenience: true,
                    parameters: parameters,
                    isThrowing: needsRealm,
                    body: body
                )))
        members.append(
            .property(
                SwiftProperty(
                    doc: "The plain value of this object" + (object.isEmbedded ? "." : ", links as the primary keys of their targets."),
                    name: bridge,
                    type: .name(object.name),
                    getter: [.returnValue(.call(.identifier(object.name), stored.map { SwiftArgument($0.name, types.modelExpression($0)) }))]
                )))
        let storedName = types.storedName(object.name)
        if storedName != className {
            var rename = SwiftFunction(
                doc: "The name the Realm file knows this class by (realm-swift's `_realmObjectName()`).",
                name: "_realmObjectName",
                parameters: [],
                result: .optional(.name("String")),
                body: [.returnValue(.string(storedName))]
            )
            rename.isClassOverride = true
            members.append(.function(rename))
        }
        let doc = "The Realm object of `\(object.name)`" + (object.doc.map { ": " + $0 } ?? ".")
        return .classType(SwiftClass(doc: doc, name: className, inherits: [.name(object.isEmbedded ? "EmbeddedObject" : "Object")], members: members))
    }

    func declaration(for enumType: EnumType) -> SwiftDeclaration {
        .extensionOf(SwiftExtension(extended: .name(enumType.name), conformances: [.name("PersistableEnum")], members: []))
    }

    /// `RealmProfile: Projection<RealmPerson>` with one `@Projected` property per key path.
    func declaration(for projection: Projection) -> SwiftDeclaration {
        let root = SwiftType.name(RealmTypeMapper.className(projection.of))
        let model = types.schema.objectType(named: projection.of)
        let members: [SwiftDeclaration] = projection.properties.map { property in
            let components = property.keyPathComponents
            let type: SwiftType
            if let stated = property.type.flatMap(SwiftType.init(parsing:)) {
                type = stated
            } else if let first = model?.property(named: components[0]) {
                type = types.propertyType(first)
            } else {
                type = .name("Never")  // unreachable after the checks
            }
            return .property(
                SwiftProperty(
                    doc: property.doc ?? "`\(projection.of).\(property.keyPath)`.",
                    attribute: .call(.identifier("Projected"), [.unlabelled(.keyPath(root, components))]),
                    name: property.name,
                    type: type
                ))
        }
        let doc = "Realm's projection of `\(projection.name)`" + (projection.doc.map { ": " + $0 } ?? ".")
        return .classType(SwiftClass(doc: doc, name: RealmTypeMapper.className(projection.name), inherits: [.named("RealmSwift.Projection", generics: [root])], members: members))
    }
}
