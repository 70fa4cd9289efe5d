import Foundation

// RealmSwift/LinkingObjects.swift
/// The objects that link to the owning object through a property:
/// `@Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>`. Computed from
/// the Realm on each access (empty while the owner is unmanaged).
@frozen public struct LinkingObjects<Element: ObjectBase & RealmCollectionValue> {
    internal var propertyName: String
    internal var _owner: ObjectBase?

    /// Creates an instance of a `LinkingObjects`. This initializer should only be called when
    /// declaring a property on a Realm model.
    public init(fromType _: Element.Type, property propertyName: String) {
        self.propertyName = propertyName
    }

    public var description: String {
        "LinkingObjects<\(Element.className())> \(_mirrorElements)"
    }

    /// The Realm which manages the owning object.
    public var realm: Realm? { _owner?._mirrorRealm }

    /// Whether the owning object was deleted.
    public var isInvalidated: Bool { _owner?.isInvalidated ?? false }

    /// The number of linking objects.
    public var count: Int { _mirrorElements.count }

    /// The object at the given `index`.
    public subscript(index: Int) -> Element {
        throwForNegativeIndex(index)
        return _mirrorElements[index]
    }

    /// The index of an object among the linking objects, or `nil`.
    public func index(of object: Element) -> Int? {
        _mirrorElements.firstIndex(of: object)
    }

    public static func == (lhs: LinkingObjects<Element>, rhs: LinkingObjects<Element>) -> Bool {
        lhs.propertyName == rhs.propertyName && lhs._owner?._mirrorRow === rhs._owner?._mirrorRow
    }

    /// A snapshot of the linking objects, as for-in enumerates them.
    public func makeIterator() -> IndexingIterator<[Element]> {
        _mirrorElements.makeIterator()
    }

    internal var _mirrorElements: [Element] {
        guard let owner = _owner, let store = owner._mirrorRow._mirrorStore else { return [] }
        return store.linkingObjects(to: owner, fromClass: Element.className(), property: propertyName).compactMap { $0 as? Element }
    }
}

// RealmCollectionImpl: a RandomAccessCollection.
extension LinkingObjects: RandomAccessCollection, Equatable, ThreadConfined {
    public typealias Index = Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public func index(after i: Int) -> Int { i + 1 }
    public func index(before i: Int) -> Int { i - 1 }
    public var isFrozen: Bool { false }
}

extension LinkingObjects: _MirrorLinkingObjects {
    var _mirrorPropertyName: String { propertyName }
    static var _mirrorElementClassName: String { Element.className() }

    func _mirrorBound(to owner: ObjectBase) -> Any {
        var bound = self
        bound._owner = owner
        return bound
    }
}
