import Foundation
import RemodelCore
import RemodelLayout
import RemodelMigrate
import RemodelStore

/// A store in a PostgreSQL schema, read and written through the generated models: the same
/// `PersistentModel` / `KeyedModel` conformances, `Filter`s and `Ordering`s as `RemodelStore`,
/// for a server app whose objects live in PostgreSQL.
///
/// ```swift
/// let store = try PostgresModelStore(at: PostgresTarget(url), manifest: AppSchema.self, migrate: true)
/// try store.write { tx in try tx.insert(note) }
/// let notes = try store.read { db in try db.objects(Note.self, where: Note.Columns.content.contains("milk")) }
/// ```
///
/// One connection, used by one caller at a time (calls are serialised); a server opens one
/// store per worker, as it would a connection. Every `write` is one transaction whose links
/// are checked when it commits: a link to a missing object fails it, naming both ends, and
/// changes nothing. Deleting an object removes it from every list and set and sets to-one
/// links to it to null, as on SQLite. `observe` keeps a fetch's value current over
/// LISTEN/NOTIFY, and `read` and `write` have `async` twins, as on `RemodelStore`.
public final class PostgresModelStore: @unchecked Sendable {
    public let target: PostgresTarget
    public let schema: Schema
    public let version: Int
    private let store: OpenedStore
    /// During an online migration to this version: the version each write transaction says it
    /// is (`SET LOCAL`, so that a pooler sharing the server session cannot carry it elsewhere),
    /// for the triggers that keep the previous version's columns in step.
    private let writesAs: Int?
    private let lock = NSLock()
    /// The commits to this store that observations hear of.
    let hub: PostgresChangeHub
    /// The observations of this store, by the types they read.
    package let commitSubscribers = CommitSubscribers()

    /// Opens the store at `target`, which must be at the manifest's version with its schema.
    /// With `migrate`, an older store is migrated first through the manifest's history
    /// (`PostgresMigrator`: one transaction under the advisory lock, so that many instances
    /// starting at once migrate once).
    public convenience init(at target: PostgresTarget, manifest: any SchemaManifest.Type, migrate: Bool = false) throws {
        try self.init(at: target, schema: manifest.schema, version: manifest.version, migrator: migrate ? manifest.history.map { Migrator(history: $0) } : nil)
    }

    /// Opens the store at `target`, at `version` with `schema`; with `migrator`, migrates an
    /// older store first.
    public init(at target: PostgresTarget, schema: Schema, version: Int, migrator: Migrator? = nil) throws {
        let connection = try PostgresConnection(target)
        var info = try PostgresStore.info(connection) { _ in nil }
        var online = info.version < version ? try PostgresOnlineState.read(connection) : nil
        if let migrator, info.version < version, online == nil || online?.phase == .complete {
            _ = try PostgresMigrator(migrator).migrate(at: target, to: version)
            info = try PostgresStore.info(connection) { _ in nil }
            online = nil
        }
        let place = info.name
        var tables = target.schema
        var onlineVersion: Int?
        if info.version < version, let online, online.phase != .complete, online.toVersion == version {
            // An online migration to this version: this app reads and writes through its views,
            // and its writes are marked as this version's for the triggers that keep the
            // previous version's columns in step.
            guard online.phase == .expanded else {
                throw PostgresOnlineError.notExpanded(store: place, online)
            }
            guard online.schemaHash == schema.storageHash else {
                throw StoreError.schemaMismatch(path: place, version: version, storeHash: online.schemaHash, codeHash: schema.storageHash)
            }
            tables = online.viewSchema
            onlineVersion = version
        } else {
            if info.version < version { throw StoreError.migrationNeeded(path: place, storeVersion: info.version, codeVersion: version) }
            if info.version > version { throw StoreError.superseded(path: place, storeVersion: info.version, codeVersion: version) }
            if info.schemaHash != schema.storageHash {
                throw StoreError.schemaMismatch(path: place, version: version, storeHash: info.schemaHash, codeHash: schema.storageHash)
            }
        }
        self.target = target
        self.schema = schema
        self.version = version
        store = try OpenedStore(connection, schema: schema, version: version, tablesIn: tables)
        writesAs = onlineVersion
        hub = PostgresChangeHub.hub(for: target)
    }

    /// Runs `body` in one transaction and commits it; any error rolls everything back.
    public func write<T>(_ body: (PostgresTransaction) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        let connection = store.connection
        let log = PostgresAccessLog()
        return try connection.transaction {
            if let writesAs { try connection.execute("SET LOCAL remodel.version = '\(writesAs)'") }
            let value = try body(PostgresTransaction(store: store, log: log))
            do {
                try connection.execute("SET CONSTRAINTS ALL IMMEDIATE")
            } catch let error as PostgresError {
                guard error.sqlState == "23503" else { throw error }
                throw StoreError.invalidInput(
                    "a link points at an object that does not exist (\(error.message); \(error.detail ?? "")); add that object in the same transaction, or remove the link; nothing was written"
                )
            }
            let announcement = log.announcement
            if announcement?.isEmpty != true { try PostgresChangeHub.announce(announcement, on: connection) }
            return value
        }
    }

    /// Runs `body` on one snapshot of the store (a read-only `REPEATABLE READ` transaction).
    public func read<T>(_ body: (PostgresTransaction) throws -> T) throws -> T {
        try trackedRead(body).value
    }

    /// `read(_:)`, and the types the body read.
    func trackedRead<T>(_ body: (PostgresTransaction) throws -> T) throws -> (value: T, read: Set<String>) {
        lock.lock()
        defer { lock.unlock() }
        try store.connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { try? store.connection.execute("ROLLBACK") }
        let log = PostgresAccessLog()
        let value = try body(PostgresTransaction(store: store, log: log))
        return (value, log.typesRead)
    }
}

/// Reads and writes of models inside `PostgresModelStore.read` or `write`.
public struct PostgresTransaction {
    let store: OpenedStore
    let log: PostgresAccessLog

    // MARK: - Writing

    /// Adds an object; a key that exists already is `StoreError.duplicateKey`.
    public func insert<Model: PersistentModel>(_ object: Model) throws {
        let table = try self.table(Model.self)
        log.changed(reach(of: table.name))
        try store.insert([try Self.dynamicObject(object, table: table)], into: table)
    }

    /// Adds an object, or replaces the one with its key (its collections too); links to it
    /// stay.
    public func upsert<Model: KeyedModel>(_ object: Model) throws {
        let table = try self.table(Model.self)
        log.changed(reach(of: table.name))
        try store.insert([try Self.dynamicObject(object, table: table)], into: table, upsert: true)
    }

    /// Deletes the object with `key`; returns whether there was one. Links to it go as on
    /// SQLite: out of every list and set, to-one links set to null.
    @discardableResult
    public func delete<Model: KeyedModel>(_ type: Model.Type, key: Model.ID) throws -> Bool {
        let table = try self.table(type)
        guard let column = table.primaryKey else { throw StoreError.unsupportedSchema("'\(table.name)' has no primary key") }
        let parameter = try PostgresValueCoding(type: column.type, schema: store.schema).parameter(key.storeValue)
        log.changedAnything()
        return try store.connection.query("DELETE FROM \(store.layout.qualified(table.name)) WHERE \(SQLiteRenderer.identifier(column.name)) = $1", [parameter]).affectedRows > 0
    }

    /// Deletes the objects `filter` matches; returns how many.
    @discardableResult
    public func deleteAll<Model: PersistentModel>(_ type: Model.Type, where filter: Filter<Model> = .all) throws -> Int {
        let table = try self.table(type)
        let (condition, parameters) = try self.condition(filter.expression, table: table)
        log.changedAnything()
        return try store.connection.query("DELETE FROM \(store.layout.qualified(table.name)) AS \(SQLiteRenderer.identifier(table.name)) WHERE \(condition)", parameters)
            .affectedRows
    }

    // MARK: - Reading

    /// The object with `key`, or nil.
    public func object<Model: KeyedModel>(_ type: Model.Type, forKey key: Model.ID) throws -> Model? {
        let table = try self.table(type)
        guard let column = table.primaryKey else { throw StoreError.unsupportedSchema("'\(table.name)' has no primary key") }
        return try objects(type, where: Filter(.compare(column: column.name, .equal, key.storeValue))).first
    }

    /// The object a unique property or group holds the values of, or `nil`:
    /// `store.object(Trip.unique(name: "Paris in spring"))`.
    public func object<Model: PersistentModel>(_ key: UniqueKey<Model>) throws -> Model? {
        try objects(Model.self, where: key.filter).first
    }

    /// The objects `filter` matches, in `orderings` (else the order SQLite's store keeps).
    public func objects<Model: PersistentModel>(_ type: Model.Type, where filter: Filter<Model> = .all, sortedBy orderings: [Ordering<Model>] = []) throws -> [Model] {
        let table = try self.table(type)
        log.read(table.name)
        let (condition, parameters) = try self.condition(filter.expression, table: table)
        var order = try FilterSQL(table: table, dialect: .postgres(schema: store.layout.schemaName)).orderClause(orderings.map { ($0.column, $0.descending) })
        order += (order.isEmpty ? " ORDER BY " : ", ") + "\(SQLiteRenderer.identifier(table.name)).\(SQLiteRenderer.identifier(PostgresLayout.orderColumn(of: table)))"
        return try store.objects(of: table, where: condition, parameters: parameters, orderBy: order).map { object in
            var decoder = RowDecoder(stored: StoredRow(table: table, object: object))
            return try Model(row: &decoder)
        }
    }

    /// How many objects `filter` matches.
    public func count<Model: PersistentModel>(_ type: Model.Type, where filter: Filter<Model> = .all) throws -> Int {
        let table = try self.table(type)
        log.read(table.name)
        let (condition, parameters) = try self.condition(filter.expression, table: table)
        return Int(
            try store.connection.scalar("SELECT count(*) FROM \(store.layout.qualified(table.name)) AS \(SQLiteRenderer.identifier(table.name)) WHERE \(condition)", parameters)
                ?? "0") ?? 0
    }

    // MARK: - Helpers

    private func table<Model: PersistentModel>(_ type: Model.Type) throws -> TableLayout {
        guard let table = store.layout.layout.table(named: Model.schemaName) else { throw StoreError.unknownType(Model.schemaName) }
        return table
    }

    /// `type` and the types its objects link to, through embedded objects too: what a write
    /// of its objects can change for a reader (the inverses of its links).
    private func reach(of type: String) -> Set<String> {
        var reached: Set<String> = []
        var next = [type]
        while let name = next.popLast() {
            guard reached.insert(name).inserted, let object = store.schema.objectType(named: name) else { continue }
            for property in object.properties { if case .object(let target)? = property.storedType?.base { next.append(target) } }
        }
        return reached
    }

    /// A filter as PostgreSQL text and parameters (`FilterSQL`'s rules).
    private func condition(_ expression: FilterExpression, table: TableLayout) throws -> (String, [String?]) {
        var builder = FilterSQL(table: table, dialect: .postgres(schema: store.layout.schemaName))
        let condition = try builder.condition(expression)
        let parameters = try zip(builder.arguments, builder.argumentTypes).map { value, type in
            try PostgresValueCoding(type: type, schema: store.schema).parameter(value)
        }
        return (condition, parameters)
    }

    /// The object's stored values by property name, as the generated `encode(to:)` writes them.
    private static func dynamicObject<Model: PersistentModel>(_ object: Model, table: TableLayout) throws -> DynamicObject {
        var encoder = RowEncoder(recording: table)
        try object.encode(to: &encoder)
        var dynamic: DynamicObject = [:]
        for (column, value) in zip(table.columns, encoder.recorded) { dynamic[column.name] = value }
        for (side, value) in zip(table.sideTables, encoder.collections) { dynamic[side.property] = value }
        return dynamic
    }
}
