/// Compiles a `FilterExpression` against a table into an SQL condition and its arguments.
/// Every name is checked against the layout and quoted.
struct FilterSQL {
    let table: TableLayout
    private(set) var arguments: [StoreValue] = []

    init(table: TableLayout) {
        self.table = table
    }

    mutating func condition(_ expression: FilterExpression) throws -> String {
        switch expression {
        case .constant(let value):
            return value ? "1" : "0"
        case .compare(let column, let comparison, let value):
            let name = try self.column(column)
            arguments.append(value)
            return "\(name) \(comparison.sqlOperator.rawValue) ?"
        case .in(let column, let values):
            let name = try self.column(column)
            if values.isEmpty { return "0" }
            arguments += values
            return "\(name) IN (" + Array(repeating: "?", count: values.count).joined(separator: ", ") + ")"
        case .isNull(let column):
            return "\(try self.column(column)) IS NULL"
        case .contains(let column, let text):
            let name = try self.column(column)
            arguments.append(.text(text))
            return "instr(\(name), ?) > 0"
        case .hasPrefix(let column, let text):
            let name = try self.column(column)
            arguments.append(.text(text))
            return "instr(\(name), ?) = 1"
        case .collectionIsEmpty(let property):
            return "NOT EXISTS (\(try collection(property)))"
        case .collectionContains(let property, let value):
            let subquery = try collection(property)
            arguments.append(value)
            return "EXISTS (\(subquery) AND \"value\" = ?)"
        case .and(let lhs, let rhs):
            return "(\(try condition(lhs)) AND \(try condition(rhs)))"
        case .or(let lhs, let rhs):
            return "(\(try condition(lhs)) OR \(try condition(rhs)))"
        case .not(let inner):
            return "NOT (\(try condition(inner)))"
        }
    }

    /// The qualified name of a column property.
    func column(_ name: String) throws -> String {
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
        return "SELECT 1 FROM \(SQLiteRenderer.identifier(side.name)) WHERE \"owner\" = \(SQLiteRenderer.identifier(table.name)).\(SQLiteRenderer.identifier(key.name))"
    }

    /// The ORDER BY clause of orderings.
    func orderClause(_ orderings: [(column: String, descending: Bool)]) throws -> String {
        guard !orderings.isEmpty else { return "" }
        return " ORDER BY " + (try orderings.map { try column($0.column) + ($0.descending ? " DESC" : " ASC") }).joined(separator: ", ")
    }
}
