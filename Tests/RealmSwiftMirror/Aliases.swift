// A test-only mirror of realm-swift 10.54.6 (module `RealmSwift`): the same public API for
// the declarations Remodel's generated Realm code uses, with the same generic constraints,
// over a small in-memory runtime (MirrorRuntime.swift). Each declaration names the
// realm-swift file it mirrors; test-only additions are in TestingSupport.swift.

import Foundation

// RealmSwift/Aliases.swift: `public typealias PropertyType = RLMPropertyType`
// (Realm/RLMConstants.h, `RLM_CLOSED_ENUM(int32_t, RLMPropertyType)`, with its raw values).
/// The types of properties Realm stores.
@frozen public enum PropertyType: Int32, Sendable {
    case int = 0
    case bool = 1
    case float = 5
    case double = 6
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case UUID = 12
    case string = 2
    case data = 3
    case any = 9
    case date = 4
    case objectId = 10
    case decimal128 = 11
    case object = 7
    case linkingObjects = 8
}

// RealmSwift/Aliases.swift: `public typealias NotificationToken = RLMNotificationToken`
// (Realm/RLMRealm.h, `RLM_SWIFT_SENDABLE @interface RLMNotificationToken : NSObject`).
// Declared for the signatures that take tokens (`write(withoutNotifying:_:)`); the mirror
// delivers no notifications, so no token is ever handed out.
/// A token returned by Realm's observation APIs.
open class NotificationToken: @unchecked Sendable {
    public init() {}

    /// Stops notifications for the change subscription that returned this token.
    @discardableResult
    open func invalidate() -> Bool { false }
}

// RealmSwift/Aliases.swift: `public typealias ObjectBase = RLMObjectBase`
// (Realm/RLMObjectBase.h: `@interface RLMObjectBase : NSObject` with `invalidated`,
// `- init` (designated), `+ className`, `+ shouldIncludeInDefaultSchema`). On Linux there is
// no Objective-C runtime: a plain open class with a required `init()`, Hashable and
// CustomStringConvertible as NSObject makes it.
/// The base class of `Object` and `EmbeddedObject`.
open class ObjectBase {
    // The runtime's state of this object (MirrorRuntime.swift).
    /// The storage of the Realm that manages this object, `nil` while unmanaged.
    internal var _mirrorStore: MirrorStore?
    /// The managed object this one stands for after an upsert merged it into an existing
    /// object (`add(_:update: .modified)`): both then read and write the same values.
    internal var _mirrorCanonical: ObjectBase?
    /// Set when the object is deleted from its Realm.
    internal var _mirrorDeleted = false

    /// Creates an unmanaged object.
    public required init() {}

    /// Whether the object can no longer be accessed (it was deleted from its Realm).
    open var isInvalidated: Bool { _mirrorRow._mirrorDeleted }

    /// The name Realm knows the class by: the Swift class name without its module. (The
    /// mirror names a class's table by it, so it answers `_realmObjectName()` when that is
    /// set, as realm-swift's object schema's `objectName` does.)
    open class func className() -> String {
        _realmObjectName() ?? String(describing: self)
    }

    // Realm/RLMObjectBase.h: `+ (nullable NSString *)_realmObjectName;` — the name the Realm
    // file knows the class by, when it differs from the class's own (RLMObjectSchema.mm,
    // `objectName`).
    open class func _realmObjectName() -> String? { nil }

    /// Whether the class is part of the default schema (realm-swift: `false` for
    /// `DynamicObject`).
    open class func shouldIncludeInDefaultSchema() -> Bool { true }

    // Realm/RLMObjectBase_Private.h: `+ (BOOL)isEmbedded` (public on EmbeddedObject).
    internal class func isEmbedded() -> Bool { false }

    /// A description of the object and its property values.
    open var description: String { mirrorDescription(of: self) }
}

// NSObject's Hashable and CustomStringConvertible (RLMObjectBase's `isEqual:` and `hash`:
// objects are equal when they are the same object, or the same managed object).
extension ObjectBase: Hashable, CustomStringConvertible {
    public static func == (lhs: ObjectBase, rhs: ObjectBase) -> Bool {
        lhs === rhs || (lhs._mirrorRow._mirrorStore != nil && lhs._mirrorRow === rhs._mirrorRow)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(_mirrorRow._mirrorStore == nil ? self : _mirrorRow))
    }
}
