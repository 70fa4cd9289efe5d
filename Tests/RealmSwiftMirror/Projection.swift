import Foundation

// RealmSwift/Projection.swift
private protocol AnyProjected {
    var projectedKeyPath: AnyKeyPath { get }
}

// RealmSwift/Projection.swift
/// Declares a property of a `Projection` which reads (and writes, for writable key paths) the
/// root object's value at a key path: `@Projected(\Person.firstName) var name: String`.
@propertyWrapper
public struct Projected<T: ObjectBase, Value>: AnyProjected {
    fileprivate var _projectedKeyPath: KeyPath<T, Value>

    var projectedKeyPath: AnyKeyPath {
        _projectedKeyPath
    }

    @available(*, unavailable, message: "@Persisted can only be used as a property on a Realm object")
    public var wrappedValue: Value {
        get { fatalError("called wrappedValue getter") }
        set { fatalError("called wrappedValue setter") }
    }

    public static subscript<EnclosingSelf: Projection<T>>(
        _enclosingInstance observed: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Self>
    ) -> Value {
        get {
            let storage = observed[keyPath: storageKeyPath]
            return observed.rootObject[keyPath: storage._projectedKeyPath]
        }
        set {
            guard let keyPath = observed[keyPath: storageKeyPath].projectedKeyPath as? WritableKeyPath<T, Value> else {
                preconditionFailure("KeyPath is not writable")
            }
            var obj = observed.rootObject
            obj[keyPath: keyPath] = newValue
        }
    }

    /// Declares a projected property reading `projectedKeyPath` of the root object.
    public init(_ projectedKeyPath: KeyPath<T, Value>) {
        self._projectedKeyPath = projectedKeyPath
    }
}

// RealmSwift/Projection.swift
/// A type of projection with a root object.
public protocol ProjectionObservable: AnyObject, ThreadConfined {
    associatedtype Root: ObjectBase
    var rootObject: Root { get }
    init(projecting object: Root)
}

// RealmSwift/Projection.swift
/// A light weight view of a Realm object's properties:
/// ```swift
/// class PersonProjection: Projection<Person> {
///     @Projected(\Person.firstName) var firstName: String
/// }
/// let people: Results<PersonProjection> = realm.objects(PersonProjection.self)
/// ```
open class Projection<Root: ObjectBase & RealmCollectionValue & ThreadConfined>: RealmCollectionValue, ProjectionObservable {
    public typealias PersistedType = Root

    /// The object being projected.
    public let rootObject: Root

    /// Create a new projection.
    public required init(projecting object: Root) {
        self.rootObject = object
    }

    public static func == (lhs: Projection, rhs: Projection) -> Bool {
        lhs.rootObject == rhs.rootObject
    }

    public func hash(into hasher: inout Hasher) {
        let hashVal = rootObject.hashValue
        hasher.combine(hashVal)
    }

    open var description: String {
        return "\(type(of: self))<\(type(of: rootObject))> \(rootObject)"
    }

    public static func _rlmDefaultValue() -> Self {
        fatalError()
    }
}

// RealmSwift/Projection.swift
extension Projection: ThreadConfined where Root: ThreadConfined {
    /// The Realm which manages the root object.
    public var realm: Realm? {
        rootObject.realm
    }

    /// Whether the root object was deleted.
    public var isInvalidated: Bool {
        return rootObject.isInvalidated
    }

    /// Whether the root object is frozen.
    public var isFrozen: Bool {
        return realm?.isFrozen ?? false
    }
}

extension Projection: _MirrorProjectionType {
    static func _mirrorMake(_ root: ObjectBase) -> Any? {
        (root as? Root).map { Self(projecting: $0) }
    }
}
