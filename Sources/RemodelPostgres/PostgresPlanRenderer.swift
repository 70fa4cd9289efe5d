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
/// columns. Queries and expressions go through the walk SQLite's renderer uses too
/// (`SQLQueryRenderer`), in `PostgresDialect`, which converts at the edges: a column is read
/// as its stored form, and a value is written back in the column's own type. What this type
/// spells itself is PostgreSQL's statements: its DDL, and the rewrite of a table.
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

    /// The lookup tables statements need, gathered while they are rendered.
    final class Lookups {
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
            return [index.createStatement(name: q(PostgresLayout.indexName(index.name)), table: q(index.table))]
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
            switch column.defaultValue {
            case .value(let value):
                do {
                    let written = try write(value, as: type, SQLScope(table: table))
                    if column.isNotNull { text += " NOT NULL" }
                    text += " DEFAULT " + written
                } catch let error as Unsupported {
                    // SQLite adds a NOT NULL column only with a default, so a column whose
                    // values the plan computes next gets a placeholder of the stored form (an
                    // empty blob for a `$uuid`), which PostgreSQL's type may not hold. Added
                    // without it, the column is given NOT NULL when the table is reconciled.
                    guard column.isNotNull, reconcilesLater(table) else { throw error }
                }
            case .declared: throw Unsupported(description: "a column default spelt in SQLite's syntax cannot be given to PostgreSQL")
            case nil: if column.isNotNull { text += " NOT NULL" }
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
            return ["INSERT INTO \(q(table)) (\(SQLiteRenderer.identifiers(columns))) " + (try queries.select(query, writing: types))]
        case .insertValues(let table, let columns, let rows):
            let scope = SQLScope(table: table)
            let values = try rows.map { row in
                "(" + (try zip(columns, row).map { column, value in try write(value, as: tables[table]?[column] ?? nil, scope) }).joined(separator: ", ") + ")"
            }
            return ["INSERT INTO \(q(table)) (\(SQLiteRenderer.identifiers(columns))) VALUES \(values.joined(separator: ", "))"]
        case .delete(let table, let condition):
            return ["DELETE FROM \(q(table))" + (try condition.map { " WHERE " + (try self.condition($0, SQLScope(table: table))) } ?? "")]
        case .materialize(let name, let table, let value, let condition):
            let scope = SQLScope(table: table)
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
            return ["CREATE TEMPORARY TABLE \(q(name)) AS " + (try queries.select(query))]
        }
    }

    /// An `UPDATE`; columns waiting for their new type are written as new columns that then
    /// take the old ones' places.
    private mutating func update(table: String, assignments: [SQLAssignment], condition: SQLExpression?) throws -> [String] {
        let scope = SQLScope(table: table)
        let pending = retyped[table] ?? [:]
        // Every row, from its own values only: one ALTER TABLE writes the table anew with the
        // new values (each USING reads the old row, as an UPDATE's SET does), where an UPDATE
        // would leave a dead version of every row and add to every index.
        let types = assignments.map { pending[$0.column] ?? tables[table]?[$0.column] ?? nil }
        if condition == nil, !assignments.isEmpty, !types.contains(nil), !assignments.contains(where: { PostgresDialect.readsOtherRows($0.value) }) {
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

    /// Whether a later operation of the version gives `table` a fresh store's definition
    /// (`PostgresMigrator` then sets NOT NULL where the layout declares it).
    private func reconcilesLater(_ table: String) -> Bool {
        var name = table
        for scheduled in operations[index...] {
            switch scheduled.operation {
            case .statement(.renameTable(let from, let to)) where from == name: name = to
            case .normalize(let definition, _) where definition.name == name: return true
            default: break
            }
        }
        return false
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

    static func fallbackType(_ type: SQLColumnType) -> PostgresColumnType {
        switch type {
        case .integer: .bigint
        case .real: .doublePrecision
        case .text: .text
        case .blob: .bytea
        }
    }

    // MARK: - Queries

    /// The plan's queries and expressions in PostgreSQL's dialect, over the column types the
    /// statements so far left.
    private var queries: SQLQueryRenderer<PostgresDialect> {
        SQLQueryRenderer(PostgresDialect(tables: tables, temporary: temporary, lookups: lookups, schema: old.layout.schema, version: version))
    }

    package func select(_ query: SQLSelect) throws -> String {
        try queries.select(query)
    }

    /// `expression` as a stored value (a condition becomes 0 or 1).
    private func value(_ expression: SQLExpression, _ scope: SQLScope) throws -> String {
        try queries.expression(expression, scope)
    }

    /// `expression` as a condition (a stored value is true when it is not 0, as in SQLite).
    private func condition(_ expression: SQLExpression, _ scope: SQLScope) throws -> String {
        try queries.expression(expression, scope, as: .condition)
    }

    /// `expression`, a stored value, written into a column of PostgreSQL `type`.
    private func write(_ expression: SQLExpression, as type: PostgresColumnType?, _ scope: SQLScope) throws -> String {
        let queries = queries
        return try queries.dialect.write(expression, as: type, scope, queries)
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

    private func q(_ name: String) -> String { SQLiteRenderer.identifier(name) }
}
