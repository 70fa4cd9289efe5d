import Foundation

// MARK: - TEST-ONLY API of RealmSwiftMirror — NOT realm-swift API
//
// Everything in this file exists only in the mirror, for tests. Real Realm has no
// `MigrationTestBench`, `RealmMirrorError` or `RealmSwiftMirrorTesting`: code meant to build
// against realm-swift must not use them.

/// TEST-ONLY (not realm-swift API). Models what Realm does when a Realm file at an old
/// schema version is opened with a configuration whose `schemaVersion` is higher:
/// ```swift
/// let bench = MigrationTestBench(oldSchemaVersion: 1)
/// let rex = bench.addOld("Dog", ["name": "Rex"])
/// bench.addOld("Person", ["first": "Ada", "dogs": [rex]])
/// let realm = try bench.migrate(with: Realm.Configuration(schemaVersion: 2, migrationBlock: { migration, old in
///     migration.renameProperty(onType: "Person", from: "first", to: "firstName")
/// }, objectTypes: [Person.self, Dog.self]))
/// ```
/// `migrate(with:)` builds the new objects by Realm's automatic rules (the new schema is
/// `configuration.objectTypes`; a property keeps the old value of its name when that value is
/// of the property's type, links map to the new objects, a single value added to existing
/// objects takes its type's zero (0, "", 1970, the zero UUID; nil when optional), as realm-core
/// adds a column, not the class's default (realm-swift issue #1793), collections start empty;
/// old types the new schema lacks are dropped), runs
/// `configuration.migrationBlock(migration, oldSchemaVersion)`, checks what Realm checks
/// (errors Realm would throw inside the block, duplicate primary keys), and returns a fresh
/// in-memory Realm (`configuration.inMemoryIdentifier`, or a unique one) holding the new
/// objects as instances of the configuration's classes.
public final class MigrationTestBench {
    private let oldSchemaVersion: UInt64
    private let oldPrimaryKeys: [String: String]
    private var oldObjects: [DynamicObject] = []

    /// A bench for a Realm at `oldSchemaVersion`. `oldPrimaryKeys` names the primary key
    /// property of old types that had one (type name → property name), as
    /// `migration.oldSchema[type]?.primaryKeyProperty` reports it; by default none had.
    public init(oldSchemaVersion: UInt64, oldPrimaryKeys: [String: String] = [:]) {
        self.oldSchemaVersion = oldSchemaVersion
        self.oldPrimaryKeys = oldPrimaryKeys
    }

    /// Adds an object of the old schema of type `typeName`. Values: String, Int (any width),
    /// Double, Float, Bool, Date, Data, UUID, ObjectId, Decimal128, NSNull/nil, a
    /// `DynamicObject` returned by `addOld` (a to-one link), `[DynamicObject]` (a list of
    /// links), `[Any]` (a list of values), `Set<AnyHashable>` (a set), `[String: Any]` (a map).
    /// The old schema of a type is the union of its objects' keys.
    @discardableResult
    public func addOld(_ typeName: String, _ values: [String: Any?]) -> DynamicObject {
        let object = DynamicObject()
        object._mirrorTypeName = typeName
        object._mirrorRole = .old
        for (key, value) in values {
            object._mirrorValues[key] = MirrorMigrationEngine.oldValue(value)
        }
        oldObjects.append(object)
        return object
    }

    /// Runs the migration Realm runs when opening the old Realm with `configuration` (see the
    /// type's documentation); throws a `RealmMirrorError` with Realm's message where Realm
    /// would throw (or abort) instead of opening the Realm.
    public func migrate(with configuration: Realm.Configuration) throws -> Realm {
        guard let types = configuration.objectTypes else {
            throw RealmMirrorError("MigrationTestBench needs configuration.objectTypes: the mirror cannot discover every Object subclass as Realm does.")
        }
        let schemas = try MirrorObjectSchema.validated(types)
        let newVersion = configuration.schemaVersion
        if newVersion < oldSchemaVersion {
            throw RealmMirrorError("Provided schema version \(newVersion) is less than last set version \(oldSchemaVersion).")
        }
        let engine = MirrorMigrationEngine(oldObjects: oldObjects, schemas: schemas, order: types.map { $0.className() }, oldPrimaryKeys: oldPrimaryKeys)
        let changes = engine.schemaChanges()
        let needed = newVersion != oldSchemaVersion || !changes.isEmpty
        var target = configuration
        if target.inMemoryIdentifier == nil {
            target.inMemoryIdentifier = "MigrationTestBench-\(UUID().uuidString)"
        }
        MirrorStore.remove(target)
        if needed && configuration.deleteRealmIfMigrationNeeded {
            return try Realm(configuration: target)
        }
        if !changes.isEmpty && newVersion == oldSchemaVersion {
            throw RealmMirrorError("Migration is required due to the following errors:\n- " + changes.joined(separator: "\n- "))
        }
        if needed && configuration.readOnly {
            throw RealmMirrorError("Realm at schema version \(oldSchemaVersion) needs a migration to version \(newVersion) and cannot be opened read-only.")
        }
        engine.buildNewObjects()
        if newVersion > oldSchemaVersion, let block = configuration.migrationBlock {
            block(Migration(_engine: engine), oldSchemaVersion)
        }
        if let first = engine.errors.first {
            let more = engine.errors.count > 1 ? " (and \(engine.errors.count - 1) more: \(engine.errors.dropFirst().joined(separator: " | ")))" : ""
            throw RealmMirrorError(first + more)
        }
        try engine.checkPrimaryKeys()
        let migrated = try engine.materialise()
        target.readOnly = false
        let realm = try Realm(configuration: target)
        realm.beginWrite()
        realm._store.insertMigrated(migrated)
        try realm.commitWrite()
        return realm
    }
}

/// TEST-ONLY (not realm-swift API). What the mirror throws where Realm throws an `NSError` or
/// an Objective-C exception that Swift code could see: invalid schemas when opening a Realm,
/// invalid `ObjectId`/`Decimal128` strings, and the failures of `MigrationTestBench`.
public struct RealmMirrorError: Error, CustomStringConvertible, LocalizedError {
    /// The message, Realm's where Realm has one.
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
    public var errorDescription: String? { message }
}

/// TEST-ONLY (not realm-swift API). Controls the mirror's process-wide state.
public enum RealmSwiftMirrorTesting {
    /// Forgets every Realm of the process (what deleting all Realm files would do), so that
    /// the next `Realm(configuration:)` starts empty.
    public static func removeAllRealms() {
        MirrorStore.removeAll()
    }
}
