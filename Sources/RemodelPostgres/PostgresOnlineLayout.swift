import RemodelCore
import RemodelLayout
import RemodelStore

/// Where an online migration keeps each column of the new layout in the store's tables while
/// both versions run, and the SQL that keeps the two shapes in step.
///
/// A column whose value is an old column unchanged, of the same type (a property kept or
/// renamed), is that column: both versions read and write it. Any other column is a new one,
/// `__remodel_new_NAME`, beside the old ones. The newest version reads and writes its tables
/// through views (one schema of views per expand, `viewSchema`) that give every column its
/// new name; the previous version keeps reading and writing the tables. A trigger on each
/// table computes what the other version reads: on the previous app's writes (and the
/// backfill's), the new columns from the old ones, by the plan's expressions; on the new app's
/// writes, each old column the new version no longer has from the new values where it can
/// (a split is joined again, a converted or mapped value is written back in the old type), its
/// default where it cannot.
struct PostgresOnlineLayout: Sendable {
    /// A column of the new layout.
    struct Column: Sendable {
        var name: String
        var physical: String
        var type: PostgresColumnType
        var value: SQLExpression
        var isRequired: Bool
        /// Whether it is an old column both versions share.
        var isShared: Bool
        /// For a shared column: whether the previous version requires it.
        var wasRequired = false
    }

    struct Table: Sendable {
        var name: String
        /// The table in the store that holds its rows: the source's, or its own when the
        /// versions create it.
        var physical: String
        var isCreated: Bool
        var definition: SQLTableDefinition
        var columns: [Column]
        /// The columns of the old layout the new one does not have: dropped at the contract.
        var oldColumns: [String]
        /// The body of the trigger function for the previous version's writes (new columns
        /// from old ones), when the table has any.
        var oldTrigger: String?
        /// The body of the trigger function for the new version's writes (old columns from new
        /// ones), when the table has any.
        var newTrigger: String?
        /// Whether existing rows need their new columns computed (or checked).
        var needsBackfill: Bool
        /// The backfill's `SET` clauses: every new column from the old ones.
        var backfill: [String] = []
        /// The plan's checks as conditions on a row, for the backfill.
        var checks: [String] = []
        /// Old columns whose NOT NULL goes while both versions run (the new version may leave
        /// them empty), and the value `--abort` gives the rows left empty before it is back.
        var relaxed: [(column: String, fill: String)] = []
    }

    struct Index: Sendable {
        var name: String
        var temporaryName: String
        var table: String
        var columns: [String]
        var isUnique: Bool
    }

    struct ForeignKey: Hashable, Sendable {
        var table: String
        var column: String
        var target: String
        var targetColumn: String
        var onDelete: String
        /// The name PostgreSQL gives it in a fresh store (`Table_column_fkey`), which it takes
        /// at the contract.
        var finalName = ""
    }

    let shape: PostgresOnlineShape
    let schemaName: String
    let viewSchema: String
    let toVersion: Int
    private(set) var tables: [Table] = []
    /// Indexes to build (concurrently) on the store's tables, and their names after the contract.
    private(set) var newIndexes: [Index] = []
    /// Indexes of the old layout that are kept but named otherwise in the new one.
    private(set) var renamedIndexes: [(from: String, to: String)] = []
    /// Indexes of the old layout the new one does not have.
    private(set) var droppedIndexes: [String] = []
    private(set) var newForeignKeys: [ForeignKey] = []
    /// Columns the previous version requires and the new one may leave empty: NOT NULL goes
    /// at the expand, and `--abort` fills them before it comes back.
    var relaxed: [(table: String, column: String, fill: String)] {
        tables.flatMap { table in table.relaxed.map { (table.physical, $0.column, $0.fill) } }
    }

    init(shape: PostgresOnlineShape, toVersion: Int) throws {
        self.shape = shape
        schemaName = shape.old.schemaName
        self.toVersion = toVersion
        viewSchema = PostgresLayout.indexName(shape.old.schemaName + "__remodel_v\(toVersion)")
        let oldTypes = shape.old.columnTypes
        let oldDefinitions = Dictionary(
            shape.old.layout.tables.flatMap { [$0.definition] + $0.sideTables.map(\.definition) }.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        var physicalOf: [String: (table: String, columns: [String: String])] = [:]
        for table in shape.tables {
            let physical = table.source ?? table.name
            if table.source == nil, oldTypes[table.name] != nil {
                throw PostgresOnlineShape.Unsupported(version: toVersion, step: "plan", reason: "a new table '\(table.name)' takes the name of a table the previous version has")
            }
            var claimed: Set<String> = []
            var columns: [Column] = []
            for column in table.columns {
                var shared = false
                if let source = table.source, case .column(let old) = column.value, oldTypes[source]?[old] == column.type, !claimed.contains(old) {
                    shared = true
                    claimed.insert(old)
                    let wasRequired = oldDefinitions[source]?.columns.first { $0.name == old }.map { $0.isNotNull || $0.isPrimaryKey } ?? false
                    columns.append(
                        Column(
                            name: column.name, physical: old, type: column.type, value: column.value, isRequired: column.isRequired, isShared: true,
                            wasRequired: wasRequired))
                }
                if !shared {
                    if column.isPrimaryKey, table.source != nil {
                        throw PostgresOnlineShape.Unsupported(
                            version: toVersion, step: "plan", reason: "the key of \(table.name) changes, and both versions must find an object by the same key")
                    }
                    let name = table.source == nil ? column.name : PostgresLayout.indexName("__remodel_new_" + column.name)
                    columns.append(Column(name: column.name, physical: name, type: column.type, value: column.value, isRequired: column.isRequired, isShared: false))
                }
            }
            physicalOf[table.name] = (physical, Dictionary(uniqueKeysWithValues: columns.map { ($0.name, $0.physical) }))
            tables.append(
                Table(
                    name: table.name, physical: physical, isCreated: table.source == nil, definition: table.definition, columns: columns, oldColumns: [], oldTrigger: nil,
                    newTrigger: nil, needsBackfill: false))
        }
        for index in tables.indices where !tables[index].isCreated {
            var table = tables[index]
            try complete(&table, oldTypes: oldTypes[table.physical] ?? [:], oldDefinition: oldDefinitions[table.physical])
            tables[index] = table
        }
        planIndexes(physicalOf: physicalOf)
        planForeignKeys(physicalOf: physicalOf, oldDefinitions: oldDefinitions)
    }

    // MARK: - Triggers

    /// The renderer of expressions over a table's columns as they are during the expand phase.
    private func dialect(_ table: Table, oldTypes: [String: PostgresColumnType]) -> SQLQueryRenderer<PostgresDialect> {
        var types: [String: PostgresColumnType?] = oldTypes.mapValues { Optional($0) }
        for column in table.columns where !column.isShared { types[column.physical] = column.type }
        return SQLQueryRenderer(
            PostgresDialect(
                tables: [table.physical: types], temporary: [], lookups: PostgresPlanRenderer.Lookups(), schema: shape.old.layout.schema, version: toVersion))
    }

    private func write(_ value: SQLExpression, as type: PostgresColumnType, _ renderer: SQLQueryRenderer<PostgresDialect>, _ scope: SQLScope) throws -> String {
        let text = try renderer.dialect.write(value, as: type, scope, renderer)
        guard renderer.dialect.lookups.pending.isEmpty else {
            renderer.dialect.lookups.pending = []
            throw PostgresOnlineShape.Unsupported(
                version: toVersion, step: "plan",
                reason: "a value is computed by Remodel's own code (dates, decimals, URLs or embedded objects read from text), which a trigger cannot call")
        }
        return relocated(text)
    }

    /// Text with Remodel's session functions (`pg_temp.remodel_…`) taken from the view schema,
    /// where the expand phase creates them for the triggers.
    func relocated(_ text: String) -> String {
        text.replacingOccurrences(of: "pg_temp.remodel_", with: SQLiteRenderer.identifier(viewSchema) + ".remodel_")
    }

    private func complete(_ table: inout Table, oldTypes: [String: PostgresColumnType], oldDefinition: SQLTableDefinition?) throws {
        let renderer = dialect(table, oldTypes: oldTypes)
        let scope = SQLScope(table: "new", source: table.physical, qualified: true)
        let shared = Set(table.columns.filter(\.isShared).map(\.physical))
        // A value is computed when the object is added or first written (or backfilled), and
        // again only when a column it is computed from changes: a write that leaves those
        // alone keeps what the other version wrote.
        let ready = "new." + SQLiteRenderer.identifier(readyColumn)
        func whenChanged(_ sources: Set<String>, _ assignment: String) -> String {
            let changed = sources.sorted().map { "new.\(SQLiteRenderer.identifier($0)) IS DISTINCT FROM old.\(SQLiteRenderer.identifier($0))" }
            return "IF \((["TG_OP = 'INSERT'"] + changed).joined(separator: " OR ")) THEN \(assignment) END IF;"
        }
        let plain = SQLScope(table: table.physical)
        var all: [String] = []
        var changed: [String] = []
        for column in table.columns where !column.isShared {
            let value = try write(column.value, as: column.type, renderer, scope)
            all.append("new.\(SQLiteRenderer.identifier(column.physical)) := \(value);")
            changed.append(whenChanged(Self.columns(in: column.value), "new.\(SQLiteRenderer.identifier(column.physical)) := \(value);"))
            table.backfill.append("\(SQLiteRenderer.identifier(column.physical)) = \(try write(column.value, as: column.type, renderer, plain))")
        }
        var checks: [String] = []
        for check in shape.checks where check.table == table.physical {
            let condition = try renderer.expression(check.condition, scope, as: .condition)
            table.checks.append(relocated(try renderer.expression(check.condition, plain, as: .condition)))
            let message = "\(check.check.type)\(check.check.property.map { "." + $0 } ?? ""): \(check.check.problem) (\(check.check.step) of version \(check.version))"
            checks.append(
                "IF \(relocated(condition)) THEN RAISE EXCEPTION USING ERRCODE = 'check_violation', MESSAGE = \(SQLiteRenderer.text("this object cannot be written while the store is migrated online to version \(toVersion): " + message)), HINT = \(SQLiteRenderer.text(check.check.hint)); END IF;"
            )
        }
        // What the new app's writes give the columns only the previous version has: a value
        // where one follows from the new ones without loss (`writeBack`), kept on an update
        // otherwise, and on an insert the old property's default (or nothing, its NOT NULL
        // lifted while both versions run, where a made-up value could break a key or a link).
        var down: [String] = []
        var inserted: [String] = []
        let objectType = shape.old.layout.table(named: table.physical)
        func defaultLiteral(_ name: String, _ type: PostgresColumnType) throws -> (literal: String, isNull: Bool) {
            var value = StoreValue.null
            if let property = objectType?.object.property(named: name), let column = objectType?.columns.first(where: { $0.name == name }) {
                value = (try? DynamicDefaults.value(for: property, type: column.type, schema: shape.old.layout.schema)) ?? .null
            }
            return (try write(Self.literal(value), as: type, renderer, scope), value.isNull)
        }
        for (name, type) in oldTypes.sorted(by: { $0.key < $1.key }) where name != PostgresLayout.rowid && !shared.contains(name) {
            let readers = table.columns.filter { !$0.isShared && Self.columns(in: $0.value).contains(name) }
            let enumValues = objectType?.object.property(named: name)?.storedType.flatMap { type -> [String]? in
                guard case .enumeration(let enumName) = type.base, let declared = shape.old.layout.schema.enumType(named: enumName) else { return nil }
                return declared.cases.map { "\($0.rawValue)" }
            }
            let derived = try writeBack(of: name, type: type, enumValues: enumValues, readers: readers, renderer: renderer, scope: scope)
            let (literal, isNull) = try defaultLiteral(name, type)
            let required = oldDefinition?.columns.first { $0.name == name }.map { $0.isNotNull || $0.isPrimaryKey } ?? false
            if required && isNull {
                table.relaxed.append((name, try write(Self.literal(Self.zero(of: type)), as: type, renderer, scope)))
            }
            table.oldColumns.append(name)
            if let derived {
                down.append(whenChanged(Set(readers.map(\.physical)), "new.\(SQLiteRenderer.identifier(name)) := \(derived);"))
            }
            if derived == nil || !isNull {
                inserted.append("IF new.\(SQLiteRenderer.identifier(name)) IS NULL THEN new.\(SQLiteRenderer.identifier(name)) := \(literal); END IF;")
            }
        }
        // Shared columns the new version may leave empty, and those it now requires.
        for column in table.columns where column.isShared && column.wasRequired && !column.isRequired {
            let (literal, isNull) = try defaultLiteral(column.physical, column.type)
            table.relaxed.append((column.physical, isNull ? try write(Self.literal(Self.zero(of: column.type)), as: column.type, renderer, scope) : literal))
        }
        table.needsBackfill = !all.isEmpty || !checks.isEmpty
        if table.needsBackfill {
            var body = "BEGIN\n"
            for line in checks { body += "  \(line)\n" }
            body += "  IF TG_OP = 'INSERT' OR old.\(SQLiteRenderer.identifier(readyColumn)) IS NULL THEN\n"
            for line in all { body += "    \(line)\n" }
            body += "    \(ready) := true;\n  ELSE\n"
            for line in changed { body += "    \(line)\n" }
            body += "  END IF;\n  RETURN new;\nEND"
            table.oldTrigger = body
        }
        if !down.isEmpty || !inserted.isEmpty || table.needsBackfill {
            var body = "BEGIN\n"
            if table.needsBackfill { body += "  \(ready) := true;\n" }
            for line in down { body += "  \(line)\n" }
            if !inserted.isEmpty { body += "  IF TG_OP = 'INSERT' THEN\n" + inserted.map { "    \($0)\n" }.joined() + "  END IF;\n" }
            body += "  RETURN new;\nEND"
            table.newTrigger = body
        }
    }

    /// The column marking the rows whose new columns are computed (by the backfill or a write).
    var readyColumn: String { "__remodel_ready_v\(toVersion)" }

    /// The value old column `name` gets from the new columns on the new app's writes, when one
    /// follows without loss: a `split` joined again; a value copied, or parsed from text,
    /// written back as text; a value mapped case by case (`mapValues`) mapped back, an old
    /// enum's own raw values kept. Nil otherwise: the column keeps what it had.
    private func writeBack(
        of name: String, type: PostgresColumnType, enumValues: [String]?, readers: [Column], renderer: SQLQueryRenderer<PostgresDialect>, scope: SQLScope
    ) throws -> String? {
        if let joined = Self.splitJoin(of: name, readers) {
            return "concat_ws(\(SQLiteRenderer.text(joined.separator)), " + joined.parts.map { "NULLIF(new.\(SQLiteRenderer.identifier($0)), '')" }.joined(separator: ", ") + ")"
        }
        guard readers.count == 1, Self.columns(in: readers[0].value) == [name], type == .text else { return nil }
        let reader = readers[0]
        var core = reader.value
        if case .function(.coalesce, let arguments) = core, arguments.count == 2, arguments[1].isConstant { core = arguments[0] }
        let copied = "(\(try write(.column(reader.physical), as: type, renderer, scope)))::\(type.castName)"
        switch core {
        case .column(name):
            return enumValues == nil ? copied : nil
        case .function(let function, let arguments)
        where [.column(name), .cast(.column(name), .text)].contains(arguments.first) && arguments.dropFirst().allSatisfy(\.isConstant):
            let parses: Set<SQLFunction> = [.parseInteger, .parseReal, .parseUUID, .parseObjectID]
            return parses.contains(function) && enumValues == nil ? copied : nil
        case .caseWhen(.column(name)?, let branches, _):
            // new value → the old one it came from; an old enum's raw values stay as they are.
            var pairs: [(String, String)] = []
            for branch in branches {
                guard case .text(let old) = branch.condition, case .text(let new) = branch.result else { return nil }
                if !pairs.contains(where: { $0.0 == new }) { pairs.append((new, old)) }
            }
            let reference = "new.\(SQLiteRenderer.identifier(reader.physical))"
            var text = "CASE"
            if let enumValues {
                text += " WHEN \(reference) IN (\(enumValues.map(SQLiteRenderer.text).joined(separator: ", "))) THEN \(reference)"
            }
            for (new, old) in pairs { text += " WHEN \(reference) = \(SQLiteRenderer.text(new)) THEN \(SQLiteRenderer.text(old))" }
            return text + (enumValues == nil ? " ELSE \(reference) END" : " ELSE old.\(SQLiteRenderer.identifier(name)) END")
        default:
            return nil
        }
    }

    /// The columns an expression reads.
    static func columns(in expression: SQLExpression) -> Set<String> {
        var found: Set<String> = []
        func walk(_ expression: SQLExpression) {
            switch expression {
            case .column(let name): found.insert(name)
            case .function(_, let arguments): arguments.forEach(walk)
            case .not(let inner), .isNull(let inner), .isNotNull(let inner), .cast(let inner, _): walk(inner)
            case .binary(_, let lhs, let rhs):
                walk(lhs)
                walk(rhs)
            case .inList(let value, let list, _):
                walk(value)
                list.forEach(walk)
            case .between(let value, let lower, let upper): [value, lower, upper].forEach(walk)
            case .caseWhen(let operand, let branches, let otherwise):
                operand.map(walk)
                for branch in branches {
                    walk(branch.condition)
                    walk(branch.result)
                }
                otherwise.map(walk)
            default: break
            }
        }
        walk(expression)
        return found
    }

    /// When the new columns reading `column` are the parts of a `split` of it, in order: the
    /// separator and the parts' physical columns.
    private static func splitJoin(of column: String, _ readers: [Column]) -> (separator: String, parts: [String])? {
        var parts: [Int: String] = [:]
        var separator: String?
        var count = 0
        for reader in readers {
            guard case .function(.splitPart, let arguments) = reader.value, arguments.count == 4, arguments[0] == .column(column),
                case .text(let sep) = arguments[1], case .integer(let part) = arguments[2], case .integer(let total) = arguments[3],
                separator == nil || separator == sep
            else { return nil }
            separator = sep
            count = Int(total)
            parts[Int(part)] = reader.physical
        }
        guard let separator, parts.count == count, count > 0 else { return nil }
        return (separator, (0..<count).map { parts[$0]! })
    }

    private static func literal(_ value: StoreValue) -> SQLExpression {
        switch value {
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(bytes)
        default: .null
        }
    }

    /// The empty value of a column type, for a required column the new version does not fill.
    private static func zero(of type: PostgresColumnType) -> StoreValue {
        switch PostgresValueCoding(columnType: type).kind {
        case .scalar(.string), .scalar(.url): .text("")
        case .scalar(.data), .scalar(.objectId): .blob([])
        case .scalar(.uuid): .blob(Array(repeating: 0, count: 16))
        case .scalar(.double), .scalar(.float): .real(0)
        case .embedded: .text("{}")
        default: .integer(0)
        }
    }

    // MARK: - Indexes and keys

    private mutating func planIndexes(physicalOf: [String: (table: String, columns: [String: String])]) {
        struct Key: Hashable {
            var table: String
            var columns: [String]
            var isUnique: Bool
        }
        var old: [Key: String] = [:]
        for table in shape.old.layout.tables {
            for index in table.indexes + table.sideTables.compactMap(\.index) {
                old[Key(table: index.table, columns: index.columns, isUnique: index.isUnique)] = PostgresLayout.indexName(index.name)
            }
        }
        var kept: Set<String> = []
        for table in shape.new.layout.tables {
            for index in table.indexes + table.sideTables.compactMap(\.index) {
                guard let physical = physicalOf[index.table] else { continue }
                let columns = index.columns.map { physical.columns[$0] ?? $0 }
                let name = PostgresLayout.indexName(index.name)
                if let existing = old[Key(table: physical.table, columns: columns, isUnique: index.isUnique)] {
                    kept.insert(existing)
                    if existing != name { renamedIndexes.append((existing, name)) }
                } else {
                    newIndexes.append(
                        Index(
                            name: name, temporaryName: PostgresLayout.indexName("__remodel_ix_\(toVersion)_" + index.name), table: physical.table, columns: columns,
                            isUnique: index.isUnique))
                }
            }
        }
        // A unique group of the new layout the old one lacks is a unique index too.
        for table in tables {
            for case .unique(let names) in table.definition.constraints {
                let columns = names.map { name in table.columns.first { $0.name == name }?.physical ?? name }
                let oldUnique = shape.old.layout.tables.flatMap { [$0.definition] + $0.sideTables.map(\.definition) }.contains {
                    $0.name == table.physical && $0.constraints.contains(.unique(columns))
                }
                if !oldUnique && !table.isCreated {
                    let name = PostgresLayout.indexName(table.name + "_" + names.joined(separator: "_") + "_key")
                    newIndexes.append(
                        Index(name: name, temporaryName: PostgresLayout.indexName("__remodel_ix_\(toVersion)_" + name), table: table.physical, columns: columns, isUnique: true))
                }
            }
        }
        droppedIndexes = old.values.filter { !kept.contains($0) }.sorted()
    }

    private mutating func planForeignKeys(physicalOf: [String: (table: String, columns: [String: String])], oldDefinitions: [String: SQLTableDefinition]) {
        var old: Set<ForeignKey> = []
        for definition in oldDefinitions.values {
            for case .foreignKey(let column, let key) in definition.constraints {
                old.insert(ForeignKey(table: definition.name, column: column, target: key.table, targetColumn: key.column, onDelete: key.onDelete.rawValue))
            }
        }
        for table in tables {
            for case .foreignKey(let column, let key) in table.definition.constraints {
                guard let target = physicalOf[key.table] else { continue }
                var foreignKey = ForeignKey(
                    table: table.physical, column: physicalOf[table.name]?.columns[column] ?? column, target: target.table,
                    targetColumn: target.columns[key.column] ?? key.column, onDelete: key.onDelete.rawValue)
                if !old.contains(foreignKey) {
                    foreignKey.finalName = PostgresLayout.indexName("\(table.name)_\(column)_fkey")
                    newForeignKeys.append(foreignKey)
                }
            }
        }
    }

    // MARK: - Statements

    func qualified(_ name: String) -> String { PostgresLayout.qualified(name, in: schemaName) }

    /// The name of the NOT VALID check standing in for the NOT NULL of a table's required new
    /// columns: one per table, validated in one scan, from which the contract's SET NOT NULL
    /// proves there is no null without reading the table again.
    var requiredCheck: String { "__remodel_required_v\(toVersion)" }

    /// Per table, the new columns whose NOT NULL the check stands for until the contract.
    var requiredChecks: [(table: String, columns: [String])] {
        tables.filter { !$0.isCreated }.compactMap { table in
            let columns = table.columns.filter { $0.isRequired && (!$0.isShared || !$0.wasRequired) }.map(\.physical)
            return columns.isEmpty ? nil : (table.physical, columns)
        }
    }

    static func foreignKeyName(_ key: ForeignKey) -> String { PostgresLayout.indexName("__remodel_fk_\(key.table)_\(key.column)") }

    /// The view of a table of the new layout, in the view schema.
    func viewStatement(_ table: Table, securityInvoker: Bool) -> String {
        let columns =
            [SQLiteRenderer.identifier(PostgresLayout.rowid)]
            + table.columns.map { SQLiteRenderer.identifier($0.physical) + ($0.physical == $0.name ? "" : " AS " + SQLiteRenderer.identifier($0.name)) }
        return
            "CREATE VIEW \(PostgresLayout.qualified(table.name, in: viewSchema))\(securityInvoker ? " WITH (security_invoker = true)" : "") AS SELECT \(columns.joined(separator: ", ")) FROM \(qualified(table.physical))"
    }

    func createStatement(_ table: Table) -> String {
        shape.new.createTable(table.definition).replacingOccurrences(of: shape.new.qualified(table.name), with: qualified(table.name))
    }
}
