import Foundation
import RemodelCore
import RemodelLayout
import RemodelStore

/// The data tools' JSON (`StoreJSON`'s format, value for value) on a PostgreSQL store.
extension PostgresStore {
    /// Every object of the store, as `remodel export` writes it: the SQLite store's document
    /// for the same objects. Read in one snapshot (a `REPEATABLE READ` transaction), so
    /// writers at the same time do not tear it. `progress` hears of the objects read
    /// (counted first, in the same snapshot, when there is a callback).
    public static func export(
        at target: PostgresTarget, recordedSchema: (String) -> Schema?, progress: (@Sendable (DataTransferProgress) -> Void)? = nil
    ) throws -> (document: JSONValue, counts: [(type: String, count: Int)]) {
        let connection = try PostgresConnection(target)
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { try? connection.execute("ROLLBACK") }
        let store = try OpenedStore(connection, recordedSchema: recordedSchema)
        let conversion = StoreValueConversion(schema: store.schema)
        let total = progress == nil ? 0 : try store.layout.layout.tables.reduce(0) { $0 + (try count(of: $1.name, in: store.layout, connection)) }
        var counter = DataTransferCounter(.reading, total: total, progress: progress)
        var members: [(String, JSONValue)] = []
        var counts: [(type: String, count: Int)] = []
        for table in store.layout.layout.tables {
            counter.begin(table.name)
            let objects = try store.objects(of: table)
            var documents: [JSONValue] = []
            documents.reserveCapacity(objects.count)
            for object in objects {
                documents.append(try StoreJSON.document(of: object, in: table, conversion: conversion))
                counter.advance()
            }
            members.append((table.name, .array(documents)))
            counts.append((table.name, objects.count))
        }
        counter.finish()
        return (.object(members), counts)
    }

    /// Checks every object of `document` against the store's schema and, only when all are
    /// valid, adds them in one transaction (`StoreJSON.importDocument`'s rules and messages).
    /// With `version`, refuses a store at another version. When `target` holds no store yet,
    /// `create` gives the schema and version to create it with, in the same transaction, so
    /// that a failure leaves no store behind. `progress` hears of the objects checked, then of
    /// those written. Returns the objects added per type, and the server as connected
    /// (without a password), for messages.
    @discardableResult
    public static func importDocument(
        _ document: JSONValue, into target: PostgresTarget, source: String, expectedVersion: Int?,
        recordedSchema: (String) -> Schema?, create fresh: (schema: Schema, version: Int)? = nil,
        progress: (@Sendable (DataTransferProgress) -> Void)? = nil
    ) throws -> (counts: [(type: String, count: Int)], database: String) {
        let connection = try PostgresConnection(target)
        let counts = try connection.transaction {
            try lock(connection)
            let store: OpenedStore
            let checked: StoreJSON.CheckedDocument
            if try !tables(in: connection, schema: target.schema).contains(StoreFormat.metadataTable), let fresh {
                // Checked before anything is created, so that a bad file leaves no store behind.
                checked = try StoreJSON.check(document, schema: fresh.schema, source: source, progress: progress)
                try createLayout(connection, schema: fresh.schema, version: fresh.version)
                store = try OpenedStore(connection, schema: fresh.schema, version: fresh.version)
            } else {
                store = try OpenedStore(connection, recordedSchema: recordedSchema)
                if let expectedVersion, expectedVersion != store.version {
                    throw PostgresStoreError.wrongVersion(schema: target.schema, database: connection.displayName, version: store.version, expected: expectedVersion)
                }
                checked = try StoreJSON.check(document, schema: store.schema, source: source, progress: progress)
            }
            var counter = DataTransferCounter(.importing, total: checked.objectCount, progress: progress)
            for batch in checked.batches {
                guard let table = store.layout.layout.table(named: batch.type) else { continue }
                counter.begin(batch.type)
                // With a callback, `DataTransferProgress.step` objects at a time, so that progress
                // moves as they go in; without one, each type in one call.
                let chunk = progress == nil ? max(1, batch.objects.count) : DataTransferProgress.step
                var start = 0
                while start < batch.objects.count {
                    let end = min(batch.objects.count, start + chunk)
                    try store.insert(batch.objects[start..<end], into: table)
                    counter.advance(by: end - start)
                    start = end
                }
            }
            do {
                try connection.execute("SET CONSTRAINTS ALL IMMEDIATE")
            } catch let error as PostgresError {
                guard error.sqlState == "23503" else { throw error }
                throw StoreError.invalidInput(
                    "cannot import \(source); nothing was imported: a link points at an object that is neither in the store nor in the data (\(error.message); \(error.detail ?? "")): add that object to the data, or remove the link"
                )
            }
            // Observations of the store fetch again once this commits.
            try PostgresChangeHub.announce(nil, on: connection)
            counter.finish()
            return checked.counts
        }
        return (counts, connection.displayName)
    }

    /// Whether `target`'s schema holds a Remodel store (its metadata table).
    public static func holdsStore(at target: PostgresTarget) throws -> Bool {
        try tables(in: try PostgresConnection(target), schema: target.schema).contains(StoreFormat.metadataTable)
    }

    /// Serialises what changes a store (`init`, `import`, `migrate`) on one database schema,
    /// until the transaction ends.
    static func lock(_ connection: PostgresConnection) throws {
        try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", ["remodel:" + connection.target.schema])
    }
}

/// A store's connection with the schema and version it records, for reading and writing
/// objects.
struct OpenedStore {
    let connection: PostgresConnection
    let schema: Schema
    let version: Int
    let layout: PostgresLayout

    init(_ connection: PostgresConnection, recordedSchema: (String) -> Schema?) throws {
        // The version and checks without counting objects (`info` counts only with a schema).
        let info = try PostgresStore.info(connection, recordedSchema: { _ in nil })
        let entries = try PostgresMetadata.entries(connection, schemaName: connection.target.schema)
        guard let text = entries[StoreFormat.Key.schema], let schema = recordedSchema(text) else {
            throw PostgresStoreError.incomplete(schema: connection.target.schema, database: connection.displayName, reason: "the schema it records cannot be read")
        }
        try self.init(connection, schema: schema, version: info.version)
    }

    /// `tablesIn`: the database schema holding the tables (or views) read and written; the
    /// store's own by default.
    init(_ connection: PostgresConnection, schema: Schema, version: Int, tablesIn: String? = nil) throws {
        self.connection = connection
        self.schema = schema
        self.version = version
        do {
            layout = try PostgresLayout(schema: schema, schemaName: tablesIn ?? connection.target.schema)
        } catch let error as UnsupportedSchema {
            throw PostgresStoreError.unsupportedSchema(error.message)
        }
    }

    /// The objects of `table` that `condition` (PostgreSQL text over `parameters`) matches,
    /// in `orderBy` (default: the SQLite store's order, `PostgresLayout.orderColumn`),
    /// collections included.
    func objects(of table: TableLayout, where condition: String? = nil, parameters: [String?] = [], orderBy: String? = nil) throws -> [DynamicObject] {
        let codings = table.columns.map { PostgresValueCoding(type: $0.type, schema: schema) }
        let name = SQLiteRenderer.identifier(table.name)
        let columns = zip(table.columns, codings).map { $1.selectExpression(name + "." + SQLiteRenderer.identifier($0.name)) }
        let filter = condition.map { " WHERE " + $0 } ?? ""
        let order = orderBy ?? " ORDER BY \(name).\(SQLiteRenderer.identifier(PostgresLayout.orderColumn(of: table)))"
        let rows = try connection.query(
            "SELECT \(columns.isEmpty ? "1" : columns.joined(separator: ", ")) FROM \(layout.qualified(table.name)) AS \(name)\(filter)\(order)", parameters
        ).rows
        var objects: [DynamicObject] = []
        objects.reserveCapacity(rows.count)
        for row in rows {
            var object: DynamicObject = [:]
            for (index, column) in table.columns.enumerated() {
                do {
                    object[column.name] = try codings[index].value(fromText: row[index])
                } catch {
                    throw StoreError.invalidValue(type: table.name, property: column.name, value: .text(row[index] ?? ""), reason: "\(error)")
                }
            }
            objects.append(object)
        }
        guard let keyIndex = table.primaryKeyIndex, !rows.isEmpty else { return objects }
        // Only the owners found: the same condition over the owner table.
        let owners = condition.map {
            "\"owner\" IN (SELECT \(name).\(SQLiteRenderer.identifier(table.columns[keyIndex].name)) FROM \(layout.qualified(table.name)) AS \(name) WHERE \($0))"
        }
        for side in table.sideTables {
            let elements = try collections(of: side, ownerCoding: codings[keyIndex], owners: owners, parameters: parameters)
            for index in objects.indices {
                let owner = rows[index][keyIndex] ?? ""
                objects[index][side.property] = elements[owner] ?? side.kind.emptyValue
            }
        }
        return objects
    }

    /// Every element of a side table, by its owner's key text.
    private func collections(of side: SideTableLayout, ownerCoding: PostgresValueCoding, owners: String?, parameters: [String?]) throws -> [String: StoreValue] {
        let coding = PostgresValueCoding(type: side.type, schema: schema)
        let owner = ownerCoding.selectExpression("\"owner\"")
        let order =
            switch side.kind {
            case .list: "\"position\""
            case .map: "\"key\""
            case .set: "\"value\""
            }
        let sql =
            "SELECT \(owner), \(coding.selectExpression("\"value\"")), \(side.kind == .map ? "\"key\"" : "NULL") FROM \(layout.qualified(side.name))"
            + (owners.map { " WHERE " + $0 } ?? "") + " ORDER BY \(owner), \(order)"
        var lists: [String: [StoreValue]] = [:]
        var maps: [String: [String: StoreValue]] = [:]
        for row in try connection.query(sql, owners == nil ? [] : parameters).rows {
            let value: StoreValue
            do {
                value = try coding.value(fromText: row[1])
            } catch {
                throw StoreError.invalidValue(type: side.owner, property: side.property, value: .text(row[1] ?? ""), reason: "\(error)")
            }
            if side.kind == .map {
                maps[row[0] ?? "", default: [:]][row[2] ?? ""] = value
            } else {
                lists[row[0] ?? "", default: []].append(value)
            }
        }
        return side.kind == .map ? maps.mapValues { .map($0) } : lists.mapValues { .list($0) }
    }

    /// Adds `objects` (validated by `StoreJSON`) to `table` and its side tables, many rows
    /// per statement; missing properties take their schema default. With `upsert`, an object
    /// whose key exists replaces it in place (its row updated, its collections written anew),
    /// so that links to it stay.
    func insert(_ objects: some Collection<DynamicObject>, into table: TableLayout, upsert: Bool = false) throws {
        let codings = table.columns.map { PostgresValueCoding(type: $0.type, schema: schema) }
        var rows: [[String?]] = []
        var sideRows: [[[String?]]] = Array(repeating: [], count: table.sideTables.count)
        let sideCodings = table.sideTables.map { PostgresValueCoding(type: $0.type, schema: schema) }
        for object in objects {
            var row: [String?] = []
            for (index, column) in table.columns.enumerated() {
                let value = try object[column.name] ?? DynamicDefaults.value(for: table.object.property(named: column.name)!, type: column.type, schema: schema)
                if value.isNull && !column.type.isOptional {
                    throw StoreError.invalidInput("\(table.name).\(column.name) is required but has no value and no default")
                }
                do {
                    row.append(try codings[index].parameter(value))
                } catch {
                    throw StoreError.invalidValue(type: table.name, property: column.name, value: value, reason: "\(error)")
                }
            }
            rows.append(row)
            guard let keyIndex = table.primaryKeyIndex else { continue }
            for (sideIndex, side) in table.sideTables.enumerated() {
                let elements = object[side.property] ?? side.kind.emptyValue
                func parameter(_ value: StoreValue) throws -> String? {
                    do { return try sideCodings[sideIndex].parameter(value) } catch {
                        throw StoreError.invalidValue(type: table.name, property: side.property, value: value, reason: "\(error)")
                    }
                }
                switch elements {
                case .list(let values):
                    for (position, value) in values.enumerated() {
                        sideRows[sideIndex].append(side.kind == .set ? [row[keyIndex], try parameter(value)] : [row[keyIndex], String(position), try parameter(value)])
                    }
                case .map(let entries):
                    for key in entries.keys.sorted() { sideRows[sideIndex].append([row[keyIndex], key, try parameter(entries[key]!)]) }
                default:
                    throw StoreError.invalidInput("\(table.name).\(side.property) must be a collection")
                }
            }
        }
        var conflict: String?
        if upsert, let key = table.primaryKey {
            let others = table.columns.filter { !$0.isPrimaryKey }.map { SQLiteRenderer.identifier($0.name) }
            let keyName = SQLiteRenderer.identifier(key.name)
            conflict =
                " ON CONFLICT (\(keyName)) DO UPDATE SET "
                + (others.isEmpty ? ["\(keyName) = excluded.\(keyName)"] : others.map { "\($0) = excluded.\($0)" }).joined(separator: ", ")
            // The replaced objects' collections go, a batch of owners per statement.
            let owners = rows.map { $0[table.primaryKeyIndex!] }
            for side in table.sideTables {
                var start = 0
                while start < owners.count {
                    let batch = Array(owners[start..<min(owners.count, start + 1_000)])
                    let list = (1...batch.count).map { "$\($0)" }.joined(separator: ", ")
                    try connection.query("DELETE FROM \(layout.qualified(side.name)) WHERE \"owner\" IN (\(list))", batch)
                    start += 1_000
                }
            }
        }
        try insertRows(rows, into: table.name, columns: table.columnNames, conflict: conflict)
        for (side, rows) in zip(table.sideTables, sideRows) {
            let columns =
                switch side.kind {
                case .list: ["owner", "position", "value"]
                case .set: ["owner", "value"]
                case .map: ["owner", "key", "value"]
                }
            try insertRows(rows, into: side.name, columns: columns)
        }
    }

    /// A unique violation as `StoreError`: `Key ("identifier")=(n1) already exists.` is the
    /// primary key's `duplicateKey`; `Key (destination, start)=(Rome, 100)` of a unique property
    /// or group is `notUnique`, with the key of the object that holds the values.
    private func uniquenessError(_ error: PostgresError, table name: String) -> StoreError {
        let detail = error.detail ?? ""
        func between(_ open: String, _ close: String) -> String? {
            guard let start = detail.range(of: open), let end = detail.range(of: close, options: .backwards), start.upperBound <= end.lowerBound else { return nil }
            return String(detail[start.upperBound..<end.lowerBound])
        }
        let columns = (between("Key (", ")=(") ?? "").components(separatedBy: ", ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        let values = between(")=(", ") already exists") ?? detail
        guard let table = layout.layout.table(named: name), let key = table.primaryKey, columns != [key.name], columns.allSatisfy({ table.column(named: $0) != nil }) else {
            return StoreError.duplicateKey(type: name, key: values)
        }
        let parts = values.components(separatedBy: ", ")
        // Shown as SQLite's store shows them: text (and string enums) quoted as JSON writes it,
        // numbers as they are.
        func shown(_ text: String, column: String) -> String {
            let quoted: Bool =
                switch table.column(named: column)?.type.base {
                case .scalar(let scalar)?: !(scalar.isInteger || [.bool, .float, .double, .decimal128].contains(scalar))
                case .enumeration(let name)?: schema.enumType(named: name)?.rawType != .int
                case .object?, nil: false
                }
            return quoted ? JSONValue.string(text).description : text
        }
        var holder = "(unknown)"
        if parts.count == columns.count {
            let condition = columns.enumerated().map { "\(SQLiteRenderer.identifier($1))::text = $\($0 + 1)" }.joined(separator: " AND ")
            if let found = try? connection.scalar("SELECT \(SQLiteRenderer.identifier(key.name))::text FROM \(layout.qualified(name)) WHERE \(condition) LIMIT 1", parts) {
                holder = shown(found, column: key.name)
            }
        }
        let texts = (columns.count == 1 ? [values] : parts).enumerated().map { index, part in index < columns.count ? shown(part, column: columns[index]) : part }
        let text = texts.count == 1 ? texts[0] : "(" + texts.joined(separator: ", ") + ")"
        return StoreError.notUnique(type: name, properties: columns, values: text, holder: holder)
    }

    /// `INSERT … VALUES (…), (…)` in batches that stay under the protocol's 65,535 parameters.
    private func insertRows(_ rows: [[String?]], into table: String, columns: [String], conflict: String? = nil) throws {
        guard !rows.isEmpty, !columns.isEmpty else {
            for _ in rows { try connection.execute("INSERT INTO \(layout.qualified(table)) DEFAULT VALUES") }
            return
        }
        let perStatement = max(1, min(1_000, 60_000 / columns.count))
        var start = 0
        while start < rows.count {
            let batch = rows[start..<min(rows.count, start + perStatement)]
            var parameters: [String?] = []
            parameters.reserveCapacity(batch.count * columns.count)
            var tuples: [String] = []
            for row in batch {
                let first = parameters.count
                parameters += row
                tuples.append("(" + (1...columns.count).map { "$\(first + $0)" }.joined(separator: ", ") + ")")
            }
            let sql = "INSERT INTO \(layout.qualified(table)) (\(SQLiteRenderer.identifiers(columns))) VALUES \(tuples.joined(separator: ", "))" + (conflict ?? "")
            // With unique properties, a savepoint lets the object that holds a colliding value be
            // looked up after the failure (an error aborts the rest of the transaction).
            let guarded = self.layout.layout.table(named: table).map { !$0.indexes.filter(\.isUnique).isEmpty } ?? false
            if guarded { try connection.execute("SAVEPOINT remodel_unique") }
            do {
                try connection.query(sql, parameters)
            } catch {
                guard error.sqlState == "23505" else { throw error }
                if guarded { try connection.execute("ROLLBACK TO SAVEPOINT remodel_unique") }
                throw uniquenessError(error, table: table)
            }
            if guarded { try connection.execute("RELEASE SAVEPOINT remodel_unique") }
            start += perStatement
        }
    }
}
