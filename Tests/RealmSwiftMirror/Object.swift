import Foundation

// RealmSwift/Object.swift: `public typealias Object = RealmSwiftObject`
// (Realm/RLMSwiftObject.h: `@interface RealmSwiftObject : RLMObjectBase`).
/// The base class of Realm model objects:
/// ```swift
/// class Dog: Object {
///     @Persisted var name: String
///     @Persisted var siblings: List<Dog>
/// }
/// ```
open class Object: ObjectBase {
    /// Creates an unmanaged object from a dictionary (by property name), an array (one value
    /// per property, in order) or another object (by property name).
    public convenience init(value: Any) {
        self.init()
        _mirrorSetValues(from: value)
    }

    open override var isInvalidated: Bool { return super.isInvalidated }

    open override var description: String { return super.description }

    // Legacy (`@objc dynamic`) declarations, kept for the signatures: the mirror reads only
    // `@Persisted` properties.
    /// The name of the primary key property for legacy declarations (`@Persisted(primaryKey:)`
    /// is the modern way); `nil`.
    open class func primaryKey() -> String? { return nil }

    /// The names of properties to ignore (legacy declarations only).
    open class func ignoredProperties() -> [String] { return [] }

    /// The names of properties to index (legacy declarations only).
    open class func indexedProperties() -> [String] { return [] }

    /// A map of public to persisted property names (not applied by the mirror).
    open class func propertiesMapping() -> [String: String] { return [:] }

    /// The value of the property named `key` (get), or sets it from a value convertible to
    /// its type (set). Enums read as their raw values, custom-persisted types as their
    /// persisted values, as realm-swift's dynamic accessors give them.
    open subscript(key: String) -> Any? {
        get {
            _mirrorDynamicGet(key)
        }
        set {
            _mirrorDynamicSet(key, newValue)
        }
    }
}

// RealmSwift/Object.swift
extension Object: _RealmCollectionValueInsideOptional {
    /// The Realm which manages the object, or `nil` if the object is unmanaged.
    public var realm: Realm? {
        _mirrorRow._mirrorStore.map { Realm(store: $0) }
    }

    /// The schema of the object's class (of its type in the migration, for a `DynamicObject`).
    public var objectSchema: ObjectSchema {
        mirrorObjectSchema(of: self)
    }

    /// A list of `DynamicObject`s for a given property name (the mirror supports it on
    /// `DynamicObject`s, as in a migration).
    public func dynamicList(_ propertyName: String) -> List<DynamicObject> {
        if let dynamic = self as? DynamicObject {
            return dynamic[propertyName] as! List<DynamicObject>
        }
        preconditionFailure("RealmSwiftMirror: dynamicList(_:) is only supported on DynamicObject.")
    }

    /// A set of `DynamicObject`s for a given property name (see `dynamicList(_:)`).
    public func dynamicMutableSet(_ propertyName: String) -> MutableSet<DynamicObject> {
        if let dynamic = self as? DynamicObject {
            return dynamic[propertyName] as! MutableSet<DynamicObject>
        }
        preconditionFailure("RealmSwiftMirror: dynamicMutableSet(_:) is only supported on DynamicObject.")
    }

    /// A map of `DynamicObject`s for a given property name (see `dynamicList(_:)`).
    public func dynamicMap<Key: _MapKey>(_ propertyName: String) -> Map<Key, DynamicObject?> {
        if let dynamic = self as? DynamicObject {
            return dynamic[propertyName] as! Map<Key, DynamicObject?>
        }
        preconditionFailure("RealmSwiftMirror: dynamicMap(_:) is only supported on DynamicObject.")
    }

    /// Whether both objects are the same object, or both are managed by the same Realm and
    /// are the same object in it.
    public func isSameObject(as object: Object?) -> Bool {
        guard let object else { return false }
        return self === object || (_mirrorRow._mirrorStore != nil && _mirrorRow === object._mirrorRow)
    }
}

// RealmSwift/Object.swift
extension Object: ThreadConfined {
    /// Whether this object is frozen (never, in the mirror).
    public var isFrozen: Bool { return false }
}

// RealmSwift/Object.swift
/// An object whose properties are reached by name: the objects of a migration
/// (`MigrationObject`) and of the dynamic API.
@dynamicMemberLookup
public final class DynamicObject: Object {
    // The mirror's state: the object's class name and values by property name, and, inside
    // a migration, the schema its values follow.
    internal var _mirrorTypeName = "DynamicObject"
    internal var _mirrorValues: [String: Any] = [:]
    internal var _mirrorRole = MirrorDynamicRole.free
    internal weak var _mirrorEngine: MirrorMigrationEngine?

    public override subscript(key: String) -> Any? {
        get {
            _mirrorDynamicObjectGet(key)
        }
        set(value) {
            _mirrorDynamicObjectSet(key, value)
        }
    }

    public subscript(dynamicMember member: String) -> Any? {
        get {
            self[member]
        }
        set(value) {
            self[member] = value
        }
    }

    public override static func shouldIncludeInDefaultSchema() -> Bool {
        false
    }

    public override var description: String {
        let values = _mirrorValues.keys.sorted().map { "\t\($0) = \(mirrorFlatten(_mirrorValues[$0]).map { String(describing: $0) } ?? "nil");" }
        return "\(_mirrorTypeName) {\n\(values.joined(separator: "\n"))\n}"
    }
}

// RealmSwift/Object.swift
/// An enum type which can be stored on a Realm Object (legacy `@objc` enums and
/// `PersistableEnum`).
public protocol RealmEnum: RealmOptionalType, _RealmSchemaDiscoverable {
}

// RealmSwift/Object.swift
extension RealmEnum where Self: RawRepresentable, Self.RawValue: _RealmSchemaDiscoverable & _ObjcBridgeable {
    public var _rlmObjcValue: Any { rawValue._rlmObjcValue }

    public static func _rlmFromObjc(_ value: Any, insideOptional: Bool) -> Self? {
        if let value = value as? Self {
            return value
        }
        if let value = RawValue._rlmFromObjc(value, insideOptional: false) {
            return Self(rawValue: value)
        }
        return nil
    }

    public static var _rlmType: PropertyType { RawValue._rlmType }
}
