import Foundation
import RemodelCore

/// Objects and their properties: names, types, primary keys, defaults and indexes.
extension SchemaValidator {
    /// Common spellings from other languages, mapped to the schema language's type names.
    static let typeAliases: [String: String] = [
        "integer": "int", "Integer": "int", "long": "int64", "boolean": "bool", "Boolean": "bool", "text": "string",
        "str": "string", "datetime": "date", "timestamp": "date", "decimal": "decimal128", "Decimal": "decimal128",
        "binary": "data", "blob": "data", "ObjectId": "objectId", "ObjectID": "objectId", "objectid": "objectId",
    ]

    /// Resolves every object type. Each one depends only on the registered declarations and
    /// the resolved enums, so they are resolved in parallel, in runs of consecutive objects
    /// with a validator (and a log) of their own, and gathered in declaration order: the
    /// outcome, diagnostics included, is the same as resolving them one by one.
    func resolveObjects() {
        let currentNames = Set(declaredNames.keys)
        let declarations = syntax.objects
        let runs = Range.runs(covering: declarations.count)
        let resolved = runs.concurrentMap { run in
            let worker = SchemaValidator(resolvingObjectsFor: self)
            for declaration in declarations[run] { worker.resolveObject(declaration, currentNames: currentNames) }
            return worker
        }
        objects.reserveCapacity(declarations.count)
        objectsByName.reserveCapacity(declarations.count)
        for worker in resolved {
            log.add(contentsOf: worker.log.diagnostics)
            for object in worker.objects {
                objects.append(object)
                objectsByName[object.name] = object
            }
        }
    }

    private func resolveObject(_ declaration: ObjectDeclaration, currentNames: Set<String>) {
        let objectName = declaration.name.value
        guard objectDeclarations[objectName]?.name.location == declaration.name.location else { return }
        let primaryKey = primaryKeyName(of: declaration)
        var properties: [Property] = []
        var propertyNames: [String: SourceLocation] = [:]
        var foldedPropertyNames: [String: Located<String>] = [:]
        properties.reserveCapacity(declaration.properties.count)
        propertyNames.reserveCapacity(declaration.properties.count)
        foldedPropertyNames.reserveCapacity(declaration.properties.count)
        for property in declaration.properties {
            let name = property.name.value
            let isPrimaryKey = name == primaryKey?.value
            guard checkName(property.name, kind: .property, noun: "property", isPrimaryKey: isPrimaryKey, embedded: declaration.isEmbedded) else { continue }
            if let first = propertyNames[name] {
                log.error(
                    "duplicate-property", "object '\(objectName)' has property '\(name)' more than once", at: property.name.location,
                    hint: "remove or rename one of them", notes: [.init("'\(name)' first declared here", at: first)]
                )
                continue
            }
            propertyNames[name] = property.name.location
            let key = StoreNames.foldedKey(name)
            if let first = foldedPropertyNames[key] {
                log.error(
                    "name-case-collision", "object '\(objectName)' has properties '\(first.value)' and '\(name)', which differ only in letter case", at: property.name.location,
                    hint: "rename one of them: SQLite's column names (and the side tables '\(objectName).property' of collections) ignore letter case",
                    notes: [.init("'\(first.value)' declared here", at: first.location)]
                )
                continue
            }
            foldedPropertyNames[key] = property.name
            if let resolved = resolve(property, in: declaration) { properties.append(resolved) }
        }
        if declaration.properties.contains(where: { $0.renamedFrom != nil }) {
            let names = Set(declaration.properties.map(\.name.value))
            for property in declaration.properties {
                checkRenamedFrom(property.renamedFrom, noun: "property", owner: "\(objectName).\(property.name.value)", currentNames: names)
            }
        }
        checkRenamedFrom(declaration.renamedFrom, noun: "object", owner: objectName, currentNames: currentNames)
        if declaration.properties.isEmpty {
            log.error("empty-declaration", "object '\(objectName)' has no properties", at: declaration.name.location, hint: "add at least one property under 'properties:'")
        }
        checkPrimaryKey(primaryKey, of: declaration, properties: properties)
        for property in declaration.properties where property.name.value == primaryKey?.value {
            if let unique = property.unique, unique.value {
                log.warning(
                    "unique-redundant", "property '\(objectName).\(property.name.value)' is the primary key, which is unique already", at: unique.location,
                    hint: "remove 'unique: true'")
            }
        }
        if primaryKey == nil, !declaration.isEmbedded { checkCollectionsHaveAnOwnerKey(declaration, properties: properties) }
        let object = ObjectType(
            name: objectName,
            primaryKey: primaryKey?.value,
            isEmbedded: declaration.isEmbedded,
            properties: properties,
            uniqueGroups: checkGroups(declaration.uniqueGroups, key: "unique", of: declaration, properties: properties, primaryKey: primaryKey?.value),
            indexes: checkGroups(declaration.indexes, key: "indexes", of: declaration, properties: properties, primaryKey: primaryKey?.value),
            renamedFrom: declaration.renamedFrom?.value,
            doc: declaration.doc
        )
        objects.append(object)
        objectsByName[objectName] = object
    }

    /// The property the object names as its key, either with `primaryKey: name` on the object
    /// or `primaryKey: true` on the property; reports conflicting declarations.
    private func primaryKeyName(of declaration: ObjectDeclaration) -> Located<String>? {
        let marked = declaration.properties.filter { $0.isPrimaryKey?.value == true }
        for extra in marked.dropFirst() {
            log.error(
                "primary-key-conflict", "object '\(declaration.name.value)' marks more than one primary key", at: extra.isPrimaryKey!.location,
                hint: "an object has one primary key: keep 'primaryKey: true' on one property",
                notes: [.init("'\(marked[0].name.value)' is already the primary key", at: marked[0].name.location)]
            )
        }
        if let objectLevel = declaration.primaryKey {
            if let first = marked.first, first.name.value != objectLevel.value {
                log.error(
                    "primary-key-conflict",
                    "object '\(declaration.name.value)' names primary key '\(objectLevel.value)' but marks '\(first.name.value)' with 'primaryKey: true'",
                    at: first.isPrimaryKey!.location,
                    hint: "keep one of the two declarations", notes: [.init("primary key named here", at: objectLevel.location)]
                )
            }
            return objectLevel
        }
        return marked.first.map { Located($0.name.value, at: $0.isPrimaryKey!.location) }
    }

    private func checkPrimaryKey(_ primaryKey: Located<String>?, of declaration: ObjectDeclaration, properties: [Property]) {
        guard let primaryKey else { return }
        let objectName = declaration.name.value
        if declaration.isEmbedded {
            log.error(
                "primary-key-embedded", "embedded object '\(objectName)' cannot have a primary key", at: primaryKey.location,
                hint: "embedded objects live inside their owner and have no identity: remove the primary key, or remove 'embedded: true'"
            )
            return
        }
        guard let property = declaration.properties.first(where: { $0.name.value == primaryKey.value }) else {
            let hint =
                Suggestion.closest(to: primaryKey.value, in: declaration.properties.map(\.name.value)).map { "did you mean '\($0)'?" }
                ?? "add a property '\(primaryKey.value)' (e.g. '\(primaryKey.value): { type: uuid, default: $uuid }'), or name an existing one"
            log.error("primary-key-unknown", "primary key '\(primaryKey.value)' is not a property of '\(objectName)'", at: primaryKey.location, hint: hint)
            return
        }
        guard let resolved = properties.first(where: { $0.name == primaryKey.value }) else { return }
        let allowed = "string, int, int8, int16, int32, int64, objectId or uuid"
        guard let type = resolved.storedType, type.collection == nil, let scalar = type.scalar, scalar.canBePrimaryKey else {
            let location = typeNode(of: objectName, property: primaryKey.value)?.location ?? property.name.location
            let written = resolved.storedType.map { "'\($0)'" } ?? "an inverse relationship"
            log.error(
                "primary-key-type", "primary key '\(objectName).\(primaryKey.value)' has type \(written)", at: location,
                hint: "a primary key is \(allowed); e.g. '{ type: uuid, default: $uuid }'"
            )
            return
        }
        if resolved.isIndexed, let indexed = property.indexed {
            log.warning(
                "index-redundant", "primary key '\(objectName).\(primaryKey.value)' is always indexed", at: indexed.location,
                hint: "remove 'indexed: true'"
            )
        }
        if type.isOptional {
            let node = typeNode(of: objectName, property: primaryKey.value)
            log.error(
                "primary-key-optional", "primary key '\(objectName).\(primaryKey.value)' cannot be optional", at: node?.location ?? property.name.location,
                hint: "every object needs a key: write '\(scalar.rawValue)' without '?'"
            )
        }
    }

    /// A collection's elements live in a side table keyed by the owner's primary key, so a
    /// top-level object without one cannot hold a collection (the store layout refuses it too).
    private func checkCollectionsHaveAnOwnerKey(_ declaration: ObjectDeclaration, properties: [Property]) {
        let objectName = declaration.name.value
        for property in properties where property.storedType?.collection != nil {
            let location = typeNode(of: objectName, property: property.name)?.location ?? declaration.properties.first { $0.name.value == property.name }?.name.location
            log.error(
                "collection-without-key",
                "object type '\(objectName)' has no primary key, so its collection property '\(property.name)' has nothing to attach to", at: location,
                hint: "give '\(objectName)' a primaryKey (e.g. 'primaryKey: id' with 'id: { type: uuid, default: $uuid }'), or make '\(property.name)' a single value"
            )
        }
    }

    /// Resolves one property's type, default and flags; `nil` when its type is unusable.
    private func resolve(_ property: PropertyDeclaration, in object: ObjectDeclaration) -> Property? {
        let (objectName, propertyName) = (object.name.value, property.name.value)
        func what() -> String { "'\(objectName).\(propertyName)'" }
        switch property.kind {
        case .missing:
            return nil
        case .inverse(let node):
            guard let origin = parseInverse(node, what: what()) else { return nil }
            return Property(name: property.name.value, kind: .inverse(type: origin.type, property: origin.property), doc: property.doc)
        case .stored(let node):
            guard let type = resolveType(node, what: what()) else { return nil }
            var defaultValue: DefaultValue?
            if let defaultNode = property.defaultValue {
                defaultValue = DefaultValueResolver(log: log).resolve(defaultNode, for: type, enumType: type.enumName.flatMap { enumsByName[$0] }, what: "property \(what())")
            }
            if let indexed = property.indexed, indexed.value {
                checkIndex(type, at: indexed.location, what: what())
            }
            if let unique = property.unique, unique.value {
                if object.isEmbedded {
                    log.error(
                        "unique-unsupported", "property \(what()) of an embedded object cannot be unique", at: unique.location,
                        hint: "an embedded object is a value of its owner, not a row of its own: make the owner's property unique, or remove 'unique: true'")
                } else if let reason = cannotBeUnique(type) {
                    log.error("unique-unsupported", "property \(what()) of type '\(type)' cannot be unique: \(reason)", at: unique.location, hint: "remove 'unique: true'")
                }
            }
            return Property(
                name: property.name.value,
                kind: .stored(type),
                defaultValue: defaultValue,
                isIndexed: property.indexed?.value ?? false,
                isUnique: property.unique?.value ?? false,
                renamedFrom: property.renamedFrom?.value,
                doc: property.doc
            )
        }
    }

    /// Resolves a type written in `node` (`list<Dog>`, `url?`), reporting syntax errors and
    /// unknown names at the exact character.
    func resolveType(_ node: YAMLNode, what: @autoclosure () -> String) -> PropertyType? {
        guard let text = node.scalar?.text else { return nil }
        let expression: TypeExpression
        switch TypeExpression.parse(text) {
        case .success(let parsed):
            expression = parsed
        case .failure(let problem):
            log.error(problem.rule, "\(problem.message) (property \(what()))", at: location(in: node, offset: problem.offset), hint: problem.hint)
            return nil
        }
        let base: BaseType
        if let scalar = ScalarType(rawValue: expression.name) {
            base = .scalar(scalar)
        } else if enumDeclarations[expression.name] != nil {
            base = .enumeration(expression.name)
        } else if objectDeclarations[expression.name] != nil {
            base = .object(expression.name)
        } else {
            let suggestion = Self.typeAliases[expression.name] ?? Suggestion.closest(to: expression.name, in: typeNames)
            let hint =
                suggestion.map { "did you mean '\($0)'?" }
                ?? "use a scalar type (\(ScalarType.allCases.map(\.rawValue).joined(separator: ", "))) or an enum or object declared in the schema"
            log.error("unknown-type", "unknown type '\(expression.name)' for property \(what())", at: location(in: node, offset: expression.nameOffset), hint: hint)
            return nil
        }
        let type = PropertyType(base, optional: expression.isOptional, collection: expression.collection)
        if let collection = expression.collection, collection != .map, expression.isOptional, case .object = base {
            log.error(
                "optional-object-in-collection", "a \(collection.rawValue) cannot hold optional objects: '\(text)' (property \(what()))",
                at: location(in: node, offset: expression.nameOffset),
                hint: "write '\(collection.rawValue)<\(expression.name)>': deleted objects are removed from the \(collection.rawValue)"
            )
            return nil
        }
        return type
    }

    /// Why a property of `type` cannot be unique, or part of a unique group; nil if it can.
    /// Uniqueness compares stored values exactly, which collections, embedded values and
    /// floating-point or decimal numbers (whose equal values have several stored forms) do not
    /// allow. A link can: its stored value is the target's key.
    func cannotBeUnique(_ type: PropertyType) -> String? {
        if type.collection != nil { return "a collection's values are rows of their own" }
        if case .object(let name) = type.base, objectDeclarations[name]?.isEmbedded == true { return "an embedded object is a value of several columns" }
        if let scalar = type.scalar, [.float, .double].contains(scalar) { return "floating-point values are not compared exactly (0.1 + 0.2 is not 0.3)" }
        if type.scalar == .decimal128 { return "equal decimals have several stored forms (1.0 and 1.00)" }
        return nil
    }

    /// The object's `unique:` or `indexes:` groups, each name a stored property of the object
    /// that the group can hold; the groups that pass.
    private func checkGroups(_ groups: [[Located<String>]], key: String, of declaration: ObjectDeclaration, properties: [Property], primaryKey: String?) -> [[String]] {
        let objectName = declaration.name.value
        if declaration.isEmbedded, let first = groups.first?.first {
            log.error(
                "\(key == "unique" ? "unique" : "index")-unsupported", "embedded object '\(objectName)' cannot have '\(key)'", at: first.location,
                hint: "an embedded object is a value of its owner, not a row of its own: remove '\(key)'")
            return []
        }
        var passed: [[String]] = []
        var seen: [[String]: SourceLocation] = [:]
        for group in groups {
            var ok = true
            var listed: Set<String> = []
            for name in group {
                guard listed.insert(name.value).inserted else {
                    log.error(
                        "group-repeats-property", "'\(key)' of object '\(objectName)' lists '\(name.value)' twice in one group", at: name.location, hint: "list each property once")
                    ok = false
                    continue
                }
                guard let property = properties.first(where: { $0.name == name.value }) else {
                    let suggestion = Suggestion.closest(to: name.value, in: properties.map(\.name)).map { "did you mean '\($0)'?" }
                    log.error(
                        "unknown-property", "'\(key)' of object '\(objectName)' names '\(name.value)', which is not one of its properties", at: name.location,
                        hint: suggestion ?? "name properties of '\(objectName)'")
                    ok = false
                    continue
                }
                guard let type = property.storedType else {
                    log.error(
                        "\(key == "unique" ? "unique" : "index")-unsupported",
                        "'\(key)' of object '\(objectName)' names the inverse '\(name.value)', which is computed, not stored",
                        at: name.location, hint: "name stored properties only")
                    ok = false
                    continue
                }
                if let reason = key == "unique" ? cannotBeUnique(type) : Self.cannotBeIndexed(type) {
                    log.error(
                        "\(key == "unique" ? "unique" : "index")-unsupported", "'\(key)' of object '\(objectName)' names '\(name.value)' of type '\(type)': \(reason)",
                        at: name.location,
                        hint: "remove '\(name.value)' from the group")
                    ok = false
                }
            }
            guard ok else { continue }
            let names = group.map(\.value)
            // An index's order is its own; uniqueness is the same in any order.
            let identity = key == "unique" ? names.sorted() : names
            if let first = seen[identity] {
                log.warning(
                    "\(key == "unique" ? "unique" : "index")-redundant", "'\(key)' of object '\(objectName)' lists the group (\(names.joined(separator: ", "))) twice",
                    at: group[0].location, hint: "remove one", notes: [.init("first listed here", at: first)])
                continue
            }
            let uniqueAlone = { (name: String) in name == primaryKey || properties.first { $0.name == name }?.isUnique == true }
            if key == "unique", let alone = group.first(where: { uniqueAlone($0.value) }) {
                log.warning(
                    "unique-redundant",
                    "'unique' of object '\(objectName)' groups '\(alone.value)', which is unique by itself, so the group (\(names.joined(separator: ", "))) adds nothing",
                    at: alone.location, hint: "remove the group: objects that differ in '\(alone.value)' never collide")
                // A group of that one property alone is the same unique index: kept once.
                if names.count == 1 { continue }
            }
            seen[identity] = group[0].location
            passed.append(names)
        }
        return passed
    }

    /// Why a property of `type` cannot be indexed, alone or in a group; nil if it can.
    static func cannotBeIndexed(_ type: PropertyType) -> String? {
        if type.collection != nil { return "collections cannot be indexed" }
        if case .object = type.base { return "links and embedded objects cannot be indexed" }
        if let scalar = type.scalar, [.data, .float, .double, .decimal128].contains(scalar) { return "\(scalar.rawValue) properties cannot be indexed" }
        return nil
    }

    private func checkIndex(_ type: PropertyType, at location: SourceLocation, what: String) {
        if let reason = Self.cannotBeIndexed(type) {
            log.error("index-unsupported", "property \(what) of type '\(type)' cannot be indexed: \(reason)", at: location, hint: "remove 'indexed: true'")
        }
    }
}
