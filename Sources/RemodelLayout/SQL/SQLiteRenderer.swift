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
            return "CREATE INDEX \(q(index.name)) ON \(q(index.table)) (\(q(index.column)))"
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
            let scope = Scope(table: table)
            var text = "UPDATE OR ROLLBACK \(q(table)) SET " + assignments.map { "\(q($0.column)) = \(expression($0.value, scope))" }.joined(separator: ", ")
            if let condition { text += " WHERE " + expression(condition, scope) }
            return text
        case .insertSelect(let table, let columns, let select):
            return "INSERT OR ROLLBACK INTO \(q(table)) (\(Self.identifiers(columns))) " + self.select(select)
        case .insertValues(let table, let columns, let rows):
            let scope = Scope(table: table)
            let values = rows.map { "(" + $0.map { expression($0, scope) }.joined(separator: ", ") + ")" }.joined(separator: ", ")
            return "INSERT INTO \(q(table)) (\(Self.identifiers(columns))) VALUES \(values)"
        case .delete(let table, let condition):
            return "DELETE FROM \(q(table))" + (condition.map { " WHERE " + expression($0, Scope(table: table)) } ?? "")
        case .materialize(let name, let table, let value, let condition):
            let scope = Scope(table: table)
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
        case .value(let value): text += " DEFAULT " + expression(value, Scope(table: ""))
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

    // MARK: - Queries

    package func select(_ select: SQLSelect) -> String {
        self.select(select, outer: nil)
    }

    private func select(_ select: SQLSelect, outer: Scope?) -> String {
        var select = select
        // A subquery's own table gets an alias, so that the enclosing row stays reachable
        // under its name even when both read the same table.
        if let outer, select.from != nil, select.from?.alias == nil { select.from?.alias = "remodel_query_\(outer.depth + 1)" }
        var scope = Scope(table: select.from?.alias ?? select.from?.table ?? "", qualified: !select.joined.isEmpty || outer != nil)
        scope.depth = (outer?.depth ?? 0) + 1
        scope.enclosing = outer.map { Box($0) }
        var text =
            "SELECT "
            + (select.columns.isEmpty
                ? "*"
                : select.columns.map { column in
                    expression(column.value, scope) + (column.name.map { " AS \(Self.identifier($0))" } ?? "")
                }.joined(separator: ", "))
        let sources = (select.from.map { [$0] } ?? []) + select.joined
        if !sources.isEmpty {
            text += " FROM " + sources.map(source).joined(separator: ", ")
        }
        if let condition = select.where { text += " WHERE " + expression(condition, scope) }
        if !select.groupBy.isEmpty { text += " GROUP BY " + select.groupBy.map { expression($0, scope) }.joined(separator: ", ") }
        if let having = select.having { text += " HAVING " + expression(having, scope) }
        if !select.orderBy.isEmpty { text += " ORDER BY " + select.orderBy.map { expression($0, scope) }.joined(separator: ", ") }
        if let limit = select.limit { text += " LIMIT \(limit)" }
        return text
    }

    private func source(_ source: SQLSelect.Source) -> String {
        (source.isTemporary ? "temp." : "") + Self.identifier(source.table) + (source.alias.map { " AS \(Self.identifier($0))" } ?? "")
    }

    // MARK: - Expressions

    /// The row an expression is evaluated in: its table (or alias), and whether columns must be
    /// qualified (inside a subquery, where another table is in scope too).
    package struct Scope: Sendable {
        package var table: String
        package var qualified = false
        /// Nesting of linked reads, for unique aliases.
        var depth = 0
        /// The row of the enclosing query, inside a subquery.
        var enclosing: Box?

        var outerScope: Scope? { enclosing?.scope }

        package init(table: String, qualified: Bool = false) {
            self.table = table
            self.qualified = qualified
        }

        func column(_ name: String) -> String {
            qualified ? "\(SQLiteRenderer.identifier(table)).\(SQLiteRenderer.identifier(name))" : SQLiteRenderer.identifier(name)
        }

        var rowid: String { qualified ? "\(SQLiteRenderer.identifier(table)).rowid" : "rowid" }

        /// The same row, seen from inside a subquery.
        var outer: Scope {
            var copy = self
            copy.qualified = true
            return copy
        }
    }

    /// An expression evaluated in a row of `table`.
    package func expression(_ expression: SQLExpression, in table: String) -> String {
        self.expression(expression, Scope(table: table))
    }

    package func expression(_ expression: SQLExpression, _ scope: Scope) -> String {
        switch expression {
        case .column(let name): return scope.column(name)
        case .rowid: return scope.rowid
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return Self.real(value)
        case .text(let value): return Self.text(value)
        case .blob(let bytes): return Self.blob(bytes)
        case .function(.trimWhitespace, let arguments):
            return "trim(\(arguments.map { self.expression($0, scope) }.joined(separator: ", ")), ' ' || char(9) || char(10) || char(13))"
        case .function(let function, let arguments):
            return Self.name(of: function) + "(" + arguments.map { self.expression($0, scope) }.joined(separator: ", ") + ")"
        case .not(let inner):
            return "NOT " + operand(inner, scope, parent: Precedence.not, right: true)
        case .binary(let op, let lhs, let rhs):
            let precedence = Precedence.of(op)
            let left = operand(lhs, scope, parent: precedence, right: false)
            let right = operand(rhs, scope, parent: precedence, right: true)
            return "\(left) \(op.rawValue) \(right)"
        case .isNull(let inner):
            return operand(inner, scope, parent: Precedence.equality, right: false) + " IS NULL"
        case .isNotNull(let inner):
            return operand(inner, scope, parent: Precedence.equality, right: false) + " IS NOT NULL"
        case .inSelect(let value, let select):
            return operand(value, scope, parent: Precedence.equality, right: false) + " IN (" + self.select(select, outer: scope.outer) + ")"
        case .inList(let value, let list, let negated):
            return operand(value, scope, parent: Precedence.equality, right: false) + (negated ? " NOT IN (" : " IN (")
                + list.map { self.expression($0, scope) }.joined(separator: ", ") + ")"
        case .between(let value, let lower, let upper):
            return operand(value, scope, parent: Precedence.equality, right: false) + " BETWEEN "
                + operand(lower, scope, parent: Precedence.equality, right: true) + " AND " + operand(upper, scope, parent: Precedence.equality, right: true)
        case .caseWhen(let caseOperand, let branches, let otherwise):
            var text = "CASE"
            if let caseOperand { text += " " + self.expression(caseOperand, scope) }
            for branch in branches {
                text += " WHEN \(self.expression(branch.condition, scope)) THEN \(self.expression(branch.result, scope))"
            }
            if let otherwise { text += " ELSE " + self.expression(otherwise, scope) }
            return text + " END"
        case .cast(let inner, let type):
            return "CAST(\(self.expression(inner, scope)) AS \(type.rawValue))"
        case .linked(let read):
            var inner = Scope(table: "remodel_link_\(scope.depth + 1)", qualified: true)
            inner.depth = scope.depth + 1
            let alias = Self.identifier(inner.table)
            return
                "(SELECT \(self.expression(read.value, inner)) FROM \(Self.identifier(read.table)) AS \(alias) WHERE \(alias).\(Self.identifier(read.key)) = \(self.expression(read.link, scope.outer)))"
        case .materialized(let table):
            return "(SELECT \"value\" FROM temp.\(Self.identifier(table)) WHERE \"row\" = \(scope.outer.rowid))"
        case .subquery(let select):
            return "(" + self.select(select, outer: scope.outer) + ")"
        case .exists(let select):
            return "EXISTS (" + self.select(select, outer: scope.outer) + ")"
        case .outer(let inner):
            return self.expression(inner, scope.outerScope ?? scope)
        }
    }

    /// Holds a scope inside another (a struct cannot contain itself).
    final class Box: Sendable {
        let scope: Scope
        init(_ scope: Scope) { self.scope = scope }
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

    private func operand(_ expression: SQLExpression, _ scope: Scope, parent: Int, right: Bool) -> String {
        let own = Precedence.of(expression)
        let text = self.expression(expression, scope)
        return own < parent || (right && own == parent && own != Precedence.atom) ? "(\(text))" : text
    }
}
