import RemodelCore
import RemodelLayout
import RemodelMigrate
import RemodelPlanning
import RemodelStore

/// A custom step on PostgreSQL: its closure sees every object of its type as on SQLite (old
/// values from the version's copies of the old tables, new values from the row, both in their
/// stored forms), and what it changes is written back by key once every object was visited.
struct PostgresCustomStep {
    var call: CustomCall
    /// The step's table's column types, as the plan has left them.
    var columns: [String: PostgresColumnType]
    /// The column types of the copies of the old tables.
    var snapshots: [String: [String: PostgresColumnType]]
    var version: VersionPlan
    var body: CustomStep

    func run(on connection: PostgresConnection) throws {
        let reader = OldObjects(keys: call.snapshots.compactMapValues(\.layout.key)) { type in
            guard let snapshot = call.snapshots[type] else { return nil }
            return try objects(of: snapshot, connection: connection)
        }
        let oldByKey = Dictionary(try reader.all(call.oldType).map { ($0[call.oldKey] ?? .null, $0) }, uniquingKeysWith: { first, _ in first })
        let names = columns.keys.filter { $0 != PostgresLayout.rowid }.sorted()
        // The new schema's objects, for the collections the closure sees and writes and the objects it creates.
        let data = try OpenedStore(connection, schema: version.schema, version: version.version)
        guard let table = data.layout.layout.table(named: call.type) else { return }
        var collections: [StoreValue: [String: StoreValue]] = [:]
        if !table.sideTables.isEmpty {
            for object in try data.objects(of: table) {
                collections[object[call.key] ?? .null] = object.filter { name, _ in table.sideTable(property: name) != nil }
            }
        }
        var pending: [(key: StoreValue, values: [String: StoreValue])] = []
        var changedCollections: [(key: StoreValue, values: [String: StoreValue])] = []
        var created: [(owner: StoreValue, type: String, values: [String: StoreValue])] = []
        for var values in try rows(of: call.type, columns: names, types: columns, temporary: false, connection: connection) {
            let key = values[call.key] ?? .null
            let row = values
            for side in table.sideTables { values[side.property] = collections[key]?[side.property] ?? side.kind.emptyValue }
            let result = try call.visit(body, version: version.version, key: key, old: oldByKey[key] ?? [:], new: values, oldObjects: reader)
            try call.check(result.new, against: values, object: table.object, schema: version.schema, version: version.version, key: key)
            created += result.created.map { (key, $0.type, $0.values) }
            if names.contains(where: { result.new[$0] != row[$0] }) { pending.append((key, result.new)) }
            if table.sideTables.contains(where: { result.new[$0.property] != values[$0.property] }) { changedCollections.append((key, result.new)) }
        }
        // Written after the scan, as on SQLite: the scan never sees its own writes.
        try writeColumns(pending, changed: names.filter { $0 != call.key }, connection: connection)
        // Created objects and changed collections through the store's own writer; an object
        // whose collections changed is written again whole (its row as just updated), which
        // replaces its elements.
        try call.write(
            created: created, collections: changedCollections, version: version.version,
            primaryKey: { data.layout.layout.table(named: $0)?.primaryKey?.name },
            insert: { type, values in
                guard let target = data.layout.layout.table(named: type) else { throw StoreError.unknownType(type) }
                try DynamicWriter.check(values, of: target, schema: version.schema)
                try data.insert([values], into: target)
            },
            replaceCollections: { _, object in
                try data.insert([object.filter { table.column(named: $0.key) != nil || table.sideTable(property: $0.key) != nil }], into: table, upsert: true)
            })
    }

    /// The columns the closure changed, by key.
    private func writeColumns(_ pending: [(key: StoreValue, values: [String: StoreValue])], changed: [String], connection: PostgresConnection) throws {
        guard !changed.isEmpty, let keyType = columns[call.key] else { return }
        let assignments = changed.enumerated().map { "\(SQLiteRenderer.identifier($1)) = $\($0 + 1)" }.joined(separator: ", ")
        let sql = "UPDATE \(SQLiteRenderer.identifier(call.type)) SET \(assignments) WHERE \(SQLiteRenderer.identifier(call.key)) = $\(changed.count + 1)"
        for change in pending {
            var parameters: [String?] = []
            for name in changed {
                let value = change.values[name] ?? .null
                do {
                    parameters.append(try PostgresValueCoding(columnType: columns[name] ?? .text).parameter(value))
                } catch {
                    throw MigrationError.customStepFailed(
                        version: version.version, name: call.name, type: call.type, key: change.key.readable, underlying: "it set \(name) to \(value), which \(error)")
                }
            }
            parameters.append(try PostgresValueCoding(columnType: keyType).parameter(change.key))
            try connection.query(sql, parameters)
        }
    }

    /// The objects of an old table's copy, collections included, in the order they were added.
    private func objects(of snapshot: CustomSnapshot, connection: PostgresConnection) throws -> [[String: StoreValue]] {
        let layout = snapshot.layout
        let types = snapshots[snapshot.table] ?? [:]
        var objects = try rows(of: snapshot.table, columns: layout.columns, types: types, temporary: true, connection: connection)
        guard let key = layout.key, let keyType = types[key] else { return objects }
        for (property, side) in layout.sideTables.sorted(by: { $0.key < $1.key }) {
            let sideTypes = snapshots[side.table] ?? [:]
            let owner = PostgresValueCoding(columnType: keyType)
            let value = PostgresValueCoding(columnType: sideTypes["value"] ?? .text)
            let order = side.kind == .list ? "\"owner\", \"position\"" : side.kind == .map ? "\"owner\", \"key\"" : "\"owner\", \"\(PostgresLayout.rowid)\""
            let sql =
                "SELECT \(owner.selectExpression("\"owner\"")), \(value.selectExpression("\"value\"")), \(side.kind == .map ? "\"key\"" : "NULL") FROM pg_temp.\(SQLiteRenderer.identifier(side.table)) ORDER BY \(order)"
            var elements: [StoreValue: [StoreValue]] = [:]
            var entries: [StoreValue: [String: StoreValue]] = [:]
            for row in try connection.query(sql).rows {
                let ownerKey = try owner.value(fromText: row[0])
                if side.kind == .map {
                    entries[ownerKey, default: [:]][row[2] ?? ""] = try value.value(fromText: row[1])
                } else {
                    elements[ownerKey, default: []].append(try value.value(fromText: row[1]))
                }
            }
            for index in objects.indices {
                let ownerKey = objects[index][key] ?? .null
                objects[index][property] = side.kind == .map ? .map(entries[ownerKey] ?? [:]) : .list(elements[ownerKey] ?? [])
            }
        }
        return objects
    }

    /// Every row of `table` as stored values by column name, in rowid order.
    private func rows(of table: String, columns: [String], types: [String: PostgresColumnType], temporary: Bool, connection: PostgresConnection) throws -> [[String: StoreValue]] {
        let codings = columns.map { PostgresValueCoding(columnType: types[$0] ?? .text) }
        let select = zip(columns, codings).map { $1.selectExpression(SQLiteRenderer.identifier($0)) }
        let source = (temporary ? "pg_temp." : "") + SQLiteRenderer.identifier(table)
        let rows = try connection.query(
            "SELECT \(select.isEmpty ? "1" : select.joined(separator: ", ")) FROM \(source) ORDER BY \(SQLiteRenderer.identifier(PostgresLayout.rowid))"
        ).rows
        return try rows.map { row in
            var values: [String: StoreValue] = [:]
            for (index, column) in columns.enumerated() { values[column] = try codings[index].value(fromText: row[index]) }
            return values
        }
    }
}
