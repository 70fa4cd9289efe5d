import RemodelCore
import RemodelLayout
import RemodelPlanning
import RemodelStore

/// What an online migration (`PostgresMigrator.expand`) keeps beside a store's tables: every
/// table of the newest version's layout, with each column's value as an expression of the
/// same row of the table it comes from, at the oldest version.
///
/// It is read from the plan the default mode runs, version after version, by following what
/// each statement does to each column (a rename moves a value, an `UPDATE` replaces it with an
/// expression of the row, a new column holds its default), so the values the expand phase
/// computes are the plan's own. A plan that reads other rows or tables (links found by value,
/// copies of collections, custom steps, lookups computed in Swift) cannot be kept current by a
/// trigger on one row; such a plan is refused with the step that needs it, and the default
/// mode is what migrates that version.
package struct PostgresOnlineShape: Sendable {
    /// A column of the new layout and where its value comes from.
    package struct Column: Sendable {
        package var name: String
        package var type: PostgresColumnType
        /// The value, from columns of the source table at the oldest version (stored forms).
        package var value: SQLExpression
        package var isRequired: Bool
        package var isPrimaryKey: Bool
    }

    /// A table of the new layout.
    package struct Table: Sendable {
        package var definition: SQLTableDefinition
        /// The table at the oldest version its rows come from; nil for a table the versions create.
        package var source: String?
        package var columns: [Column]
        package var name: String { definition.name }
    }

    /// A data check of the plan, as a condition on one row of a source table.
    package struct Check: Sendable {
        package var check: DataCheck
        package var version: Int
        package var migrationName: String
        package var table: String
        package var condition: SQLExpression
        package var key: SQLExpression
        package var value: SQLExpression?
    }

    /// Why a plan cannot run online.
    package struct Unsupported: Error, CustomStringConvertible {
        package var version: Int
        package var step: String
        package var reason: String
        package var description: String { "version \(version), \(step): \(reason)" }
    }

    package let old: PostgresLayout
    package let new: PostgresLayout
    package private(set) var tables: [Table] = []
    /// Tables of the oldest version that no table of the newest comes from.
    package private(set) var dropped: [String] = []
    package private(set) var checks: [Check] = []

    /// A table as the statements so far left it: where its rows come from, and each column's
    /// value from that table's columns.
    private struct State {
        var source: String?
        var columns: [String: SQLExpression]
    }

    package init(versions: [VersionPlan], schemaName: String) throws {
        guard let first = versions.first, let last = versions.last else { throw Unsupported(version: 0, step: "plan", reason: "there is nothing to migrate") }
        old = try PostgresLayout(schema: first.previousSchema, schemaName: schemaName)
        new = try PostgresLayout(schema: last.schema, schemaName: schemaName)
        var state: [String: State] = [:]
        for (table, columns) in old.columnTypes {
            state[table] = State(source: table, columns: Dictionary(uniqueKeysWithValues: columns.keys.map { ($0, SQLExpression.column($0)) }))
        }
        for version in versions {
            for scheduled in version.operations {
                let change = version.changes.indices.contains(scheduled.change) ? version.changes[scheduled.change] : nil
                let step = change.map { "\($0.origin): \($0.summary)" } ?? "plan"
                func unsupported(_ reason: String) -> Unsupported { Unsupported(version: version.version, step: step, reason: reason) }
                switch scheduled.operation {
                case .statement(let statement):
                    try Self.apply(statement, to: &state, unsupported)
                case .check(let check):
                    checks.append(try Self.compose(check, version: version, state: state, unsupported))
                case .custom(let call):
                    throw unsupported("the custom step '\(call.name)' runs Swift code for every object, which no trigger can repeat for the objects the previous app writes")
                case .count, .normalize, .retype, .foreignKeyCheck:
                    break  // the new layout's types, keys and constraints are taken from the layout itself
                }
            }
        }
        let types = new.columnTypes
        let definitions = new.layout.tables.flatMap { [$0.definition] + $0.sideTables.map(\.definition) }
        var sources: Set<String> = []
        for definition in definitions {
            guard let current = state[definition.name] else {
                throw Unsupported(version: last.version, step: "plan", reason: "the plan leaves no table '\(definition.name)'")
            }
            if let source = current.source { sources.insert(source) }
            var columns: [Column] = []
            for column in definition.columns {
                guard let value = current.columns[column.name], let type = types[definition.name]?[column.name] else {
                    throw Unsupported(version: last.version, step: "plan", reason: "the plan leaves no column '\(definition.name).\(column.name)'")
                }
                columns.append(Column(name: column.name, type: type, value: value, isRequired: column.isNotNull || column.isPrimaryKey, isPrimaryKey: column.isPrimaryKey))
            }
            tables.append(Table(definition: definition, source: current.source, columns: columns))
        }
        dropped = old.columnTypes.keys.filter { !sources.contains($0) }.sorted()
    }

    private static func apply(_ statement: SQLStatement, to state: inout [String: State], _ unsupported: (String) -> Unsupported) throws {
        switch statement {
        case .createTable(let definition):
            guard state[definition.name] == nil else { throw unsupported("the table '\(definition.name)' is created while one of that name exists") }
            var columns: [String: SQLExpression] = [PostgresLayout.rowid: .rowid]
            for column in definition.columns { columns[column.name] = .null }
            state[definition.name] = State(source: nil, columns: columns)
        case .dropTable(let name):
            state[name] = nil
        case .renameTable(let from, let to):
            state[to] = state.removeValue(forKey: from)
        case .addColumn(let table, let column):
            switch column.defaultValue {
            case .value(let value): state[table]?.columns[column.name] = value
            case .declared: throw unsupported("a column default spelt in SQLite's syntax")
            case nil: state[table]?.columns[column.name] = .null
            }
        case .dropColumn(let table, let column):
            state[table]?.columns[column] = nil
        case .renameColumn(let table, let from, let to):
            if let value = state[table]?.columns.removeValue(forKey: from) { state[table]?.columns[to] = value }
        case .update(let table, let assignments, let condition):
            guard let current = state[table] else { throw unsupported("an update of the table '\(table)', which the plan does not have") }
            let guarded = try condition.map { try substitute($0, current.columns, unsupported) }
            var columns = current.columns
            for assignment in assignments {
                let value = try substitute(assignment.value, current.columns, unsupported)
                let previous = current.columns[assignment.column] ?? .null
                columns[assignment.column] = guarded.map { .caseWhen(operand: nil, branches: [SQLCaseBranch($0, value)], otherwise: previous) } ?? value
            }
            state[table]?.columns = columns
        case .createIndex, .dropIndex:
            break  // the new layout's indexes are built from the layout itself
        case .insertSelect(let table, _, _), .insertValues(let table, _, _):
            throw unsupported("objects are copied into '\(table)' from other rows, which a trigger on one row cannot keep current")
        case .delete(let table, _):
            throw unsupported("objects of '\(table)' are deleted, which the previous app would not see")
        case .materialize, .createTemporaryTable, .dropTemporaryTable:
            throw unsupported("values are computed from other rows first, which a trigger on one row cannot repeat")
        }
    }

    private static func compose(_ check: DataCheck, version: VersionPlan, state: [String: State], _ unsupported: (String) -> Unsupported) throws -> Check {
        let query = check.query
        guard let from = query.from, !from.isTemporary, query.joined.isEmpty, query.groupBy.isEmpty, query.having == nil, let current = state[from.table],
            let source = current.source, let condition = query.where, let key = query.columns.first?.value
        else {
            throw unsupported("the check of \(check.type) reads more than one row")
        }
        return Check(
            check: check, version: version.version, migrationName: version.name, table: source,
            condition: try substitute(condition, current.columns, unsupported), key: try substitute(key, current.columns, unsupported),
            value: try query.columns.dropFirst().first.map { try substitute($0.value, current.columns, unsupported) })
    }

    /// `expression` with every column replaced by its value from the source row.
    private static func substitute(_ expression: SQLExpression, _ columns: [String: SQLExpression], _ unsupported: (String) -> Unsupported) throws -> SQLExpression {
        func walk(_ expression: SQLExpression) throws -> SQLExpression {
            switch expression {
            case .column(let name):
                guard let value = columns[name] else { throw unsupported("a value of the column '\(name)', which the plan does not have there") }
                return value
            case .rowid, .null, .integer, .real, .text, .blob:
                return expression
            case .function(let function, let arguments):
                return .function(function, try arguments.map(walk))
            case .not(let inner): return .not(try walk(inner))
            case .binary(let op, let lhs, let rhs): return .binary(op, try walk(lhs), try walk(rhs))
            case .isNull(let inner): return .isNull(try walk(inner))
            case .isNotNull(let inner): return .isNotNull(try walk(inner))
            case .inList(let value, let list, let negated): return .inList(try walk(value), try list.map(walk), negated: negated)
            case .between(let value, let lower, let upper): return .between(try walk(value), lower: try walk(lower), upper: try walk(upper))
            case .caseWhen(let operand, let branches, let otherwise):
                return .caseWhen(
                    operand: try operand.map(walk), branches: try branches.map { SQLCaseBranch(try walk($0.condition), try walk($0.result)) }, otherwise: try otherwise.map(walk))
            case .cast(let inner, let type): return .cast(try walk(inner), type)
            case .linked, .inSelect, .subquery, .exists, .outer, .materialized, .window:
                throw unsupported("a value is read from other rows or tables, which a trigger on one row cannot keep current")
            }
        }
        return try walk(expression)
    }
}
