import Foundation

// RealmSwift/PersistedProperty.swift
/// Declares a property which is persisted by Realm: `@Persisted var name: String`.
///
/// As in realm-swift, the value is reached through the enclosing-instance subscript, which
/// requires the enclosing type to be an `ObjectBase` subclass: `wrappedValue` is unavailable,
/// so `@Persisted` in a struct (or a class that is not a Realm object) does not compile.
@propertyWrapper
public struct Persisted<Value: _Persistable> {
    // realm-swift: `private var storage: PropertyStorage<Value>` (an enum). The mirror's
    // storage is a reference, so that the runtime can read and write a property it finds
    // by reflection (`Mirror(reflecting: object)` gives copies of this struct).
    internal let storage: PersistedStorage<Value>

    @available(*, unavailable, message: "@Persisted can only be used as a property on a Realm object")
    public var wrappedValue: Value {
        // The static subscript below is called instead of this when the property
        // wrapper is used on an ObjectBase subclass, which is the only thing we support.
        get { fatalError("called wrappedValue getter") }
        set { fatalError("called wrappedValue setter") }
    }

    /// Declares a property which is lazily initialized to the type's default value.
    public init() {
        storage = PersistedStorage(value: nil)
    }

    /// Declares a property which defaults to the given value.
    public init(wrappedValue value: Value) {
        storage = PersistedStorage(value: value)
    }

    public static subscript<EnclosingSelf: ObjectBase>(
        _enclosingInstance observed: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get {
            return observed[keyPath: storageKeyPath].storage.get(for: observed)
        }
        set {
            observed[keyPath: storageKeyPath].storage.set(newValue, for: observed)
        }
    }
}

// RealmSwift/PersistedProperty.swift (realm-swift refuses to encode managed objects; the
// mirror encodes the current values).
extension Persisted: Decodable where Value: Decodable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil(), let value = Value._rlmFromObjc(NSNull(), insideOptional: false) {
            storage = PersistedStorage(value: value)
        } else {
            storage = PersistedStorage(value: try container.decode(Value.self))
        }
    }
}

extension Persisted: Encodable where Value: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(storage.current)
    }
}

// RealmSwift/PersistedProperty.swift
/// A property wrapper whose value may be nil, so that a missing key decodes as nil.
public protocol OptionalCodingWrapper {
    associatedtype WrappedType: ExpressibleByNilLiteral
    init(wrappedValue: WrappedType)
}

// RealmSwift/PersistedProperty.swift
extension KeyedDecodingContainer {
    // This is used to override the default decoding behaviour for OptionalCodingWrapper to allow a value to avoid a missing key Error
    public func decode<T>(_ type: T.Type, forKey key: KeyedDecodingContainer<K>.Key) throws -> T where T: Decodable, T: OptionalCodingWrapper {
        return try decodeIfPresent(T.self, forKey: key) ?? T(wrappedValue: nil)
    }
}

// RealmSwift/PersistedProperty.swift
extension Persisted: OptionalCodingWrapper where Value: ExpressibleByNilLiteral {
}

// RealmSwift/PersistedProperty.swift
/// An enum type which can be used with @Persisted and Realm Collections: it must have a raw
/// value of a type Realm can store and be marked as conforming to this protocol.
/// ```
/// enum StringEnum: String, PersistableEnum {
///    case first = "a"
///    case second = "b"
/// }
/// ```
public protocol PersistableEnum: _PersistableInsideOptional, RawRepresentable, CaseIterable, RealmEnum, _RealmCollectionValueInsideOptional, MinMaxType, Comparable
where RawValue: Comparable {
}

// RealmSwift/PersistedProperty.swift
extension PersistableEnum {
    /// The first case.
    public init() { self = Self.allCases.first! }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        return lhs.rawValue < rhs.rawValue
    }

    public static func _rlmDefaultValue() -> Self {
        Self.allCases.first!
    }
}

// RealmSwift/PersistedProperty.swift
/// The types which can be indexed.
@_marker public protocol _Indexable {}

// RealmSwift/PersistedProperty.swift
extension Persisted where Value.PersistedType: _Indexable {
    /// Declares an indexed property which is lazily initialized to the type's default value.
    public init(indexed: Bool) {
        storage = PersistedStorage(value: nil, indexed: indexed)
    }

    /// Declares an indexed property which defaults to the given value.
    public init(wrappedValue value: Value, indexed: Bool) {
        storage = PersistedStorage(value: value, indexed: indexed)
    }
}

// RealmSwift/PersistedProperty.swift
/// The types which can be a primary key.
@_marker public protocol _PrimaryKey {}

// RealmSwift/PersistedProperty.swift
extension Persisted where Value.PersistedType: _PrimaryKey {
    /// Declares the primary key property, lazily initialized to the type's default value.
    public init(primaryKey: Bool) {
        storage = PersistedStorage(value: nil, primary: primaryKey)
    }

    /// Declares the primary key property, which defaults to the given value.
    public init(wrappedValue value: Value, primaryKey: Bool) {
        storage = PersistedStorage(value: value, primary: primaryKey)
    }
}

// RealmSwift/PersistedProperty.swift
// Constraining the LinkingObjects initializer to only LinkingObjects require
// doing so via a protocol which only that type conforms to.
public protocol LinkingObjectsProtocol {
    init(fromType: Element.Type, property: String)
    associatedtype Element
}

// RealmSwift/PersistedProperty.swift
extension Persisted where Value: LinkingObjectsProtocol {
    /// Declares a LinkingObjects property with the given origin property name.
    public init(originProperty: String) {
        self.init(wrappedValue: Value(fromType: Value.Element.self, property: originProperty))
    }
}

// RealmSwift/PersistedProperty.swift
extension LinkingObjects: LinkingObjectsProtocol {}

// MARK: - The mirror's storage (not realm-swift API)

/// The value of one `@Persisted` property: `nil` until first read when the model declares no
/// default (realm-swift's `.unmanagedNoDefault`). After an upsert merged an object into an
/// existing managed one, its storages redirect to the existing object's.
internal final class PersistedStorage<Value: _Persistable> {
    var value: Value?
    let indexed: Bool
    let primary: Bool
    var redirect: PersistedStorage<Value>?

    init(value: Value?, indexed: Bool = false, primary: Bool = false) {
        self.value = value
        self.indexed = indexed
        self.primary = primary
    }

    var resolved: PersistedStorage<Value> {
        var storage = self
        while let next = storage.redirect {
            storage = next
        }
        return storage
    }

    /// The value, the type's default the first time when none was declared.
    var current: Value {
        let storage = resolved
        if let value = storage.value {
            return value
        }
        let value = Value._rlmDefaultValue()
        storage.value = value
        return value
    }

    func get(for owner: ObjectBase) -> Value {
        owner._mirrorCheckValid()
        return mirrorBind(current, to: owner)
    }

    /// A write through the model's property or the dynamic API: checks what Realm checks
    /// on a managed object, assigns collections' contents (as realm-swift does), and adds
    /// unmanaged objects a managed object now links to.
    func set(_ newValue: Value, for owner: ObjectBase) {
        owner._mirrorCheckValid()
        let store = owner._mirrorRow._mirrorStore
        if let store {
            store.checkWrite("Cannot modify managed objects outside of a write transaction.")
            if primary, mirrorKey(current) != mirrorKey(newValue) {
                preconditionFailure("Primary key can't be changed after an object is inserted.")
            }
        }
        if let collection = current as? any _MirrorMutableCollection {
            guard collection._mirrorAssignContents(from: newValue) else {
                preconditionFailure("Could not assign '\(newValue)' to a \(Value.self) property.")
            }
            if let store {
                store.adopt(collection)
            }
            return
        }
        if let store {
            resolved.value = (store.adopt(newValue) as! Value)
        } else {
            resolved.value = newValue
        }
    }
}

extension Persisted: MirrorPersistedProperty {
    var _mirrorValueType: Any.Type { Value.self }
    var _mirrorIsPrimaryKey: Bool { storage.primary }
    var _mirrorIsIndexed: Bool { storage.indexed || storage.primary }
    var _mirrorOriginProperty: String? { (storage.resolved.value as? any _MirrorLinkingObjects)?._mirrorPropertyName }

    func _mirrorCurrent(_ owner: ObjectBase) -> Any { mirrorBind(storage.current, to: owner) }

    func _mirrorDynamicValue(_ owner: ObjectBase) -> Any? {
        mirrorFlatten(storage.get(for: owner)._rlmObjcValue)
    }

    func _mirrorSet(_ value: Any?, _ owner: ObjectBase) -> Bool {
        guard let converted = Value._rlmFromObjc(mirrorFlatten(value) ?? NSNull(), insideOptional: false) else { return false }
        storage.set(converted, for: owner)
        return true
    }

    func _mirrorAssignRaw(_ value: Any?) {
        let resolved = storage.resolved
        if let collection = storage.current as? any _MirrorMutableCollection {
            _ = collection._mirrorAssignContents(from: value)
        } else if let value = value.flatMap({ $0 as? Value }) {
            resolved.value = value
        } else if let value = Value._rlmFromObjc(mirrorFlatten(value) ?? NSNull(), insideOptional: false) {
            resolved.value = value
        }
    }

    func _mirrorSnapshot() -> () -> Void {
        let resolved = storage.resolved
        let value = resolved.value
        let contents = (value as? any _MirrorMutableCollection)?._mirrorSnapshotContents()
        return {
            resolved.value = value
            contents?()
        }
    }

    func _mirrorShare(with other: any MirrorPersistedProperty) {
        if let other = other as? Persisted<Value> {
            storage.redirect = other.storage.resolved
        }
    }
}
