import CSQLite

/// A query of objects of `Model`: a filter, a sort order and a window, run when fetched.
///
/// ```swift
/// let dogOwners = try db.objects(Person.self)
///     .filter { $0.firstName.hasPrefix("A") && !$0.dogs.isEmpty }
///     .sorted(by: Person.Columns.firstName.ascending)
///     .limit(10)
///     .fetchAll()
/// ```
public struct Query<Model: PersistentModel> {
    let database: Database
    var filters: [FilterExpression] = []
    var orderings: [(column: String, descending: Bool)] = []
    var limit: Int?
    var offset: Int?
    /// For inverse relationships: the link property and the target key it must hold.
    var linkFilter: (property: String, key: StoreValue)?

    init(database: Database) {
        self.database = database
    }

    /// Only the objects matching `filter` (combined with earlier filters by AND).
    public func filter(_ filter: Filter<Model>) -> Query {
        var query = self
        query.filters.append(filter.expression)
        return query
    }

    /// Only the objects matching the filter built from the model's columns:
    /// `.filter { $0.firstName == "Ada" && $0.dogs.isEmpty == false }`.
    public func filter(_ build: (Model.Columns.Type) -> Filter<Model>) -> Query {
        filter(build(Model.Columns.self))
    }

    /// Sorted by `orderings`, the first one first (replaces earlier sort orders).
    public func sorted(by orderings: Ordering<Model>...) -> Query {
        var query = self
        query.orderings = orderings.map { ($0.column, $0.descending) }
        return query
    }

    /// Sorted by `column`, smallest first.
    public func sorted<Value>(by column: Column<Model, Value>) -> Query {
        sorted(by: column.ascending)
    }

    /// At most `limit` objects, after skipping `offset`.
    public func limit(_ limit: Int, offset: Int? = nil) -> Query {
        var query = self
        query.limit = limit
        query.offset = offset
        return query
    }

    // MARK: - Running

    /// Every matching object.
    public func fetchAll() throws -> [Model] {
        var result: [Model] = []
        try forEach { result.append($0) }
        return result
    }

    /// The first matching object, or `nil`.
    public func fetchOne() throws -> Model? {
        var result: Model?
        var query = self
        query.limit = 1
        try query.forEach { result = $0 }
        return result
    }

    /// The number of matching objects.
    public func count() throws -> Int {
        let (condition, arguments) = try whereClause()
        var sql = "SELECT count(*) FROM \(SQLiteRenderer.identifier(Model.schemaName))\(condition)"
        if limit != nil || offset != nil {
            sql = "SELECT count(*) FROM (SELECT 1 FROM \(SQLiteRenderer.identifier(Model.schemaName))\(condition)\(window))"
        }
        if case .integer(let count) = try database.connection.scalar(sql, arguments) { return Int(count) }
        return 0
    }

    /// Calls `body` with each matching object in turn, reading them one at a time from the
    /// statement: memory stays flat however many objects match.
    @inlinable
    public func forEach(_ body: (Model) throws -> Void) throws {
        let cursor = try self.cursor()
        while let object = try cursor.next() { try body(object) }
    }

    /// A cursor that reads matching objects one at a time.
    public func cursor() throws -> ObjectCursor<Model> {
        let context = try database.context(Model.self)
        let (condition, arguments) = try whereClause()
        let sql = "SELECT \(qualifiedColumns(context.table)) FROM \(SQLiteRenderer.identifier(Model.schemaName))\(condition)\(try orderClause(context.table))\(window)"
        let statement = try database.connection.cachedStatementForCursor(sql)
        try statement.bind(arguments)
        return ObjectCursor(statement: statement, context: context)
    }

    /// Deletes the matching objects (only in a write transaction); returns how many.
    @discardableResult
    public func deleteAll() throws -> Int {
        guard database is Transaction else { throw StoreError.notWritable("deleteAll() needs a write transaction: call it inside store.write { }") }
        let table = try database.table(Model.schemaName)
        var (condition, arguments) = try whereClause()
        if limit != nil || offset != nil || !orderings.isEmpty {
            let inner = "SELECT rowid FROM \(SQLiteRenderer.identifier(Model.schemaName))\(condition)\(try orderClause(table))\(window)"
            condition = " WHERE rowid IN (\(inner))"
        }
        try database.connection.execute("DELETE FROM \(SQLiteRenderer.identifier(Model.schemaName))\(condition.isEmpty ? Connection.everyRow : condition)", arguments)
        return database.connection.changeCount
    }

    // MARK: - SQL

    private func whereClause() throws -> (String, [StoreValue]) {
        var builder = FilterSQL(table: try database.table(Model.schemaName))
        var conditions = try filters.map { try builder.condition($0) }
        if let (property, key) = linkFilter {
            conditions.append(try builder.condition(linkCondition(property, key, table: builder.table)))
        }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), builder.arguments)
    }

    private func linkCondition(_ property: String, _ key: StoreValue, table: TableLayout) -> FilterExpression {
        table.sideTable(property: property) != nil ? .collectionContains(property: property, value: key) : .compare(column: property, .equal, key)
    }

    private func orderClause(_ table: TableLayout) throws -> String {
        try FilterSQL(table: table).orderClause(orderings)
    }

    private var window: String {
        guard limit != nil || offset != nil else { return "" }
        return " LIMIT \(limit ?? -1)" + (offset.map { " OFFSET \($0)" } ?? "")
    }

    private func qualifiedColumns(_ table: TableLayout) -> String {
        table.columnNames.map { "\(SQLiteRenderer.identifier(table.name)).\(SQLiteRenderer.identifier($0))" }.joined(separator: ", ")
    }
}

extension Connection {
    /// A statement for a cursor: the cached one when no other cursor is using it, else a new one.
    func cachedStatementForCursor(_ sql: String) throws -> Statement {
        if let statement = cachedStatementIfIdle(sql) { return statement }
        if hasCachedStatement(sql) { return try self.statement(sql) }
        return try cachedStatement(sql)
    }
}
