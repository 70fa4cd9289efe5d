import Foundation

// RealmSwift/RealmCollection.swift
/// A type which can be stored in a Realm List, MutableSet, Map, or Results.
public protocol RealmCollectionValue: Hashable, _HasPersistedType where PersistedType: RealmCollectionValue {
    /// The zero/empty/nil value of this type.
    static func _rlmDefaultValue() -> Self
}

// RealmSwift/RealmCollection.swift
/// A type which can appear inside Optional in a collection (`List<Int?>`).
public protocol _RealmCollectionValueInsideOptional: RealmCollectionValue where PersistedType: _RealmCollectionValueInsideOptional {}

extension Int: _RealmCollectionValueInsideOptional {}
extension Int8: _RealmCollectionValueInsideOptional {}
extension Int16: _RealmCollectionValueInsideOptional {}
extension Int32: _RealmCollectionValueInsideOptional {}
extension Int64: _RealmCollectionValueInsideOptional {}
extension Float: _RealmCollectionValueInsideOptional {}
extension Double: _RealmCollectionValueInsideOptional {}
extension Bool: _RealmCollectionValueInsideOptional {}
extension String: _RealmCollectionValueInsideOptional {}
extension Date: _RealmCollectionValueInsideOptional {}
extension Data: _RealmCollectionValueInsideOptional {}
extension Decimal128: _RealmCollectionValueInsideOptional {}
extension ObjectId: _RealmCollectionValueInsideOptional {}
extension UUID: _RealmCollectionValueInsideOptional {}
extension AnyRealmValue: RealmCollectionValue {}

// RealmSwift/RealmCollection.swift
extension Optional: RealmCollectionValue where Wrapped: _RealmCollectionValueInsideOptional {
    public static func _rlmDefaultValue() -> Self {
        return .none
    }
}

// RealmSwift/RealmCollection.swift
/// The key and value types of a map entry.
public protocol _RealmMapValue {
    associatedtype Key: _MapKey
    associatedtype Value: RealmCollectionValue
}

// RealmSwift/RealmCollection.swift. realm-swift's `ProjectedCollection` is backed by the
// projected collection and the key path; the mirror reads the collection on each access.
/// A collection of the values at a key path of the objects of a List or MutableSet, as
/// `@Projected(\Person.dogs.projectTo.name) var dogNames: ProjectedCollection<String>` gives.
public struct ProjectedCollection<Element>: RandomAccessCollection, CustomStringConvertible, ThreadConfined where Element: RealmCollectionValue {
    public typealias Index = Int
    internal let _elements: () -> [Element]
    internal let _owner: () -> ObjectBase?

    public var startIndex: Int { 0 }
    public var endIndex: Int { _elements().count }
    public subscript(position: Int) -> Element { _elements()[position] }
    public func index(after i: Int) -> Int { i + 1 }
    public func index(before i: Int) -> Int { i - 1 }

    public var description: String { "ProjectedCollection<\(Element.self)> \(_elements())" }
    public var realm: Realm? { _owner()?._mirrorRow._mirrorStore.map { Realm(store: $0) } }
    public var isInvalidated: Bool { _owner()?.isInvalidated ?? false }
    public var isFrozen: Bool { false }
}

// RealmSwift/RealmCollection.swift
/// Maps a collection of objects to the values at a key path of its objects (`projectTo`).
@dynamicMemberLookup
public struct CollectionElementMapper<Element> where Element: ObjectBase & RealmCollectionValue {
    internal let _elements: () -> [Element]
    internal let _owner: () -> ObjectBase?

    public subscript<V>(dynamicMember member: KeyPath<Element, V>) -> ProjectedCollection<V> {
        let elements = _elements
        return ProjectedCollection(_elements: { elements().map { $0[keyPath: member] } }, _owner: _owner)
    }
}

// RealmSwift/RealmCollection.swift
extension List where Element: ObjectBase & RealmCollectionValue {
    /// Maps the list's objects to the values at a key path, for `@Projected`.
    public var projectTo: CollectionElementMapper<Element> {
        CollectionElementMapper(_elements: { [self] in self._elements }, _owner: { [weak self] in self?._mirrorOwner })
    }
}

// RealmSwift/RealmCollection.swift
extension MutableSet where Element: ObjectBase & RealmCollectionValue {
    /// Maps the set's objects to the values at a key path, for `@Projected`.
    public var projectTo: CollectionElementMapper<Element> {
        CollectionElementMapper(_elements: { [self] in self._elements }, _owner: { [weak self] in self?._mirrorOwner })
    }
}
