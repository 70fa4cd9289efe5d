import RemodelCore
import RemodelLayout
import RemodelPlanning
import RemodelStore

/// Prints a version's plan (the planner's SQL trees, the same plan SQLite runs) as PostgreSQL
/// statements on a `PostgresLayout` store.
///
/// The plan computes with values in their stored form, the SQLite store's and the JSON
/// format's (`StoreValue`): a date is its microseconds, a uuid 16 bytes, a bool 0 or 1. A
/// PostgreSQL store keeps native types, so the renderer follows every table's column types
/// through the plan, from the old schema's layout as statements add, rename, retype and drop
/// columns, and converts at the edges: a column is read as its stored form, and a value is
/// written back in the column's own type. Constants are written as literals of that type.
/// Remodel's functions (`remodel_split_part`, `remodel_parse_integer`…) are SQL functions
/// of the migrating session (`PostgresFunctions`), with the rules of their SQLite twins.
///
/// An `UPDATE` of every row whose values come from the row itself becomes one `ALTER TABLE …
/// ALTER COLUMN … TYPE … USING`, which writes the table anew (each `USING` reads the old row,
/// as `SET` does), a column's new type included: where SQLite declares a column with a new
/// type and converts it in its slot (`.retype`), PostgreSQL converts it in the same pass.
/// Other updates stay `UPDATE`s; one that retypes a column writes a new column, which then
/// takes the old one's name.
package struct PostgresPlanRenderer {
    /// What a plan operation becomes.
    package enum Step: Sendable {
        /// Statements to run, in order.
        case statements([String])
        /// A data check: the query finding offending objects, and the one counting them.
        case check(DataCheck, query: String, count: String)
        /// A count for the report.
        case count(CountNote, query: String)
        /// Give `table` the definition a fresh store has: defaults, NOT NULL and foreign keys
        /// (`PostgresMigrator` compares the catalog with it when it runs).
        case reconcile(table: String, definition: SQLTableDefinition)
        /// Check every deferred link now.
        case linkCheck
        /// Call a custom step's closure for every object of `call.type`; `columns` are that
        /// table's column types then, `snapshots` those of the copies of the old tables.
        case custom(CustomCall, columns: [String: PostgresColumnType], snapshots: [String: [String: PostgresColumnType]])
        /// Nothing to run here (a retype the next `UPDATE` carries out).
        case none(String)
        /// `step`, after filling the lookup tables it reads.
        indirect case withLookups([Lookup], Step)
    }

    /// A rule SQL cannot spell exactly (Foundation's URL parsing, the ISO 8601 and decimal
    /// forms): the distinct values the statement applies it to are read first, their results
    /// computed by the same Swift code SQLite's functions call, and kept in a temporary table
    /// the statement reads. Still set-based: one query, one insert per thousand values.
    package struct Lookup: Sendable {
        /// The temporary table: `input` → `output`.
        package var table: String
        package var function: SQLFunction
        /// The query returning every distinct input; per row, the row's rowid then the
        /// function's arguments.
        package var inputs: String
        /// Whether `input` is a rowid (a function of several values of the row: the embedded
        /// JSON functions) rather than the one argument.
        package var perRow = false
        /// The function's literal arguments, for a per-row lookup (names, type descriptions).
        package var constants: [String] = []
        package var inputType = PostgresColumnType.text
        package var outputType = PostgresColumnType.text
    }

    /// The functions computed through lookups.
    static let lookupFunctions: Set<SQLFunction> = [.parseDate, .parseDecimal, .parseURL, .formatDate, .embeddedGet, .embeddedJSON]

    private final class Lookups {
        var pending: [Lookup] = []
        var count = 0
    }

    /// Why a plan cannot run on PostgreSQL (yet).
    package struct Unsupported: Error, CustomStringConvertible {
        package var description: String
    }

    private let old: PostgresLayout
    private let new: PostgresLayout
    /// Column → PostgreSQL type, for every table as the statements so far left it; `nil` for
    /// a temporary table's columns that hold stored forms.
    private var tables: [String: [String: PostgresColumnType?]] = [:]
    private var temporary: Set<String> = []
    /// Columns declared with a new type whose values the next UPDATE converts.
    private var retyped: [String: [String: PostgresColumnType]] = [:]
    private let operations: [ScheduledOperation]
    private var index = 0
    private let version: Int
    private let lookups = Lookups()

    package init(version: VersionPlan, schemaName: String) throws {
        do {
            old = try PostgresLayout(schema: version.previousSchema, schemaName: schemaName)
            new = try PostgresLayout(schema: version.schema, schemaName: schemaName)
        } catch let error as UnsupportedSchema {
            throw Unsupported(description: error.message)
        }
        operations = version.operations
        self.version = version.version
        for (name, columns) in old.columnTypes { tables[name] = columns.mapValues { Optional($0) } }
    }

    /// Every operation of the version, in order, as PostgreSQL steps.
    package mutating func steps() throws -> [Step] {
        var steps: [Step] = []
        while index < operations.count {
            let step = try step(operations[index].operation)
            steps.append(lookups.pending.isEmpty ? step : .withLookups(lookups.pending, step))
            lookups.pending = []
            index += 1
        }
        return steps
    }

    private mutating func step(_ operation: PlanOperation) throws -> Step {
        switch operation {
        case .statement(let statement):
            return .statements(try self.statement(statement))
        case .check(let check):
            return .check(check, query: try select(check.query), count: try select(check.countQuery))
        case .count(let note):
            return .count(note, query: try select(note.query))
        case .custom(let call):
            var snapshots: [String: [String: PostgresColumnType]] = [:]
            for snapshot in call.snapshots.values {
                for table in [snapshot.table] + snapshot.layout.sideTables.values.map(\.table) {
                    snapshots[table] = (tables[table] ?? [:]).compactMapValues { $0 }
                }
            }
            return .custom(call, columns: (tables[call.type] ?? [:]).compactMapValues { $0 }, snapshots: snapshots)
        case .normalize(let definition, _):
            return .reconcile(table: definition.name, definition: definition)
        case .retype(let table, let column, _):
            let type = finalType(table: table, column: column) ?? .text
            retyped[table, default: [:]][column] = type
            return .none("-- \(q(table)).\(q(column)) becomes \(type.sql): the next UPDATE writes its values into a new column, which then takes its name")
        case .foreignKeyCheck:
            return .linkCheck
        }
    }

    // MARK: - Statements

    private mutating func statement(_ statement: SQLStatement) throws -> [String] {
        switch statement {
        case .createTable(let definition):
            var columns: [String: PostgresColumnType?] = [PostgresLayout.rowid: .bigint]
            var parts = [PostgresLayout.rowidDeclaration]
            for column in definition.columns {
                let type = finalType(table: definition.name, column: column.name) ?? Self.fallbackType(column.type)
                columns[column.name] = type
                parts.append(q(column.name) + " " + type.sql + (column.isPrimaryKey ? " PRIMARY KEY" : column.isNotNull ? " NOT NULL" : ""))
            }
            for constraint in definition.constraints {
                switch constraint {
                case .primaryKey(let names): parts.append("PRIMARY KEY (\(SQLiteRenderer.identifiers(names)))")
                case .unique(let names): parts.append("UNIQUE (\(SQLiteRenderer.identifiers(names)))")
                case .foreignKey: break  // added when the version reconciles the table
                }
            }
            tables[definition.name] = columns
            return ["CREATE TABLE \(q(definition.name)) (\(parts.joined(separator: ", ")))"]
        case .createIndex(let index):
            return ["CREATE INDEX \(q(PostgresLayout.indexName(index.name))) ON \(q(index.table)) (\(q(index.column)))"]
        case .dropIndex(let name):
            return ["DROP INDEX IF EXISTS \(q(PostgresLayout.indexName(name)))"]
        case .dropTable(let name):
            tables[name] = nil
            // Foreign keys of other tables that refer to it go with it; reconciling adds them again.
            return ["DROP TABLE \(q(name)) CASCADE"]
        case .renameTable(let from, let to):
            tables[to] = tables.removeValue(forKey: from)
            retyped[to] = retyped.removeValue(forKey: from)
            return ["ALTER TABLE \(q(from)) RENAME TO \(q(to))"]
        case .addColumn(let table, let column):
            let type = finalType(table: table, column: column.name) ?? Self.fallbackType(column.type)
            tables[table, default: [:]][column.name] = type
            var text = "ALTER TABLE \(q(table)) ADD COLUMN \(q(column.name)) \(type.sql)"
            if column.isNotNull { text += " NOT NULL" }
            switch column.defaultValue {
            case .value(let value): text += " DEFAULT " + (try write(value, as: type, Scope(table: table)))
            case .declared: throw Unsupported(description: "a column default spelt in SQLite's syntax cannot be given to PostgreSQL")
            case nil: break
            }
            // Its foreign key is added when the version reconciles the tables: the table it
            // refers to may be created later in the version (SQLite checks references only
            // when it uses them; PostgreSQL wants the table at once).
            return [text]
        case .dropColumn(let table, let column):
            tables[table]?[column] = nil
            return ["ALTER TABLE \(q(table)) DROP COLUMN \(q(column)) CASCADE"]
        case .renameColumn(let table, let from, let to):
            if let type = tables[table]?.removeValue(forKey: from) { tables[table]?[to] = type }
            if let type = retyped[table]?.removeValue(forKey: from) { retyped[table]?[to] = type }
            return ["ALTER TABLE \(q(table)) RENAME COLUMN \(q(from)) TO \(q(to))"]
        case .update(let table, let assignments, let condition):
            return try update(table: table, assignments: assignments, condition: condition)
        case .insertSelect(let table, let columns, var query):
            // Values are written in the target's column types; rows keep the order of the rows
            // they come from, as SQLite's new rowids do.
            let types = columns.map { tables[table]?[$0] ?? nil }
            if query.orderBy.isEmpty, query.groupBy.isEmpty, let from = query.from, !from.isTemporary, !temporary.contains(from.table), tables[from.table] != nil,
                query.columns.count == columns.count
            {
                query.orderBy = [.rowid]
            }
            return ["INSERT INTO \(q(table)) (\(SQLiteRenderer.identifiers(columns))) " + (try select(query, outer: nil, writing: types))]
        case .insertValues(let table, let columns, let rows):
            let scope = Scope(table: table)
            let values = try rows.map { row in
                "(" + (try zip(columns, row).map { column, value in try write(value, as: tables[table]?[column] ?? nil, scope) }).joined(separator: ", ") + ")"
            }
            return ["INSERT INTO \(q(table)) (\(SQLiteRenderer.identifiers(columns))) VALUES \(values.joined(separator: ", "))"]
        case .delete(let table, let condition):
            return ["DELETE FROM \(q(table))" + (try condition.map { " WHERE " + (try self.condition($0, Scope(table: table))) } ?? "")]
        case .materialize(let name, let table, let value, let condition):
            let scope = Scope(table: table)
            var text = "CREATE TEMPORARY TABLE \(q(name)) AS SELECT \(q(PostgresLayout.rowid)) AS \"row\", \(try self.value(value, scope)) AS \"value\" FROM \(q(table))"
            if let condition { text += " WHERE " + (try self.condition(condition, scope)) }
            temporary.insert(name)
            tables[name] = ["row": nil, "value": nil]
            return [text, "ALTER TABLE pg_temp.\(q(name)) ADD PRIMARY KEY (\"row\")"]
        case .dropTemporaryTable(let name):
            temporary.remove(name)
            tables[name] = nil
            return ["DROP TABLE pg_temp.\(q(name))"]
        case .createTemporaryTable(let name, let query):
            temporary.insert(name)
            if query.columns.isEmpty, let from = query.from {
                tables[name] = tables[from.table] ?? [:]  // a copy keeps the types
            } else {
                tables[name] = Dictionary(query.columns.enumerated().map { ($1.name ?? "column\($0 + 1)", nil) }, uniquingKeysWith: { $1 })
            }
            return ["CREATE TEMPORARY TABLE \(q(name)) AS " + (try select(query, outer: nil, writing: nil))]
        }
    }

    /// An `UPDATE`; columns waiting for their new type are written as new columns that then
    /// take the old ones' places.
    private mutating func update(table: String, assignments: [SQLAssignment], condition: SQLExpression?) throws -> [String] {
        let scope = Scope(table: table)
        let pending = retyped[table] ?? [:]
        // Every row, from its own values only: one ALTER TABLE writes the table anew with the
        // new values (each USING reads the old row, as an UPDATE's SET does), where an UPDATE
        // would leave a dead version of every row and add to every index.
        let types = assignments.map { pending[$0.column] ?? tables[table]?[$0.column] ?? nil }
        if condition == nil, !assignments.isEmpty, !types.contains(nil), !assignments.contains(where: { Self.readsOtherRows($0.value) }) {
            let clauses = try zip(assignments, types).map { assignment, type in
                "ALTER COLUMN \(q(assignment.column)) TYPE \(type!.sql) USING \(try write(assignment.value, as: type, scope))"
            }
            for (assignment, type) in zip(assignments, types) {
                tables[table]?[assignment.column] = type
                retyped[table]?[assignment.column] = nil
            }
            return ["ALTER TABLE \(q(table)) " + clauses.joined(separator: ", ")]
        }
        var before: [String] = []
        var after: [String] = []
        var sets: [String] = []
        for assignment in assignments {
            if let type = pending[assignment.column] {
                guard condition == nil else {
                    throw Unsupported(description: "\(table).\(assignment.column) changes type in an UPDATE of some objects only")
                }
                let fresh = "__remodel_new_" + assignment.column
                before.append("ALTER TABLE \(q(table)) ADD COLUMN \(q(fresh)) \(type.sql)")
                sets.append("\(q(fresh)) = \(try write(assignment.value, as: type, scope))")
                after += [
                    "ALTER TABLE \(q(table)) DROP COLUMN \(q(assignment.column)) CASCADE",
                    "ALTER TABLE \(q(table)) RENAME COLUMN \(q(fresh)) TO \(q(assignment.column))",
                ]
            } else {
                sets.append("\(q(assignment.column)) = \(try write(assignment.value, as: tables[table]?[assignment.column] ?? nil, scope))")
            }
        }
        var text = "UPDATE \(q(table)) SET " + sets.joined(separator: ", ")
        if let condition { text += " WHERE " + (try self.condition(condition, scope)) }
        for column in pending.keys where assignments.contains(where: { $0.column == column }) {
            tables[table]?[column] = pending[column]
            retyped[table]?[column] = nil
        }
        return before + [text] + after
    }

    /// Whether `expression` reads rows other than the one it is evaluated in (a subquery),
    /// which ALTER TABLE's USING cannot.
    private static func readsOtherRows(_ expression: SQLExpression) -> Bool {
        switch expression {
        case .linked, .materialized, .subquery, .exists, .inSelect: return true
        case .function(let function, _) where lookupFunctions.contains(function): return true
        default:
            var found = false
            _ = expression.mappingOperands { part in
                if readsOtherRows(part) { found = true }
                return part
            }
            return found
        }
    }

    /// The type `column` of `table` has in the new layout, following the renames the rest of
    /// the version makes; nil for a column the new layout does not have.
    private func finalType(table: String, column: String) -> PostgresColumnType? {
        var table = table
        var column = column
        for scheduled in operations[index...] {
            guard case .statement(let statement) = scheduled.operation else { continue }
            switch statement {
            case .renameTable(let from, let to) where from == table: table = to
            case .renameColumn(let on, let from, let to) where on == table && from == column: column = to
            default: break
            }
        }
        return new.columnTypes[table]?[column]
    }

    private static func fallbackType(_ type: SQLColumnType) -> PostgresColumnType {
        switch type {
        case .integer: .bigint
        case .real: .doublePrecision
        case .text: .text
        case .blob: .bytea
        }
    }

    // MARK: - Queries

    package func select(_ query: SQLSelect) throws -> String {
        try select(query, outer: nil, writing: nil)
    }

    /// A query; with `writing`, each result column is converted to the column type it is
    /// inserted into.
    private func select(_ query: SQLSelect, outer: Scope?, writing types: [PostgresColumnType?]?) throws -> String {
        var query = query
        if let outer, query.from != nil, query.from?.alias == nil { query.from?.alias = "remodel_query_\(outer.depth + 1)" }
        var scope = Scope(table: query.from?.alias ?? query.from?.table ?? "", source: query.from?.table ?? "", qualified: !query.joined.isEmpty || outer != nil)
        scope.depth = (outer?.depth ?? 0) + 1
        scope.enclosing = outer.map { ScopeBox($0) }
        scope.aliases = Dictionary(([query.from].compactMap { $0 } + query.joined).map { ($0.alias ?? $0.table, $0.table) }, uniquingKeysWith: { $1 })
        var text = "SELECT "
        if query.columns.isEmpty {
            text += "*"
        } else {
            text += try query.columns.enumerated().map { position, column in
                let type = types.flatMap { position < $0.count ? $0[position] : nil }
                let value = types == nil ? try self.value(column.value, scope) : try write(column.value, as: type, scope)
                return value + (column.name.map { " AS \(q($0))" } ?? "")
            }.joined(separator: ", ")
        }
        let sources = (query.from.map { [$0] } ?? []) + query.joined
        if !sources.isEmpty {
            text +=
                " FROM "
                + sources.map { source in
                    (source.isTemporary || temporary.contains(source.table) ? "pg_temp." : "") + q(source.table) + (source.alias.map { " AS \(q($0))" } ?? "")
                }.joined(separator: ", ")
        }
        if let condition = query.where { text += " WHERE " + (try self.condition(condition, scope)) }
        if !query.groupBy.isEmpty { text += " GROUP BY " + (try query.groupBy.map { try value($0, scope) }.joined(separator: ", ")) }
        if let having = query.having { text += " HAVING " + (try condition(having, scope)) }
        if !query.orderBy.isEmpty { text += " ORDER BY " + (try query.orderBy.map { try value($0, scope) }.joined(separator: ", ")) }
        if let limit = query.limit { text += " LIMIT \(limit)" }
        return text
    }

    // MARK: - Expressions

    /// The row an expression is evaluated in.
    private struct Scope {
        /// What columns are qualified with: the table's name or its alias.
        var table: String
        /// The table itself, for its column types.
        var source: String
        var qualified = false
        var depth = 0
        var enclosing: ScopeBox?
        var aliases: [String: String] = [:]

        init(table: String, source: String? = nil, qualified: Bool = false) {
            self.table = table
            self.source = source ?? table
            self.qualified = qualified
        }

        var outer: Scope {
            var copy = self
            copy.qualified = true
            return copy
        }

        func reference(_ name: String) -> String {
            qualified ? "\(SQLiteRenderer.identifier(table)).\(SQLiteRenderer.identifier(name))" : SQLiteRenderer.identifier(name)
        }
    }

    private final class ScopeBox {
        let scope: Scope
        init(_ scope: Scope) { self.scope = scope }
    }

    /// `expression` as a stored value (a condition becomes 0 or 1).
    private func value(_ expression: SQLExpression, _ scope: Scope) throws -> String {
        let text = try render(expression, scope)
        return Self.isCondition(expression) ? "(\(text))::integer" : text
    }

    /// `expression` as a condition (a stored value is true when it is not 0, as in SQLite).
    private func condition(_ expression: SQLExpression, _ scope: Scope) throws -> String {
        let text = try render(expression, scope)
        return Self.isCondition(expression) ? text : "((\(text)) <> 0)"
    }

    /// `expression`, a stored value, written into a column of PostgreSQL `type` (nil: a
    /// stored form). A column copied into a column of its own type is copied as it is.
    private func write(_ expression: SQLExpression, as type: PostgresColumnType?, _ scope: Scope) throws -> String {
        guard let type else { return try value(expression, scope) }
        if case .column(let name) = expression, columnType(name, scope) == type { return scope.reference(name) }
        if let constant = try Self.constant(expression) {
            let coding = PostgresValueCoding(columnType: type)
            let text: String?
            do { text = try coding.parameter(constant) } catch { throw Unsupported(description: "\(error)") }
            return text.map { SQLiteRenderer.text($0) + "::" + type.castName } ?? "NULL"
        }
        let text = try value(expression, scope)
        switch PostgresValueCoding(columnType: type).kind {
        case .scalar(.bool): return "((\(text)) <> 0)"
        case .scalar(.date): return "pg_temp.remodel_timestamp(\(text))"
        case .scalar(.uuid): return "(encode(\(text), 'hex'))::uuid"
        case .embedded: return "(\(text))::jsonb"
        case .scalar(.decimal128): return "(\(text))::numeric"
        case .scalar(.float): return "(\(text))::real"
        case .scalar(.int8), .scalar(.int16): return "(\(text))::smallint"
        case .scalar(.int32): return "(\(text))::integer"
        default: return text
        }
    }

    /// A column, read as its stored form.
    private func read(_ name: String, _ scope: Scope) -> String {
        let reference = scope.reference(name)
        guard let type = columnType(name, scope) else { return reference }
        switch PostgresValueCoding(columnType: type).kind {
        case .scalar(.bool): return "(\(reference))::integer"
        case .scalar(.date): return "pg_temp.remodel_micros(\(reference))"
        case .scalar(.uuid): return "uuid_send(\(reference))"
        case .embedded, .scalar(.decimal128): return "(\(reference))::text"
        case .scalar(.float): return "(\(reference))::double precision"
        case .scalar(.int8), .scalar(.int16), .scalar(.int32): return "(\(reference))::bigint"
        default: return reference
        }
    }

    private func columnType(_ name: String, _ scope: Scope) -> PostgresColumnType? {
        let table = scope.aliases[scope.table] ?? scope.source
        return tables[table]?[name] ?? nil
    }

    private func render(_ expression: SQLExpression, _ scope: Scope) throws -> String {
        switch expression {
        case .column(let name): return read(name, scope)
        case .rowid: return scope.reference(PostgresLayout.rowid)
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return Self.real(value)
        case .text(let value):
            guard !value.utf8.contains(0) else { throw Unsupported(description: "PostgreSQL's text cannot hold the character U+0000") }
            return SQLiteRenderer.text(value)
        case .blob(let bytes): return "'\\x" + SQLiteRenderer.hexDigits(bytes) + "'::bytea"
        case .function(.splitPart, let arguments) where arguments.count == 4:
            if case .text(let separator) = arguments[1], case .integer(let part) = arguments[2], case .integer(let parts) = arguments[3], part <= 3 {
                return Self.splitPart(try value(arguments[0], scope), separator: separator, part: Int(part), parts: Int(parts))
            }
            return try Self.call(.splitPart, try arguments.map { try value($0, scope) })
        case .function(.parseInteger, let arguments) where arguments.count == 3:
            if case .integer(let low) = arguments[1], case .integer(let high) = arguments[2] {
                return Self.parseInteger(try value(arguments[0], scope), low: low, high: high)
            }
            return try Self.call(.parseInteger, try arguments.map { try value($0, scope) })
        case .function(let function, let arguments) where function == .embeddedGet || function == .embeddedJSON:
            return try rowLookup(function, arguments, scope)
        case .function(let function, let arguments) where Self.lookupFunctions.contains(function) && arguments.count == 1:
            return try lookup(function, arguments[0], scope)
        case .function(let function, let arguments):
            let values = try arguments.map { try value($0, scope) }
            return try Self.call(function, values)
        case .not(let inner):
            return "NOT (\(try condition(inner, scope)))"
        case .binary(let op, let lhs, let rhs):
            switch op {
            case .and, .or: return "(\(try condition(lhs, scope)) \(op.rawValue) \(try condition(rhs, scope)))"
            case .isIdentical: return "(\(try value(lhs, scope)) IS NOT DISTINCT FROM \(try value(rhs, scope)))"
            case .isNotIdentical: return "(\(try value(lhs, scope)) IS DISTINCT FROM \(try value(rhs, scope)))"
            default: return "(\(try value(lhs, scope)) \(op.rawValue) \(try value(rhs, scope)))"
            }
        case .isNull(let inner): return "(\(try value(inner, scope)) IS NULL)"
        case .isNotNull(let inner): return "(\(try value(inner, scope)) IS NOT NULL)"
        case .inSelect(let inner, let query):
            return "(\(try value(inner, scope)) IN (\(try select(query, outer: scope.outer, writing: nil))))"
        case .inList(let inner, let list, let negated):
            return "(\(try value(inner, scope))\(negated ? " NOT IN (" : " IN (")\(try list.map { try value($0, scope) }.joined(separator: ", "))))"
        case .between(let inner, let lower, let upper):
            return "(\(try value(inner, scope)) BETWEEN \(try value(lower, scope)) AND \(try value(upper, scope)))"
        case .caseWhen(let operand, let branches, let otherwise):
            var text = "CASE"
            if let operand { text += " " + (try value(operand, scope)) }
            for branch in branches {
                let test = operand == nil ? try condition(branch.condition, scope) : try value(branch.condition, scope)
                text += " WHEN \(test) THEN \(try value(branch.result, scope))"
            }
            if let otherwise { text += " ELSE " + (try value(otherwise, scope)) }
            return text + " END"
        case .cast(let inner, let type):
            let text = try value(inner, scope)
            switch type {
            case .integer: return "CAST(\(text) AS bigint)"
            case .real: return "CAST(\(text) AS double precision)"
            case .text: return "CAST(\(text) AS text)"
            case .blob: return "convert_to(\(text), 'UTF8')"
            }
        case .linked(let read):
            var inner = Scope(table: "remodel_link_\(scope.depth + 1)", source: read.table, qualified: true)
            inner.depth = scope.depth + 1
            let alias = q(inner.table)
            let key = inner.reference(read.key)
            return
                "(SELECT \(try value(read.value, inner)) FROM \(q(read.table)) AS \(alias) WHERE \(key) = \(try write(read.link, as: tables[read.table]?[read.key] ?? nil, scope.outer)))"
        case .materialized(let table):
            return "(SELECT \"value\" FROM pg_temp.\(q(table)) WHERE \"row\" = \(scope.outer.reference(PostgresLayout.rowid)))"
        case .subquery(let query):
            return "(" + (try select(query, outer: scope.outer, writing: nil)) + ")"
        case .exists(let query):
            return "EXISTS (" + (try select(query, outer: scope.outer, writing: nil)) + ")"
        case .outer(let inner):
            return try render(inner, scope.enclosing?.scope ?? scope)
        }
    }

    /// `function(argument)` read from a lookup table filled before the statement runs.
    private func lookup(_ function: SQLFunction, _ argument: SQLExpression, _ scope: Scope) throws -> String {
        guard !Self.readsOtherRows(argument), !Self.readsEnclosingRow(argument) else {
            throw Unsupported(description: "the plan needs \(SQLiteRenderer.name(of: function)) of a value read from another row, which remodel does not run on PostgreSQL yet")
        }
        let text = try value(argument, scope)
        let input = function == .formatDate ? text : "(\(text))::text"
        lookups.count += 1
        let name = "remodel_lookup_\(version)_\(lookups.count)"
        let table = (temporary.contains(scope.source) ? "pg_temp." : "") + q(scope.source) + (scope.table == scope.source ? "" : " AS \(q(scope.table))")
        var lookup = Lookup(table: name, function: function, inputs: "SELECT DISTINCT \(input) FROM \(table) WHERE \(input) IS NOT NULL")
        if function == .formatDate { lookup.inputType = .bigint }
        if function == .parseDate { lookup.outputType = .bigint }
        lookups.pending.append(lookup)
        return "(SELECT \"output\" FROM pg_temp.\(q(name)) WHERE \"input\" = \(input))"
    }

    /// An embedded-JSON function of values of the current row, computed for every row by
    /// `EmbeddedValueCoding` (SQLite's functions' coder) into a table keyed by rowid.
    private func rowLookup(_ function: SQLFunction, _ arguments: [SQLExpression], _ scope: Scope) throws -> String {
        let literals = function == .embeddedGet ? 2 : 1
        var constants: [String] = []
        var values: [SQLExpression] = []
        for (position, argument) in arguments.enumerated() {
            let isLiteral = function == .embeddedGet ? position > 0 : position == 0
            if isLiteral {
                guard case .text(let text) = argument else { throw Unsupported(description: "\(SQLiteRenderer.name(of: function)) with a computed name") }
                constants.append(text)
            } else {
                values.append(argument)
            }
        }
        guard constants.count == literals, !values.contains(where: Self.readsEnclosingRow) else {
            throw Unsupported(description: "the plan needs \(SQLiteRenderer.name(of: function)) of a value read from another row, which remodel does not run on PostgreSQL yet")
        }
        var outputType = PostgresColumnType.text
        if function == .embeddedGet {
            // The property's stored form: a number, text or bytes (JSON text for collections and embedded objects).
            let schema = old.layout.schema
            guard let type = EmbeddedValueCoding(schema: schema).type(described: constants[1]) else {
                throw Unsupported(description: "remodel_embedded_get of an unknown type \(constants[1])")
            }
            if type.collection == nil, case .scalar? = try? StoreTypeMapping.storedKind(of: type, in: schema, context: ""),
                let column = try? StoreTypeMapping.columnType(of: type, in: schema, context: "")
            {
                outputType = Self.fallbackType(column.sqlType)
            } else if type.collection == nil, case .enumeration? = try? StoreTypeMapping.storedKind(of: type, in: schema, context: ""),
                let column = try? StoreTypeMapping.columnType(of: type, in: schema, context: "")
            {
                outputType = Self.fallbackType(column.sqlType)
            }
        }
        lookups.count += 1
        let name = "remodel_lookup_\(version)_\(lookups.count)"
        let rowid = scope.reference(PostgresLayout.rowid)
        let table = (temporary.contains(scope.source) ? "pg_temp." : "") + q(scope.source) + (scope.table == scope.source ? "" : " AS \(q(scope.table))")
        let rendered = try values.map { try value($0, scope) }
        var lookup = Lookup(table: name, function: function, inputs: "SELECT \(([rowid] + rendered).joined(separator: ", ")) FROM \(table)")
        lookup.perRow = true
        lookup.constants = constants
        lookup.inputType = .bigint
        lookup.outputType = outputType
        lookups.pending.append(lookup)
        return "(SELECT \"output\" FROM pg_temp.\(q(name)) WHERE \"input\" = \(rowid))"
    }

    private static func readsEnclosingRow(_ expression: SQLExpression) -> Bool {
        if case .outer = expression { return true }
        var found = false
        _ = expression.mappingOperands { part in
            if readsEnclosingRow(part) { found = true }
            return part
        }
        return found
    }

    /// Whether PostgreSQL sees `expression` as a boolean.
    private static func isCondition(_ expression: SQLExpression) -> Bool {
        switch expression {
        case .not, .isNull, .isNotNull, .inList, .inSelect, .between, .exists: true
        case .binary(let op, _, _): ![.concatenate, .plus, .minus].contains(op)
        case .function(.isUTF8, _): true
        default: false
        }
    }

    private static func constant(_ expression: SQLExpression) throws -> StoreValue? {
        switch expression {
        case .null: .null
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .text(let value): .text(value)
        case .blob(let bytes): .blob(bytes)
        default: nil
        }
    }

    private static func call(_ function: SQLFunction, _ arguments: [String]) throws -> String {
        let list = arguments.joined(separator: ", ")
        switch function {
        case .coalesce: return "coalesce(\(list))"
        case .lower: return "lower(\(list))"
        case .hex: return "upper(encode(\(list), 'hex'))"
        case .count: return "count(\(arguments.isEmpty ? "*" : list))"
        // SQLite's max of one argument is the aggregate; of more, the largest.
        case .max: return arguments.count == 1 ? "max(\(list))" : "greatest(\(list))"
        case .trimWhitespace: return "btrim(\(list), E' \\t\\n\\r')"
        case .trim: return "btrim(\(list))"
        case .groupConcat: return "string_agg(\(arguments.first.map { "(\($0))::text" } ?? "NULL"), \(arguments.count > 1 ? arguments[1] : "','"))"
        case .substring: return "substr(\(list))"
        case .position: return "strpos(\(list))"
        case .length: return "length(\(list))"
        case .newUUID: return "uuid_send(gen_random_uuid())"
        case .newUUIDText: return "upper(gen_random_uuid()::text)"
        case .parseReal, .parseUUID, .parseObjectID, .formatUUID, .isUTF8, .splitPart, .parseInteger, .newObjectID:
            return "pg_temp.\(SQLiteRenderer.name(of: function))(\(list))"
        case .json, .parseDecimal, .parseDate, .parseURL, .formatDate, .embeddedGet, .embeddedJSON:
            throw Unsupported(description: "the plan needs \(SQLiteRenderer.name(of: function)), which remodel does not run on PostgreSQL yet")
        }
    }

    // MARK: - Remodel's rules as plain SQL

    // The two rules a migration applies to every row most often, `split` and `convert` to an
    // integer, are written out as SQL expressions (`PostgresFunctions` has them as functions):
    // PostgreSQL evaluates them in the statement itself, where a PL/pgSQL call per row costs
    // more than the rewrite of the row.

    /// `StepText.splitPart` of `text` for a literal separator and part.
    package static func splitPart(_ text: String, separator: String, part: Int, parts: Int) -> String {
        let trimmed = PostgresFunctions.trimmed
        var rest = "btrim(coalesce(\(text), ''), \(trimmed))"
        // An empty separator is never found: the first part is the whole text, the others empty.
        guard !separator.isEmpty else { return part == 0 ? rest : "''" }
        let sep = SQLiteRenderer.text(separator)
        func found(_ text: String) -> String { "strpos(\(text), \(sep))" }
        // Each part after the first starts after the first separator of what remains; NULL
        // once no separator is left (that part and every later one are empty).
        for _ in 0..<max(0, part) {
            rest = "CASE WHEN \(found(rest)) > 0 THEN ltrim(substr(\(rest), \(found(rest)) + \(separator.unicodeScalars.count)), \(trimmed)) END"
        }
        let value = part < parts - 1 ? "CASE WHEN \(found(rest)) > 0 THEN rtrim(substr(\(rest), 1, \(found(rest)) - 1), \(trimmed)) ELSE \(rest) END" : rest
        return part == 0 ? value : "coalesce(\(value), '')"
    }

    /// `StepText.integer` of `text` within `low...high`, else NULL.
    package static func parseInteger(_ text: String, low: Int64, high: Int64) -> String {
        let trimmed = "btrim(\(text), \(PostgresFunctions.trimmed))"
        var value = "\(trimmed)::bigint"
        if low > .min || high < .max { value = "CASE WHEN \(value) BETWEEN \(low) AND \(high) THEN \(value) END" }
        return "CASE WHEN \(trimmed) ~ '^[+-]?0*[0-9]{1,18}$' THEN \(value) END"
    }

    private static func real(_ value: Double) -> String {
        if value.isNaN { return "'NaN'::double precision" }
        if value.isInfinite { return value < 0 ? "'-Infinity'::double precision" : "'Infinity'::double precision" }
        return "'\(value)'::double precision"
    }

    private func q(_ name: String) -> String { SQLiteRenderer.identifier(name) }
}
