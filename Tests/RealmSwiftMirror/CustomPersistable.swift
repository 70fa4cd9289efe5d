import Foundation

// RealmSwift/CustomPersistable.swift
/// A type which can be mapped to and from a type which Realm supports: declare
/// `PersistedType`, an initializer taking it and `persistableValue`.
public protocol CustomPersistable: _CustomPersistable {
    /// Construct an instance of the this type from the persisted type.
    init(persistedValue: PersistedType)
    /// Construct an instance of the persisted type from this type.
    var persistableValue: PersistedType { get }
}

// RealmSwift/CustomPersistable.swift
/// A type which can be mapped to and from a type which Realm supports, where the mapping
/// from the persisted type may fail: `extension URL: FailableCustomPersistable`.
public protocol FailableCustomPersistable: _CustomPersistable {
    /// Construct an instance of the this type from the persisted type, returning nil if the
    /// conversion is not possible.
    init?(persistedValue: PersistedType)
    /// Construct an instance of the persisted type from this type.
    var persistableValue: PersistedType { get }
}

// RealmSwift/CustomPersistable.swift
public protocol _CustomPersistable: _PersistableInsideOptional, _RealmCollectionValueInsideOptional {}

// RealmSwift/CustomPersistable.swift
extension _CustomPersistable {  // _RealmSchemaDiscoverable
    public static var _rlmType: PropertyType { PersistedType._rlmType }
    public static var _rlmOptional: Bool { PersistedType._rlmOptional }
    public static var _rlmRequireObjc: Bool { false }
}

// RealmSwift/CustomPersistable.swift
extension CustomPersistable {  // _Persistable
    public static func _rlmDefaultValue() -> Self {
        Self(persistedValue: PersistedType._rlmDefaultValue())
    }

    public func hash(into hasher: inout Hasher) {
        persistableValue.hash(into: &hasher)
    }
}

// RealmSwift/CustomPersistable.swift
extension FailableCustomPersistable {  // _Persistable
    public static func _rlmDefaultValue() -> Self {
        if let value = Self(persistedValue: PersistedType._rlmDefaultValue()) {
            return value
        }
        preconditionFailure(
            "Failed to default construct a \(Self.self) using the default value for persisted type \(PersistedType.self). "
                + "This conversion must either succeed, the property must be optional, or you must explicitly specify a default value for the property.")
    }

    public func hash(into hasher: inout Hasher) {
        persistableValue.hash(into: &hasher)
    }
}

// RealmSwift/CustomPersistable.swift
extension CustomPersistable {  // _ObjcBridgeable
    public static func _rlmFromObjc(_ value: Any, insideOptional: Bool) -> Self? {
        if let value = PersistedType._rlmFromObjc(value, insideOptional: false) {
            return Self(persistedValue: value)
        }
        if let value = value as? Self {
            return value
        }
        if !insideOptional && value is NSNull {
            return Self._rlmDefaultValue()
        }
        return nil
    }

    public var _rlmObjcValue: Any { persistableValue }
}

// RealmSwift/CustomPersistable.swift
extension FailableCustomPersistable {  // _ObjcBridgeable
    public static func _rlmFromObjc(_ value: Any, insideOptional: Bool) -> Self? {
        if let value = PersistedType._rlmFromObjc(value, insideOptional: false) {
            return Self(persistedValue: value)
        }
        if let value = value as? Self {
            return value
        }
        return nil
    }

    public var _rlmObjcValue: Any { persistableValue }
}
