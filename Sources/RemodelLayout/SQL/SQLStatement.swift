/// A statement as a tree, printed by a dialect's renderer (see `SQLExpression`).
package enum SQLStatement: Hashable, Sendable {
    case createTable(SQLTableDefinition)
    case createIndex(SQLIndexDefinition)
    case dropTable(String)
    case dropIndex(String)
    case renameTable(from: String, to: String)
    case addColumn(table: String, SQLColumnDefinition)
    case dropColumn(table: String, column: String)
    case renameColumn(table: String, from: String, to: String)
    /// `UPDATE table SET … [WHERE …]`.
    case update(table: String, assignments: [SQLAssignment], where: SQLExpression?)
    /// `INSERT INTO table (columns) SELECT …`.
    case insertSelect(table: String, columns: [String], SQLSelect)
    /// `INSERT INTO table (columns) VALUES (…), (…)`.
    case insertValues(table: String, columns: [String], rows: [[SQLExpression]])
    case delete(table: String, where: SQLExpression?)
    /// Keeps `value` of every row of `table` in the temporary table `name`, keyed by rowid, for
    /// `SQLExpression.materialized` (a value too deep to compose further, or needed after its
    /// sources change).
    case materialize(name: String, table: String, value: SQLExpression, where: SQLExpression?)
    /// Drops a temporary table made by `materialize` or `createTemporaryTable`.
    case dropTemporaryTable(String)
    /// A temporary table filled by a query.
    case createTemporaryTable(name: String, SQLSelect)
}

/// `column = value` in an `UPDATE`.
package struct SQLAssignment: Hashable, Sendable {
    package var column: String
    package var value: SQLExpression

    package init(_ column: String, _ value: SQLExpression) {
        self.column = column
        self.value = value
    }
}

/// A `SELECT` of one table (optionally joined with temporary tables by rowid).
package struct SQLSelect: Hashable, Sendable {
    /// A table in the `FROM` clause.
    package struct Source: Hashable, Sendable {
        package var table: String
        package var alias: String?
        /// Whether the table is in the connection's temporary schema.
        package var isTemporary: Bool

        package init(_ table: String, alias: String? = nil, temporary: Bool = false) {
            self.table = table
            self.alias = alias
            isTemporary = temporary
        }
    }

    /// One result column: an expression, with a name when it needs one.
    package struct Column: Hashable, Sendable {
        package var value: SQLExpression
        package var name: String?

        package init(_ value: SQLExpression, as name: String? = nil) {
            self.value = value
            self.name = name
        }
    }

    package var columns: [Column]
    package var from: Source?
    /// Further sources, as a cross join constrained by `where`.
    package var joined: [Source]
    package var `where`: SQLExpression?
    package var groupBy: [SQLExpression]
    package var having: SQLExpression?
    package var orderBy: [SQLExpression]
    package var limit: Int?

    package init(
        _ columns: [Column], from: Source?, joined: [Source] = [], where condition: SQLExpression? = nil,
        groupBy: [SQLExpression] = [], having: SQLExpression? = nil, orderBy: [SQLExpression] = [], limit: Int? = nil
    ) {
        self.columns = columns
        self.from = from
        self.joined = joined
        self.where = condition
        self.groupBy = groupBy
        self.having = having
        self.orderBy = orderBy
        self.limit = limit
    }

    /// `SELECT * FROM table`: every column, for a copy.
    package static func everything(from table: String) -> SQLSelect {
        SQLSelect([Column](), from: Source(table))
    }

    /// `SELECT values… FROM table [WHERE condition]`.
    package init(_ values: [SQLExpression], from table: String, where condition: SQLExpression? = nil, limit: Int? = nil) {
        self.init(values.map { Column($0) }, from: Source(table), where: condition, limit: limit)
    }

    /// The query with `transform` applied to every expression of the enclosing row
    /// (`SQLExpression.outer`) it contains.
    package func mappingOuter(_ transform: (SQLExpression) -> SQLExpression) -> SQLSelect {
        func map(_ expression: SQLExpression) -> SQLExpression { expression.mappingOuter(transform) }
        var copy = self
        copy.columns = columns.map { Column(map($0.value), as: $0.name) }
        copy.where = `where`.map(map)
        copy.groupBy = groupBy.map(map)
        copy.having = having.map(map)
        copy.orderBy = orderBy.map(map)
        return copy
    }

    var depth: Int {
        ([`where`, having].compactMap { $0 } + columns.map(\.value) + groupBy + orderBy).map(\.depth).max() ?? 0
    }

    var size: Int {
        ([`where`, having].compactMap { $0 } + columns.map(\.value) + groupBy + orderBy).map(\.size).reduce(1, +)
    }
}

/// A table: columns and table constraints.
package struct SQLTableDefinition: Hashable, Sendable {
    package var name: String
    package var columns: [SQLColumnDefinition]
    package var constraints: [SQLTableConstraint]

    package init(name: String, columns: [SQLColumnDefinition], constraints: [SQLTableConstraint] = []) {
        self.name = name
        self.columns = columns
        self.constraints = constraints
    }
}

/// One column of a table.
package struct SQLColumnDefinition: Hashable, Sendable {
    package var name: String
    package var type: SQLColumnType
    package var isPrimaryKey: Bool
    package var isNotNull: Bool
    /// A `DEFAULT` clause; Remodel's layout has none, but `ADD COLUMN … NOT NULL` needs one.
    package var defaultValue: SQLDefault?
    /// A foreign key written on the column, for `ADD COLUMN` (which cannot add table
    /// constraints); tables declare theirs as `SQLTableConstraint.foreignKey`.
    package var references: SQLForeignKey?

    package init(
        name: String, type: SQLColumnType, primaryKey: Bool = false, notNull: Bool = false,
        default defaultValue: SQLDefault? = nil, references: SQLForeignKey? = nil
    ) {
        self.name = name
        self.type = type
        isPrimaryKey = primaryKey
        isNotNull = notNull
        self.defaultValue = defaultValue
        self.references = references
    }
}

/// A column's `DEFAULT`.
package enum SQLDefault: Hashable, Sendable {
    case value(SQLExpression)
    /// The default as a stored definition spells it (`PRAGMA table_info`'s `dflt_value`), kept
    /// when a definition is rewritten.
    case declared(String)
}

/// The target of a deferred foreign key: checked at commit, so rows may refer to each other in
/// any order.
package struct SQLForeignKey: Hashable, Sendable {
    package var table: String
    package var column: String
    package var onDelete: SQLDeleteAction

    package init(table: String, column: String, onDelete: SQLDeleteAction) {
        self.table = table
        self.column = column
        self.onDelete = onDelete
    }
}

/// What happens to a row holding a foreign key when the row it refers to is deleted.
package enum SQLDeleteAction: String, Hashable, Sendable {
    case cascade = "CASCADE"
    case setNull = "SET NULL"
}

/// A table constraint.
package enum SQLTableConstraint: Hashable, Sendable {
    case primaryKey([String])
    case unique([String])
    case foreignKey(column: String, SQLForeignKey)
}

/// An index on one column.
package struct SQLIndexDefinition: Hashable, Sendable {
    package var name: String
    package var table: String
    /// The indexed columns, in order.
    package var columns: [String]
    /// A `UNIQUE` index: no two rows hold the same values in its columns (NULLs never collide).
    package var isUnique: Bool

    package init(name: String, table: String, column: String) {
        self.init(name: name, table: table, columns: [column], isUnique: false)
    }

    package init(name: String, table: String, columns: [String], isUnique: Bool) {
        self.name = name
        self.table = table
        self.columns = columns
        self.isUnique = isUnique
    }

    /// The `CREATE INDEX` statement, with the name and table already quoted as the engine
    /// wants them (SQLite's plain names, PostgreSQL's shortened and schema-qualified ones).
    package func createStatement(name quotedName: String, table quotedTable: String) -> String {
        "CREATE \(isUnique ? "UNIQUE " : "")INDEX \(quotedName) ON \(quotedTable) (\(SQLiteRenderer.identifiers(columns)))"
    }
}
