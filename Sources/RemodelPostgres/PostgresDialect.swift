import RemodelCore
import RemodelLayout
import RemodelStore

/// PostgreSQL's dialect of the plan's queries (`SQLQueryRenderer` walks them): the plan
/// computes with stored forms (a date's microseconds, a uuid's 16 bytes, a bool's 0 or 1), and
/// a PostgreSQL store keeps native types, so a column is read as its stored form and a value is
/// written back in its column's type. Remodel's functions are SQL functions of the migrating
/// session (`PostgresFunctions`); `split` and whole-number parsing are written inline, and the
/// rules SQL cannot spell exactly are computed in Swift into lookup tables the query reads.
struct PostgresDialect: SQLDialect {
    typealias Failure = PostgresPlanRenderer.Unsupported
    typealias ColumnType = PostgresColumnType

    /// Column → PostgreSQL type, for every table as the statements so far left it; `nil` for
    /// a temporary table's columns that hold stored forms.
    let tables: [String: [String: PostgresColumnType?]]
    let temporary: Set<String>
    /// The lookup tables the statement being rendered needs filled first.
    let lookups: PostgresPlanRenderer.Lookups
    /// The schema before the version, for the types of embedded members.
    let schema: Schema
    let version: Int

    // PostgreSQL's precedence differs from SQLite's (`IS`, `||`, comparisons): every compound
    // gets its own parentheses.
    var parenthesizesEveryCompound: Bool { true }

    /// A column, read as its stored form.
    func column(_ name: String, _ scope: SQLScope) -> String {
        let reference = scope.reference(name)
        guard let type = columnType(name, of: scope.sourceTable) else { return reference }
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

    func rowid(_ scope: SQLScope) -> String { scope.reference(PostgresLayout.rowid) }

    func literal(_ literal: SQLExpression) throws(Failure) -> String {
        switch literal {
        case .real(let value):
            if value.isNaN { return "'NaN'::double precision" }
            if value.isInfinite { return value < 0 ? "'-Infinity'::double precision" : "'Infinity'::double precision" }
            return "'\(value)'::double precision"
        case .text(let value):
            guard !value.utf8.contains(0) else { throw Failure(description: "PostgreSQL's text cannot hold the character U+0000") }
            return SQLiteRenderer.text(value)
        case .blob(let bytes): return "'\\x" + SQLiteRenderer.hexDigits(bytes) + "'::bytea"
        default: return "NULL"
        }
    }

    func call(_ function: SQLFunction, _ arguments: [SQLExpression], _ scope: SQLScope, _ renderer: SQLQueryRenderer<Self>) throws(Failure) -> String {
        switch function {
        case .splitPart where arguments.count == 4:
            if case .text(let separator) = arguments[1], case .integer(let part) = arguments[2], case .integer(let parts) = arguments[3], part <= 3 {
                return PostgresPlanRenderer.splitPart(try renderer.expression(arguments[0], scope), separator: separator, part: Int(part), parts: Int(parts))
            }
        case .parseInteger where arguments.count == 3:
            if case .integer(let low) = arguments[1], case .integer(let high) = arguments[2] {
                return PostgresPlanRenderer.parseInteger(try renderer.expression(arguments[0], scope), low: low, high: high)
            }
        case .embeddedGet, .embeddedJSON:
            return try rowLookup(function, arguments, scope, renderer)
        default:
            if PostgresPlanRenderer.lookupFunctions.contains(function) && arguments.count == 1 {
                return try lookup(function, arguments[0], scope, renderer)
            }
        }
        var values: [String] = []
        for argument in arguments { values.append(try renderer.expression(argument, scope)) }
        return try Self.call(function, values)
    }

    func cast(_ text: String, to type: SQLColumnType) -> String {
        switch type {
        case .integer: "CAST(\(text) AS bigint)"
        case .real: "CAST(\(text) AS double precision)"
        case .text: "CAST(\(text) AS text)"
        case .blob: "convert_to(\(text), 'UTF8')"
        }
    }

    func identical(negated: Bool) -> String { negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM" }

    /// The database's collation may order text by language; "C" orders it by bytes, as SQLite.
    func bytewise(_ text: String) -> String { "(\(text)) COLLATE \"C\"" }

    func table(_ name: String, isTemporary: Bool) -> String {
        (isTemporary || temporary.contains(name) ? "pg_temp." : "") + SQLiteRenderer.identifier(name)
    }

    /// A condition where a value is wanted is 0 or 1; a value where a condition is wanted is
    /// true when it is not 0, as in SQLite.
    func coerce(_ text: String, _ expression: SQLExpression, to role: SQLRole) -> String {
        switch (role, Self.isCondition(expression)) {
        case (.value, true): "(\(text))::integer"
        case (.condition, false): "((\(text)) <> 0)"
        default: text
        }
    }

    /// `expression`, a stored value, written into a column of PostgreSQL `type` (nil: a
    /// stored form). A column copied into a column of its own type is copied as it is.
    func write(_ expression: SQLExpression, as type: PostgresColumnType?, _ scope: SQLScope, _ renderer: SQLQueryRenderer<Self>) throws(Failure) -> String {
        guard let type else { return try renderer.expression(expression, scope) }
        if case .column(let name) = expression, columnType(name, of: scope.sourceTable) == type { return scope.reference(name) }
        if let constant = Self.constant(expression) {
            let coding = PostgresValueCoding(columnType: type)
            let text: String?
            do { text = try coding.parameter(constant) } catch { throw Failure(description: "\(error)") }
            return text.map { SQLiteRenderer.text($0) + "::" + type.castName } ?? "NULL"
        }
        let text = try renderer.expression(expression, scope)
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

    func columnType(_ column: String, of table: String) -> PostgresColumnType? {
        tables[table]?[column] ?? nil
    }

    // MARK: - Lookups

    /// `function(argument)` read from a lookup table filled before the statement runs.
    private func lookup(_ function: SQLFunction, _ argument: SQLExpression, _ scope: SQLScope, _ renderer: SQLQueryRenderer<Self>) throws(Failure) -> String {
        guard !Self.readsOtherRows(argument), !Self.readsEnclosingRow(argument) else {
            throw Failure(description: "the plan needs \(SQLiteRenderer.name(of: function)) of a value read from another row, which remodel does not run on PostgreSQL yet")
        }
        let text = try renderer.expression(argument, scope)
        let input = function == .formatDate ? text : "(\(text))::text"
        let name = nextLookupName()
        var lookup = PostgresPlanRenderer.Lookup(table: name, function: function, inputs: "SELECT DISTINCT \(input) FROM \(from(scope)) WHERE \(input) IS NOT NULL")
        if function == .formatDate { lookup.inputType = .bigint }
        if function == .parseDate { lookup.outputType = .bigint }
        lookups.pending.append(lookup)
        return "(SELECT \"output\" FROM pg_temp.\(SQLiteRenderer.identifier(name)) WHERE \"input\" = \(input))"
    }

    /// An embedded-JSON function of values of the current row, computed for every row by
    /// `EmbeddedValueCoding` (SQLite's functions' coder) into a table keyed by rowid.
    private func rowLookup(_ function: SQLFunction, _ arguments: [SQLExpression], _ scope: SQLScope, _ renderer: SQLQueryRenderer<Self>) throws(Failure) -> String {
        let literals = function == .embeddedGet ? 2 : 1
        var constants: [String] = []
        var values: [SQLExpression] = []
        for (position, argument) in arguments.enumerated() {
            let isLiteral = function == .embeddedGet ? position > 0 : position == 0
            if isLiteral {
                guard case .text(let text) = argument else { throw Failure(description: "\(SQLiteRenderer.name(of: function)) with a computed name") }
                constants.append(text)
            } else {
                values.append(argument)
            }
        }
        guard constants.count == literals, !values.contains(where: Self.readsEnclosingRow) else {
            throw Failure(description: "the plan needs \(SQLiteRenderer.name(of: function)) of a value read from another row, which remodel does not run on PostgreSQL yet")
        }
        var outputType = PostgresColumnType.text
        if function == .embeddedGet {
            // The property's stored form: a number, text or bytes (JSON text for collections and embedded objects).
            guard let type = EmbeddedValueCoding(schema: schema).type(described: constants[1]) else {
                throw Failure(description: "remodel_embedded_get of an unknown type \(constants[1])")
            }
            if type.collection == nil, let kind = try? StoreTypeMapping.storedKind(of: type, in: schema, context: ""),
                Self.isSingleValue(kind), let column = try? StoreTypeMapping.columnType(of: type, in: schema, context: "")
            {
                outputType = PostgresPlanRenderer.fallbackType(column.sqlType)
            }
        }
        let name = nextLookupName()
        let rowid = scope.reference(PostgresLayout.rowid)
        var inputs = [rowid]
        for value in values { inputs.append(try renderer.expression(value, scope)) }
        var lookup = PostgresPlanRenderer.Lookup(table: name, function: function, inputs: "SELECT \(inputs.joined(separator: ", ")) FROM \(from(scope))")
        lookup.perRow = true
        lookup.constants = constants
        lookup.inputType = .bigint
        lookup.outputType = outputType
        lookups.pending.append(lookup)
        return "(SELECT \"output\" FROM pg_temp.\(SQLiteRenderer.identifier(name)) WHERE \"input\" = \(rowid))"
    }

    /// A scalar or an enum's raw value: what an embedded member's lookup returns in its own type.
    private static func isSingleValue(_ kind: StoreTypeMapping.StoredKind) -> Bool {
        switch kind {
        case .scalar, .enumeration: true
        default: false
        }
    }

    private func nextLookupName() -> String {
        lookups.count += 1
        return "remodel_lookup_\(version)_\(lookups.count)"
    }

    /// The table of the row `scope` is evaluated in, as a lookup's query reads it.
    private func from(_ scope: SQLScope) -> String {
        table(scope.source, isTemporary: false) + (scope.table == scope.source ? "" : " AS \(SQLiteRenderer.identifier(scope.table))")
    }

    // MARK: - Expressions

    /// Whether `expression` reads rows other than the one it is evaluated in (a subquery),
    /// which ALTER TABLE's USING cannot.
    static func readsOtherRows(_ expression: SQLExpression) -> Bool {
        has(expression) { part in
            switch part {
            case .linked, .materialized, .subquery, .exists, .inSelect: true
            case .function(let function, _): PostgresPlanRenderer.lookupFunctions.contains(function)
            default: false
            }
        }
    }

    private static func readsEnclosingRow(_ expression: SQLExpression) -> Bool {
        has(expression) { if case .outer = $0 { true } else { false } }
    }

    /// Whether `expression` or an operand of it, at any depth, is `wanted`.
    private static func has(_ expression: SQLExpression, _ wanted: (SQLExpression) -> Bool) -> Bool {
        if wanted(expression) { return true }
        var found = false
        _ = expression.mappingOperands { part in
            if !found, has(part, wanted) { found = true }
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

    private static func constant(_ expression: SQLExpression) -> StoreValue? {
        switch expression {
        case .null: .null
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .text(let value): .text(value)
        case .blob(let bytes): .blob(bytes)
        default: nil
        }
    }

    private static func call(_ function: SQLFunction, _ arguments: [String]) throws(Failure) -> String {
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
            throw Failure(description: "the plan needs \(SQLiteRenderer.name(of: function)), which remodel does not run on PostgreSQL yet")
        }
    }
}
