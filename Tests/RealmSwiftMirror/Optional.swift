import Foundation

// RealmSwift/Optional.swift (the deprecated `RealmOptional` class is not mirrored: with
// `@Persisted`, optionals are plain `T?`).
/// A type which can be stored in a legacy `RealmOptional`.
public protocol RealmOptionalType: _ObjcBridgeable {
}

extension Int: RealmOptionalType {}
extension Int8: RealmOptionalType {}
extension Int16: RealmOptionalType {}
extension Int32: RealmOptionalType {}
extension Int64: RealmOptionalType {}
extension Float: RealmOptionalType {}
extension Double: RealmOptionalType {}
extension Bool: RealmOptionalType {}
