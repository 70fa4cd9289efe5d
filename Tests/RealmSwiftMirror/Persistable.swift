import Foundation

// RealmSwift/Impl/Persistable.swift
/// An opaque identifier for each property on a class.
public typealias PropertyKey = UInt16

// RealmSwift/Impl/Persistable.swift
/// The type which is actually stored in the Realm: `Self` for types Realm supports directly,
/// another type for enums and mapped types.
public protocol _HasPersistedType: _ObjcBridgeable {
    associatedtype PersistedType: _ObjcBridgeable
}

// RealmSwift/Impl/Persistable.swift
// realm-swift's requirements `_rlmGetProperty(_:_:)`, `_rlmSetProperty(_:_:_:)`,
// `_rlmSetAccessor(_:)` and `_rlmRequiresCaching` read and write Realm's C++ rows through
// `RLMProperty`; the mirror keeps values in `Persisted` itself and leaves them out. The
// constraints, which decide what compiles, are realm-swift's.
/// A type which can be stored by the `@Persisted` property wrapper.
public protocol _Persistable: _RealmSchemaDiscoverable, _HasPersistedType
where PersistedType: _Persistable, PersistedType.PersistedType.PersistedType == PersistedType.PersistedType {
    /// The zero/empty/nil value of this type, the default when a model declares none.
    static func _rlmDefaultValue() -> Self
}

// RealmSwift/Impl/Persistable.swift (realm-swift's `_rlmGetPropertyOptional(_:_:)` left out
// for the reason above).
/// A type which can appear inside `Optional<T>` in a `@Persisted` property.
public protocol _PersistableInsideOptional: _Persistable where PersistedType: _PersistableInsideOptional {}

// RealmSwift/Impl/Persistable.swift
/// A type whose default value is `init()`.
public protocol _DefaultConstructible {
    init()
}

// RealmSwift/Impl/Persistable.swift
extension _Persistable where Self: _DefaultConstructible {
    public static func _rlmDefaultValue() -> Self {
        .init()
    }
}
