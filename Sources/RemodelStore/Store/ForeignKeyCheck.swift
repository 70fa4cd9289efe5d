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
        let constraints = try connection.query("PRAGMA foreign_key_list(\(SQL.quote(table)))")
        let column = constraints.first { $0.first == .integer(foreignKeyID) }.flatMap { row -> String? in
            if case .text(let name) = row[3] { return name }
            return nil
        } ?? "?"
        if let side = layout.tables.lazy.flatMap(\.sideTables).first(where: { $0.name == table }) {
            let values = try connection.query("SELECT \"owner\", \"value\" FROM \(SQL.quote(table)) WHERE rowid = ?", [rowid]).first ?? [.null, .null]
            if column == "owner" {
                return .danglingLink(from: side.owner, property: side.property, fromKey: values[0], to: side.owner, toKey: values[0])
            }
            return .danglingLink(from: side.owner, property: side.property, fromKey: values[0], to: parent, toKey: values[1])
        }
        let keyColumn = layout.table(named: table)?.primaryKey?.name ?? "rowid"
        let values = try connection.query("SELECT \(SQL.quote(keyColumn)), \(SQL.quote(column)) FROM \(SQL.quote(table)) WHERE rowid = ?", [rowid]).first ?? [.null, .null]
        return .danglingLink(from: table, property: column, fromKey: values[0], to: parent, toKey: values[1])
    }
}
