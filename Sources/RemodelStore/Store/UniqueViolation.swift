import Foundation
import RemodelCore

/// What a failed `UNIQUE` constraint means to the user: the one home for turning SQLite's
/// "UNIQUE constraint failed: Trip.name" into `StoreError.duplicateKey` (the primary key) or
/// `StoreError.notUnique` (a unique property or group), naming the values and the object that
/// holds them.
enum UniqueViolation {
    /// The error for `error` while writing a row of `table` (of `schema`) with `values` (by
    /// column), or nil when it is not a uniqueness failure.
    static func storeError(_ error: SQLiteError, table: TableLayout, schema: Schema, values: [String: StoreValue], connection: Connection) -> StoreError? {
        guard error.extendedCode == SQLiteCode.constraintPrimaryKey || error.extendedCode == SQLiteCode.constraintUnique else { return nil }
        let columns = columns(in: error.message, table: table.name)
        let key = table.primaryKey
        if columns.isEmpty || columns == key.map({ [$0.name] }) {
            guard let key else { return nil }
            return .duplicateKey(type: table.name, key: table.keyDescription(values[key.name] ?? .null))
        }
        // The schema's enums, for unique enum properties.
        let conversion = StoreValueConversion(schema: schema)
        let shown = columns.map { column -> String in
            let value = values[column] ?? .null
            guard let type = table.column(named: column)?.type, let json = try? conversion.json(value, type: PropertyType(type.base, optional: type.isOptional)) else {
                return value.description
            }
            return json.description
        }
        var holder = "(unknown)"
        if let key {
            let condition = columns.map { "\(SQLiteRenderer.identifier($0)) = ?" }.joined(separator: " AND ")
            let sql = "SELECT \(SQLiteRenderer.identifier(key.name)) FROM \(SQLiteRenderer.identifier(table.name)) WHERE \(condition) LIMIT 1"
            if let found = try? connection.scalar(sql, columns.map { values[$0] ?? .null }) { holder = table.keyDescription(found) }
        }
        return .notUnique(type: table.name, properties: columns, values: shown.count == 1 ? shown[0] : "(" + shown.joined(separator: ", ") + ")", holder: holder)
    }

    /// The columns SQLite names: "UNIQUE constraint failed: Trip.destination, Trip.startDate".
    static func columns(in message: String, table: String) -> [String] {
        guard let colon = message.range(of: "constraint failed: ") else { return [] }
        return message[colon.upperBound...].components(separatedBy: ", ").map { name in
            name.hasPrefix(table + ".") ? String(name.dropFirst(table.count + 1)) : name
        }
    }
}
