import Foundation

// The mirror's in-memory runtime. None of this is realm-swift API (everything here is
// internal): it is what stands in for Realm's storage engine so that tests can run code
// written against the mirrored API.
//
// How values live: every `@Persisted` property keeps its value in a reference-typed
// `PersistedStorage` (PersistedProperty.swift). The runtime finds an object's properties by
// reflection, as realm-swift discovers its schema: `Mirror(reflecting: object)` gives
// children labelled `_name` whose values are `Persisted<…>`. A managed object is the row
// itself: `realm.add(obj)` keeps the instance and records it in the Realm's `MirrorStore`;
// Realms opened with the same `inMemoryIdentifier` or `fileURL` share one store (a
// process-wide registry behind a lock).

// MARK: - Locking

/// A value behind a lock, for the process-wide state (the registry of Realms, the default
/// configuration, the schema cache).
internal final class MirrorLocked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

// MARK: - Values

internal protocol _MirrorOptional {
    var _mirrorWrapped: Any? { get }
    static var _mirrorWrappedType: Any.Type { get }
}

extension Optional: _MirrorOptional {
    var _mirrorWrapped: Any? { self.map { $0 as Any } }
    static var _mirrorWrappedType: Any.Type { Wrapped.self }
}

/// `value` without any level of Optional; nil for nil and NSNull; an NSNumber (as
/// JSONSerialization gives) as the Swift Bool, Int, Float or Double it holds.
internal func mirrorFlatten(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if value is NSNull { return nil }
    if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
        return mirrorSwiftNumber(number)
    }
    if let optional = value as? any _MirrorOptional {
        return mirrorFlatten(optional._mirrorWrapped)
    }
    return value
}

private func mirrorSwiftNumber(_ number: NSNumber) -> Any {
    if String(describing: type(of: number)).contains("Boolean") {
        return number.boolValue
    }
    switch String(cString: number.objCType) {
    case "f": return number.floatValue
    case "d": return number.doubleValue
    case "Q" where number.uint64Value > UInt64(Int.max): return number.uint64Value
    default: return number.intValue
    }
}

/// A primary key value to compare: enums by raw value, integers of any width alike.
internal func mirrorKey(_ value: Any?) -> AnyHashable? {
    guard var value = mirrorFlatten(value) else { return nil }
    if !(value is ObjectBase), let bridgeable = value as? any _ObjcBridgeable, let bridged = mirrorFlatten(bridgeable._rlmObjcValue) {
        value = bridged
    }
    if let integer = value as? any BinaryInteger, let wide = Int64(exactly: integer) {
        return AnyHashable(wide)
    }
    return value as? AnyHashable
}

/// The Realm property type of a plain value (nil for objects and collections).
internal func mirrorScalarType(of value: Any) -> PropertyType? {
    switch value {
    case is Bool: return .bool
    case is any BinaryInteger: return .int
    case is Float: return .float
    case is Double: return .double
    case is String: return .string
    case is Data: return .data
    case is Date: return .date
    case is UUID: return .UUID
    case is ObjectId: return .objectId
    case is Decimal128: return .decimal128
    case is AnyRealmValue: return .any
    default: return nil
    }
}

// MARK: - Shapes: what a property holds

internal enum MirrorCollectionKind: Sendable {
    case list, set, map
}

/// The Realm type of a property: a value, a link, a collection of either, linking objects.
internal indirect enum MirrorShape: Equatable, Sendable {
    case value(PropertyType, optional: Bool)
    case object(String, optional: Bool)
    case collection(MirrorCollectionKind, MirrorShape)
    case linkingObjects(String)
    /// Old data whose type cannot be told (nil values, empty collections).
    case unknown
    case unsupported

    var isOptional: Bool {
        switch self {
        case .value(_, let optional), .object(_, let optional): return optional
        case .unknown: return true
        default: return false
        }
    }

    var optional: MirrorShape {
        switch self {
        case .value(let type, _): return .value(type, optional: true)
        case .object(let name, _): return .object(name, optional: true)
        default: return self
        }
    }

    var nonOptional: MirrorShape {
        switch self {
        case .value(let type, _): return .value(type, optional: false)
        case .object(let name, _): return .object(name, optional: false)
        default: return self
        }
    }

    var isLinkingObjects: Bool {
        if case .linkingObjects = self { return true }
        return false
    }

    /// The classes this shape links to.
    var linkedClassNames: [String] {
        switch self {
        case .object(let name, _): return [name]
        case .collection(_, let element): return element.linkedClassNames
        default: return []
        }
    }

    /// The type's name as Realm's messages write it: `int`, `<Dog>`, `array<Dog>`, `set<string>`,
    /// `dictionary<string, int>`.
    var realmName: String {
        switch self {
        case .value(let type, _): return mirrorTypeName(type)
        case .object(let name, _): return "<\(name)>"
        case .collection(let kind, let element):
            let elementName: String
            switch element {
            case .object(let name, _): elementName = name
            default: elementName = element.realmName
            }
            switch kind {
            case .list: return "array<\(elementName)>"
            case .set: return "set<\(elementName)>"
            case .map: return "dictionary<string, \(elementName)>"
            }
        case .linkingObjects(let name): return "linking objects<\(name)>"
        case .unknown: return "unknown"
        case .unsupported: return "unsupported"
        }
    }

    /// Whether values of `old` (old data) fit this shape without a change of type; the
    /// optionality of the outermost level is not compared.
    func accepts(_ old: MirrorShape) -> Bool {
        switch (nonOptional, old.nonOptional) {
        case (_, .unknown): return true
        case (.value(let a, _), .value(let b, _)): return a == b
        case (.object(let a, _), .object(let b, _)): return a == b
        case (.collection(let a, let elementA), .collection(let b, let elementB)):
            return a == b && elementA.accepts(elementB) && (elementA.isOptional || !elementB.isOptional || elementB == .unknown)
        default: return false
        }
    }
}

internal func mirrorTypeName(_ type: PropertyType) -> String {
    switch type {
    case .int: return "int"
    case .bool: return "bool"
    case .float: return "float"
    case .double: return "double"
    case .UUID: return "uuid"
    case .string: return "string"
    case .data: return "data"
    case .any: return "mixed"
    case .date: return "date"
    case .objectId: return "object id"
    case .decimal128: return "decimal128"
    case .object: return "object"
    case .linkingObjects: return "linking objects"
    }
}

internal protocol _MirrorCollectionShape {
    static var _mirrorShape: MirrorShape { get }
}

extension List: _MirrorCollectionShape {
    static var _mirrorShape: MirrorShape { .collection(.list, mirrorShape(of: Element.self)) }
}

extension MutableSet: _MirrorCollectionShape {
    static var _mirrorShape: MirrorShape { .collection(.set, mirrorShape(of: Element.self)) }
}

extension Map: _MirrorCollectionShape {
    static var _mirrorShape: MirrorShape { .collection(.map, mirrorShape(of: Value.self)) }
}

extension LinkingObjects: _MirrorCollectionShape {
    static var _mirrorShape: MirrorShape { .linkingObjects(Element.className()) }
}

/// The shape of a property of Swift type `type`: enums and custom-persisted types by their
/// persisted type.
internal func mirrorShape(of type: Any.Type) -> MirrorShape {
    if let collection = type as? any _MirrorCollectionShape.Type {
        return collection._mirrorShape
    }
    if let optional = type as? any _MirrorOptional.Type {
        return mirrorShape(of: optional._mirrorWrappedType).optional
    }
    if let objectType = type as? ObjectBase.Type {
        return .object(objectType.className(), optional: false)
    }
    if let persistable = type as? any _HasPersistedType.Type {
        let persisted = mirrorPersistedType(of: persistable)
        if ObjectIdentifier(persisted) != ObjectIdentifier(type) {
            return mirrorShape(of: persisted)
        }
    }
    if let discoverable = type as? any _RealmSchemaDiscoverable.Type {
        return .value(discoverable._rlmType, optional: false)
    }
    return .unsupported
}

private func mirrorPersistedType<T: _HasPersistedType>(of type: T.Type) -> Any.Type {
    T.PersistedType.self
}

// MARK: - Properties found by reflection

/// What the runtime needs of a `Persisted` (PersistedProperty.swift).
internal protocol MirrorPersistedProperty {
    var _mirrorValueType: Any.Type { get }
    var _mirrorIsPrimaryKey: Bool { get }
    var _mirrorIsIndexed: Bool { get }
    var _mirrorOriginProperty: String? { get }
    /// The typed value, without the checks of a read through the model.
    func _mirrorCurrent(_ owner: ObjectBase) -> Any
    /// The value as the dynamic API gives it (`object["name"]`).
    func _mirrorDynamicValue(_ owner: ObjectBase) -> Any?
    /// A write through the dynamic API: `false` when the value does not convert.
    func _mirrorSet(_ value: Any?, _ owner: ObjectBase) -> Bool
    /// A write of the runtime's own (no checks, no adoption).
    func _mirrorAssignRaw(_ value: Any?)
    func _mirrorSnapshot() -> () -> Void
    func _mirrorShare(with other: any MirrorPersistedProperty)
}

internal struct MirrorProperty {
    let name: String
    let accessor: any MirrorPersistedProperty
}

/// The `@Persisted` properties of an object, superclass properties first.
internal func mirrorProperties(of object: ObjectBase) -> [MirrorProperty] {
    var mirrors: [Mirror] = []
    var next: Mirror? = Mirror(reflecting: object)
    while let mirror = next {
        mirrors.append(mirror)
        next = mirror.superclassMirror
    }
    var properties: [MirrorProperty] = []
    for mirror in mirrors.reversed() {
        for child in mirror.children {
            guard let label = child.label, label.hasPrefix("_"), let accessor = child.value as? any MirrorPersistedProperty else { continue }
            properties.append(MirrorProperty(name: String(label.dropFirst()), accessor: accessor))
        }
    }
    return properties
}

/// Gives a collection the object it belongs to, and linking objects their owner.
internal func mirrorBind<Value>(_ value: Value, to owner: ObjectBase) -> Value {
    if let collection = value as? any _MirrorMutableCollection {
        collection._mirrorOwner = owner._mirrorRow
        return value
    }
    if let linkingObjects = value as? any _MirrorLinkingObjects {
        return linkingObjects._mirrorBound(to: owner._mirrorRow) as! Value
    }
    return value
}

internal protocol _MirrorLinkingObjects {
    var _mirrorPropertyName: String { get }
    static var _mirrorElementClassName: String { get }
    func _mirrorBound(to owner: ObjectBase) -> Any
}

internal protocol _MirrorProjectionType {
    static func _mirrorMake(_ root: ObjectBase) -> Any?
}

// MARK: - Collections

internal protocol _MirrorMapContents {
    var _mirrorEntries: [(Any, Any?)] { get }
}

internal protocol _MirrorMutableCollection: AnyObject {
    var _mirrorOwner: ObjectBase? { get set }
    var _mirrorKind: MirrorCollectionKind { get }
    /// The elements (the values, for a map).
    var _mirrorAnyElements: [Any] { get }
    /// Replaces the contents with another collection's or a Swift collection's, converted;
    /// `false` when they do not convert.
    func _mirrorAssignContents(from value: Any?) -> Bool
    func _mirrorReplaceObjects(_ transform: (ObjectBase) -> ObjectBase)
    func _mirrorRemoveObjects(_ rows: Set<ObjectIdentifier>)
    func _mirrorContainsObject(_ row: ObjectBase) -> Bool
    func _mirrorSnapshotContents() -> () -> Void
}

private func mirrorRowID(_ element: Any) -> ObjectIdentifier? {
    (mirrorFlatten(element) as? ObjectBase).map { ObjectIdentifier($0._mirrorRow) }
}

extension List: _MirrorMutableCollection {
    var _mirrorKind: MirrorCollectionKind { .list }
    var _mirrorAnyElements: [Any] { _elements.map { $0 as Any } }

    func _mirrorAssignContents(from value: Any?) -> Bool {
        guard let value = mirrorFlatten(value) else {
            _elements.removeAll()
            return true
        }
        if let other = value as? List<Element> {
            if other !== self { _elements = other._elements }
            return true
        }
        guard let elements = mirrorConvertElements(value, to: Element.self) else { return false }
        _elements = elements
        return true
    }

    func _mirrorReplaceObjects(_ transform: (ObjectBase) -> ObjectBase) {
        for index in _elements.indices {
            if let object = mirrorFlatten(_elements[index]) as? ObjectBase {
                let replacement = transform(object)
                if replacement !== object, let element = replacement as? Element {
                    _elements[index] = element
                }
            }
        }
    }

    func _mirrorRemoveObjects(_ rows: Set<ObjectIdentifier>) {
        _elements.removeAll { mirrorRowID($0).map(rows.contains) ?? false }
    }

    func _mirrorContainsObject(_ row: ObjectBase) -> Bool {
        _elements.contains { mirrorRowID($0) == ObjectIdentifier(row) }
    }

    func _mirrorSnapshotContents() -> () -> Void {
        let elements = _elements
        return { self._elements = elements }
    }
}

extension MutableSet: _MirrorMutableCollection {
    var _mirrorKind: MirrorCollectionKind { .set }
    var _mirrorAnyElements: [Any] { _elements.map { $0 as Any } }

    func _mirrorAssignContents(from value: Any?) -> Bool {
        guard let value = mirrorFlatten(value) else {
            _elements.removeAll()
            return true
        }
        if let other = value as? MutableSet<Element> {
            if other !== self { _elements = other._elements }
            return true
        }
        guard let elements = mirrorConvertElements(value, to: Element.self) else { return false }
        _elements.removeAll()
        for element in elements where !_elements.contains(element) {
            _elements.append(element)
        }
        return true
    }

    func _mirrorReplaceObjects(_ transform: (ObjectBase) -> ObjectBase) {
        var replaced: [Element] = []
        for element in _elements {
            var element = element
            if let object = mirrorFlatten(element) as? ObjectBase, let replacement = transform(object) as? Element {
                element = replacement
            }
            if !replaced.contains(element) { replaced.append(element) }
        }
        _elements = replaced
    }

    func _mirrorRemoveObjects(_ rows: Set<ObjectIdentifier>) {
        _elements.removeAll { mirrorRowID($0).map(rows.contains) ?? false }
    }

    func _mirrorContainsObject(_ row: ObjectBase) -> Bool {
        _elements.contains { mirrorRowID($0) == ObjectIdentifier(row) }
    }

    func _mirrorSnapshotContents() -> () -> Void {
        let elements = _elements
        return { self._elements = elements }
    }
}

extension Map: _MirrorMutableCollection, _MirrorMapContents {
    var _mirrorKind: MirrorCollectionKind { .map }
    var _mirrorAnyElements: [Any] { values.map { $0 as Any } }
    var _mirrorEntries: [(Any, Any?)] { _keys.map { ($0 as Any, _values[$0].map { $0 as Any }) } }

    func _mirrorAssignContents(from value: Any?) -> Bool {
        guard let value = mirrorFlatten(value) else {
            _keys.removeAll()
            _values.removeAll()
            return true
        }
        if let other = value as? Map<Key, Value> {
            if other !== self {
                _keys = other._keys
                _values = other._values
            }
            return true
        }
        guard let entries = mirrorConvertEntries(value, keys: Key.self, values: Value.self) else { return false }
        _keys.removeAll()
        _values.removeAll()
        for (key, value) in entries {
            _store(value, forKey: key)
        }
        return true
    }

    func _mirrorReplaceObjects(_ transform: (ObjectBase) -> ObjectBase) {
        for key in _keys {
            if let object = mirrorFlatten(_values[key]) as? ObjectBase {
                let replacement = transform(object)
                if replacement !== object, let value = replacement as? Value {
                    _values[key] = value
                }
            }
        }
    }

    func _mirrorRemoveObjects(_ rows: Set<ObjectIdentifier>) {
        for key in _keys where _values[key].flatMap({ mirrorRowID($0) }).map(rows.contains) ?? false {
            if let null = Value._rlmFromObjc(NSNull(), insideOptional: false) {
                _values[key] = null
            } else {
                _remove(key)
            }
        }
    }

    func _mirrorContainsObject(_ row: ObjectBase) -> Bool {
        _values.values.contains { mirrorRowID($0) == ObjectIdentifier(row) }
    }

    func _mirrorSnapshotContents() -> () -> Void {
        let keys = _keys
        let values = _values
        return {
            self._keys = keys
            self._values = values
        }
    }
}

// MARK: - Objects

extension ObjectBase {
    /// The object whose values this one reads and writes (itself, unless an upsert merged it
    /// into an existing object).
    internal var _mirrorRow: ObjectBase {
        var object = self
        while let canonical = object._mirrorCanonical {
            object = canonical
        }
        return object
    }

    /// The Realm managing this object.
    internal var _mirrorRealm: Realm? {
        _mirrorRow._mirrorStore.map { Realm(store: $0) }
    }

    /// The class name Realm knows this object by.
    internal var _mirrorClassName: String {
        (self as? DynamicObject)?._mirrorTypeName ?? type(of: self).className()
    }

    internal func _mirrorCheckValid() {
        if _mirrorRow._mirrorDeleted {
            preconditionFailure("Object has been deleted or invalidated.")
        }
    }

    internal func _mirrorCheckCollectionWrite() {
        _mirrorCheckValid()
        _mirrorRow._mirrorStore?.checkWrite("Cannot modify managed objects outside of a write transaction.")
    }

    internal func _mirrorProperty(named name: String) -> MirrorProperty? {
        mirrorProperties(of: self).first { $0.name == name }
    }

    /// Sets the properties from a dictionary (the keys it has), an array (in order) or another
    /// object (the properties it has), as realm-swift's `init(value:)` does.
    internal func _mirrorSetValues(from value: Any) {
        let properties = mirrorProperties(of: self).filter { !mirrorShape(of: $0.accessor._mirrorValueType).isLinkingObjects }
        if let object = value as? ObjectBase {
            for property in properties {
                if let dynamic = object as? DynamicObject {
                    if let value = dynamic._mirrorValues[property.name] {
                        _mirrorSet(property, value)
                    }
                } else if let source = object._mirrorProperty(named: property.name) {
                    _mirrorSet(property, source.accessor._mirrorCurrent(object))
                }
            }
        } else if let dictionary = value as? [String: Any?] {
            for property in properties {
                if let entry = dictionary[property.name] {
                    _mirrorSet(property, entry)
                }
            }
        } else if let array = value as? [Any?] {
            precondition(array.count <= properties.count, "Invalid array input: more values (\(array.count)) than properties (\(properties.count)).")
            for (property, entry) in zip(properties, array) {
                _mirrorSet(property, entry)
            }
        } else {
            preconditionFailure("Invalid value '\(value)' to initialize object of type '\(_mirrorClassName)': must be a dictionary, an array or an object.")
        }
    }

    private func _mirrorSet(_ property: MirrorProperty, _ value: Any?) {
        if !property.accessor._mirrorSet(value, self) {
            let shape = mirrorShape(of: property.accessor._mirrorValueType)
            let shown = mirrorFlatten(value).map { "'\($0)' of type '\(type(of: $0))'" } ?? "'nil'"
            preconditionFailure("Invalid value \(shown) for '\(shape.realmName)\(shape.isOptional ? "?" : "")' property '\(_mirrorClassName).\(property.name)'.")
        }
    }

    /// `object[key]` on a model object.
    internal func _mirrorDynamicGet(_ key: String) -> Any? {
        guard let property = _mirrorProperty(named: key) else {
            preconditionFailure("Invalid property name '\(key)' for class '\(_mirrorClassName)'.")
        }
        return property.accessor._mirrorDynamicValue(self)
    }

    /// `object[key] = value` on a model object.
    internal func _mirrorDynamicSet(_ key: String, _ value: Any?) {
        guard let property = _mirrorProperty(named: key) else {
            preconditionFailure("Invalid property name '\(key)' for class '\(_mirrorClassName)'.")
        }
        if mirrorShape(of: property.accessor._mirrorValueType).isLinkingObjects {
            preconditionFailure("Cannot modify read-only property '\(_mirrorClassName).\(key)'")
        }
        _mirrorSet(property, value)
    }
}

/// `Dog { name = Rex; }`, as Realm describes objects.
internal func mirrorDescription(of object: ObjectBase) -> String {
    if object._mirrorRow._mirrorDeleted {
        return "[invalid object]"
    }
    let lines = mirrorProperties(of: object).map { property -> String in
        let value = property.accessor._mirrorCurrent(object)
        let shown: String
        if let linked = mirrorFlatten(value) as? ObjectBase {
            shown = "\(linked._mirrorClassName) <\(ObjectIdentifier(linked._mirrorRow))>"
        } else if let collection = value as? any _MirrorMutableCollection {
            shown = "\(type(of: collection)) (\(collection._mirrorAnyElements.count) elements)"
        } else if value is any _MirrorLinkingObjects {
            shown = "LinkingObjects"
        } else {
            shown = mirrorFlatten(value).map { String(describing: $0) } ?? "nil"
        }
        return "\t\(property.name) = \(shown);"
    }
    return "\(object._mirrorClassName) {\n\(lines.joined(separator: "\n"))\n}"
}

// MARK: - Schemas

internal struct MirrorPropertySchema: Sendable {
    let name: String
    let shape: MirrorShape
    let isPrimaryKey: Bool
    let isIndexed: Bool
    let originProperty: String?
    /// The property holds an `Object`/`EmbeddedObject` subclass itself (not a type mapped to
    /// an embedded object by `CustomPersistable`, which Realm always makes optional).
    let holdsObjectType: Bool
}

/// The schema of one model class, read from a fresh instance as realm-swift does.
internal struct MirrorObjectSchema: Sendable {
    let className: String
    let type: ObjectBase.Type
    let isEmbedded: Bool
    let properties: [MirrorPropertySchema]

    var primaryKey: MirrorPropertySchema? { properties.first { $0.isPrimaryKey } }
    var storedProperties: [MirrorPropertySchema] { properties.filter { !$0.shape.isLinkingObjects } }

    func property(named name: String) -> MirrorPropertySchema? {
        properties.first { $0.name == name }
    }

    static func of(_ type: ObjectBase.Type) -> MirrorObjectSchema {
        if let cached = mirrorSchemaCache.withLock({ $0[ObjectIdentifier(type)] }) {
            return cached
        }
        let instance = type.init()
        let properties = mirrorProperties(of: instance).map { property -> MirrorPropertySchema in
            let valueType = property.accessor._mirrorValueType
            var element: Any.Type = valueType
            if let optional = valueType as? any _MirrorOptional.Type {
                element = optional._mirrorWrappedType
            }
            if let collection = valueType as? any _MirrorElementType.Type {
                element = collection._mirrorElementType
                if let optional = element as? any _MirrorOptional.Type {
                    element = optional._mirrorWrappedType
                }
            }
            return MirrorPropertySchema(
                name: property.name,
                shape: mirrorShape(of: valueType),
                isPrimaryKey: property.accessor._mirrorIsPrimaryKey,
                isIndexed: property.accessor._mirrorIsIndexed,
                originProperty: property.accessor._mirrorOriginProperty,
                holdsObjectType: element is ObjectBase.Type
            )
        }
        let schema = MirrorObjectSchema(className: type.className(), type: type, isEmbedded: type.isEmbedded(), properties: properties)
        mirrorSchemaCache.withLock { $0[ObjectIdentifier(type)] = schema }
        return schema
    }

    /// What Realm's schema checks report for this class: the checks of realm-swift's schema
    /// discovery and of Realm's schema validation. `schemas`, when given, are all the classes
    /// of the Realm (for links to classes it does not hold and for linking objects' origins).
    func problems(in schemas: [String: MirrorObjectSchema]?) -> [String] {
        var problems: [String] = []
        if properties.isEmpty {
            problems.append("No properties are defined for '\(className)'. Did you remember to mark them with '@objc' or '@Persisted' in your model?")
        }
        let keys = properties.filter(\.isPrimaryKey)
        if keys.count > 1 {
            problems.append("Properties '\(keys[0].name)' and '\(keys[1].name)' are both marked as the primary key of '\(className)'")
        }
        if let key = keys.first {
            switch key.shape.nonOptional {
            case .value(.int, _), .value(.string, _), .value(.objectId, _), .value(.UUID, _): break
            default:
                problems.append("Property '\(key.name)' cannot be made the primary key of '\(className)' because it is not a 'string', 'int', 'objectId', or 'uuid' property.")
            }
            if isEmbedded {
                problems.append("Embedded object type '\(className)' cannot have a primary key.")
            }
        }
        for property in properties {
            switch property.shape {
            case .object(_, optional: false) where property.holdsObjectType:
                problems.append("Object property '\(property.name)' must be marked as optional.")
            case .collection(.list, .object(let name, optional: true)) where property.holdsObjectType:
                problems.append("List<\(name)> property '\(property.name)' must not be marked as optional.")
            case .collection(.set, .object(let name, optional: true)) where property.holdsObjectType:
                problems.append("MutableSet<\(name)> property '\(property.name)' must not be marked as optional.")
            case .collection(.map, .object(let name, optional: false)) where property.holdsObjectType:
                problems.append("Map<String, \(name)> property '\(property.name)' must be marked as optional.")
            case .linkingObjects(let name):
                guard let origin = property.originProperty else {
                    problems.append("LinkingObjects<\(name)> property '\(property.name)' must set the origin property name with @Persisted(originProperty: \"name\").")
                    break
                }
                guard let schemas else { break }
                guard let source = schemas[name] else {
                    problems.append("Property '\(className).\(property.name)' of type 'linking objects' has unknown object type '\(name)'")
                    break
                }
                guard let originProperty = source.property(named: origin) else {
                    problems.append("Property '\(name).\(origin)' declared as origin of linking objects property '\(className).\(property.name)' does not exist")
                    break
                }
                if originProperty.shape.linkedClassNames != [className] {
                    problems.append("Property '\(name).\(origin)' declared as origin of linking objects property '\(className).\(property.name)' is not a link to '\(className)'")
                }
            default:
                break
            }
            if let schemas, !property.shape.isLinkingObjects {
                for target in property.shape.linkedClassNames where schemas[target] == nil {
                    problems.append("Property '\(className).\(property.name)' of type '\(property.shape.realmName)' has unknown object type '\(target)'")
                }
            }
        }
        return problems
    }

    /// Validates the classes of a Realm's configuration, as opening it does.
    static func validated(_ types: [ObjectBase.Type]) throws -> [String: MirrorObjectSchema] {
        var schemas: [String: MirrorObjectSchema] = [:]
        for type in types {
            let schema = MirrorObjectSchema.of(type)
            schemas[schema.className] = schema
        }
        let problems = types.flatMap { MirrorObjectSchema.of($0).problems(in: schemas) }
        if !problems.isEmpty {
            throw RealmMirrorError("Schema validation failed due to the following errors:\n- " + problems.joined(separator: "\n- "))
        }
        return schemas
    }
}

internal protocol _MirrorElementType {
    static var _mirrorElementType: Any.Type { get }
}

extension List: _MirrorElementType {
    static var _mirrorElementType: Any.Type { Element.self }
}

extension MutableSet: _MirrorElementType {
    static var _mirrorElementType: Any.Type { Element.self }
}

extension Map: _MirrorElementType {
    static var _mirrorElementType: Any.Type { Value.self }
}

private let mirrorSchemaCache = MirrorLocked<[ObjectIdentifier: MirrorObjectSchema]>([:])

// MARK: - The storage of a Realm

/// The objects of one Realm (one `inMemoryIdentifier` or `fileURL`), shared by every `Realm`
/// value opened with it in the process.
@usableFromInline
internal final class MirrorStore {
    static let addRemoveMessage = "Can only add, remove, or create objects in a Realm in a write transaction - call beginWriteTransaction on an RLMRealm instance first."

    let configuration: Realm.Configuration
    /// The managed objects of each class (embedded ones included), in insertion order.
    var objects: [String: [ObjectBase]] = [:]
    private(set) var isInWriteTransaction = false
    private var schemas: [String: MirrorObjectSchema] = [:]
    private var snapshot: Snapshot?

    private struct Snapshot {
        let objects: [String: [ObjectBase]]
        let deleted: [(ObjectBase, Bool)]
        let restores: [() -> Void]
    }

    init(configuration: Realm.Configuration, schemas: [String: MirrorObjectSchema]) {
        self.configuration = configuration
        self.schemas = schemas
    }

    // MARK: The registry

    private static let registry = MirrorLocked<[String: MirrorStore]>([:])

    static func key(for configuration: Realm.Configuration) -> String? {
        if let identifier = configuration.inMemoryIdentifier {
            return "memory:" + identifier
        }
        if let url = configuration.fileURL {
            return "file:" + url.standardizedFileURL.path
        }
        return nil
    }

    static func open(_ configuration: Realm.Configuration) throws -> MirrorStore {
        guard let key = key(for: configuration) else {
            fatalError("A Realm Configuration must specify a path or an in-memory identifier.")
        }
        let schemas = try configuration.objectTypes.map(MirrorObjectSchema.validated) ?? [:]
        return registry.withLock { stores in
            if let store = stores[key] {
                for (name, schema) in schemas where store.schemas[name] == nil {
                    store.schemas[name] = schema
                }
                return store
            }
            let store = MirrorStore(configuration: configuration, schemas: schemas)
            stores[key] = store
            return store
        }
    }

    static func exists(_ configuration: Realm.Configuration) -> Bool {
        guard let key = key(for: configuration) else { return false }
        return registry.withLock { $0[key] != nil }
    }

    @discardableResult
    static func remove(_ configuration: Realm.Configuration) -> Bool {
        guard let key = key(for: configuration) else { return false }
        return registry.withLock { $0.removeValue(forKey: key) != nil }
    }

    static func removeAll() {
        registry.withLock { $0.removeAll() }
    }

    // MARK: Schema

    var schema: Schema {
        Schema(_objectSchema: schemas.keys.sorted().map { schemas[$0]!.objectSchema })
    }

    /// The schema of a class, checked the first time (a precondition failure for a class
    /// Realm's schema checks reject, or one the configuration's `objectTypes` leave out).
    func schema(for type: ObjectBase.Type) -> MirrorObjectSchema {
        let className = type.className()
        if let schema = schemas[className] {
            return schema
        }
        checkManaged(className)
        let schema = MirrorObjectSchema.of(type)
        let problems = schema.problems(in: nil)
        if !problems.isEmpty {
            preconditionFailure("Schema validation failed due to the following errors:\n- " + problems.joined(separator: "\n- "))
        }
        schemas[className] = schema
        return schema
    }

    func checkManaged(_ className: String) {
        if configuration.objectTypes != nil, schemas[className] == nil {
            preconditionFailure(
                "Object type '\(className)' is not managed by the Realm. If using a custom `objectClasses` / `objectTypes` array in your configuration, add `\(className)` to the list of `objectClasses` / `objectTypes`."
            )
        }
    }

    // MARK: Transactions

    func checkWrite(_ message: String) {
        if !isInWriteTransaction {
            preconditionFailure(message)
        }
    }

    func beginWrite() {
        precondition(!configuration.readOnly, "Can't perform transactions on read-only Realms.")
        precondition(!isInWriteTransaction, "The Realm is already in a write transaction")
        let all = objects.values.flatMap { $0 }
        snapshot = Snapshot(
            objects: objects,
            deleted: all.map { ($0, $0._mirrorDeleted) },
            restores: all.flatMap { object in mirrorProperties(of: object).map { $0.accessor._mirrorSnapshot() } }
        )
        isInWriteTransaction = true
    }

    func commitWrite() {
        precondition(isInWriteTransaction, "Can't commit a non-existing write transaction")
        snapshot = nil
        isInWriteTransaction = false
    }

    func cancelWrite() {
        precondition(isInWriteTransaction, "Can't cancel a non-existing write transaction")
        if let snapshot {
            let before = Set(snapshot.objects.values.flatMap { $0 }.map(ObjectIdentifier.init))
            for object in objects.values.flatMap({ $0 }) where !before.contains(ObjectIdentifier(object)) {
                object._mirrorDeleted = true
            }
            objects = snapshot.objects
            for (object, deleted) in snapshot.deleted {
                object._mirrorDeleted = deleted
            }
            for restore in snapshot.restores {
                restore()
            }
        }
        snapshot = nil
        isInWriteTransaction = false
    }

    // MARK: Adding

    /// Adds an object and the objects it links to; returns the managed object it is now
    /// (an existing one, for an upsert).
    @discardableResult
    func add(_ object: ObjectBase, update: Realm.UpdatePolicy, visited: inout Set<ObjectIdentifier>) -> ObjectBase {
        let row = object._mirrorRow
        if row._mirrorDeleted {
            preconditionFailure("Adding a deleted or invalidated object to a Realm is not permitted")
        }
        if let store = row._mirrorStore {
            if store === self { return row }
            preconditionFailure("Object is already managed by another Realm. Use create instead to copy it into this Realm.")
        }
        guard visited.insert(ObjectIdentifier(row)).inserted else { return row }
        let schema = schema(for: type(of: row))
        if update != .error, schema.primaryKey == nil, !schema.isEmbedded {
            preconditionFailure("'\(schema.className)' does not have a primary key and can not be updated")
        }
        let properties = mirrorProperties(of: row).filter { schema.property(named: $0.name)?.shape.isLinkingObjects == false }
        if let key = schema.primaryKey, !schema.isEmbedded,
            let keyProperty = properties.first(where: { $0.name == key.name })
        {
            let keyValue = keyProperty.accessor._mirrorCurrent(row)
            if let existing = self.object(className: schema.className, key: key.name, value: keyValue) {
                guard update != .error else {
                    preconditionFailure(
                        "Attempting to create an object of type '\(schema.className)' with an existing primary key value '\(mirrorFlatten(keyValue).map { "\($0)" } ?? "nil")'.")
                }
                let existingProperties = mirrorProperties(of: existing)
                for property in properties where property.name != key.name {
                    guard let target = existingProperties.first(where: { $0.name == property.name }) else { continue }
                    let value = adoptValue(property.accessor._mirrorCurrent(row), update: update, visited: &visited)
                    target.accessor._mirrorAssignRaw(value)
                }
                for property in mirrorProperties(of: row) {
                    if let target = existingProperties.first(where: { $0.name == property.name }) {
                        property.accessor._mirrorShare(with: target.accessor)
                    }
                }
                row._mirrorCanonical = existing
                return existing
            }
        }
        row._mirrorStore = self
        objects[schema.className, default: []].append(row)
        for property in properties {
            let value = property.accessor._mirrorCurrent(row)
            let adopted = adoptValue(value, update: update, visited: &visited)
            if let before = mirrorFlatten(value) as? ObjectBase, let after = adopted as? ObjectBase, before !== after {
                property.accessor._mirrorAssignRaw(after)
            }
        }
        return row
    }

    /// Adds the unmanaged objects a value links to (a link or a collection's elements),
    /// returning the value with the managed objects.
    private func adoptValue(_ value: Any, update: Realm.UpdatePolicy, visited: inout Set<ObjectIdentifier>) -> Any {
        if let object = mirrorFlatten(value) as? ObjectBase {
            return add(object, update: update, visited: &visited)
        }
        if let collection = value as? any _MirrorMutableCollection {
            collection._mirrorReplaceObjects { add($0, update: update, visited: &visited) }
        }
        return value
    }

    /// What a write to a managed object's property or collection links to is added too.
    @discardableResult
    func adopt(_ value: Any) -> Any {
        var visited = Set<ObjectIdentifier>()
        return adoptValue(value, update: .error, visited: &visited)
    }

    /// Adds objects migrated into an empty Realm, keeping their order.
    func insertMigrated(_ migrated: [ObjectBase]) {
        for object in migrated {
            let schema = schema(for: type(of: object))
            object._mirrorStore = self
            objects[schema.className, default: []].append(object)
        }
        for object in migrated {
            for property in mirrorProperties(of: object) {
                _ = adopt(property.accessor._mirrorCurrent(object))
            }
        }
    }

    func create<T: Object>(_ type: T.Type, value: Any, update: Realm.UpdatePolicy) -> T {
        let object = T()
        object._mirrorSetValues(from: value)
        let schema = schema(for: type)
        if update != .error {
            guard let key = schema.primaryKey else {
                preconditionFailure("'\(schema.className)' does not have a primary key and can not be updated")
            }
            let keyValue = object._mirrorProperty(named: key.name)!.accessor._mirrorCurrent(object)
            if let existing = self.object(className: schema.className, key: key.name, value: keyValue) {
                existing._mirrorSetValues(from: value)
                return existing as! T
            }
        }
        var visited = Set<ObjectIdentifier>()
        add(object, update: update, visited: &visited)
        return object
    }

    // MARK: Finding

    func object(className: String, key: String, value: Any?) -> ObjectBase? {
        let wanted = mirrorKey(value)
        return objects[className, default: []].first { object in
            guard let property = object._mirrorProperty(named: key) else { return false }
            return mirrorKey(property.accessor._mirrorCurrent(object)) == wanted
        }
    }

    func object(ofType type: ObjectBase.Type, forPrimaryKey key: Any?) -> ObjectBase? {
        let schema = schema(for: type)
        guard let primaryKey = schema.primaryKey else {
            preconditionFailure("'\(schema.className)' does not have a primary key")
        }
        return object(className: schema.className, key: primaryKey.name, value: key)
    }

    /// The objects of `fromClass` whose `property` (a link, or a collection of links) holds
    /// `target`.
    func linkingObjects(to target: ObjectBase, fromClass: String, property: String) -> [ObjectBase] {
        let row = target._mirrorRow
        return objects[fromClass, default: []].filter { object in
            guard let accessor = object._mirrorProperty(named: property)?.accessor else { return false }
            let value = accessor._mirrorCurrent(object)
            if let linked = mirrorFlatten(value) as? ObjectBase {
                return linked._mirrorRow === row
            }
            if let collection = value as? any _MirrorMutableCollection {
                return collection._mirrorContainsObject(row)
            }
            return false
        }
    }

    // MARK: Deleting

    func delete(_ doomedObjects: [ObjectBase]) {
        checkWrite(MirrorStore.addRemoveMessage)
        var doomed: [ObjectBase] = []
        var rows = Set<ObjectIdentifier>()
        for object in doomedObjects {
            let row = object._mirrorRow
            guard row._mirrorStore === self else {
                preconditionFailure("Can only delete an object from the Realm it belongs to.")
            }
            if row._mirrorDeleted {
                preconditionFailure("Object has been deleted or invalidated.")
            }
            collect(row, into: &doomed, rows: &rows)
        }
        for object in doomed {
            object._mirrorDeleted = true
        }
        for className in objects.keys {
            objects[className]!.removeAll { rows.contains(ObjectIdentifier($0)) }
        }
        for object in objects.values.flatMap({ $0 }) {
            for property in mirrorProperties(of: object) {
                let value = property.accessor._mirrorCurrent(object)
                if let linked = mirrorFlatten(value) as? ObjectBase, rows.contains(ObjectIdentifier(linked._mirrorRow)) {
                    property.accessor._mirrorAssignRaw(nil)
                } else if let collection = value as? any _MirrorMutableCollection {
                    collection._mirrorRemoveObjects(rows)
                }
            }
        }
    }

    /// An object and the embedded objects it owns (deleted with it).
    private func collect(_ object: ObjectBase, into doomed: inout [ObjectBase], rows: inout Set<ObjectIdentifier>) {
        guard rows.insert(ObjectIdentifier(object)).inserted else { return }
        doomed.append(object)
        for property in mirrorProperties(of: object) {
            let value = property.accessor._mirrorCurrent(object)
            var owned: [Any] = []
            if let collection = value as? any _MirrorMutableCollection {
                owned = collection._mirrorAnyElements
            } else if let linked = mirrorFlatten(value) {
                owned = [linked]
            }
            for case let embedded as EmbeddedObject in owned.compactMap(mirrorFlatten) {
                collect(embedded._mirrorRow, into: &doomed, rows: &rows)
            }
        }
    }

    func deleteAll() {
        checkWrite(MirrorStore.addRemoveMessage)
        for object in objects.values.flatMap({ $0 }) {
            object._mirrorDeleted = true
        }
        objects.removeAll()
    }
}

/// The `ObjectSchema` of an object's class (a `DynamicObject`'s type in its migration).
internal func mirrorObjectSchema(of object: ObjectBase) -> ObjectSchema {
    if let dynamic = object as? DynamicObject {
        if let engine = dynamic._mirrorEngine {
            let schema = dynamic._mirrorRole == .old ? engine.oldSchema : engine.newSchema
            if let objectSchema = schema[dynamic._mirrorTypeName] {
                return objectSchema
            }
        }
        return ObjectSchema(_className: dynamic._mirrorTypeName, _objectClass: DynamicObject.self, _isEmbedded: false, _properties: [], _primaryKey: nil)
    }
    return MirrorObjectSchema.of(type(of: object)).objectSchema
}
