/// What a SQL dialect spells its own way in a query: how a column is read, literals, functions,
/// casts, temporary tables, how a value becomes a condition and how one is written into a column.
/// `SQLQueryRenderer` walks the SQL trees once for every dialect; SQLite's (`SQLiteDialect`) and
/// PostgreSQL's (`PostgresDialect`, which reads and writes native column types) fill in the rest.
package protocol SQLDialect {
    /// What rendering can fail with: `Never` for SQLite, which can spell every tree.
    associatedtype Failure: Error
    /// The type of a column a value is written into, when the dialect converts to it.
    associatedtype ColumnType

    /// Whether every compound expression is written inside its own parentheses, rather than
    /// only where SQLite's precedence needs them.
    var parenthesizesEveryCompound: Bool { get }

    /// A column of the row `scope` is evaluated in, as a stored value.
    func column(_ name: String, _ scope: SQLScope) throws(Failure) -> String
    /// The row's own id.
    func rowid(_ scope: SQLScope) -> String
    /// A `.real`, `.text` or `.blob` literal.
    func literal(_ literal: SQLExpression) throws(Failure) -> String
    /// A function call; arguments are rendered with `renderer`.
    func call(_ function: SQLFunction, _ arguments: [SQLExpression], _ scope: SQLScope, _ renderer: SQLQueryRenderer<Self>) throws(Failure) -> String
    /// `CAST(text AS type)` or its equivalent.
    func cast(_ text: String, to type: SQLColumnType) -> String
    /// The operator of `IS` (or, `negated`, `IS NOT`): equality where NULL equals NULL.
    func identical(negated: Bool) -> String
    /// A table in `FROM`, qualified when it is temporary.
    func table(_ name: String, isTemporary: Bool) -> String
    /// `text`, which renders `expression`, where SQL takes a value of `role`.
    func coerce(_ text: String, _ expression: SQLExpression, to role: SQLRole) -> String
    /// `expression` written into a column of `type` (`nil`: as a stored value).
    func write(_ expression: SQLExpression, as type: ColumnType?, _ scope: SQLScope, _ renderer: SQLQueryRenderer<Self>) throws(Failure) -> String
    /// The type of column `column` of `table`, for the values written into it.
    func columnType(_ column: String, of table: String) -> ColumnType?
    /// `text` (a value in an `ORDER BY`) compared by its UTF-8 bytes when it is text.
    func bytewise(_ text: String) -> String
}

/// What SQL takes at a place of an expression: a value (a condition there is 0 or 1, as in
/// SQLite) or a condition (a value there is true unless 0).
package enum SQLRole: Sendable {
    case value, condition
}

/// The row an expression is evaluated in: its table (or alias), the table itself, and whether
/// columns must be qualified (inside a subquery, where another table is in scope too).
package struct SQLScope: Sendable {
    /// What columns are qualified with: the table's name or its alias.
    package var table: String
    /// The table itself (for its column types).
    package var source: String
    package var qualified = false
    /// Nesting of subqueries and linked reads, for unique aliases.
    package var depth = 0
    /// The row of the enclosing query, inside a subquery.
    package var enclosing: Box?
    /// The tables of the query, by the name columns are qualified with.
    package var aliases: [String: String] = [:]

    package init(table: String, source: String? = nil, qualified: Bool = false) {
        self.table = table
        self.source = source ?? table
        self.qualified = qualified
    }

    /// The table whose columns are read: an alias resolved.
    package var sourceTable: String { aliases[table] ?? source }

    /// A column, qualified where needed.
    package func reference(_ name: String) -> String {
        qualified ? "\(SQLiteRenderer.identifier(table)).\(SQLiteRenderer.identifier(name))" : SQLiteRenderer.identifier(name)
    }

    /// The same row, seen from inside a subquery.
    package var outer: SQLScope {
        var copy = self
        copy.qualified = true
        return copy
    }

    /// Holds a scope inside another (a struct cannot contain itself).
    package final class Box: Sendable {
        package let scope: SQLScope
        init(_ scope: SQLScope) { self.scope = scope }
    }
}

/// Prints queries and expressions of the SQL trees in a dialect: the one walk of their grammar,
/// so that a construct means the same on every engine.
package struct SQLQueryRenderer<Dialect: SQLDialect> {
    package let dialect: Dialect

    package init(_ dialect: Dialect) {
        self.dialect = dialect
    }

    // MARK: - Queries

    /// A query; inside a subquery, `outer` is the enclosing row. With `writing`, each result
    /// column is written as the column type it is inserted into.
    package func select(_ query: SQLSelect, outer: SQLScope? = nil, writing types: [Dialect.ColumnType?]? = nil) throws(Dialect.Failure) -> String {
        var query = query
        // A subquery's own table gets an alias, so that the enclosing row stays reachable
        // under its name even when both read the same table.
        if let outer, query.from != nil, query.from?.alias == nil { query.from?.alias = "remodel_query_\(outer.depth + 1)" }
        let sources = (query.from.map { [$0] } ?? []) + query.joined
        var scope = SQLScope(table: query.from?.alias ?? query.from?.table ?? "", source: query.from?.table ?? "", qualified: !query.joined.isEmpty || outer != nil)
        scope.depth = (outer?.depth ?? 0) + 1
        scope.enclosing = outer.map { SQLScope.Box($0) }
        scope.aliases = Dictionary(sources.map { ($0.alias ?? $0.table, $0.table) }, uniquingKeysWith: { $1 })
        var text = "SELECT "
        if query.columns.isEmpty {
            text += "*"
        } else {
            var columns: [String] = []
            for (position, column) in query.columns.enumerated() {
                let value: String
                if let types {
                    value = try dialect.write(column.value, as: position < types.count ? types[position] : nil, scope, self)
                } else {
                    value = try expression(column.value, scope)
                }
                columns.append(value + (column.name.map { " AS \(SQLiteRenderer.identifier($0))" } ?? ""))
            }
            text += columns.joined(separator: ", ")
        }
        if !sources.isEmpty {
            text +=
                " FROM "
                + sources.map { source in
                    dialect.table(source.table, isTemporary: source.isTemporary) + (source.alias.map { " AS \(SQLiteRenderer.identifier($0))" } ?? "")
                }.joined(separator: ", ")
        }
        if let condition = query.where { text += " WHERE " + (try expression(condition, scope, as: .condition)) }
        if !query.groupBy.isEmpty { text += " GROUP BY " + (try list(query.groupBy, scope)) }
        if let having = query.having { text += " HAVING " + (try expression(having, scope, as: .condition)) }
        if !query.orderBy.isEmpty { text += " ORDER BY " + (try list(query.orderBy, scope)) }
        if let limit = query.limit { text += " LIMIT \(limit)" }
        return text
    }

    // MARK: - Expressions

    /// `expression` evaluated in the row of `scope`, as `role` takes it.
    package func expression(_ expression: SQLExpression, _ scope: SQLScope, as role: SQLRole = .value) throws(Dialect.Failure) -> String {
        dialect.coerce(try render(expression, scope, as: role), expression, to: role)
    }

    /// Values separated by commas.
    package func list(_ expressions: [SQLExpression], _ scope: SQLScope) throws(Dialect.Failure) -> String {
        var parts: [String] = []
        for expression in expressions { parts.append(try self.expression(expression, scope)) }
        return parts.joined(separator: ", ")
    }

    private func render(_ expression: SQLExpression, _ scope: SQLScope, as role: SQLRole) throws(Dialect.Failure) -> String {
        switch expression {
        case .column(let name): return try dialect.column(name, scope)
        case .rowid: return dialect.rowid(scope)
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real, .text, .blob: return try dialect.literal(expression)
        case .function(let function, let arguments): return try dialect.call(function, arguments, scope, self)
        case .not(let inner):
            return compound("NOT " + (try operand(inner, scope, as: .condition, parent: Precedence.not, right: true)))
        case .binary(let op, let lhs, let rhs):
            let precedence = Precedence.of(op)
            let role: SQLRole = op == .and || op == .or ? .condition : .value
            let symbol = op == .isIdentical || op == .isNotIdentical ? dialect.identical(negated: op == .isNotIdentical) : op.rawValue
            let left = try operand(lhs, scope, as: role, parent: precedence, right: false)
            let right = try operand(rhs, scope, as: role, parent: precedence, right: true)
            return compound("\(left) \(symbol) \(right)")
        case .isNull(let inner):
            return compound((try operand(inner, scope, parent: Precedence.equality, right: false)) + " IS NULL")
        case .isNotNull(let inner):
            return compound((try operand(inner, scope, parent: Precedence.equality, right: false)) + " IS NOT NULL")
        case .inSelect(let value, let query):
            return compound((try operand(value, scope, parent: Precedence.equality, right: false)) + " IN (" + (try select(query, outer: scope.outer)) + ")")
        case .inList(let value, let values, let negated):
            return compound((try operand(value, scope, parent: Precedence.equality, right: false)) + (negated ? " NOT IN (" : " IN (") + (try list(values, scope)) + ")")
        case .between(let value, let lower, let upper):
            let value = try operand(value, scope, parent: Precedence.equality, right: false)
            let lower = try operand(lower, scope, parent: Precedence.equality, right: true)
            let upper = try operand(upper, scope, parent: Precedence.equality, right: true)
            return compound("\(value) BETWEEN \(lower) AND \(upper)")
        case .caseWhen(let caseOperand, let branches, let otherwise):
            var text = "CASE"
            if let caseOperand { text += " " + (try self.expression(caseOperand, scope)) }
            for branch in branches {
                let test = try self.expression(branch.condition, scope, as: caseOperand == nil ? .condition : .value)
                text += " WHEN \(test) THEN \(try self.expression(branch.result, scope))"
            }
            if let otherwise { text += " ELSE " + (try self.expression(otherwise, scope)) }
            return text + " END"
        case .cast(let inner, let type):
            return dialect.cast(try self.expression(inner, scope), to: type)
        case .linked(let read):
            var inner = SQLScope(table: "remodel_link_\(scope.depth + 1)", source: read.table, qualified: true)
            inner.depth = scope.depth + 1
            let value = try self.expression(read.value, inner)
            let link = try dialect.write(read.link, as: dialect.columnType(read.key, of: read.table), scope.outer, self)
            return "(SELECT \(value) FROM \(SQLiteRenderer.identifier(read.table)) AS \(SQLiteRenderer.identifier(inner.table)) WHERE \(inner.reference(read.key)) = \(link))"
        case .materialized(let table):
            return "(SELECT \"value\" FROM \(dialect.table(table, isTemporary: true)) WHERE \"row\" = \(dialect.rowid(scope.outer)))"
        case .subquery(let query):
            return "(" + (try select(query, outer: scope.outer)) + ")"
        case .exists(let query):
            return "EXISTS (" + (try select(query, outer: scope.outer)) + ")"
        case .outer(let inner):
            return try render(inner, scope.enclosing?.scope ?? scope, as: role)
        case .window(let function, let partition, let order):
            var window: [String] = []
            if !partition.isEmpty { window.append("PARTITION BY " + (try list(partition, scope))) }
            if !order.isEmpty {
                var terms: [String] = []
                for term in order {
                    let value = try self.expression(term.value, scope)
                    terms.append((term.bytewise ? dialect.bytewise(value) : value) + (term.descending ? " DESC NULLS LAST" : " ASC NULLS FIRST"))
                }
                window.append("ORDER BY " + terms.joined(separator: ", "))
            }
            let computed: String =
                switch function {
                case .firstValue(let value): "first_value(\(try self.expression(value, scope)))"
                case .count: "count(*)"
                }
            return "\(computed) OVER (\(window.joined(separator: " ")))"
        }
    }

    /// A compound expression, in its own parentheses where the dialect wants every one so.
    private func compound(_ text: String) -> String {
        dialect.parenthesizesEveryCompound ? "(\(text))" : text
    }

    /// An operand of an operator of precedence `parent`, in parentheses where SQLite's
    /// precedence needs them (the dialects that parenthesize every compound need none).
    private func operand(_ expression: SQLExpression, _ scope: SQLScope, as role: SQLRole = .value, parent: Int, right: Bool) throws(Dialect.Failure) -> String {
        let text = try self.expression(expression, scope, as: role)
        guard !dialect.parenthesizesEveryCompound else { return text }
        let own = Precedence.of(expression)
        return own < parent || (right && own == parent && own != Precedence.atom) ? "(\(text))" : text
    }

}

/// Operator precedence, loosest first, as SQLite's grammar has it.
private enum Precedence {
    static let or = 1, and = 2, not = 3, equality = 4, comparison = 5, additive = 7, concatenation = 9, atom = 10

    static func of(_ op: SQLOperator) -> Int {
        switch op {
        case .or: or
        case .and: and
        case .equal, .notEqual, .isIdentical, .isNotIdentical: equality
        case .less, .lessOrEqual, .greater, .greaterOrEqual: comparison
        case .plus, .minus: additive
        case .concatenate: concatenation
        }
    }

    static func of(_ expression: SQLExpression) -> Int {
        switch expression {
        case .binary(let op, _, _): of(op)
        case .not: not
        case .isNull, .isNotNull, .inList, .inSelect, .between: equality
        default: atom
        }
    }
}

/// SQLite's dialect: columns and values as stored, functions by the names Remodel registers.
package struct SQLiteDialect: SQLDialect {
    package typealias Failure = Never
    package typealias ColumnType = Never

    package init() {}

    package var parenthesizesEveryCompound: Bool { false }

    package func column(_ name: String, _ scope: SQLScope) -> String { scope.reference(name) }

    package func rowid(_ scope: SQLScope) -> String { scope.qualified ? "\(SQLiteRenderer.identifier(scope.table)).rowid" : "rowid" }

    package func literal(_ literal: SQLExpression) -> String {
        switch literal {
        case .real(let value): SQLiteRenderer.real(value)
        case .text(let value): SQLiteRenderer.text(value)
        case .blob(let bytes): SQLiteRenderer.blob(bytes)
        default: "NULL"
        }
    }

    package func call(_ function: SQLFunction, _ arguments: [SQLExpression], _ scope: SQLScope, _ renderer: SQLQueryRenderer<Self>) -> String {
        let list = renderer.list(arguments, scope)
        if function == .trimWhitespace { return "trim(\(list), ' ' || char(9) || char(10) || char(13))" }
        return SQLiteRenderer.name(of: function) + "(" + list + ")"
    }

    package func cast(_ text: String, to type: SQLColumnType) -> String { "CAST(\(text) AS \(type.rawValue))" }

    package func identical(negated: Bool) -> String { negated ? "IS NOT" : "IS" }

    package func table(_ name: String, isTemporary: Bool) -> String { (isTemporary ? "temp." : "") + SQLiteRenderer.identifier(name) }

    package func coerce(_ text: String, _ expression: SQLExpression, to role: SQLRole) -> String { text }

    package func write(_ expression: SQLExpression, as type: Never?, _ scope: SQLScope, _ renderer: SQLQueryRenderer<Self>) -> String {
        renderer.expression(expression, scope)
    }

    package func columnType(_ column: String, of table: String) -> Never? { nil }
    /// SQLite compares text by its bytes unless a column declares another collation, and
    /// Remodel's columns declare none.
    package func bytewise(_ text: String) -> String { text }
}
