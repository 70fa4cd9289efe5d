import RemodelCore

/// Compiles a `FilterExpression` against a table into an SQL condition and its arguments,
/// for SQLite or PostgreSQL: the one home of what a filter means. Every name is checked
/// against the layout and quoted.
package struct FilterSQL {
    /// The SQL a condition is written in.
    package enum Dialect: Sendable {
        /// `?` parameters, 1/0 for true/false, `instr`.
        case sqlite
        /// `$1`, `$2` … parameters, booleans, `strpos`; tables in `schema`.
        case postgres(schema: String)
    }

    package let table: TableLayout
    package let dialect: Dialect
    /// The arguments in parameter order, with the type of value each is compared with (a
    /// column's, or a collection's elements'), which a PostgreSQL parameter is written for.
    package private(set) var arguments: [StoreValue] = []
    package private(set) var argumentTypes: [PropertyType] = []

    package init(table: TableLayout, dialect: Dialect = .sqlite) {
        self.table = table
        self.dialect = dialect
    }

    private mutating func parameter(_ value: StoreValue, type: PropertyType) -> String {
        arguments.append(value)
        argumentTypes.append(type)
        if case .postgres = dialect { return "$\(arguments.count)" }
        return "?"
    }

    private var truth: (yes: String, no: String) {
        if case .postgres = dialect { return ("true", "false") }
        return ("1", "0")
    }

    /// The position of `part` in `text`, 1-based, 0 when absent.
    private func position(of part: String, in text: String) -> String {
        if case .postgres = dialect { return "strpos(\(text), \(part))" }
        return "instr(\(text), \(part))"
    }

    package mutating func condition(_ expression: FilterExpression) throws -> String {
        switch expression {
        case .constant(let value):
            return value ? truth.yes : truth.no
        case .compare(let column, let comparison, let value):
            let name = try self.column(column)
            return "\(name) \(comparison.sqlOperator.rawValue) \(parameter(value, type: try type(of: column)))"
        case .in(let column, let values):
            let name = try self.column(column)
            if values.isEmpty { return truth.no }
            let type = try type(of: column)
            return "\(name) IN (" + values.map { parameter($0, type: type) }.joined(separator: ", ") + ")"
        case .isNull(let column):
            return "\(try self.column(column)) IS NULL"
        case .contains(let column, let text):
            let name = try self.column(column)
            return "\(position(of: parameter(.text(text), type: PropertyType(.scalar(.string))), in: name)) > 0"
        case .hasPrefix(let column, let text):
            let name = try self.column(column)
            return "\(position(of: parameter(.text(text), type: PropertyType(.scalar(.string))), in: name)) = 1"
        case .localizedStandardContains(let column, let text):
            let name = try self.column(column)
            guard case .sqlite = dialect else {
                // Both sides folded by the server, by one rule (TextFolding.postgresExpression).
                let searched = TextFolding.postgresExpression(of: parameter(.text(text), type: PropertyType(.scalar(.string))))
                return "strpos(\(TextFolding.postgresExpression(of: name)), \(searched)) > 0"
            }
            // The text folded once here, each value by the connection's function (TextFolding).
            return "instr(\(TextFolding.sqlFunction)(\(name)), \(parameter(.text(TextFolding.fold(text)), type: PropertyType(.scalar(.string))))) > 0"
        case .collectionIsEmpty(let property):
            return "NOT EXISTS (\(try collection(property)))"
        case .collectionContains(let property, let value):
            let subquery = try collection(property)
            let element = table.sideTable(property: property)!.type.element
            return "EXISTS (\(subquery) AND \"value\" = \(parameter(value, type: element)))"
        case .and(let lhs, let rhs):
            return "(\(try condition(lhs)) AND \(try condition(rhs)))"
        case .or(let lhs, let rhs):
            return "(\(try condition(lhs)) OR \(try condition(rhs)))"
        case .not(let inner):
            return "NOT (\(try condition(inner)))"
        }
    }

    private func type(of column: String) throws -> PropertyType {
        guard let layout = table.column(named: column) else { throw StoreError.unknownProperty(type: table.name, property: column) }
        return layout.type
    }

    /// A table's name in the dialect: schema-qualified on PostgreSQL.
    private func qualified(_ name: String) -> String {
        if case .postgres(let schema) = dialect { return PostgresLayout.qualified(name, in: schema) }
        return SQLiteRenderer.identifier(name)
    }

    /// The qualified name of a column property.
    package func column(_ name: String) throws -> String {
        guard table.column(named: name) != nil else {
            if table.sideTable(property: name) != nil {
                throw StoreError.invalidInput("\(table.name).\(name) is a collection; filter it with isEmpty or contains")
            }
            throw StoreError.unknownProperty(type: table.name, property: name)
        }
        return "\(SQLiteRenderer.identifier(table.name)).\(SQLiteRenderer.identifier(name))"
    }

    /// `SELECT 1 FROM "Type.property" WHERE owner = <this object's key>`.
    private func collection(_ property: String) throws -> String {
        guard let side = table.sideTable(property: property), let key = table.primaryKey else {
            throw StoreError.unknownProperty(type: table.name, property: property)
        }
        return "SELECT 1 FROM \(qualified(side.name)) WHERE \"owner\" = \(SQLiteRenderer.identifier(table.name)).\(SQLiteRenderer.identifier(key.name))"
    }

    /// The ORDER BY clause of orderings.
    package func orderClause(_ orderings: [(column: String, descending: Bool)]) throws -> String {
        guard !orderings.isEmpty else { return "" }
        return " ORDER BY " + (try orderings.map { try column($0.column) + ($0.descending ? " DESC" : " ASC") }).joined(separator: ", ")
    }
}
