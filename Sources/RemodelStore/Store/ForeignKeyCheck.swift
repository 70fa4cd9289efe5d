/// A link to an object that does not exist: one row of `PRAGMA foreign_key_check` in the terms
/// of the schema. For a collection's side table, the object holding the link is the
/// collection's owner.
package struct DanglingLink: Hashable, Sendable {
    /// The object type holding the link.
    package var type: String
    /// The link property (the collection, for a side table).
    package var property: String
    /// The holding object's primary key; nil for a type without one (see `rowid`).
    package var key: StoreValue?
    /// The holding row's rowid.
    package var rowid: Int64
    /// The linked type, and the key no object of it has.
    package var target: String
    package var targetKey: StoreValue
}

/// Describes the rows of `PRAGMA foreign_key_check` through the store's layout, naming both
/// ends of each dangling link: the object holding it (type, key, property) and the missing
/// target. The store's commit check and the migration executor both use it.
package enum ForeignKeyCheck {
    /// The first `limit` dangling links, and how many there are in all.
    package static func danglingLinks(_ connection: Connection, layout: StoreLayout, limit: Int) throws -> (links: [DanglingLink], count: Int) {
        let rows = try connection.query("PRAGMA foreign_key_check")
        return (try rows.prefix(limit).compactMap { try describe($0, connection: connection, layout: layout) }, rows.count)
    }

    /// The first dangling link as the store's error, keys in their JSON form.
    static func firstViolation(_ connection: Connection, layout: StoreLayout) throws -> StoreError? {
        guard let link = try danglingLinks(connection, layout: layout, limit: 1).links.first else { return nil }
        func describe(_ value: StoreValue, keyOf table: String) -> String {
            layout.table(named: table)?.keyDescription(value) ?? value.description
        }
        return .danglingLink(
            from: link.type, property: link.property, fromKey: link.key.map { describe($0, keyOf: link.type) } ?? String(link.rowid),
            to: link.target, toKey: describe(link.targetKey, keyOf: link.target))
    }

    /// One row of `PRAGMA foreign_key_check` (table, rowid, parent, constraint id); nil when
    /// it does not have that shape.
    package static func describe(_ row: [StoreValue], connection: Connection, layout: StoreLayout) throws -> DanglingLink? {
        guard row.count >= 4, case .text(let table) = row[0], case .integer(let rowid) = row[1], case .text(let parent) = row[2],
            case .integer(let foreignKeyID) = row[3]
        else { return nil }
        // The violating constraint's child column.
        let constraints = try connection.query("SELECT \"from\" FROM pragma_foreign_key_list(?) WHERE \"id\" = ?", [.text(table), .integer(foreignKeyID)])
        guard case .text(let column) = constraints.first?.first else { return nil }
        let quoted = SQLiteRenderer.identifier(table)
        if let side = layout.tables.lazy.flatMap(\.sideTables).first(where: { $0.name == table }) {
            let values = try connection.query("SELECT \"owner\", \(SQLiteRenderer.identifier(column)) FROM \(quoted) WHERE rowid = ?", [.integer(rowid)]).first ?? [.null, .null]
            let ownerHasKey = layout.table(named: side.owner)?.primaryKey != nil
            return DanglingLink(
                type: side.owner, property: side.property, key: ownerHasKey ? values[0] : nil,
                rowid: ownerHasKey ? rowid : (values[0].integerValue ?? rowid), target: parent, targetKey: values[1])
        }
        let keyColumn = layout.table(named: table)?.primaryKey?.name
        let values =
            try connection.query(
                "SELECT \(SQLiteRenderer.identifier(keyColumn ?? "rowid")), \(SQLiteRenderer.identifier(column)) FROM \(quoted) WHERE rowid = ?", [.integer(rowid)]
            ).first ?? [.null, .null]
        return DanglingLink(type: table, property: column, key: keyColumn == nil ? nil : values[0], rowid: rowid, target: parent, targetKey: values[1])
    }
}

extension StoreValue {
    fileprivate var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }
}
