import CSQLite

/// Read access to a store inside `RemodelStore.read` (or `write`): fetch by key, query,
/// count, resolve links and inverses. Valid only inside the closure it is passed to.
public class Database {
    @usableFromInline package let connection: Connection
    package let layout: StoreLayout
    let path: String

    init(connection: Connection, layout: StoreLayout, path: String) {
        self.connection = connection
        self.layout = layout
        self.path = path
    }

    /// The coding context of `Model` on this connection.
    @inlinable
    func context<Model: PersistentModel>(_ type: Model.Type) throws -> RowCodingContext {
        if let context = connection.contexts[ObjectIdentifier(type)] { return context }
        return try makeContext(Model.schemaName, id: ObjectIdentifier(type))
    }

    @usableFromInline
    func makeContext(_ name: String, id: ObjectIdentifier) throws -> RowCodingContext {
        guard let table = layout.table(named: name) else { throw StoreError.unknownType(name) }
        let context = RowCodingContext(table: table, connection: connection)
        connection.contexts[id] = context
        return context
    }

    /// The table of type `name`.
    func table(_ name: String) throws -> TableLayout {
        guard let table = layout.table(named: name) else { throw StoreError.unknownType(name) }
        return table
    }

    // MARK: - Fetching

    /// The object of `type` with primary key `key`, or `nil`.
    @inlinable
    public func object<Model: KeyedModel>(_ type: Model.Type, forKey key: Model.ID) throws -> Model? {
        let context = try context(type)
        let statement = try context.selectByKeyStatement()
        let code = key.bind(to: statement.handle, at: 1)
        if code != SQLITE_OK { throw context.bindFailure(code, parameter: context.primaryKeyParameter) }
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        var decoder = RowDecoder(statement: statement.handle, context: context)
        return try Model(row: &decoder)
    }

    /// The object a unique property or group holds the values of, or `nil`:
    /// `db.object(Trip.unique(name: "Paris in spring"))`. Nulls match nothing, as they never
    /// collide.
    public func object<Model: PersistentModel>(_ key: UniqueKey<Model>) throws -> Model? {
        try objects(Model.self).filter(key.filter).limit(1).fetchOne()
    }

    /// The objects of `type` with the given keys, in the order of `keys` (resolving a list of
    /// links: `db.objects(Dog.self, forKeys: person.dogs)`). Missing keys are skipped.
    public func objects<Model: KeyedModel>(_ type: Model.Type, forKeys keys: some Sequence<Model.ID>) throws -> [Model] {
        try keys.compactMap { try object(type, forKey: $0) }
    }

    /// Whether an object of `type` with primary key `key` exists.
    public func contains<Model: KeyedModel>(_ type: Model.Type, key: Model.ID) throws -> Bool {
        let context = try context(type)
        let statement = try context.statement(.exists)
        _ = key.bind(to: statement.handle, at: 1)
        defer { statement.reset() }
        return try statement.step()
    }

    /// A query of every object of `type`, to refine with `filter`, `sorted` and `limit`.
    public func objects<Model: PersistentModel>(_ type: Model.Type) -> Query<Model> {
        Query(database: self)
    }

    /// The objects of `Origin` whose link property (`inverse.origin`) holds `target`: an
    /// inverse relationship, e.g. the people whose `dogs` contain a dog.
    public func objects<Target, Origin>(linkingTo target: Target, via inverse: Inverse<Target, Origin>) -> Query<Origin> {
        objects(linkingTo: target.id, via: inverse)
    }

    /// The objects of `Origin` whose link property (`inverse.origin`) holds the key `key`.
    public func objects<Target, Origin>(linkingTo key: Target.ID, via inverse: Inverse<Target, Origin>) -> Query<Origin> {
        var query = Query<Origin>(database: self)
        query.linkFilter = (inverse.origin, key.storeValue)
        return query
    }

    /// The number of objects of `type`.
    public func count<Model: PersistentModel>(_ type: Model.Type) throws -> Int {
        try objects(type).count()
    }
}
