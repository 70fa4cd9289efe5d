import Foundation

// RealmSwift/MutableSet.swift
/// An unordered collection of distinct values, the type of `@Persisted var tags: MutableSet<String>`.
public final class MutableSet<Element: RealmCollectionValue> {
    // The mirror's storage: the distinct elements in insertion order, and the owning object.
    internal var _elements: [Element] = []
    internal weak var _mirrorOwner: ObjectBase?

    /// Creates a `MutableSet` that holds Realm model objects or primitive values.
    public init() {
    }

    /// The Realm which manages the set, or `nil` if the set is unmanaged.
    public var realm: Realm? { _mirrorOwner?._mirrorRealm }

    /// Whether the set can no longer be accessed.
    public var isInvalidated: Bool { _mirrorOwner?.isInvalidated ?? false }

    /// The number of objects in the set.
    public var count: Int { _elements.count }

    /// The object at the given position (sets are unordered: do not rely on the order).
    public subscript(position: Int) -> Element {
        throwForNegativeIndex(position)
        return _elements[position]
    }

    /// Whether the set contains the given object.
    public func contains(_ object: Element) -> Bool {
        _elements.contains(object)
    }

    /// Whether this set is a subset of the given set.
    public func isSubset(of possibleSuperset: MutableSet<Element>) -> Bool {
        _elements.allSatisfy(possibleSuperset.contains)
    }

    /// Whether this set intersects with another given set.
    public func intersects(_ otherSet: MutableSet<Element>) -> Bool {
        _elements.contains(where: otherSet.contains)
    }

    /// Inserts an object to the set if not already present.
    public func insert(_ object: Element) {
        _mirrorMutate { elements in
            if !elements.contains(object) { elements.append(object) }
        }
    }

    /// Inserts the given sequence of objects into the set if not already present.
    public func insert<S: Sequence>(objectsIn objects: S) where S.Iterator.Element == Element {
        let objects = Array(objects)
        _mirrorMutate { elements in
            for object in objects where !elements.contains(object) {
                elements.append(object)
            }
        }
    }

    /// Removes an object in the set if present. The object is not removed from the Realm.
    public func remove(_ object: Element) {
        _mirrorMutate { $0.removeAll { $0 == object } }
    }

    /// Removes all objects from the set. The objects are not removed from the Realm.
    public func removeAll() {
        _mirrorMutate { $0.removeAll() }
    }

    /// Keeps only the elements that are also in the given set.
    public func formIntersection(_ other: MutableSet<Element>) {
        let other = other._elements
        _mirrorMutate { $0.removeAll { !other.contains($0) } }
    }

    /// Removes the elements of the given set from this set.
    public func subtract(_ other: MutableSet<Element>) {
        let other = other._elements
        _mirrorMutate { $0.removeAll { other.contains($0) } }
    }

    /// Inserts the elements of the given set into this set.
    public func formUnion(_ other: MutableSet<Element>) {
        insert(objectsIn: other._elements)
    }

    /// Not available on an unordered collection (realm-swift aborts too).
    public func index(of object: Element) -> Int? {
        fatalError("index(of:) is not available on MutableSet")
    }

    public var description: String {
        "MutableSet<\(Element.self)> \(_elements)"
    }

    private func _mirrorMutate(_ change: (inout [Element]) -> Void) {
        _mirrorOwner?._mirrorCheckCollectionWrite()
        change(&_elements)
        if let store = _mirrorOwner?._mirrorRow._mirrorStore {
            store.adopt(self)
        }
    }
}

// RealmCollectionImpl: a RandomAccessCollection.
extension MutableSet: RandomAccessCollection {
    public typealias Index = Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { _elements.count }
    public func index(after i: Int) -> Int { i + 1 }
    public func index(before i: Int) -> Int { i - 1 }

    public func makeIterator() -> IndexingIterator<[Element]> {
        _elements.makeIterator()
    }
}

// RLMSwiftCollectionBase (Realm/RLMSwiftCollectionBase.h) is Equatable (`isEqual:`): the
// same collection.
extension MutableSet: Equatable {
    public static func == (lhs: MutableSet, rhs: MutableSet) -> Bool { lhs === rhs }
}

// RealmSwift/RealmCollection.swift (RealmCollectionBase: ThreadConfined; freeze/thaw left out,
// see ThreadSafeReference.swift).
extension MutableSet: ThreadConfined {
    public var isFrozen: Bool { false }
}

// RealmSwift/MutableSet.swift
extension MutableSet: Decodable where Element: Decodable {
    public convenience init(from decoder: Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            insert(try container.decode(Element.self))
        }
    }
}

extension MutableSet: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in _elements {
            try container.encode(element)
        }
    }
}
