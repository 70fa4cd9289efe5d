import Foundation

// RealmSwift/List.swift
/// An ordered collection, the type of to-many properties: `@Persisted var dogs: List<Dog>`.
/// Lists are reference types; a managed object's list holds managed objects, and changing it
/// needs a write transaction.
public final class List<Element: RealmCollectionValue> {
    // The mirror's storage: the elements, and the object whose property this list is.
    internal var _elements: [Element] = []
    internal weak var _mirrorOwner: ObjectBase?

    /// Creates a `List` that holds Realm model objects or primitive values.
    public init() {
    }

    /// The Realm which manages the list, or `nil` if the list is unmanaged.
    public var realm: Realm? { _mirrorOwner?._mirrorRealm }

    /// Whether the list can no longer be accessed.
    public var isInvalidated: Bool { _mirrorOwner?.isInvalidated ?? false }

    /// The number of objects in the list.
    public var count: Int { _elements.count }

    /// The object at the given index (get), or replaces the object at the given index (set).
    public subscript(position: Int) -> Element {
        get {
            throwForNegativeIndex(position)
            return _elements[position]
        }
        set {
            throwForNegativeIndex(position)
            _mirrorMutate { $0[position] = newValue }
        }
    }

    /// The index of an object in the list, or `nil` if the object is not present.
    public func index(of object: Element) -> Int? {
        _elements.firstIndex(of: object)
    }

    /// Appends the given object to the end of the list.
    public func append(_ object: Element) {
        _mirrorMutate { $0.append(object) }
    }

    /// Appends the objects in the given sequence to the end of the list.
    public func append<S: Sequence>(objectsIn objects: S) where S.Iterator.Element == Element {
        let objects = Array(objects)
        _mirrorMutate { $0.append(contentsOf: objects) }
    }

    /// Inserts an object at the given index.
    public func insert(_ object: Element, at index: Int) {
        throwForNegativeIndex(index)
        _mirrorMutate { $0.insert(object, at: index) }
    }

    /// Removes an object at the given index. The object is not removed from the Realm that
    /// manages it.
    public func remove(at index: Int) {
        throwForNegativeIndex(index)
        _mirrorMutate { $0.remove(at: index) }
    }

    /// Removes all objects from the list. The objects are not removed from the Realm that
    /// manages them.
    public func removeAll() {
        _mirrorMutate { $0.removeAll() }
    }

    /// Replaces an object at the given index with a new object.
    public func replace(index: Int, object: Element) {
        throwForNegativeIndex(index)
        _mirrorMutate { $0[index] = object }
    }

    /// Moves the object at the given source index to the given destination index.
    public func move(from: Int, to: Int) {
        throwForNegativeIndex(from)
        throwForNegativeIndex(to)
        _mirrorMutate { $0.insert($0.remove(at: from), at: to) }
    }

    /// Exchanges the objects in the list at given indices.
    public func swapAt(_ index1: Int, _ index2: Int) {
        throwForNegativeIndex(index1, parameterName: "index1")
        throwForNegativeIndex(index2, parameterName: "index2")
        _mirrorMutate { $0.swapAt(index1, index2) }
    }

    public var description: String {
        "List<\(Element.self)> \(_elements)"
    }

    private func _mirrorMutate(_ change: (inout [Element]) -> Void) {
        _mirrorOwner?._mirrorCheckCollectionWrite()
        change(&_elements)
        if let store = _mirrorOwner?._mirrorRow._mirrorStore {
            store.adopt(self)
        }
    }
}

// RealmSwift/List.swift
extension List {
    /// Replace the given `subRange` of elements with `newElements`.
    public func replaceSubrange<C: Collection, R>(_ subrange: R, with newElements: C)
    where C.Iterator.Element == Element, R: RangeExpression, List<Element>.Index == R.Bound {
        let subrange = subrange.relative(to: self)
        let newElements = Array(newElements)
        _mirrorMutate { $0.replaceSubrange(subrange, with: newElements) }
    }
}

// RealmSwift/List.swift (and RealmCollectionImpl: a RandomAccessCollection).
extension List: MutableCollection, RandomAccessCollection {
    public typealias Index = Int
    public typealias SubSequence = Slice<List>

    public var startIndex: Int { 0 }
    public var endIndex: Int { _elements.count }
    public func index(after i: Int) -> Int { i + 1 }
    public func index(before i: Int) -> Int { i - 1 }

    /// The objects at the given range (get), or replaces them (set).
    public subscript(bounds: Range<Int>) -> SubSequence {
        get {
            return SubSequence(base: self, bounds: bounds)
        }
        set {
            replaceSubrange(bounds.lowerBound..<bounds.upperBound, with: newValue)
        }
    }

    /// Removes the specified number of objects from the beginning of the list.
    public func removeFirst(_ number: Int = 1) {
        throwForNegativeIndex(number)
        precondition(number <= count, "It is not possible to remove more objects (\(number)) from a list than it already contains (\(count)).")
        _mirrorMutate { $0.removeFirst(number) }
    }

    /// Removes the specified number of objects from the end of the list.
    public func removeLast(_ number: Int = 1) {
        throwForNegativeIndex(number)
        precondition(number <= count, "It is not possible to remove more objects (\(number)) from a list than it already contains (\(count)).")
        _mirrorMutate { $0.removeLast(number) }
    }

    /// Inserts the items in the given collection into the list at the given position.
    public func insert<C: Collection>(contentsOf newElements: C, at i: Int) where C.Iterator.Element == Element {
        let newElements = Array(newElements)
        _mirrorMutate { $0.insert(contentsOf: newElements, at: i) }
    }

    /// Removes objects from the list at the given range.
    public func removeSubrange<R>(_ boundsExpression: R) where R: RangeExpression, List<Element>.Index == R.Bound {
        let bounds = boundsExpression.relative(to: self)
        _mirrorMutate { $0.removeSubrange(bounds) }
    }

    public func makeIterator() -> IndexingIterator<[Element]> {
        _elements.makeIterator()
    }
}

// RLMSwiftCollectionBase (Realm/RLMSwiftCollectionBase.h) is Equatable (`isEqual:`): the
// same collection.
extension List: Equatable {
    public static func == (lhs: List, rhs: List) -> Bool { lhs === rhs }
}

// RealmSwift/RealmCollection.swift (RealmCollectionBase: ThreadConfined; freeze/thaw left out,
// see ThreadSafeReference.swift).
extension List: ThreadConfined {
    public var isFrozen: Bool { false }
}

// RealmSwift/List.swift
extension List: Decodable where Element: Decodable {
    public convenience init(from decoder: Decoder) throws {
        self.init()
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            append(try container.decode(Element.self))
        }
    }
}

extension List: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in _elements {
            try container.encode(element)
        }
    }
}

/// realm-swift's check of a negative index (RealmSwift/Util.swift).
internal func throwForNegativeIndex(_ int: Int, parameterName: String = "index") {
    if int < 0 {
        preconditionFailure("Cannot pass a negative value for '\(parameterName)'.")
    }
}
