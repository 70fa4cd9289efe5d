import Foundation

// RealmSwift/Results.swift
/// Types of properties which can be used with the minimum and maximum value APIs.
@_marker public protocol MinMaxType {}
extension Double: MinMaxType {}
extension Float: MinMaxType {}
extension Int: MinMaxType {}
extension Int8: MinMaxType {}
extension Int16: MinMaxType {}
extension Int32: MinMaxType {}
extension Int64: MinMaxType {}
extension Date: MinMaxType {}
extension Decimal128: MinMaxType {}
extension AnyRealmValue: MinMaxType {}
extension Optional: MinMaxType where Wrapped: MinMaxType {}

// RealmSwift/Results.swift
/// The objects of a type in a Realm (`realm.objects(Dog.self)`), always up to date: each
/// access reads the Realm's current objects.
@frozen public struct Results<Element: RealmCollectionValue>: Equatable {
    internal let _source: MirrorResultsSource<Element>

    internal init(_source: MirrorResultsSource<Element>) {
        self._source = _source
    }

    public var description: String {
        "Results<\(Element.self)> \(_source.elements())"
    }

    /// The Realm which manages the results.
    public var realm: Realm? { _source.store.map { Realm(store: $0) } }

    /// Whether the results can no longer be accessed (never, in the mirror).
    public var isInvalidated: Bool { false }

    /// The number of objects.
    public var count: Int { _source.elements().count }

    /// The object at the given `index`.
    public subscript(position: Int) -> Element {
        throwForNegativeIndex(position)
        return _source.elements()[position]
    }

    /// The index of an object in the results, or `nil` if the object is not present.
    public func index(of object: Element) -> Int? {
        _source.elements().firstIndex(of: object)
    }

    public static func == (lhs: Results<Element>, rhs: Results<Element>) -> Bool {
        lhs._source === rhs._source
    }

    /// A snapshot of the results, as for-in enumerates them.
    public func makeIterator() -> IndexingIterator<[Element]> {
        _source.elements().makeIterator()
    }
}

// RealmCollectionImpl: a RandomAccessCollection.
extension Results: RandomAccessCollection, ThreadConfined {
    public typealias Index = Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public func index(after i: Int) -> Int { i + 1 }
    public func index(before i: Int) -> Int { i - 1 }
    public var isFrozen: Bool { false }
}

// RealmSwift/Results.swift
extension Results: Encodable where Element: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for element in _source.elements() {
            try container.encode(element)
        }
    }
}

/// Where a `Results` reads its objects from (mirror internals).
@usableFromInline
internal final class MirrorResultsSource<Element> {
    let store: MirrorStore?
    let elements: () -> [Element]

    init(store: MirrorStore?, elements: @escaping () -> [Element]) {
        self.store = store
        self.elements = elements
    }
}
