import Foundation

// The mirror's migration engine (internal; not realm-swift API). It models what Realm does
// when a Realm at an old schema version is opened with a configuration whose `schemaVersion`
// is higher, following Realm/RLMMigration.mm and Realm's documented rules: the new objects
// start as the old ones carried over to the new schema, the migration block adjusts them
// through `Migration`, and Realm's checks run on the result. `MigrationTestBench`
// (TestingSupport.swift) drives it.

internal enum MirrorDynamicRole {
    /// A `DynamicObject` outside a migration: any key, any value.
    case free
    /// An object of the old schema (read-only).
    case old
    /// An object of the new schema.
    case new
}

/// An empty collection of old data whose element type cannot be told yet.
internal final class MirrorPendingEmpty {
    let kind: MirrorCollectionKind

    init(_ kind: MirrorCollectionKind) {
        self.kind = kind
    }
}

/// One property of the old schema, as the old objects' values show it.
internal struct MirrorOldProperty {
    var shape: MirrorShape
    var optional: Bool
}

internal enum MirrorCarry {
    case fits(Any?)
    case misfit
}

extension DynamicObject {
    func _mirrorDynamicObjectGet(_ key: String) -> Any? {
        if _mirrorRole != .free, let engine = _mirrorEngine {
            return engine.value(of: self, key)
        }
        return mirrorFlatten(_mirrorValues[key])
    }

    func _mirrorDynamicObjectSet(_ key: String, _ value: Any?) {
        if _mirrorRole != .free, let engine = _mirrorEngine {
            engine.setValue(value, of: self, key)
            return
        }
        _mirrorValues[key] = mirrorFlatten(value) ?? NSNull()
    }
}

internal final class MirrorMigrationEngine {
    let oldObjects: [DynamicObject]
    private(set) var oldTypes: [String: [String: MirrorOldProperty]] = [:]
    let newSchemas: [String: MirrorObjectSchema]
    let newOrder: [String]
    private(set) var newObjects: [String: [DynamicObject]] = [:]
    private var counterpart: [ObjectIdentifier: DynamicObject] = [:]
    private var removedTables: Set<String> = []
    /// What Realm would have thrown, in order; `migrate` throws the first.
    private(set) var errors: [String] = []

    let oldPrimaryKeys: [String: String]

    init(oldObjects: [DynamicObject], schemas: [String: MirrorObjectSchema], order: [String], oldPrimaryKeys: [String: String] = [:]) {
        self.oldObjects = oldObjects
        self.oldPrimaryKeys = oldPrimaryKeys
        newSchemas = schemas
        newOrder = order
        for object in oldObjects {
            object._mirrorEngine = self
            var properties = oldTypes[object._mirrorTypeName, default: [:]]
            for (key, value) in object._mirrorValues {
                let shape = Self.oldShape(of: value)
                var property = properties[key] ?? MirrorOldProperty(shape: .unknown, optional: false)
                if property.shape == .unknown || property.shape == .collection(.list, .unknown)
                    || property.shape == .collection(.set, .unknown) || property.shape == .collection(.map, .unknown)
                {
                    property.shape = shape == .unknown ? property.shape : shape
                }
                property.optional = property.optional || mirrorFlatten(value) == nil
                properties[key] = property
            }
            oldTypes[object._mirrorTypeName] = properties
        }
        // Empty old collections take the element type of the new schema's property of that
        // name (so that `old["tags"] as? List<String>` reads them), else AnyRealmValue.
        for object in oldObjects {
            for (key, value) in object._mirrorValues {
                guard let pending = value as? MirrorPendingEmpty else { continue }
                if case .collection(let kind, let element)? = schemas[object._mirrorTypeName]?.property(named: key)?.shape, kind == pending.kind {
                    object._mirrorValues[key] = mirrorMakeDynamicCollection(kind, element)
                } else {
                    object._mirrorValues[key] = mirrorMakeDynamicCollection(pending.kind, .value(.any, optional: false))
                }
            }
        }
    }

    var oldSchema: Schema {
        Schema(
            _objectSchema: oldTypes.keys.sorted().map { name in
                let properties = oldTypes[name]!
                let key = oldPrimaryKeys[name]
                return ObjectSchema(
                    _className: name, _objectClass: DynamicObject.self, _isEmbedded: false,
                    _properties: properties.keys.sorted().map { property in
                        let old = properties[property]!
                        return Property(name: property, shape: old.optional ? old.shape.optional : old.shape, isIndexed: property == key)
                    },
                    _primaryKey: key.flatMap { properties[$0] == nil ? nil : $0 }
                )
            })
    }

    var newSchema: Schema {
        Schema(_objectSchema: newOrder.compactMap { newSchemas[$0]?.objectSchema })
    }

    private func record(_ message: String) {
        errors.append(message)
    }

    // MARK: Old values

    /// An old value as the old object keeps it: links as `DynamicObject`s, collections as
    /// Realm collections (`[DynamicObject]` → `List<DynamicObject>`, `[Any]` → `List<T>` of the
    /// elements' type, `Set<AnyHashable>` → `MutableSet<T>`, `[String: Any]` → `Map<String, T>`),
    /// nil as NSNull.
    static func oldValue(_ value: Any?) -> Any {
        guard let value = mirrorFlatten(value) else { return NSNull() }
        if value is DynamicObject || value is any _MirrorMutableCollection || mirrorScalarType(of: value) != nil {
            return value
        }
        if let dictionary = value as? [String: Any?] {
            if dictionary.isEmpty { return MirrorPendingEmpty(.map) }
            let keys = dictionary.keys.sorted()
            return inferredCollection(.map, keys.map { dictionary[$0] ?? nil }, keys: keys)
        }
        if let set = value as? Set<AnyHashable> {
            if set.isEmpty { return MirrorPendingEmpty(.set) }
            return inferredCollection(.set, set.map { $0.base }, keys: [])
        }
        if !(value is String), let sequence = value as? any Sequence {
            let elements = mirrorAnyElements(sequence)
            if elements.isEmpty { return MirrorPendingEmpty(.list) }
            return inferredCollection(.list, elements, keys: [])
        }
        if let bridgeable = value as? any _ObjcBridgeable {
            return mirrorFlatten(bridgeable._rlmObjcValue) ?? NSNull()
        }
        return value
    }

    private static func inferredCollection(_ kind: MirrorCollectionKind, _ elements: [Any?], keys: [String]) -> Any {
        let values = elements.map { mirrorFlatten($0).map(oldValue) }
        let present = values.compactMap { $0 }
        let hasNil = present.count < values.count
        let element: MirrorShape
        if !present.isEmpty, present.allSatisfy({ $0 is DynamicObject }) {
            element = .object("", optional: hasNil || kind == .map)
        } else if let first = present.first.flatMap(mirrorScalarType), present.allSatisfy({ mirrorScalarType(of: $0) == first }) {
            element = .value(first, optional: hasNil)
        } else {
            element = .value(.any, optional: false)
        }
        let collection = mirrorMakeDynamicCollection(kind, element)
        let contents: Any = kind == .map ? Dictionary(uniqueKeysWithValues: zip(keys, values.map { $0 ?? NSNull() })) : values.map { $0 ?? NSNull() }
        _ = collection._mirrorAssignContents(from: contents)
        return collection
    }

    /// The type an old value shows.
    static func oldShape(of value: Any) -> MirrorShape {
        guard let value = mirrorFlatten(value) else { return .unknown }
        if let object = value as? DynamicObject {
            return .object(object._mirrorTypeName, optional: false)
        }
        if let pending = value as? MirrorPendingEmpty {
            return .collection(pending.kind, .unknown)
        }
        if let collection = value as? any _MirrorMutableCollection {
            var element = MirrorShape.unknown
            if case .collection(_, let declared) = mirrorShape(of: type(of: collection)) {
                element = declared
            }
            if case .object = element.nonOptional {
                let first = collection._mirrorAnyElements.lazy.compactMap { mirrorFlatten($0) as? DynamicObject }.first
                element = first.map { .object($0._mirrorTypeName, optional: element.isOptional) } ?? .unknown
            }
            return .collection(collection._mirrorKind, element)
        }
        if let type = mirrorScalarType(of: value) {
            return .value(type, optional: false)
        }
        return .unsupported
    }

    // MARK: The automatic rules

    /// The differences between the old and new schemas that need a migration, as Realm
    /// reports them.
    func schemaChanges() -> [String] {
        var changes: [String] = []
        for name in newOrder {
            guard let schema = newSchemas[name], let old = oldTypes[name] else { continue }
            let stored = schema.storedProperties
            for property in stored {
                guard let before = old[property.name] else {
                    changes.append("Property '\(name).\(property.name)' has been added.")
                    continue
                }
                if !property.shape.accepts(before.shape) {
                    changes.append("Property '\(name).\(property.name)' has been changed from '\(before.shape.realmName)' to '\(property.shape.realmName)'.")
                } else if before.optional, !property.shape.isOptional, case .value = property.shape {
                    changes.append("Property '\(name).\(property.name)' has been made required.")
                }
            }
            for key in old.keys.sorted() where schema.property(named: key) == nil {
                changes.append("Property '\(name).\(key)' has been removed.")
            }
        }
        return changes
    }

    /// Makes the new objects: one per old object of a type the new schema has, each property
    /// the old value of that name when it is of the new property's type (links to the new
    /// objects), else the property's value in a fresh instance of the class.
    func buildNewObjects() {
        for old in oldObjects where newSchemas[old._mirrorTypeName] != nil {
            let new = makeNew(old._mirrorTypeName)
            counterpart[ObjectIdentifier(old)] = new
            newObjects[old._mirrorTypeName, default: []].append(new)
        }
        for old in oldObjects {
            guard let new = counterpart[ObjectIdentifier(old)], let schema = newSchemas[old._mirrorTypeName] else { continue }
            let fresh = schema.type.init()
            for property in schema.storedProperties {
                if old._mirrorValues[property.name] != nil, case .fits(let value) = carry(old._mirrorValues[property.name], to: property.shape) {
                    new._mirrorValues[property.name] = value ?? NSNull()
                } else if let zero = zeroValue(property.shape) {
                    // As realm-core adds a column: zero values, not the class's defaults
                    // (realm-swift issue #1793); the migration block must write those itself.
                    new._mirrorValues[property.name] = zero
                } else {
                    new._mirrorValues[property.name] = defaultValue(property, of: fresh)
                }
            }
        }
    }

    private func makeNew(_ typeName: String) -> DynamicObject {
        let object = DynamicObject()
        object._mirrorTypeName = typeName
        object._mirrorRole = .new
        object._mirrorEngine = self
        return object
    }

    /// An old value carried into a new property, if it is of the property's type.
    private func carry(_ value: Any?, to shape: MirrorShape) -> MirrorCarry {
        let value = mirrorFlatten(value)
        switch shape {
        case .value(let type, let optional):
            guard let value else { return optional ? .fits(nil) : .misfit }
            return mirrorScalarType(of: value) == type ? .fits(value) : .misfit
        case .object(let name, let optional):
            guard let value else { return optional ? .fits(nil) : .misfit }
            guard let old = value as? DynamicObject, old._mirrorTypeName == name,
                let new = counterpart[ObjectIdentifier(old)]
            else { return .misfit }
            return .fits(new)
        case .collection(let kind, let element):
            let collection = mirrorMakeDynamicCollection(kind, element)
            if let pending = value as? MirrorPendingEmpty {
                return pending.kind == kind ? .fits(collection) : .misfit
            }
            guard let old = value as? any _MirrorMutableCollection, old._mirrorKind == kind else { return .misfit }
            let contents: Any
            if kind == .map, let map = old as? any _MirrorMapContents {
                var entries: [String: Any] = [:]
                for (key, value) in map._mirrorEntries {
                    guard let key = key as? String, case .fits(let carried) = carry(value, to: element) else { return .misfit }
                    entries[key] = carried ?? NSNull()
                }
                contents = entries
            } else {
                var elements: [Any] = []
                for value in old._mirrorAnyElements {
                    guard case .fits(let carried) = carry(value, to: element) else { return .misfit }
                    elements.append(carried ?? NSNull())
                }
                contents = elements
            }
            return collection._mirrorAssignContents(from: contents) ? .fits(collection) : .misfit
        default:
            return .misfit
        }
    }

    /// The value realm-core gives a single-value property it adds to existing objects (the
    /// column's zero); `nil` for links and collections, which start empty either way.
    private func zeroValue(_ shape: MirrorShape) -> Any? {
        guard case .value(let type, let optional) = shape else { return nil }
        if optional { return NSNull() }
        switch type {
        case .bool: return false
        case .int: return 0
        case .float: return Float(0)
        case .double: return 0.0
        case .string: return ""
        case .data: return Data()
        case .date: return Date(timeIntervalSince1970: 0)
        case .UUID: return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case .objectId: return try? ObjectId(string: "000000000000000000000000")
        case .decimal128: return Decimal128(value: 0)
        default: return nil
        }
    }

    /// A property's value in a fresh instance, as a new object holds it.
    private func defaultValue(_ property: MirrorPropertySchema, of fresh: ObjectBase) -> Any {
        guard let accessor = fresh._mirrorProperty(named: property.name)?.accessor else { return NSNull() }
        return dynamicValue(accessor._mirrorCurrent(fresh), shape: property.shape)
    }

    /// A model's value as the dynamic API holds it: enums by raw value, custom types by
    /// persisted value, objects as new `DynamicObject`s, collections of those.
    private func dynamicValue(_ value: Any, shape: MirrorShape) -> Any {
        switch shape {
        case .collection(let kind, let element):
            let collection = mirrorMakeDynamicCollection(kind, element)
            if let typed = value as? any _MirrorMutableCollection {
                if kind == .map, let map = typed as? any _MirrorMapContents {
                    var entries: [String: Any] = [:]
                    for (key, value) in map._mirrorEntries {
                        if let key = key as? String { entries[key] = dynamicValue(value as Any, shape: element) }
                    }
                    _ = collection._mirrorAssignContents(from: entries)
                } else {
                    _ = collection._mirrorAssignContents(from: typed._mirrorAnyElements.map { dynamicValue($0, shape: element) })
                }
            }
            return collection
        default:
            guard let flat = mirrorFlatten(value) else { return NSNull() }
            if let object = flat as? ObjectBase {
                let copy = makeNew(object._mirrorClassName)
                newObjects[copy._mirrorTypeName, default: []].append(copy)
                if let schema = newSchemas[copy._mirrorTypeName] {
                    for property in schema.storedProperties {
                        if let accessor = object._mirrorProperty(named: property.name)?.accessor {
                            copy._mirrorValues[property.name] = dynamicValue(accessor._mirrorCurrent(object), shape: property.shape)
                        }
                    }
                }
                return copy
            }
            if let bridgeable = flat as? any _ObjcBridgeable {
                return mirrorFlatten(bridgeable._rlmObjcValue) ?? NSNull()
            }
            return flat
        }
    }

    // MARK: The objects' dynamic API

    func value(of object: DynamicObject, _ key: String) -> Any? {
        let typeName = object._mirrorTypeName
        if object._mirrorDeleted {
            record("Object has been deleted or invalidated.")
            return nil
        }
        switch object._mirrorRole {
        case .old:
            guard oldTypes[typeName]?[key] != nil else {
                record("Invalid property name '\(key)' for class '\(typeName)'.")
                return nil
            }
        case .new:
            guard let property = newSchemas[typeName]?.property(named: key) else {
                record("Invalid property name '\(key)' for class '\(typeName)'.")
                return nil
            }
            if case .linkingObjects(let source) = property.shape, let origin = property.originProperty {
                return Results<DynamicObject>(
                    _source: MirrorResultsSource(store: nil) { [weak self, weak object] in
                        guard let self, let object else { return [] }
                        return self.newObjects[source, default: []].filter { self.links($0, origin, to: object) }
                    })
            }
        case .free:
            break
        }
        return mirrorFlatten(object._mirrorValues[key])
    }

    private func links(_ source: DynamicObject, _ property: String, to target: DynamicObject) -> Bool {
        let value = mirrorFlatten(source._mirrorValues[property])
        if let linked = value as? DynamicObject { return linked === target }
        if let collection = value as? any _MirrorMutableCollection { return collection._mirrorContainsObject(target) }
        return false
    }

    func setValue(_ value: Any?, of object: DynamicObject, _ key: String) {
        let typeName = object._mirrorTypeName
        switch object._mirrorRole {
        case .old:
            record("Cannot modify '\(typeName).\(key)' of an old object: the objects of the old schema are read-only in a migration.")
        case .new:
            if object._mirrorDeleted {
                record("Object has been deleted or invalidated.")
                return
            }
            guard let property = newSchemas[typeName]?.property(named: key) else {
                record("Invalid property name '\(key)' for class '\(typeName)'.")
                return
            }
            if property.shape.isLinkingObjects {
                record("Cannot modify read-only property '\(typeName).\(key)'")
                return
            }
            guard case .fits(let checked) = validated(value, for: property.shape, at: "\(typeName).\(key)") else { return }
            if let collection = object._mirrorValues[key] as? any _MirrorMutableCollection, let checked {
                if (checked as AnyObject) !== collection {
                    _ = collection._mirrorAssignContents(from: checked)
                }
            } else {
                object._mirrorValues[key] = checked ?? NSNull()
            }
        case .free:
            object._mirrorValues[key] = mirrorFlatten(value) ?? NSNull()
        }
    }

    /// A value written to a new object's property, checked as Realm's dynamic API checks it
    /// (`RLMValidateValue`); a mismatch is recorded.
    private func validated(_ value: Any?, for shape: MirrorShape, at path: String) -> MirrorCarry {
        let flat = mirrorFlatten(value)
        let invalid = {
            let shown = flat.map { "'\($0)' of type '\(type(of: $0))'" } ?? "'nil'"
            self.record("Invalid value \(shown) for '\(shape.realmName)\(shape.isOptional ? "?" : "")' property '\(path)'.")
            return MirrorCarry.misfit
        }
        switch shape {
        case .value(let type, let optional):
            guard let flat else { return optional ? .fits(nil) : invalid() }
            switch type {
            case .int: return flat is any BinaryInteger ? .fits(flat) : invalid()
            case .bool: return flat is Bool ? .fits(flat) : invalid()
            case .float: return mirrorReal(flat).map { .fits(Float($0)) } ?? invalid()
            case .double: return mirrorReal(flat).map { .fits($0) } ?? invalid()
            case .string: return flat is String ? .fits(flat) : invalid()
            case .data: return flat is Data ? .fits(flat) : invalid()
            case .date: return flat is Date ? .fits(flat) : invalid()
            case .UUID: return flat is UUID ? .fits(flat) : invalid()
            case .objectId: return flat is ObjectId ? .fits(flat) : invalid()
            case .decimal128:
                if flat is Decimal128 { return .fits(flat) }
                return mirrorReal(flat) != nil ? .fits(Decimal128(value: flat)) : invalid()
            case .any: return AnyRealmValue._rlmFromObjc(flat).map { .fits($0) } ?? invalid()
            case .object, .linkingObjects: return invalid()
            }
        case .object(let name, let optional):
            guard let flat else { return optional ? .fits(nil) : invalid() }
            if let object = flat as? DynamicObject {
                if object._mirrorRole == .old {
                    record("Object is already managed by another Realm. Use create instead to copy it into this Realm.")
                    return .misfit
                }
                if object._mirrorDeleted {
                    record("Object has been deleted or invalidated.")
                    return .misfit
                }
                return object._mirrorRole == .new && object._mirrorEngine === self && object._mirrorTypeName == name ? .fits(object) : invalid()
            }
            if let dictionary = flat as? [String: Any?] {
                return .fits(create(name, value: dictionary))
            }
            return invalid()
        case .collection(let kind, let element):
            let collection = mirrorMakeDynamicCollection(kind, element)
            guard let flat else { return .fits(collection) }
            let contents: Any
            if kind == .map {
                let entries: [(Any, Any?)]
                if let map = flat as? any _MirrorMapContents {
                    entries = map._mirrorEntries
                } else if let dictionary = flat as? [String: Any?] {
                    entries = dictionary.keys.sorted().map { ($0, dictionary[$0] ?? nil) }
                } else {
                    return invalid()
                }
                var checked: [String: Any] = [:]
                for (key, value) in entries {
                    guard let key = key as? String, case .fits(let value) = validated(value, for: element, at: path) else { return .misfit }
                    checked[key] = value ?? NSNull()
                }
                contents = checked
            } else {
                guard !(flat is String), !(flat is [String: Any?]), let sequence = flat as? any Sequence else { return invalid() }
                var checked: [Any] = []
                for value in mirrorAnyElements(sequence) {
                    guard case .fits(let value) = validated(value, for: element, at: path) else { return .misfit }
                    checked.append(value ?? NSNull())
                }
                contents = checked
            }
            return collection._mirrorAssignContents(from: contents) ? .fits(collection) : invalid()
        case .linkingObjects, .unknown, .unsupported:
            return invalid()
        }
    }

    // MARK: Migration's methods

    func enumerateObjects(ofType typeName: String, _ block: MigrationObjectEnumerateBlock) {
        let inNew = newSchemas[typeName] != nil
        let inOld = oldTypes[typeName] != nil
        let olds = oldObjects.filter { $0._mirrorTypeName == typeName }
        if inNew && !inOld {
            for object in newObjects[typeName, default: []] {
                block(nil, object)
            }
            return
        }
        if !inNew && inOld {
            for old in olds {
                block(old, nil)
            }
            return
        }
        if olds.isEmpty || newObjects[typeName, default: []].isEmpty {
            return
        }
        for old in olds {
            guard let new = counterpart[ObjectIdentifier(old)], !new._mirrorDeleted else { continue }
            block(old, new)
        }
    }

    func create(_ typeName: String, value: Any) -> DynamicObject {
        guard let schema = newSchemas[typeName] else {
            record(
                "Object type '\(typeName)' is not managed by the Realm. If using a custom `objectClasses` / `objectTypes` array in your configuration, add `\(typeName)` to the list of `objectClasses` / `objectTypes`."
            )
            let detached = DynamicObject()
            detached._mirrorTypeName = typeName
            return detached
        }
        let object = makeNew(typeName)
        newObjects[typeName, default: []].append(object)
        let fresh = schema.type.init()
        let stored = schema.storedProperties
        for property in stored {
            object._mirrorValues[property.name] = defaultValue(property, of: fresh)
        }
        if let dictionary = value as? [String: Any?] {
            for property in stored {
                if let entry = dictionary[property.name] {
                    setValue(entry, of: object, property.name)
                }
            }
        } else if let source = value as? DynamicObject {
            for property in stored {
                if let entry = source._mirrorValues[property.name] {
                    setValue(entry, of: object, property.name)
                }
            }
        } else if let array = value as? [Any?] {
            if array.count > stored.count {
                record("Invalid array input: more values (\(array.count)) than properties (\(stored.count)).")
            }
            for (property, entry) in zip(stored, array) {
                setValue(entry, of: object, property.name)
            }
        } else {
            record("Invalid value '\(value)' to initialize object of type '\(typeName)': must be a dictionary, an array or an object.")
        }
        return object
    }

    func delete(_ object: MigrationObject) {
        guard object._mirrorRole == .new, object._mirrorEngine === self, !object._mirrorDeleted else {
            record(object._mirrorDeleted ? "Object has been deleted or invalidated." : "Can only delete an object from the Realm it belongs to.")
            return
        }
        var doomed: [DynamicObject] = []
        collect(object, into: &doomed)
        let rows = Set(doomed.map(ObjectIdentifier.init))
        for object in doomed {
            object._mirrorDeleted = true
        }
        for name in newObjects.keys {
            newObjects[name]!.removeAll { rows.contains(ObjectIdentifier($0)) }
        }
        for object in newObjects.values.flatMap({ $0 }) {
            for (key, value) in object._mirrorValues {
                if let linked = value as? DynamicObject, rows.contains(ObjectIdentifier(linked)) {
                    object._mirrorValues[key] = NSNull()
                } else if let collection = value as? any _MirrorMutableCollection {
                    collection._mirrorRemoveObjects(rows)
                }
            }
        }
    }

    /// An object and the embedded objects it owns.
    private func collect(_ object: DynamicObject, into doomed: inout [DynamicObject]) {
        guard !doomed.contains(where: { $0 === object }) else { return }
        doomed.append(object)
        for value in object._mirrorValues.values {
            let linked: [Any] = (value as? any _MirrorMutableCollection)?._mirrorAnyElements ?? [value]
            for case let child as DynamicObject in linked.compactMap(mirrorFlatten) where newSchemas[child._mirrorTypeName]?.isEmbedded == true {
                collect(child, into: &doomed)
            }
        }
    }

    func deleteData(forType typeName: String) -> Bool {
        guard oldTypes[typeName] != nil || newSchemas[typeName] != nil, !removedTables.contains(typeName) else { return false }
        if newSchemas[typeName] != nil {
            for object in newObjects[typeName, default: []] where !object._mirrorDeleted {
                delete(object)
            }
        } else {
            removedTables.insert(typeName)
        }
        return true
    }

    func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        guard let schema = newSchemas[typeName] else {
            if oldTypes[typeName] != nil {
                record("Cannot rename properties for type '\(typeName)' because it has been removed from the Realm.")
            } else {
                record("Cannot rename properties for type '\(typeName)' because it does not exist.")
            }
            return
        }
        guard let before = oldTypes[typeName]?[oldName] else {
            record("Cannot rename property '\(typeName).\(oldName)' because it does not exist.")
            return
        }
        guard let after = schema.property(named: newName), !after.shape.isLinkingObjects else {
            record("Renamed property '\(typeName).\(newName)' does not exist.")
            return
        }
        if schema.property(named: oldName) != nil {
            record("Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because the source property still exists.")
            return
        }
        if !after.shape.accepts(before.shape) {
            record("Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because it would change from type '\(before.shape.realmName)' to '\(after.shape.realmName)'.")
            return
        }
        if before.optional, !after.shape.isOptional, case .value = after.shape {
            record("Cannot rename property '\(typeName).\(oldName)' to '\(newName)' because it would change from optional to required.")
            return
        }
        for old in oldObjects where old._mirrorTypeName == typeName {
            guard let new = counterpart[ObjectIdentifier(old)], !new._mirrorDeleted,
                case .fits(let value) = carry(old._mirrorValues[oldName], to: after.shape)
            else { continue }
            new._mirrorValues[newName] = value ?? NSNull()
        }
    }

    // MARK: After the block

    /// Realm's check of the new objects' primary keys.
    func checkPrimaryKeys() throws {
        for name in newOrder {
            guard let key = newSchemas[name]?.primaryKey else { continue }
            var seen = Set<AnyHashable?>()
            for object in newObjects[name, default: []] where !seen.insert(mirrorKey(object._mirrorValues[key.name])).inserted {
                throw RealmMirrorError("Primary key property '\(name).\(key.name)' has duplicate values after migration.")
            }
        }
    }

    /// The new objects as instances of the configuration's classes (top-level ones, in the
    /// order of `objectTypes`; embedded ones are reached through their parents).
    func materialise() throws -> [ObjectBase] {
        var typed: [ObjectIdentifier: ObjectBase] = [:]
        var result: [ObjectBase] = []
        for name in newOrder {
            guard let schema = newSchemas[name], !schema.isEmbedded else { continue }
            for object in newObjects[name, default: []] {
                result.append(try materialise(object, typed: &typed))
            }
        }
        return result
    }

    private func materialise(_ object: DynamicObject, typed: inout [ObjectIdentifier: ObjectBase]) throws -> ObjectBase {
        if let done = typed[ObjectIdentifier(object)] {
            return done
        }
        let name = object._mirrorTypeName
        guard let schema = newSchemas[name] else {
            throw RealmMirrorError("Object type '\(name)' is not managed by the Realm.")
        }
        let instance = schema.type.init()
        typed[ObjectIdentifier(object)] = instance
        for property in schema.storedProperties {
            let path = "\(name).\(property.name)"
            let value = try materialValue(object._mirrorValues[property.name], at: path, typed: &typed)
            guard let accessor = instance._mirrorProperty(named: property.name)?.accessor else { continue }
            if !accessor._mirrorSet(value, instance) {
                // Realm keeps the stored value; an optional enum or failable custom type then
                // reads as nil, a non-optional one aborts the process when read.
                guard property.shape.isOptional, accessor._mirrorSet(nil, instance) else {
                    throw RealmMirrorError(
                        "The value \(mirrorFlatten(value).map { "'\($0)'" } ?? "nil") of '\(path)' after the migration does not convert to the property's type (\(accessor._mirrorValueType)); Realm would abort reading it."
                    )
                }
            }
        }
        return instance
    }

    private func materialValue(_ value: Any?, at path: String, typed: inout [ObjectIdentifier: ObjectBase]) throws -> Any? {
        guard let flat = mirrorFlatten(value) else { return nil }
        if let object = flat as? DynamicObject {
            if object._mirrorRole == .old {
                throw RealmMirrorError("'\(path)' holds an object of the old schema: Object is already managed by another Realm. Use create instead to copy it into this Realm.")
            }
            if object._mirrorDeleted {
                throw RealmMirrorError("'\(path)' holds a deleted object: Object has been deleted or invalidated.")
            }
            return try materialise(object, typed: &typed)
        }
        if let map = flat as? any _MirrorMapContents {
            var entries: [String: Any] = [:]
            for (key, value) in map._mirrorEntries {
                if let key = key as? String {
                    entries[key] = try materialValue(value, at: path, typed: &typed) ?? NSNull()
                }
            }
            return entries
        }
        if let collection = flat as? any _MirrorMutableCollection {
            return try collection._mirrorAnyElements.map { try materialValue($0, at: path, typed: &typed) ?? NSNull() }
        }
        return flat
    }
}

/// An empty collection for the dynamic API of a migration: `List<DynamicObject>` for links,
/// `List<String>`, `List<Int?>`… for values (`MutableSet` and `Map<String, …>` alike), as
/// realm-swift's `DynamicObject` gives them.
internal func mirrorMakeDynamicCollection(_ kind: MirrorCollectionKind, _ element: MirrorShape) -> any _MirrorMutableCollection {
    func make<T: RealmCollectionValue>(_ type: T.Type) -> any _MirrorMutableCollection {
        switch kind {
        case .list: return List<T>()
        case .set: return MutableSet<T>()
        case .map: return Map<String, T>()
        }
    }
    switch element {
    case .object:
        return kind == .map ? make(DynamicObject?.self) : make(DynamicObject.self)
    case .value(let type, let optional):
        switch (type, optional) {
        case (.int, false): return make(Int.self)
        case (.int, true): return make(Int?.self)
        case (.bool, false): return make(Bool.self)
        case (.bool, true): return make(Bool?.self)
        case (.float, false): return make(Float.self)
        case (.float, true): return make(Float?.self)
        case (.double, false): return make(Double.self)
        case (.double, true): return make(Double?.self)
        case (.string, false): return make(String.self)
        case (.string, true): return make(String?.self)
        case (.data, false): return make(Data.self)
        case (.data, true): return make(Data?.self)
        case (.date, false): return make(Date.self)
        case (.date, true): return make(Date?.self)
        case (.objectId, false): return make(ObjectId.self)
        case (.objectId, true): return make(ObjectId?.self)
        case (.decimal128, false): return make(Decimal128.self)
        case (.decimal128, true): return make(Decimal128?.self)
        case (.UUID, false): return make(UUID.self)
        case (.UUID, true): return make(UUID?.self)
        default: return make(AnyRealmValue.self)
        }
    default:
        return make(AnyRealmValue.self)
    }
}
