/// A value in SQL, as a tree: what the migration planner composes and what a dialect's
/// renderer prints. Nothing in it is SQL text, so one plan can be printed for SQLite (and, later,
/// for other engines) and inspected by tools without parsing.
///
/// Expressions are relative to a row: `.column("name")` is a column of the row being read or
/// written, `.linked(...)` reads through a link into another table's row. The renderer decides
/// how to qualify them.
package indirect enum SQLExpression: Hashable, Sendable {
    /// A column of the current row.
    case column(String)
    /// The current row's rowid.
    case rowid
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    /// A built-in or Remodel function.
    case function(SQLFunction, [SQLExpression])
    case not(SQLExpression)
    case binary(SQLOperator, SQLExpression, SQLExpression)
    case isNull(SQLExpression)
    case isNotNull(SQLExpression)
    /// `value IN (a, b, …)`, or `NOT IN` when `negated`.
    case inList(SQLExpression, [SQLExpression], negated: Bool)
    /// `value IN (SELECT …)`.
    case inSelect(SQLExpression, SQLSelect)
    case between(SQLExpression, lower: SQLExpression, upper: SQLExpression)
    /// `CASE [operand] WHEN … THEN … ELSE … END`.
    case caseWhen(operand: SQLExpression?, branches: [SQLCaseBranch], otherwise: SQLExpression?)
    case cast(SQLExpression, SQLColumnType)
    /// A value of another row, found through a link: `(SELECT value FROM table WHERE key = link)`.
    case linked(SQLLinkedRead)
    /// A value computed earlier for every row of the current table and kept in a temporary table
    /// keyed by rowid (see `SQLStatement.materialize`).
    case materialized(table: String)
    /// A scalar subquery. Inside it, `.outer` reaches back to the row it is evaluated in.
    case subquery(SQLSelect)
    case exists(SQLSelect)
    /// Inside a subquery: an expression of the enclosing query's row.
    case outer(SQLExpression)
    /// `function OVER (PARTITION BY … ORDER BY …)`: computed over the rows whose `partition`
    /// values equal the current row's (a window), in `order`.
    case window(SQLWindowFunction, partition: [SQLExpression], order: [SQLOrdering])

    /// `a AND b AND …`; `nil` for no terms.
    package static func all(_ terms: [SQLExpression]) -> SQLExpression? {
        guard var result = terms.first else { return nil }
        for term in terms.dropFirst() { result = .binary(.and, result, term) }
        return result
    }

    /// `a OR b OR …`; `nil` for no terms.
    package static func any(_ terms: [SQLExpression]) -> SQLExpression? {
        guard var result = terms.first else { return nil }
        for term in terms.dropFirst() { result = .binary(.or, result, term) }
        return result
    }

    package static func equals(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression { .binary(.equal, lhs, rhs) }

    package static func call(_ function: SQLFunction, _ arguments: SQLExpression...) -> SQLExpression { .function(function, arguments) }

    /// Whether the value is the same for every row.
    package var isConstant: Bool {
        switch self {
        case .null, .integer, .real, .text, .blob: true
        case .cast(let inner, _): inner.isConstant
        default: false
        }
    }

    /// The column this is an unchanged copy of.
    package var columnName: String? {
        if case .column(let name) = self { return name }
        return nil
    }

    /// How deep the tree nests, the measure SQLite's parser limits (its stack overflows at a
    /// few dozen nested calls). A subquery counts as one level more than its parts.
    package var depth: Int {
        // A linked read is printed as a subquery around its parts.
        let extra = if case .linked = self { 1 } else { 0 }
        let nested = parts.map { $0.depth + extra } + queries.map { $0.depth + 1 }
        return 1 + (nested.max() ?? 0)
    }

    /// How many nodes the tree has, a measure of the text it prints to.
    package var size: Int {
        1 + parts.map(\.size).reduce(0, +) + queries.map { $0.size + 1 }.reduce(0, +)
    }

    /// Every expression directly inside this node, in whatever row it is evaluated.
    private var parts: [SQLExpression] {
        var parts: [SQLExpression] = []
        _ = mappingOperands {
            parts.append($0)
            return $0
        }
        switch self {
        case .linked(let read): parts.append(read.value)
        case .outer(let inner): parts.append(inner)
        default: break
        }
        return parts
    }

    /// The queries directly inside this node.
    private var queries: [SQLSelect] {
        switch self {
        case .subquery(let select), .exists(let select), .inSelect(_, let select): [select]
        default: []
        }
    }

    /// The node with `transform` applied to each operand evaluated in the same row: function
    /// arguments, operator sides, `CASE` parts, a linked read's link. Subqueries (evaluated
    /// in other rows) and leaves are kept as they are. Every walk over the tree is built on it.
    package func mappingOperands(_ transform: (SQLExpression) -> SQLExpression) -> SQLExpression {
        switch self {
        case .column, .rowid, .null, .integer, .real, .text, .blob, .materialized, .subquery, .exists, .outer: return self
        case .function(let function, let arguments): return .function(function, arguments.map(transform))
        case .not(let inner): return .not(transform(inner))
        case .isNull(let inner): return .isNull(transform(inner))
        case .isNotNull(let inner): return .isNotNull(transform(inner))
        case .cast(let inner, let type): return .cast(transform(inner), type)
        case .binary(let op, let lhs, let rhs): return .binary(op, transform(lhs), transform(rhs))
        case .inList(let value, let list, let negated): return .inList(transform(value), list.map(transform), negated: negated)
        case .inSelect(let value, let select): return .inSelect(transform(value), select)
        case .between(let value, let lower, let upper): return .between(transform(value), lower: transform(lower), upper: transform(upper))
        case .caseWhen(let operand, let branches, let otherwise):
            return .caseWhen(
                operand: operand.map(transform), branches: branches.map { SQLCaseBranch(transform($0.condition), transform($0.result)) }, otherwise: otherwise.map(transform))
        case .linked(var read):
            // The link is read in this row; the value belongs to the linked row.
            read.link = transform(read.link)
            return .linked(read)
        case .window(let function, let partition, let order):
            let mapped: SQLWindowFunction =
                switch function {
                case .firstValue(let value): .firstValue(transform(value))
                case .count: .count
                }
            return .window(mapped, partition: partition.map(transform), order: order.map { SQLOrdering(transform($0.value), descending: $0.descending, bytewise: $0.bytewise) })
        }
    }

    /// The tree with every column of the current row replaced by `replacement(name)`.
    package func replacingColumns(_ replacement: (String) -> SQLExpression) -> SQLExpression {
        switch self {
        case .column(let name): return replacement(name)
        case .subquery(let select): return .subquery(select.mappingOuter { $0.replacingColumns(replacement) })
        case .exists(let select): return .exists(select.mappingOuter { $0.replacingColumns(replacement) })
        case .inSelect(let value, let select): return .inSelect(value.replacingColumns(replacement), select.mappingOuter { $0.replacingColumns(replacement) })
        default: return mappingOperands { $0.replacingColumns(replacement) }
        }
    }

    /// The tree with `transform` applied to each `.outer` part (the enclosing row's
    /// expressions inside a subquery); used to move a subquery into another row.
    func mappingOuter(_ transform: (SQLExpression) -> SQLExpression) -> SQLExpression {
        if case .outer(let inner) = self { return .outer(transform(inner)) }
        return mappingOperands { $0.mappingOuter(transform) }
    }

    /// The temporary tables of `materialized` values the tree reads.
    package var materializedTables: Set<String> {
        if case .materialized(let table) = self { return [table] }
        return parts.reduce(into: Set<String>()) { $0.formUnion($1.materializedTables) }
    }

    /// The columns of the current row the tree reads.
    package var columns: Set<String> {
        var names = Set<String>()
        _ = replacingColumns {
            names.insert($0)
            return .column($0)
        }
        return names
    }
}

/// What a window computes (`SQLExpression.window`).
package enum SQLWindowFunction: Hashable, Sendable {
    /// `first_value(value)`: the value of the partition's first row.
    case firstValue(SQLExpression)
    /// `count(*)`: how many rows the partition has.
    case count
}

/// One term of an `ORDER BY`. NULL sorts as the smallest value on every engine (SQLite's
/// order; PostgreSQL's is spelled out), and text `bytewise` sorts by its UTF-8 bytes on every
/// engine (SQLite's BINARY collation; PostgreSQL's "C").
package struct SQLOrdering: Hashable, Sendable {
    package var value: SQLExpression
    package var descending: Bool
    package var bytewise: Bool

    package init(_ value: SQLExpression, descending: Bool = false, bytewise: Bool = false) {
        self.value = value
        self.descending = descending
        self.bytewise = bytewise
    }
}

/// One `WHEN condition THEN result` of a `CASE`.
package struct SQLCaseBranch: Hashable, Sendable {
    package var condition: SQLExpression
    package var result: SQLExpression

    package init(_ condition: SQLExpression, _ result: SQLExpression) {
        self.condition = condition
        self.result = result
    }
}

/// A read through a link: the row of `table` whose `key` column equals `link` (evaluated in the
/// current row), and `value` evaluated in that row.
package struct SQLLinkedRead: Hashable, Sendable {
    package var table: String
    package var key: String
    package var link: SQLExpression
    package var value: SQLExpression

    package init(table: String, key: String, link: SQLExpression, value: SQLExpression) {
        self.table = table
        self.key = key
        self.link = link
        self.value = value
    }
}

/// Binary operators.
package enum SQLOperator: String, Hashable, Sendable {
    case equal = "="
    case notEqual = "<>"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// `IS`: equality where NULL equals NULL.
    case isIdentical = "IS"
    case isNotIdentical = "IS NOT"
    case and = "AND"
    case or = "OR"
    case concatenate = "||"
    case plus = "+"
    case minus = "-"
}

/// Functions a plan may call. Each dialect's renderer names them: a built-in where the engine
/// has one, a function Remodel registers on the connection otherwise.
package enum SQLFunction: Hashable, Sendable {
    case coalesce
    case lower
    case hex
    case count
    case max
    /// `trim(text)` of space, tab, LF and CR.
    case trimWhitespace
    /// `trim(text, characters)`.
    case trim
    /// `group_concat(value, separator)`: an aggregate.
    case groupConcat
    /// `json(text)`: text that is JSON, as JSON (inside JSON aggregates).
    case json
    /// `substr(text, start, length)`.
    case substring
    /// `instr(text, part)`: 1-based position, 0 when absent.
    case position
    /// Number of characters.
    case length
    // Remodel's own, registered on the migrating connection (see MigrationFunctions).
    case newUUID
    case newUUIDText
    case newObjectID
    /// `parseReal(text, limit)`: a decimal number (no hexadecimal, NaN or infinity) whose
    /// magnitude is at most `limit`, as REAL; NULL otherwise.
    case parseReal
    /// `parseDecimal(text)`: the stored text of a decimal128 (`DecimalText`); NULL otherwise.
    case parseDecimal
    case parseUUID
    case parseObjectID
    case parseDate
    /// `parseURL(text)`: the text when it is a URL (`StoredForm`'s rule); NULL otherwise.
    case parseURL
    case formatUUID
    case formatDate
    case isUTF8
    /// `splitPart(text, separator, index, count)`.
    case splitPart
    /// `parseInteger(text, min, max)`.
    case parseInteger
    /// `embeddedGet(json, property, typeDescriptor)`: a property of embedded JSON in its stored form.
    case embeddedGet
    /// `embeddedJSON(typeName, value…)`: the stored JSON text of an embedded object.
    case embeddedJSON
}

/// Column storage classes.
package enum SQLColumnType: String, Hashable, Sendable {
    case integer = "INTEGER"
    case real = "REAL"
    case text = "TEXT"
    case blob = "BLOB"

    /// The value a required column of this type holds until it is written (`ADD COLUMN … NOT
    /// NULL` needs one).
    package var placeholder: SQLExpression {
        switch self {
        case .integer: .integer(0)
        case .real: .real(0)
        case .text: .text("")
        case .blob: .blob([])
        }
    }
}
