import Foundation

// RealmSwift/Realm.swift
/// A Realm instance (also referred to as "a Realm"): the objects of one Realm file or
/// in-memory Realm. In the mirror every Realm lives in memory: Realms opened with the same
/// `inMemoryIdentifier` or `fileURL` within a process share their objects.
@frozen public struct Realm {
    internal let _store: MirrorStore

    internal init(store: MirrorStore) {
        _store = store
    }

    /// The schema of the Realm: the configuration's `objectTypes`, or the classes added so far.
    public var schema: Schema { _store.schema }

    /// The configuration used to open the Realm (the first opener's, for a shared Realm).
    public var configuration: Configuration { _store.configuration }

    /// Whether the Realm contains no objects.
    public var isEmpty: Bool { _store.objects.values.allSatisfy(\.isEmpty) }

    /// Obtains an instance of the default Realm (`Realm.Configuration.defaultConfiguration`).
    public init(queue: DispatchQueue? = nil) throws {
        try self.init(configuration: Configuration.defaultConfiguration, queue: queue)
    }

    /// Obtains a `Realm` instance with the given configuration; throws when a class of
    /// `configuration.objectTypes` is not a valid Realm model (as Realm's schema checks).
    public init(configuration: Configuration, queue: DispatchQueue? = nil) throws {
        _store = try MirrorStore.open(configuration)
    }

    /// Obtains a `Realm` instance persisted at a specified file URL.
    public init(fileURL: URL) throws {
        var configuration = Configuration.defaultConfiguration
        configuration.fileURL = fileURL
        try self.init(configuration: configuration)
    }

    // MARK: Transactions

    /// Performs actions contained within the given block inside a write transaction: commits
    /// when the block returns, cancels and rethrows when it throws.
    @discardableResult
    public func write<Result>(withoutNotifying tokens: [NotificationToken] = [], _ block: (() throws -> Result)) throws -> Result {
        beginWrite()
        let ret: Result
        do {
            ret = try block()
        } catch let error {
            if isInWriteTransaction { cancelWrite() }
            throw error
        }
        if isInWriteTransaction { try commitWrite(withoutNotifying: tokens) }
        return ret
    }

    /// Begins a write transaction on the Realm.
    public func beginWrite() {
        _store.beginWrite()
    }

    /// Commits all write operations in the current write transaction.
    public func commitWrite(withoutNotifying tokens: [NotificationToken] = []) throws {
        _store.commitWrite()
    }

    /// Reverts all writes made in the current write transaction and ends the transaction.
    /// Objects added in it are invalidated.
    public func cancelWrite() {
        _store.cancelWrite()
    }

    /// Whether the Realm is currently in a write transaction.
    public var isInWriteTransaction: Bool {
        return _store.isInWriteTransaction
    }

    // MARK: Adding and creating objects

    /// What to do when an object with the same primary key is added.
    @frozen public enum UpdatePolicy: Int {
        /// Throw an exception (the mirror: a precondition failure).
        case error = 1
        /// Overwrite only properties in the existing object which are different from the new values.
        case modified = 3
        /// Overwrite all properties in the existing object with the new values.
        case all = 2
    }

    @available(*, unavailable, message: "Pass .error, .modified or .all rather than a boolean. .error is equivalent to false and .all is equivalent to true.")
    public func add(_ object: Object, update: Bool) {
        fatalError()
    }

    /// Adds an unmanaged object, and the objects it links to, to this Realm. With `.modified`
    /// or `.all`, an object with an existing primary key updates the existing object (and the
    /// added object then stands for it).
    public func add(_ object: Object, update: UpdatePolicy = .error) {
        _store.checkWrite(MirrorStore.addRemoveMessage)
        var visited = Set<ObjectIdentifier>()
        _store.add(object, update: update, visited: &visited)
    }

    @available(*, unavailable, message: "Pass .error, .modified or .all rather than a boolean. .error is equivalent to false and .all is equivalent to true.")
    public func add<S: Sequence>(_ objects: S, update: Bool) where S.Iterator.Element: Object {
        fatalError()
    }

    /// Adds all the objects in a collection into the Realm.
    public func add<S: Sequence>(_ objects: S, update: UpdatePolicy = .error) where S.Iterator.Element: Object {
        for obj in objects {
            add(obj, update: update)
        }
    }

    /// Creates a Realm object with a given value (a dictionary, an array or an object),
    /// adding it to the Realm and returning it; with `.modified`/`.all` an existing object with
    /// the same primary key is updated with the given values and returned.
    @discardableResult
    public func create<T: Object>(_ type: T.Type, value: Any = [String: Any](), update: UpdatePolicy = .error) -> T {
        _store.checkWrite(MirrorStore.addRemoveMessage)
        return _store.create(type, value: value, update: update)
    }

    // MARK: Deleting objects

    /// Deletes an object from the Realm. Once the object is deleted it is considered invalidated.
    public func delete(_ object: ObjectBase) {
        _store.delete([object])
    }

    /// Deletes zero or more objects from the Realm.
    public func delete<S: Sequence>(_ objects: S) where S.Iterator.Element: ObjectBase {
        _store.delete(Array(objects))
    }

    /// Deletes the objects of a list from the Realm.
    public func delete<Element: ObjectBase>(_ objects: List<Element>) {
        _store.delete(Array(objects))
    }

    /// Deletes the objects of a map from the Realm.
    public func delete<Key: _MapKey, Value: ObjectBase>(_ map: Map<Key, Value?>) {
        _store.delete(map.values.compactMap { $0 })
    }

    /// Deletes the objects of a results from the Realm.
    public func delete<Element: ObjectBase>(_ objects: Results<Element>) {
        _store.delete(Array(objects))
    }

    /// Deletes all objects from the Realm.
    public func deleteAll() {
        _store.deleteAll()
    }

    // MARK: Object retrieval

    /// All objects of the given type (an `Object` subclass or a `Projection`) in the Realm.
    public func objects<Element: RealmFetchable>(_ type: Element.Type) -> Results<Element> {
        let store = _store
        let className = type.className()
        store.checkManaged(className)
        return Results(
            _source: MirrorResultsSource(store: store) {
                store.objects[className, default: []].compactMap { object -> Element? in
                    if let element = object as? Element {
                        return element
                    }
                    if let projection = Element.self as? any _MirrorProjectionType.Type {
                        return projection._mirrorMake(object) as? Element
                    }
                    return nil
                }
            })
    }

    /// The object of the given type with the given primary key, or `nil`.
    public func object<Element: Object, KeyType>(ofType type: Element.Type, forPrimaryKey key: KeyType) -> Element? {
        return _store.object(ofType: type, forPrimaryKey: key) as? Element
    }

    /// Refreshes the Realm (the mirror's Realms are always up to date).
    @discardableResult
    public func refresh() -> Bool {
        return false
    }

    /// Whether this Realm is frozen (never, in the mirror).
    public var isFrozen: Bool {
        return false
    }

    /// Whether a Realm exists for the given configuration.
    public static func fileExists(for config: Configuration) -> Bool {
        return MirrorStore.exists(config)
    }

    /// Deletes the Realm of the given configuration (the mirror: its in-memory data); `true`
    /// if there was one.
    public static func deleteFiles(for config: Configuration) throws -> Bool {
        return MirrorStore.remove(config)
    }
}

// RealmSwift/Realm.swift
extension Realm: Equatable {
    public static func == (lhs: Realm, rhs: Realm) -> Bool {
        return lhs._store === rhs._store
    }
}

// RealmSwift/Realm.swift
/// Objects which can be fetched from the Realm - Object or Projection
public protocol RealmFetchable: RealmCollectionValue {
    static func className() -> String
}

// RealmSwift/Realm.swift
extension Object: RealmFetchable {}

// RealmSwift/Realm.swift
extension Projection: RealmFetchable {
    public static func className() -> String {
        return Root.className()
    }
}
