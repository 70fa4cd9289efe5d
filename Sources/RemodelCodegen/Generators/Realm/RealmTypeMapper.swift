import Foundation
import RemodelCore

/// Maps schema types to realm-swift's: `@Persisted` property types, initial values, and the
/// expressions that carry a value between a plain model and its Realm object.
struct RealmTypeMapper: Sendable {
    let models: SwiftTypeMapper
    /// The manifest type, which holds the conversions (`values`).
    let manifestName: String
    /// `GeneratorOptions.realmClassNames`.
    let storedNames: String
    var schema: Schema { models.schema }

    /// The Realm class of object type `name`: `RealmNote`.
    static func className(_ name: String) -> String { "Realm" + name }

    /// The name the Realm file knows object type `name`'s class by (`GeneratorOptions.realmClassNames`).
    func storedName(_ name: String) -> String {
        storedNames.replacingOccurrences(of: "{name}", with: name)
    }

    /// The name of the bridge property and initialiser label: `Person` → `person`.
    static func bridgeName(_ name: String) -> String { ProjectionGenerator.parameterName(for: name) }

    /// The name of the internal namespace, on the manifest, of the value conversions the
    /// bridges share (one per module, like the manifest).
    static let valuesName = "RealmValues"

    /// `RemodelSchemaManifest.RealmValues`
    var values: SwiftExpression { .member(.identifier(manifestName), RealmTypeMapper.valuesName) }

    /// Realm's type for one scalar.
    static func scalarType(_ scalar: ScalarType) -> SwiftType {
        switch scalar {
        case .objectId: .name("ObjectId")
        case .decimal128: .name("Decimal128")
        default: SwiftTypeMapper.swiftType(of: scalar)
        }
    }

    /// Realm's type for one value of `type` (no collection, no optional).
    func baseType(_ type: PropertyType) -> SwiftType {
        switch type.base {
        case .scalar(let scalar): Self.scalarType(scalar)
        case .enumeration(let name): .name(name)
        case .object(let name): .name(Self.className(name))
        }
    }

    /// The `@Persisted` type of a property.
    func propertyType(_ property: Property) -> SwiftType {
        if let origin = property.inverseOrigin {
            return .named("LinkingObjects", generics: [.name(Self.className(origin.type))])
        }
        let type = property.storedType!
        let base = baseType(type)
        switch type.collection {
        case nil:
            // Realm holds every to-one object optionally.
            return type.isOptional || type.objectName != nil ? .optional(base) : base
        case .list?:
            return .named("List", generics: [type.isOptional ? .optional(base) : base])
        case .set?:
            return .named("MutableSet", generics: [type.isOptional ? .optional(base) : base])
        case .map?:
            // Map values that are objects must be optional in Realm.
            return .named("Map", generics: [.name("String"), type.isOptional || type.objectName != nil ? .optional(base) : base])
        }
    }

    /// `Persisted`, `Persisted(primaryKey: true)`, `Persisted(indexed: true)` or
    /// `Persisted(originProperty: "dogs")`.
    func attribute(_ property: Property, of object: ObjectType) -> SwiftExpression {
        let persisted = SwiftExpression.identifier("Persisted")
        if let origin = property.inverseOrigin {
            return .call(persisted, [SwiftArgument("originProperty", .string(origin.property))])
        }
        if property.name == object.primaryKey { return .call(persisted, [SwiftArgument("primaryKey", .bool(true))]) }
        if property.isIndexed { return .call(persisted, [SwiftArgument("indexed", .bool(true))]) }
        return persisted
    }

    /// The property's initial value in the Realm class (its schema default), or `nil` for
    /// none (collections, objects, optionals without a default, required values without one).
    func initialValue(_ property: Property) -> SwiftExpression? {
        guard let type = property.storedType, type.collection == nil, type.objectName == nil, let value = property.defaultValue else { return nil }
        if value == .null { return nil }
        switch (value, type.scalar) {
        case (.generated(.objectId), .objectId?):
            return .call(.member(.identifier("ObjectId"), "generate"), [])
        case (.string(let text), .objectId?):
            return .call(.member(values, "objectId"), [.unlabelled(.string(text))])
        case (.string, .decimal128?), (.int, .decimal128?), (.double, .decimal128?):
            guard let decimal = models.defaultExpression(for: property) else { return nil }
            return .call(.member(values, "decimal128"), [.unlabelled(decimal)])
        default:
            return models.defaultExpression(for: property)
        }
    }

    /// Whether making the Realm object of `object` needs a Realm to look linked objects up in
    /// (it links to keyed objects, itself or through its embedded objects).
    func needsRealm(_ object: ObjectType, visited: Set<String> = []) -> Bool {
        for property in object.storedProperties {
            guard let target = property.storedType?.objectName, let targetType = schema.objectType(named: target) else { continue }
            if !targetType.isEmbedded { return true }
            if !visited.contains(target), needsRealm(targetType, visited: visited.union([object.name])) { return true }
        }
        return false
    }

    // MARK: Model → Realm

    /// One model value (not optional) as Realm's: `value`, `RealmBridgeValues.objectId(value)`,
    /// `RealmAddress(address: value)`, or a lookup of the linked object.
    func realmValue(_ value: SwiftExpression, of type: PropertyType, link: String) -> SwiftExpression {
        switch type.base {
        case .scalar(.objectId): return .call(.member(values, "objectId"), [.unlabelled(value)])
        case .scalar(.decimal128): return .call(.member(values, "decimal128"), [.unlabelled(value)])
        case .scalar, .enumeration: return value
        case .object(let name):
            let target = schema.objectType(named: name)
            if target?.isEmbedded ?? false {
                let call = SwiftExpression.call(.identifier(Self.className(name)), realmArguments(for: name, value: value))
                return needsRealm(target!) ? .tryExpression(call) : call
            }
            let key = target?.primaryKeyProperty?.storedType.map { realmValue(value, of: $0.element, link: link) } ?? value
            return .tryExpression(
                .call(
                    .member(values, "object"),
                    [
                        .unlabelled(.metatype(.name(Self.className(name)))),
                        SwiftArgument("forKey", key),
                        SwiftArgument("in", .identifier("realm")),
                        SwiftArgument("link", .string(link)),
                    ]))
        }
    }

    /// The arguments of `RealmX(x: value[, in: realm])`.
    func realmArguments(for objectName: String, value: SwiftExpression) -> [SwiftArgument] {
        var arguments = [SwiftArgument(Self.bridgeName(objectName), value)]
        if let object = schema.objectType(named: objectName), needsRealm(object) { arguments.append(SwiftArgument("in", .identifier("realm"))) }
        return arguments
    }

    /// Whether a value of `type` needs no conversion on its way to Realm or back.
    func isIdentity(_ type: PropertyType) -> Bool {
        switch type.base {
        case .scalar(.objectId), .scalar(.decimal128), .object: false
        case .scalar, .enumeration: true
        }
    }

    /// `value` (of `element`, maybe optional) converted element-wise by `convert`.
    private func mapped(_ value: SwiftExpression, optional: Bool, _ convert: (SwiftExpression) -> SwiftExpression) -> SwiftExpression {
        guard optional else { return convert(value) }
        let body = convert(.token("$0"))
        if case .tryExpression = body { return .tryExpression(.call(.member(value, "map"), [.unlabelled(.closure([], body))])) }
        return .call(.member(value, "map"), [.unlabelled(.closure([], body))])
    }

    /// The statements of `init(x:)` that set one property from the model value `source`.
    func assignments(_ property: Property, from source: SwiftExpression, in object: ObjectType) -> [SwiftStatement] {
        let type = property.storedType!
        let target = SwiftExpression.selfMember(property.name)
        let link = object.name + "." + property.name
        let element = type.element
        let optionalElement = type.isOptional
        switch type.collection {
        case nil:
            if isIdentity(type) { return [.assignment(target, source)] }
            // Realm holds every to-one object optionally; a required embedded value is wrapped.
            return [.assignment(target, mapped(source, optional: optionalElement) { realmValue($0, of: element, link: link) })]
        case .list?, .set?:
            let verb = type.collection == .list ? "append" : "insert"
            let values = isIdentity(type) ? source : mapped(source, optional: true) { mapped($0, optional: optionalElement) { realmValue($0, of: element, link: link) } }
            return [.expression(.call(.member(target, verb), [SwiftArgument("objectsIn", values)]))]
        case .map?:
            let value = isIdentity(type) ? SwiftExpression.identifier("value") : mapped(.identifier("value"), optional: optionalElement) { realmValue($0, of: element, link: link) }
            return [.forIn("(key, value)", source, [.assignment(.subscripted(target, [.unlabelled(.identifier("key"))]), value)])]
        }
    }

    // MARK: Realm → model

    /// One Realm value (not optional) as the model's: `RealmBridgeValues.objectID(value)`,
    /// `value.address`, `value._id`.
    func modelValue(_ value: SwiftExpression, of type: PropertyType) -> SwiftExpression {
        switch type.base {
        case .scalar(.objectId): return .call(.member(values, "objectID"), [.unlabelled(value)])
        case .scalar(.decimal128): return .call(.member(values, "decimal"), [.unlabelled(value)])
        case .scalar, .enumeration: return value
        case .object(let name):
            let target = schema.objectType(named: name)
            if target?.isEmbedded ?? false { return .member(value, Self.bridgeName(name)) }
            guard let key = target?.primaryKeyProperty, let keyType = key.storedType else { return value }
            return modelValue(.member(value, key.name), of: keyType.element)
        }
    }

    /// The model's value of one property of the Realm object.
    func modelExpression(_ property: Property) -> SwiftExpression {
        let type = property.storedType!
        let source = SwiftExpression.selfMember(property.name)
        let element = type.element
        let elementOptional = type.isOptional
        func convertElement(_ value: SwiftExpression) -> SwiftExpression {
            elementOptional ? .call(.member(value, "map"), [.unlabelled(.closure([], modelValue(.token("$0"), of: element)))]) : modelValue(value, of: element)
        }
        switch type.collection {
        case nil:
            if isIdentity(type) { return source }
            if type.objectName != nil {
                // Optional in Realm; a required embedded value falls back to the model's
                // default (the checks allow that only when it has one).
                return .call(.member(source, "map"), [.unlabelled(.closure([], modelValue(.token("$0"), of: element)))])
            }
            return type.isOptional ? .call(.member(source, "map"), [.unlabelled(.closure([], modelValue(.token("$0"), of: element)))]) : modelValue(source, of: element)
        case .list?:
            return isIdentity(type) ? .call(.identifier("Array"), [.unlabelled(source)]) : .call(.member(source, "map"), [.unlabelled(.closure([], convertElement(.token("$0"))))])
        case .set?:
            let values = isIdentity(type) ? source : SwiftExpression.call(.member(source, "map"), [.unlabelled(.closure([], convertElement(.token("$0"))))])
            return .call(.identifier("Set"), [.unlabelled(values)])
        case .map?:
            if type.objectName != nil, !elementOptional {
                // Realm's object maps hold optionals: entries whose object is gone are left out.
                return .call(
                    .member(values, "dictionary"),
                    [.unlabelled(source), .unlabelled(.closure([], .call(.member(.token("$0"), "map"), [.unlabelled(.closure([], modelValue(.token("$0"), of: element)))])))])
            }
            let transform: SwiftExpression = isIdentity(type) ? .token("$0") : convertElement(.token("$0"))
            return .call(.member(values, "dictionary"), [.unlabelled(source), .unlabelled(.closure([], transform))])
        }
    }
}
