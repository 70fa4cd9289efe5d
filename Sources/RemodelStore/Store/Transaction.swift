import CSQLite

/// Read and write access inside `RemodelStore.write`. Everything done through it commits
/// together when the closure returns, or not at all.
public final class Transaction: Database {
    /// Adds `object`; fails with `StoreError.duplicateKey` if one with its key exists.
    public func insert<Model: PersistentModel>(_ object: Model) throws {
        let context = try context(Model.self)
        let statement = try context.statement(.insert)
        try write(object, with: statement, context: context, replacingCollections: false)
    }

    /// Adds `object`, or replaces the stored object with the same primary key (Realm's
    /// `add(_:update: .modified)`): `INSERT … ON CONFLICT(key) DO UPDATE`, so the existing
    /// row is updated in place and nothing linking to it is cascaded.
    public func upsert<Model: KeyedModel>(_ object: Model) throws {
        let context = try context(Model.self)
        let statement = try context.statement(.upsert)
        try write(object, with: statement, context: context, replacingCollections: true)
    }

    /// Adds or replaces every object of `objects`.
    public func upsert<Model: KeyedModel, S: Sequence<Model>>(contentsOf objects: S) throws {
        for object in objects { try upsert(object) }
    }

    /// Replaces the stored object with `object`'s key; fails with `StoreError.notFound` when
    /// there is none.
    public func update<Model: KeyedModel>(_ object: Model) throws {
        let context = try context(Model.self)
        let statement = try context.statement(.update)
        try write(object, with: statement, context: context, replacingCollections: true)
        if connection.changeCount == 0 { throw StoreError.notFound(type: Model.schemaName, key: context.table.keyDescription(object.id.storeValue)) }
    }

    @inline(__always)
    private func write<Model: PersistentModel>(_ object: Model, with statement: Statement, context: RowCodingContext, replacingCollections: Bool) throws {
        var encoder = RowEncoder(statement: statement.handle, context: context)
        try object.encode(to: &encoder)
        let code = sqlite3_step(statement.handle.pointer)
        if code != SQLITE_DONE {
            let error = connection.error(code, sql: statement.sql)
            statement.reset()
            var recorder = RowEncoder(recording: context.table)
            if (try? object.encode(to: &recorder)) != nil {
                let values = Dictionary(zip(context.table.columns.map(\.name), recorder.recorded), uniquingKeysWith: { first, _ in first })
                if let storeError = UniqueViolation.storeError(error, table: context.table, schema: layout.schema, values: values, connection: connection) { throw storeError }
            }
            throw StoreError.sqlite(error)
        }
        statement.reset()
        if context.hasCollections, connection.changeCount > 0 {
            try context.writeCollections(encoder.collections, owner: encoder.ownerKey ?? .null, replacing: replacingCollections)
        }
    }

    /// Deletes `object` (by its primary key). Links to it are removed from lists and sets
    /// and nulled in to-one links; its collections and embedded objects go with it.
    /// Returns whether it existed.
    @discardableResult
    public func delete<Model: KeyedModel>(_ object: Model) throws -> Bool {
        try delete(Model.self, key: object.id)
    }

    /// Deletes the object of `type` with primary key `key`; returns whether it existed.
    @discardableResult
    public func delete<Model: KeyedModel>(_ type: Model.Type, key: Model.ID) throws -> Bool {
        let context = try context(type)
        let statement = try context.statement(.deleteByKey)
        _ = key.bind(to: statement.handle, at: 1)
        try statement.run()
        return connection.changeCount > 0
    }

    /// Deletes every object of `type`; returns how many there were.
    @discardableResult
    public func deleteAll<Model: PersistentModel>(_ type: Model.Type) throws -> Int {
        try objects(type).deleteAll()
    }

    private static func key<Model: KeyedModel>(of object: Model) -> StoreValue {
        object.id.storeValue
    }
}
