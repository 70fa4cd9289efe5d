import Foundation

// RealmSwift/Migration.swift
/// The type of a migration block used to migrate a Realm.
public typealias MigrationBlock = @Sendable (_ migration: Migration, _ oldSchemaVersion: UInt64) -> Void

// RealmSwift/Migration.swift
/// An object of a migration: reached through subscripting.
public typealias MigrationObject = DynamicObject

// RealmSwift/Migration.swift
/// A block which provides both the old and new versions of an object in the Realm.
public typealias MigrationObjectEnumerateBlock = (_ oldObject: MigrationObject?, _ newObject: MigrationObject?) -> Void

// RealmSwift/Migration.swift: `public typealias Migration = RLMMigration` (Realm/RLMMigration.h).
// It follows Realm/RLMMigration.mm. The mirror runs migrations in `MigrationTestBench.migrate(with:)`
// (TestingSupport.swift); opening a Realm with a higher schema version does not run one.
/// Gives a migration block access to the old and new objects.
public final class Migration {
    internal let _engine: MirrorMigrationEngine

    internal init(_engine: MirrorMigrationEngine) {
        self._engine = _engine
    }

    /// The schema of the Realm before the migration: the old objects' types and properties,
    /// as `MigrationTestBench.addOld` gave them (primary keys as its `oldPrimaryKeys`).
    public var oldSchema: Schema { _engine.oldSchema }

    /// The schema of the Realm after the migration: the configuration's `objectTypes`.
    public var newSchema: Schema { _engine.newSchema }

    /// Enumerates the objects of a type, giving the old and new version of each: for a type
    /// only in the new schema, the objects created in the migration (old is nil); for a type
    /// only in the old schema, the old objects (new is nil); otherwise the old objects whose
    /// new object has not been deleted.
    public func enumerateObjects(ofType typeName: String, _ block: MigrationObjectEnumerateBlock) {
        _engine.enumerateObjects(ofType: typeName, block)
    }

    /// Creates and returns an object of type `typeName` in the Realm being migrated, from a
    /// dictionary or an array of values (missing properties get their defaults).
    @discardableResult
    public func create(_ typeName: String, value: Any = [Any]()) -> MigrationObject {
        return _engine.create(typeName, value: value)
    }

    /// Deletes an object from a Realm during a migration.
    public func delete(_ object: MigrationObject) {
        _engine.delete(object)
    }

    /// Deletes the data for the class with the given name; `true` if there was a table.
    @discardableResult
    public func deleteData(forType typeName: String) -> Bool {
        return _engine.deleteData(forType: typeName)
    }

    /// Renames a property of the given class from `oldName` to `newName`: the new property
    /// receives the old property's values.
    public func renameProperty(onType typeName: String, from oldName: String, to newName: String) {
        _engine.renameProperty(onType: typeName, from: oldName, to: newName)
    }
}
