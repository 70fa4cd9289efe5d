import Foundation

// RealmSwift/Impl/BasicTypes.swift: the property types and which of them can be a primary
// key (`_PrimaryKey`) or indexed (`_Indexable`). realm-swift's `_rlmGetProperty` /
// `_rlmSetProperty` bodies are left out (see Persistable.swift).

extension Int: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .int }
}

extension Int8: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .int }
}

extension Int16: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .int }
}

extension Int32: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .int }
}

extension Int64: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .int }
}

extension Bool: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .bool }
}

extension Float: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .float }
}

extension Double: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .double }
}

extension String: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .string }
}

extension Data: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .data }
}

extension ObjectId: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .objectId }
}

extension Decimal128: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .decimal128 }
}

extension Date: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .date }
}

extension UUID: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .UUID }
}

extension AnyRealmValue: SchemaDiscoverable {
    public static var _rlmType: PropertyType { .any }
}

// realm-swift: `private protocol _Int` (every integer width is a primary key and indexable).
private protocol _Int: BinaryInteger, _PersistableInsideOptional, _DefaultConstructible, _PrimaryKey, _Indexable {
}

extension Int: _Int {
    public typealias PersistedType = Int
}

extension Int8: _Int {
    public typealias PersistedType = Int8
}

extension Int16: _Int {
    public typealias PersistedType = Int16
}

extension Int32: _Int {
    public typealias PersistedType = Int32
}

extension Int64: _Int {
    public typealias PersistedType = Int64
}

extension Bool: _PersistableInsideOptional, _DefaultConstructible, _PrimaryKey, _Indexable {
    public typealias PersistedType = Bool
}

extension Float: _PersistableInsideOptional, _DefaultConstructible {
    public typealias PersistedType = Float
}

extension Double: _PersistableInsideOptional, _DefaultConstructible {
    public typealias PersistedType = Double
}

extension String: _PersistableInsideOptional, _DefaultConstructible, _PrimaryKey, _Indexable {
    public typealias PersistedType = String
}

extension Data: _PersistableInsideOptional, _DefaultConstructible {
    public typealias PersistedType = Data
}

extension ObjectId: _PersistableInsideOptional, _DefaultConstructible, _PrimaryKey, _Indexable {
    public typealias PersistedType = ObjectId

    public static func _rlmDefaultValue() -> ObjectId {
        return Self.generate()
    }
}

extension Decimal128: _PersistableInsideOptional, _DefaultConstructible {
    public typealias PersistedType = Decimal128
}

extension Date: _PersistableInsideOptional, _DefaultConstructible, _Indexable {
    public typealias PersistedType = Date
}

extension UUID: _PersistableInsideOptional, _DefaultConstructible, _PrimaryKey, _Indexable {
    public typealias PersistedType = UUID
}

extension AnyRealmValue: _Persistable, _DefaultConstructible {
    public typealias PersistedType = AnyRealmValue
}
