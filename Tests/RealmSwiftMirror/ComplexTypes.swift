import Foundation

// RealmSwift/Impl/ComplexTypes.swift: objects, collections, optionals and raw-value enums as
// property types. realm-swift's `_rlmPopulateProperty` checks (a to-one link must be
// optional, a list of objects must not hold optionals, a map of objects must) run in the
// mirror when a class's schema is read (MirrorRuntime.swift, `MirrorObjectSchema`).

extension Object: SchemaDiscoverable, _PersistableInsideOptional, _DefaultConstructible {
    public typealias PersistedType = Object
    public static var _rlmType: PropertyType { .object }
}

extension EmbeddedObject: SchemaDiscoverable, _PersistableInsideOptional, _DefaultConstructible {
    public typealias PersistedType = EmbeddedObject
    public static var _rlmType: PropertyType { .object }
}

extension List: _RealmSchemaDiscoverable, SchemaDiscoverable where Element: _RealmSchemaDiscoverable {
    public static var _rlmType: PropertyType { Element._rlmType }
    public static var _rlmOptional: Bool { Element._rlmOptional }
    public static var _rlmRequireObjc: Bool { false }
}

extension List: _HasPersistedType, _Persistable, _DefaultConstructible where Element: _Persistable {
    public typealias PersistedType = List
}

extension MutableSet: _RealmSchemaDiscoverable, SchemaDiscoverable where Element: _RealmSchemaDiscoverable {
    public static var _rlmType: PropertyType { Element._rlmType }
    public static var _rlmOptional: Bool { Element._rlmOptional }
    public static var _rlmRequireObjc: Bool { false }
}

extension MutableSet: _HasPersistedType, _Persistable, _DefaultConstructible where Element: _Persistable {
    public typealias PersistedType = MutableSet
}

extension Map: _RealmSchemaDiscoverable, SchemaDiscoverable where Value: _RealmSchemaDiscoverable {
    public static var _rlmType: PropertyType { Value._rlmType }
    public static var _rlmOptional: Bool { Value._rlmOptional }
    public static var _rlmRequireObjc: Bool { false }
}

extension Map: _HasPersistedType, _Persistable, _DefaultConstructible where Value: _Persistable {
    public typealias PersistedType = Map
}

extension LinkingObjects: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .linkingObjects }
    public static var _rlmRequireObjc: Bool { false }
}

extension LinkingObjects: _HasPersistedType, _Persistable where Element: _Persistable {
    public typealias PersistedType = Self

    public static func _rlmDefaultValue() -> Self {
        fatalError("LinkingObjects properties must set the origin property name")
    }
}

extension Optional: SchemaDiscoverable, _RealmSchemaDiscoverable where Wrapped: _RealmSchemaDiscoverable {
    public static var _rlmType: PropertyType { Wrapped._rlmType }
    public static var _rlmOptional: Bool { true }
}

extension Optional: _HasPersistedType where Wrapped: _HasPersistedType {
    public typealias PersistedType = Wrapped.PersistedType?
}

extension Optional: _Persistable where Wrapped: _PersistableInsideOptional {
    public static func _rlmDefaultValue() -> Self {
        return .none
    }
}

extension Optional: _PrimaryKey where Wrapped: _Persistable, Wrapped.PersistedType: _PrimaryKey {}
extension Optional: _Indexable where Wrapped: _Persistable, Wrapped.PersistedType: _Indexable {}

extension RawRepresentable where RawValue: _RealmSchemaDiscoverable {
    public static var _rlmType: PropertyType { RawValue._rlmType }
    public static var _rlmOptional: Bool { RawValue._rlmOptional }
    public static var _rlmRequireObjc: Bool { false }
}

extension RawRepresentable where Self: _PersistableInsideOptional, RawValue: _PersistableInsideOptional {
    public typealias PersistedType = RawValue
}
