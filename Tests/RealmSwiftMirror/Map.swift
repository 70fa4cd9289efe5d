import Foundation

// RealmSwift/Map.swift
/// A key type of a `Map`: only `String`.
public protocol _MapKey: Hashable, _ObjcBridgeable {
    static var _rlmType: PropertyType { get }
}

// RealmSwift/Map.swift
extension String: _MapKey {}

// RealmSwift/Map.swift
/// A key-value collection, the type of `@Persisted var scores: Map<String, Int>`. Keys are
/// `String`s; object values must be optional (`Map<String, Dog?>`).
public final class Map<Key: _MapKey, Value: RealmCollectionValue> {
    // The mirror's storage: the keys in insertion order, the values, and the owning object.
    internal var _keys: [Key] = []
    internal var _values: [Key: Value] = [:]
    internal weak var _mirrorOwner: ObjectBase?

    /// The Realm which manages the map, or `nil` if the map is unmanaged.
    public var realm: Realm? { _mirrorOwner?._mirrorRealm }

    /// Whether the map can no longer be accessed.
    public var isInvalidated: Bool { _mirrorOwner?.isInvalidated ?? false }

    /// The keys of the map.
    public var keys: [Key] { _keys }

    /// The values of the map, in the order of `keys`.
    public var values: [Value] { _keys.map { _values[$0]! } }

    /// Creates an empty `Map`.
    public init() {
    }

    /// The number of key-value pairs in the map.
    public var count: Int { _keys.count }

    /// Updates the value stored in the map for the given key, or adds a new key-value pair.
    public func updateValue(_ value: Value, forKey key: Key) {
        _mirrorMutate { $0._store(value, forKey: key) }
    }

    /// Merges the given sequence of key-value pairs into the map.
    public func merge<S>(_ sequence: S, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows
    where S: Sequence, S.Element == (key: Key, value: Value) {
        for (key, value) in sequence {
            let merged = try _values[key].map { try combine($0, value) } ?? value
            updateValue(merged, forKey: key)
        }
    }

    /// Merges the given map into this map.
    public func merge(_ other: Map<Key, Value>, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        try merge(other.asKeyValueSequence().map { (key: $0.key, value: $0.value) }, uniquingKeysWith: combine)
    }

    /// Removes the given key and its value from the map.
    public func removeObject(for key: Key) {
        _mirrorMutate { $0._remove(key) }
    }

    /// Removes all key-value pairs from the map.
    public func removeAll() {
        _mirrorMutate { map in
            map._keys.removeAll()
            map._values.removeAll()
        }
    }

    /// The value for a given key (get), or sets a value for a key; setting nil removes the key.
    public subscript(key: Key) -> Value? {
        get {
            return _values[key]
        }
        set {
            _mirrorMutate { map in
                if let newValue {
                    map._store(newValue, forKey: key)
                } else {
                    map._remove(key)
                }
            }
        }
    }

    /// Adds a given key-value pair to the map or updates a given key should it already exist
    /// (the value converted to `Value`, as realm-swift's key-value coding does).
    public func setValue(_ value: Any?, forKey key: String) {
        guard let key = Key._rlmFromObjc(key, insideOptional: false),
            let converted = Value._rlmFromObjc(mirrorFlatten(value) ?? NSNull(), insideOptional: false)
        else {
            preconditionFailure("Could not set '\(String(describing: value))' for key '\(key)' in a Map<\(Key.self), \(Value.self)>.")
        }
        updateValue(converted, forKey: key)
    }

    /// Whether the map contains a key-value pair satisfying the predicate.
    public func contains(where predicate: @escaping (_ key: Key, _ value: Value) -> Bool) -> Bool {
        _keys.contains { predicate($0, _values[$0]!) }
    }

    public var description: String {
        "Map<\(Key.self), \(Value.self)> [\(_keys.map { "\($0): \(_values[$0]!)" }.joined(separator: ", "))]"
    }

    internal func _store(_ value: Value, forKey key: Key) {
        if _values.updateValue(value, forKey: key) == nil {
            _keys.append(key)
        }
    }

    internal func _remove(_ key: Key) {
        if _values.removeValue(forKey: key) != nil {
            _keys.removeAll { $0 == key }
        }
    }

    private func _mirrorMutate(_ change: (Map) -> Void) {
        _mirrorOwner?._mirrorCheckCollectionWrite()
        change(self)
        if let store = _mirrorOwner?._mirrorRow._mirrorStore {
            store.adopt(self)
        }
    }
}

// RealmSwift/Map.swift
extension Map: Decodable where Key: Decodable, Value: Decodable {
    public convenience init(from decoder: Decoder) throws {
        self.init()
        let container = try decoder.singleValueContainer()
        let dictionary = try container.decode([Key: Value].self)
        for (key, value) in dictionary {
            _store(value, forKey: key)
        }
    }
}

// RealmSwift/Map.swift
extension Map: Encodable where Key: Encodable, Value: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(_values)
    }
}

// RealmSwift/Map.swift
extension Map: Sequence {
    /// Iterates the map's entries: `for entry in map { entry.key; entry.value }`.
    public func makeIterator() -> RLMMapIterator<SingleMapEntry<Key, Value>> {
        return RLMMapIterator(_entries: _keys.map { SingleMapEntry(key: $0, value: _values[$0]!) })
    }
}

// RealmSwift/Map.swift
extension Map {
    /// A sequence of `(key: Key, value: Value)` tuples of the map.
    public struct KeyValueSequence: Sequence {
        internal let _entries: [(key: Key, value: Value)]

        public func makeIterator() -> RLMKeyValueIterator<Key, Value> {
            return RLMKeyValueIterator(_entries: _entries)
        }
    }

    /// The map's entries as `(key: Key, value: Value)` tuples.
    public func asKeyValueSequence() -> KeyValueSequence {
        return KeyValueSequence(_entries: _keys.map { (key: $0, value: _values[$0]!) })
    }
}

// RLMSwiftCollectionBase (Realm/RLMSwiftCollectionBase.h) is Equatable (`isEqual:`): the
// same collection.
extension Map: Equatable {
    public static func == (lhs: Map, rhs: Map) -> Bool { lhs === rhs }
}

// RealmSwift/RealmCollection.swift (RealmCollectionBase: ThreadConfined; freeze/thaw left out,
// see ThreadSafeReference.swift).
extension Map: ThreadConfined {
    public var isFrozen: Bool { false }
}

// RealmSwift/Map.swift
/// One entry of a `Map`: its key and value.
public struct SingleMapEntry<Key: _MapKey, Value: RealmCollectionValue>: _RealmMapValue, Hashable {
    public static func == (lhs: SingleMapEntry, rhs: SingleMapEntry) -> Bool {
        return lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }

    public var key: Self.Key
    public var value: Self.Value
}

// RealmSwift/RealmCollection.swift
/// An iterator over a `Map`'s entries.
@frozen public struct RLMMapIterator<Element: _RealmMapValue>: IteratorProtocol {
    internal var _entries: [Element]
    internal var _index = 0

    internal init(_entries: [Element]) {
        self._entries = _entries
    }

    public mutating func next() -> Element? {
        guard _index < _entries.count else { return nil }
        defer { _index += 1 }
        return _entries[_index]
    }
}

// RealmSwift/RealmCollection.swift
/// An iterator over a `Map`'s entries as `(key: Key, value: Value)` tuples.
@frozen public struct RLMKeyValueIterator<Key: _MapKey, Value: RealmCollectionValue>: IteratorProtocol {
    public typealias Element = (key: Key, value: Value)
    internal var _entries: [Element]
    internal var _index = 0

    internal init(_entries: [Element]) {
        self._entries = _entries
    }

    public mutating func next() -> Element? {
        guard _index < _entries.count else { return nil }
        defer { _index += 1 }
        return _entries[_index]
    }
}
