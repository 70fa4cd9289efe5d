import Foundation

// RealmSwift/EmbeddedObject.swift: `public typealias EmbeddedObject = RealmSwiftEmbeddedObject`
// (Realm/RLMSwiftObject.h: `@interface RealmSwiftEmbeddedObject : RLMObjectBase`).
/// A Realm object owned by exactly one parent object. Not `RealmFetchable` (it cannot be
/// queried on its own) and not `add`ed (it is added with its parent).
open class EmbeddedObject: ObjectBase {
    public static override func isEmbedded() -> Bool {
        return true
    }

    /// Creates an unmanaged object from a dictionary, an array or another object.
    public convenience init(value: Any) {
        self.init()
        _mirrorSetValues(from: value)
    }

    public override final var isInvalidated: Bool { return super.isInvalidated }

    open override var description: String { return super.description }

    /// The names of properties to ignore (legacy declarations only).
    open class func ignoredProperties() -> [String] { return [] }

    /// A map of public to persisted property names (not applied by the mirror).
    open class func propertiesMapping() -> [String: String] { return [:] }

    /// The value of the property named `key` (see `Object.subscript(key:)`).
    open subscript(key: String) -> Any? {
        get {
            _mirrorDynamicGet(key)
        }
        set {
            _mirrorDynamicSet(key, newValue)
        }
    }
}

// RealmSwift/EmbeddedObject.swift
extension EmbeddedObject: _RealmCollectionValueInsideOptional {
    /// The Realm which manages the object, or `nil` if the object is unmanaged.
    public var realm: Realm? {
        _mirrorRow._mirrorStore.map { Realm(store: $0) }
    }

    /// The schema of the object's class.
    public var objectSchema: ObjectSchema {
        mirrorObjectSchema(of: self)
    }

    /// Whether both objects are the same object, or the same managed object.
    public func isSameObject(as object: EmbeddedObject?) -> Bool {
        guard let object else { return false }
        return self === object || (_mirrorRow._mirrorStore != nil && _mirrorRow === object._mirrorRow)
    }
}

// RealmSwift/EmbeddedObject.swift
extension EmbeddedObject: ThreadConfined {
    /// Whether this object is frozen (never, in the mirror).
    public var isFrozen: Bool { return false }
}
