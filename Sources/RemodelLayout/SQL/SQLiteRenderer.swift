/// Prints SQL trees as SQLite's dialect: the one place that spells SQLite's syntax, quoting and
/// function names for the store's layout and the migration plan.
package struct SQLiteRenderer: Sendable {
    package init() {}

    // MARK: - Names

    /// SQLite's name of a function; Remodel's own are registered on the migrating connection
    /// under these names.
    package static func name(of function: SQLFunction) -> String {
        switch function {
        case .coalesce: "coalesce"
        case .lower: "lower"
        case .hex: "hex"
        case .count: "count"
        case .max: "max"
        case .trimWhitespace, .trim: "trim"
        case .groupConcat: "group_concat"
        case .json: "json"
        case .substring: "substr"
        case .position: "instr"
        case .length: "length"
        case .newUUID: "remodel_uuid"
        case .newUUIDText: "remodel_uuid_text"
        case .newObjectID: "remodel_objectid"
        case .parseReal: "remodel_parse_real"
        case .parseDecimal: "remodel_parse_decimal"
        case .parseUUID: "remodel_parse_uuid"
        case .parseObjectID: "remodel_parse_objectid"
        case .parseDate: "remodel_parse_date"
        case .parseURL: "remodel_parse_url"
        case .formatUUID: "remodel_format_uuid"
        case .formatDate: "remodel_format_date"
        case .isUTF8: "remodel_is_utf8"
        case .splitPart: "remodel_split_part"
        case .parseInteger: "remodel_parse_integer"
        case .embeddedGet: "remodel_embedded_get"
        case .embeddedJSON: "remodel_embedded_json"
        }
    }

    /// `name` as a quoted identifier: `"Person.dogs"`, with embedded quotes doubled. The one
    /// place Remodel quotes names in SQL.
    package static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Quoted, comma-separated identifiers.
    package static func identifiers(_ names: [String]) -> String {
        names.map(identifier).joined(separator: ", ")
    }

    /// A text literal; text with NUL is spelt as a cast blob, because SQL text literals end at NUL.
    package static func text(_ value: String) -> String {
        if value.utf8.contains(0) { return "CAST(\(blob(Array(value.utf8))) AS TEXT)" }
        return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    }

    package static func blob(_ bytes: [UInt8]) -> String {
        "X'" + hexDigits(bytes) + "'"
    }

    /// Two hexadecimal digits per byte, upper case: what blob literals (and PostgreSQL's
    /// `bytea` input) are written in.
    package static func hexDigits(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A real literal SQLite reads back as the same double (NaN, which SQLite stores as NULL,
    /// is NULL).
    package static func real(_ value: Double) -> String {
        if value.isNaN { return "NULL" }
        if value.isInfinite { return value < 0 ? "-9e999" : "9e999" }
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    // MARK: - Statements

    /// One statement (a `materialize` is two, separated by `;`).
    package func statement(_ statement: SQLStatement) -> String {
        let q = Self.identifier
        switch statement {
        case .createTable(let definition):
            return createTable(definition)
        case .createIndex(let index):
            return index.createStatement(name: q(index.name), table: q(index.table))
        case .dropTable(let name):
            return "DROP TABLE \(q(name))"
        case .dropIndex(let name):
            return "DROP INDEX IF EXISTS \(q(name))"
        case .renameTable(let from, let to):
            return "ALTER TABLE \(q(from)) RENAME TO \(q(to))"
        case .addColumn(let table, let column):
            return "ALTER TABLE \(q(table)) ADD COLUMN \(columnDefinition(column))"
        case .dropColumn(let table, let column):
            return "ALTER TABLE \(q(table)) DROP COLUMN \(q(column))"
        case .renameColumn(let table, let from, let to):
            return "ALTER TABLE \(q(table)) RENAME COLUMN \(q(from)) TO \(q(to))"
        // Writes of many rows say `OR ROLLBACK`: a plan's statements run in one transaction that
        // any error rolls back whole, so SQLite need not keep a statement journal (a copy of
        // every page the statement changes) to undo the one statement alone.
        case .update(let table, let assignments, let condition):
            let scope = SQLScope(table: table)
            var text = "UPDATE OR ROLLBACK \(q(table)) SET " + assignments.map { "\(q($0.column)) = \(expression($0.value, scope))" }.joined(separator: ", ")
            if let condition { text += " WHERE " + expression(condition, scope) }
            return text
        case .insertSelect(let table, let columns, let select):
            return "INSERT OR ROLLBACK INTO \(q(table)) (\(Self.identifiers(columns))) " + self.select(select)
        case .insertValues(let table, let columns, let rows):
            let scope = SQLScope(table: table)
            let values = rows.map { "(" + $0.map { expression($0, scope) }.joined(separator: ", ") + ")" }.joined(separator: ", ")
            return "INSERT INTO \(q(table)) (\(Self.identifiers(columns))) VALUES \(values)"
        case .delete(let table, let condition):
            return "DELETE FROM \(q(table))" + (condition.map { " WHERE " + expression($0, SQLScope(table: table)) } ?? "")
        case .materialize(let name, let table, let value, let condition):
            let scope = SQLScope(table: table)
            var insert = "INSERT INTO temp.\(q(name)) (\"row\", \"value\") SELECT rowid, \(expression(value, scope)) FROM \(q(table))"
            if let condition { insert += " WHERE " + expression(condition, scope) }
            return "CREATE TEMP TABLE \(q(name)) (\"row\" INTEGER PRIMARY KEY, \"value\"); " + insert
        case .dropTemporaryTable(let name):
            return "DROP TABLE temp.\(q(name))"
        case .createTemporaryTable(let name, let select):
            return "CREATE TEMP TABLE \(q(name)) AS " + self.select(select)
        }
    }

    /// `CREATE TABLE`, one definition per line.
    package func createTable(_ definition: SQLTableDefinition) -> String {
        let lines = definition.columns.map(columnDefinition) + definition.constraints.map(constraint)
        return "CREATE TABLE \(Self.identifier(definition.name)) (\n  " + lines.joined(separator: ",\n  ") + "\n)"
    }

    package func columnDefinition(_ column: SQLColumnDefinition) -> String {
        var text = "\(Self.identifier(column.name)) \(column.type.rawValue)"
        if column.isPrimaryKey { text += " PRIMARY KEY NOT NULL" } else if column.isNotNull { text += " NOT NULL" }
        switch column.defaultValue {
        case .value(let value): text += " DEFAULT " + expression(value, SQLScope(table: ""))
        case .declared(let declared): text += " DEFAULT " + declared
        case nil: break
        }
        if let key = column.references { text += " REFERENCES " + foreignKeyTarget(key) }
        return text
    }

    private func constraint(_ constraint: SQLTableConstraint) -> String {
        let q = Self.identifier
        switch constraint {
        case .primaryKey(let columns): return "PRIMARY KEY (\(Self.identifiers(columns)))"
        case .unique(let columns): return "UNIQUE (\(Self.identifiers(columns)))"
        case .foreignKey(let column, let key): return "FOREIGN KEY (\(q(column))) REFERENCES " + foreignKeyTarget(key)
        }
    }

    private func foreignKeyTarget(_ key: SQLForeignKey) -> String {
        "\(Self.identifier(key.table)) (\(Self.identifier(key.column))) ON DELETE \(key.onDelete.rawValue) DEFERRABLE INITIALLY DEFERRED"
    }

    // MARK: - Queries and expressions

    /// The shared walk of queries and expressions, in SQLite's dialect.
    private var queries: SQLQueryRenderer<SQLiteDialect> { SQLQueryRenderer(SQLiteDialect()) }

    package func select(_ select: SQLSelect) -> String {
        queries.select(select)
    }

    /// An expression evaluated in a row of `table`.
    package func expression(_ expression: SQLExpression, in table: String) -> String {
        queries.expression(expression, SQLScope(table: table))
    }

    package func expression(_ expression: SQLExpression, _ scope: SQLScope) -> String {
        queries.expression(expression, scope)
    }
}
