import Foundation

// RealmSwift/Impl/SchemaDiscovery.swift. realm-swift's `_rlmPopulateProperty(_:)`
// requirements (instance and static) fill in an `RLMProperty`, which the mirror does not
// have; they are left out. `_rlmType` and `_rlmOptional` describe the stored type as there.
/// A type whose Realm property type can be discovered.
public protocol _RealmSchemaDiscoverable {
    static var _rlmType: PropertyType { get }
    static var _rlmOptional: Bool { get }
    static var _rlmRequireObjc: Bool { get }
}

// RealmSwift/Impl/SchemaDiscovery.swift
internal protocol SchemaDiscoverable: _RealmSchemaDiscoverable {}

extension SchemaDiscoverable {
    public static var _rlmOptional: Bool { false }
    public static var _rlmRequireObjc: Bool { true }
}
