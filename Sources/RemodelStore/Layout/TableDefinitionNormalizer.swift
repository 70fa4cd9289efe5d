import Foundation

/// Makes a table altered in place read, in `sqlite_schema`, exactly as a fresh store declares it
/// (its columns in their physical order): `ALTER TABLE` leaves `DEFAULT` clauses that `ADD
/// COLUMN … NOT NULL` needs, column-level `REFERENCES`, and the text of renamed columns behind.
///
/// The definition is replaced only after checking, from SQLite's own pragmas, that it describes
/// the table as stored: the same columns with the same types, nullability and primary key, the
/// same unique indexes and foreign keys. That is the change SQLite documents as safe through
/// `PRAGMA writable_schema` (its "simpler procedure" for changing constraints and defaults);
/// it runs inside the caller's transaction.
package enum TableDefinitionNormalizer {
    /// Why a table cannot be given its canonical definition: the stored table differs from it.
    package struct Mismatch: Error, CustomStringConvertible {
        package var table: String
        package var reason: String

        package var description: String {
            "the table \(SQLiteRenderer.identifier(table)) does not have the layout of the new schema (\(reason)); nothing was changed"
        }
    }

    /// Gives `definition.name` the definition `definition`, columns in their stored order.
    /// `DEFAULT` clauses the stored definition has are kept unless `rowsRewritten` (every row was
    /// written since its columns were added, so none reads a missing column's default).
    package static func normalize(_ connection: Connection, to definition: SQLTableDefinition, rowsRewritten: Bool) throws {
        let name = definition.name
        let stored = try connection.query("SELECT \"cid\", \"name\", \"type\", \"notnull\", \"dflt_value\", \"pk\" FROM pragma_table_info(?) ORDER BY \"cid\"", [.text(name)])
        guard !stored.isEmpty else { throw Mismatch(table: name, reason: "it does not exist") }
        var keyColumns = Set(definition.columns.filter(\.isPrimaryKey).map(\.name))
        for constraint in definition.constraints {
            if case .primaryKey(let names) = constraint { keyColumns.formUnion(names) }
        }
        var columns: [SQLColumnDefinition] = []
        for row in stored {
            guard case .text(let column) = row[1], var canonical = definition.columns.first(where: { $0.name == column }) else {
                throw Mismatch(table: name, reason: "it has a column \(row[1]) the schema does not")
            }
            let type = if case .text(let text) = row[2] { text } else { "" }
            let notNull = row[3] == .integer(1)
            let isKey = row[5] != .integer(0)
            guard type == canonical.type.rawValue, isKey == keyColumns.contains(column), notNull == (canonical.isNotNull || canonical.isPrimaryKey) else {
                throw Mismatch(table: name, reason: "its column \(SQLiteRenderer.identifier(column)) is \(type)\(notNull ? " NOT NULL" : "")\(isKey ? " PRIMARY KEY" : "")")
            }
            if !rowsRewritten, case .text(let declared) = row[4] {
                canonical.defaultValue = .declared(declared)
            }
            columns.append(canonical)
        }
        guard columns.count == definition.columns.count else {
            throw Mismatch(table: name, reason: "it lacks columns of the schema")
        }
        try checkConstraints(connection, definition)

        var normalized = definition
        normalized.columns = columns
        let text = SQLiteRenderer().createTable(normalized)
        let current = try connection.scalar("SELECT \"sql\" FROM sqlite_schema WHERE \"type\" = 'table' AND \"name\" = ?", [.text(name)])
        guard current != .text(text) else { return }
        guard case .integer(let schemaVersion) = try connection.scalar("PRAGMA schema_version") else {
            throw Mismatch(table: name, reason: "its schema version cannot be read")
        }
        try connection.execute("PRAGMA writable_schema = ON")
        defer { try? connection.execute("PRAGMA writable_schema = OFF") }
        try connection.execute("UPDATE sqlite_schema SET \"sql\" = ? WHERE \"type\" = 'table' AND \"name\" = ?", [.text(text), .text(name)])
        // Other connections (and this one) read the schema again.
        try connection.execute("PRAGMA schema_version = \(schemaVersion + 1)")
        try connection.execute("PRAGMA writable_schema = OFF")
    }

    /// Checks that the stored unique indexes (primary key and `UNIQUE`) and foreign keys are
    /// the definition's: those are structures SQLite keeps beside the table, which a new
    /// definition must describe exactly.
    private static func checkConstraints(_ connection: Connection, _ definition: SQLTableDefinition) throws {
        let name = definition.name
        var storedUnique = Set<[String]>()
        for index in try connection.query("SELECT \"name\", \"origin\" FROM pragma_index_list(?) WHERE \"origin\" IN ('pk', 'u')", [.text(name)]) {
            guard case .text(let indexName) = index[0] else { continue }
            storedUnique.insert(try connection.query("SELECT \"name\" FROM pragma_index_info(?) ORDER BY \"seqno\"", [.text(indexName)]).map { text($0[0]) })
        }
        var expectedUnique = Set<[String]>()
        for column in definition.columns where column.isPrimaryKey && column.type != .integer {
            // An INTEGER PRIMARY KEY is the rowid itself, with no index of its own.
            expectedUnique.insert([column.name])
        }
        for constraint in definition.constraints {
            switch constraint {
            case .primaryKey(let columns), .unique(let columns): expectedUnique.insert(columns)
            case .foreignKey: break
            }
        }
        guard storedUnique == expectedUnique else {
            throw Mismatch(table: name, reason: "its unique indexes differ")
        }
        let storedKeys = Set(try connection.query("SELECT \"from\", \"table\", \"to\", \"on_delete\" FROM pragma_foreign_key_list(?)", [.text(name)]).map { $0.map(text) })
        var expectedKeys = Set<[String]>()
        for constraint in definition.constraints {
            if case .foreignKey(let column, let key) = constraint {
                expectedKeys.insert([column, key.table, key.column, key.onDelete.rawValue])
            }
        }
        guard storedKeys == expectedKeys else {
            throw Mismatch(table: name, reason: "its foreign keys differ")
        }
    }

    private static func text(_ value: StoreValue) -> String {
        if case .text(let text) = value { return text }
        return value.description
    }
}
