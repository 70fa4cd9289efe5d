import CSQLite

/// What `RowDecoder` and `RowEncoder` need beyond the statement: the table layout (for error
/// messages and side tables) and the connection (for side-table statements). One per model
/// type and connection, holding that type's prepared statements.
@usableFromInline
final class RowCodingContext {
    let table: TableLayout
    unowned let connection: Connection
    /// The primary key's parameter number in insert statements, 0 without a key.
    @usableFromInline let primaryKeyParameter: Int32
    /// Whether the type has collection properties.
    @usableFromInline let hasCollections: Bool

    private(set) lazy var columnList = SQLiteRenderer.identifiers(table.columnNames)
    private var cached: [Statement?] = Array(repeating: nil, count: Kind.allCases.count)

    /// The statements prepared per model type.
    enum Kind: Int, CaseIterable {
        case selectAll, selectByKey, insert, upsert, update, deleteByKey, exists
    }

    init(table: TableLayout, connection: Connection) {
        self.table = table
        self.connection = connection
        primaryKeyParameter = table.primaryKeyIndex.map { Int32($0 + 1) } ?? 0
        hasCollections = !table.sideTables.isEmpty
    }

    /// The statement reading one object by key.
    @usableFromInline
    func selectByKeyStatement() throws -> Statement {
        try statement(.selectByKey)
    }

    /// The prepared statement of `kind`, ready to bind. Callers reset it after use.
    func statement(_ kind: Kind) throws -> Statement {
        if let statement = cached[kind.rawValue] { return statement }
        let statement = try connection.statement(sql(kind))
        cached[kind.rawValue] = statement
        return statement
    }

    private func sql(_ kind: Kind) throws -> String {
        let name = SQLiteRenderer.identifier(table.name)
        let key = table.primaryKey.map { SQLiteRenderer.identifier($0.name) }
        let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
        switch kind {
        case .selectAll:
            return "SELECT \(columnList) FROM \(name)"
        case .insert:
            return "INSERT INTO \(name) (\(columnList)) VALUES (\(placeholders))"
        case .upsert:
            guard let key else { return "INSERT INTO \(name) (\(columnList)) VALUES (\(placeholders))" }
            let updates = table.columns.filter { !$0.isPrimaryKey }.map { "\(SQLiteRenderer.identifier($0.name)) = excluded.\(SQLiteRenderer.identifier($0.name))" }
            let action = "UPDATE SET " + (updates.isEmpty ? ["\(key) = excluded.\(key)"] : updates).joined(separator: ", ")
            return "INSERT INTO \(name) (\(columnList)) VALUES (\(placeholders)) ON CONFLICT (\(key)) DO \(action)"
        case .selectByKey, .update, .deleteByKey, .exists:
            guard let key else { throw StoreError.unsupportedSchema("'\(table.name)' has no primary key") }
            switch kind {
            case .selectByKey: return "SELECT \(columnList) FROM \(name) WHERE \(key) = ?"
            case .deleteByKey: return "DELETE FROM \(name) WHERE \(key) = ?"
            case .exists: return "SELECT 1 FROM \(name) WHERE \(key) = ?"
            default:
                let assignments = table.columns.enumerated().map { "\(SQLiteRenderer.identifier($1.name)) = ?\($0 + 1)" }
                return "UPDATE \(name) SET \(assignments.joined(separator: ", ")) WHERE \(key) = ?\(primaryKeyParameter)"
            }
        }
    }

    // MARK: - Errors

    @usableFromInline
    func invalidValue(_ error: any Error, column: Int32) -> StoreError {
        let property = Int(column) < table.columns.count ? table.columns[Int(column)].name : "#\(column)"
        return invalidValue(error, property: property)
    }

    func invalidValue(_ error: any Error, property: String) -> StoreError {
        if let error = error as? ValueConversionError {
            return .invalidValue(type: table.name, property: property, value: error.value, reason: error.reason)
        }
        if let error = error as? StoreError { return error }
        return .invalidValue(type: table.name, property: property, value: .null, reason: "\(error)")
    }

    /// The error for a column value that cannot be stored as it is (`storageProblem`).
    @usableFromInline
    func unstorable(_ problem: String, parameter: Int32) -> StoreError {
        let property = Int(parameter - 1) < table.columns.count ? table.columns[Int(parameter - 1)].name : "#\(parameter)"
        return .invalidInput("cannot write \(table.name).\(property): \(problem)")
    }

    /// The error for an element of collection `index` that cannot be stored as it is.
    func unstorable(collection index: Int, _ problem: String) -> StoreError {
        .invalidInput("cannot write \(table.name).\(table.sideTables[index].property): \(problem)")
    }

    @usableFromInline
    func bindFailure(_ code: Int32, parameter: Int32) -> StoreError {
        let property = Int(parameter - 1) < table.columns.count ? table.columns[Int(parameter - 1)].name : "#\(parameter)"
        var error = connection.error(code, sql: nil)
        error.message = "cannot bind \(table.name).\(property): \(error.message)"
        return .sqlite(error)
    }

    // MARK: - Collections

    /// Calls `row` with each element row of collection `index` of the object whose row is
    /// current in `owner`.
    func readCollection(_ index: Int, owner: StatementHandle, _ row: (StatementHandle) throws -> Void) throws {
        let side = table.sideTables[index]
        guard let keyColumn = table.primaryKeyIndex else { return }
        let statement = try connection.sideStatements(for: side).select
        statement.reset()
        sqlite3_bind_value(statement.handle.pointer, 1, sqlite3_column_value(owner.pointer, Int32(keyColumn)))
        defer { statement.reset() }
        while try statement.step() {
            do {
                try row(statement.handle)
            } catch {
                throw invalidValue(error, property: side.property)
            }
        }
    }

    /// Replaces the elements of every collection of the object keyed `owner`.
    func writeCollections(_ values: [StoreValue], owner: StoreValue, replacing: Bool) throws {
        for (side, value) in zip(table.sideTables, values) {
            let statements = try connection.sideStatements(for: side)
            if replacing {
                try statements.delete.bind([owner])
                try statements.delete.run()
            }
            let insert = statements.insert
            switch value {
            case .list(let elements):
                for (position, element) in elements.enumerated() {
                    try insert.bind(side.kind == .set ? [owner, element] : [owner, .integer(Int64(position)), element])
                    try insert.run()
                }
            case .map(let entries):
                for key in entries.keys.sorted() {
                    try insert.bind([owner, .text(key), entries[key]!])
                    try insert.run()
                }
            default:
                throw StoreError.invalidInput("\(table.name).\(side.property) must be a collection")
            }
        }
    }
}

/// The prepared statements of one side table.
final class SideTableStatements {
    let select: Statement
    let insert: Statement
    let delete: Statement

    init(connection: Connection, layout: SideTableLayout) throws {
        select = try connection.statement(layout.selectStatement)
        insert = try connection.statement(layout.insertStatement)
        delete = try connection.statement(layout.deleteStatement)
    }
}

extension Connection {
    func sideStatements(for layout: SideTableLayout) throws -> SideTableStatements {
        if let statements = sideStatements[layout.name] { return statements }
        let statements = try SideTableStatements(connection: self, layout: layout)
        sideStatements[layout.name] = statements
        return statements
    }
}
