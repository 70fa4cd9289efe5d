/// Turns the first row of `PRAGMA foreign_key_check` into an error naming both ends of the
/// dangling link: the object holding it (type, key, property) and the missing target.
enum ForeignKeyCheck {
    static func firstViolation(_ connection: Connection, layout: StoreLayout) throws -> StoreError? {
        guard let row = try connection.query("PRAGMA foreign_key_check").first, row.count >= 4,
              case .text(let table) = row[0], case .integer(let foreignKeyID) = row[3]
        else { return nil }
        let rowid = row[1]
        let parent: String = if case .text(let name) = row[2] { name } else { "?" }
        // The violating constraint's child column.
        let constraints = try connection.query("PRAGMA foreign_key_list(\(SQLiteRenderer.identifier(table)))")
        let column = constraints.first { $0.first == .integer(foreignKeyID) }.flatMap { row -> String? in
            if case .text(let name) = row[3] { return name }
            return nil
        } ?? "?"
        if let side = layout.tables.lazy.flatMap(\.sideTables).first(where: { $0.name == table }) {
            let values = try connection.query("SELECT \"owner\", \"value\" FROM \(SQLiteRenderer.identifier(table)) WHERE rowid = ?", [rowid]).first ?? [.null, .null]
            if column == "owner" {
                let key = describe(values[0], keyOf: side.owner, layout: layout)
                return .danglingLink(from: side.owner, property: side.property, fromKey: key, to: side.owner, toKey: key)
            }
            return .danglingLink(from: side.owner, property: side.property, fromKey: describe(values[0], keyOf: side.owner, layout: layout),
                                 to: parent, toKey: describe(values[1], keyOf: parent, layout: layout))
        }
        let keyColumn = layout.table(named: table)?.primaryKey?.name ?? "rowid"
        let values = try connection.query("SELECT \(SQLiteRenderer.identifier(keyColumn)), \(SQLiteRenderer.identifier(column)) FROM \(SQLiteRenderer.identifier(table)) WHERE rowid = ?", [rowid]).first ?? [.null, .null]
        return .danglingLink(from: table, property: column, fromKey: describe(values[0], keyOf: table, layout: layout),
                             to: parent, toKey: describe(values[1], keyOf: parent, layout: layout))
    }

    private static func describe(_ value: StoreValue, keyOf table: String, layout: StoreLayout) -> String {
        layout.table(named: table)?.keyDescription(value) ?? value.description
    }
}
