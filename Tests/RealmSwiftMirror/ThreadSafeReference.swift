import Foundation

// RealmSwift/ThreadSafeReference.swift. realm-swift's protocol also requires
// `func freeze() -> Self` and `func thaw() -> Self?`; the mirror has no frozen Realms and
// leaves them out (so `freeze()`/`thaw()` calls do not compile against it).
/// Objects of types which are confined to the thread of the Realm that manages them.
public protocol ThreadConfined {
    /// The Realm which manages the object, or `nil` if the object is unmanaged.
    var realm: Realm? { get }
    /// Whether the object can no longer be accessed.
    var isInvalidated: Bool { get }
    /// Whether the object is frozen.
    var isFrozen: Bool { get }
}
