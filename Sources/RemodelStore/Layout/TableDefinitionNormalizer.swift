import CSQLite
import Foundation

/// Makes a table altered in place read, in `sqlite_schema`, exactly as a fresh store declares it
/// (its columns in their physical order): `ALTER TABLE` leaves `DEFAULT` clauses that `ADD
/// COLUMN … NOT NULL` needs, column-level `REFERENCES`, and the text of renamed columns behind.
///
/// The definition is replaced only after checking, from SQLite's own pragmas, that it describes
/// the table as stored: an ordinary rowid table (not `WITHOUT ROWID`, not `STRICT`) with the
/// same columns (none generated) with the same types, nullability and primary key, the same
/// key and unique indexes (by name, with the columns, collations and order they are built
/// with) and the same foreign keys. That is the change SQLite documents as safe through
/// `PRAGMA writable_schema` (its "simpler procedure" for changing constraints and defaults).
/// After the write the pragmas are read again, to confirm SQLite reads the new text as that
/// definition. It runs inside the caller's transaction: any throw leaves the table as it was
/// once the caller rolls back.
package enum TableDefinitionNormalizer {
    /// Why a table cannot be given its canonical definition: the stored table differs from it.
    /// `reason` says what is stored and what the schema expects.
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
        let stored = try StoredTable.read(connection, name)
        let normalized = try canonical(definition, matching: stored, rowsRewritten: rowsRewritten)
        let text = SQLiteRenderer().createTable(normalized)
        guard stored.sql != .text(text) else { return }
        try write(connection, definition: text, of: name)
        try confirm(connection, normalized, before: stored)
    }

    /// Declares `column` of table `name` with `type`, its values as they are: the first half of
    /// a retype in place, before one `UPDATE` converts the values (and SQLite stores them with
    /// the new type's affinity). Only the declared type changes in the definition's text; the
    /// table is read again afterwards to confirm that nothing else did. The column must not be
    /// a key, indexed or a link (the caller's plan checks that). Inside the caller's
    /// transaction, as `normalize`.
    package static func retypeColumn(_ connection: Connection, table name: String, column: String, to type: SQLColumnType) throws {
        let stored = try StoredTable.read(connection, name)
        func mismatch(_ reason: String) -> Mismatch { Mismatch(table: name, reason: reason) }
        guard stored.kind == "table", !stored.withoutRowid, !stored.strict else {
            throw mismatch("it is \(stored.kindDescription); the schema has an ordinary table")
        }
        guard let position = stored.columns.firstIndex(where: { $0.name == column }) else {
            throw mismatch("it has no column \(SQLiteRenderer.identifier(column)) to declare as \(type.rawValue)")
        }
        guard stored.columns[position].type != type.rawValue else { return }
        guard case .text(let sql) = stored.sql, let text = DeclaredTypeEditor.replacingType(of: column, in: sql, with: type.rawValue) else {
            throw mismatch("its definition text does not declare the column \(SQLiteRenderer.identifier(column)) where it can be read")
        }
        try write(connection, definition: text, of: name)
        var expected = stored
        expected.sql = .text(text)
        expected.columns[position].type = type.rawValue
        let reread = try StoredTable.read(connection, name)
        guard reread == expected else {
            throw mismatch(
                "SQLite reads its definition with \(SQLiteRenderer.identifier(column)) declared \(type.rawValue) as the columns \(StoredTable.describe(reread.columns)), not \(StoredTable.describe(expected.columns))"
            )
        }
    }

    /// Replaces the `CREATE TABLE` text of table `name` in `sqlite_schema` (SQLite's documented
    /// `writable_schema` procedure), so that this connection and others read it again.
    private static func write(_ connection: Connection, definition text: String, of name: String) throws {
        guard case .integer(let schemaVersion) = try connection.scalar("PRAGMA schema_version") else {
            // Not a difference of layout: SQLite did not answer as documented.
            throw SQLiteError(
                code: SQLITE_ERROR, message: "PRAGMA schema_version did not return the schema's version, so the definition of \(SQLiteRenderer.identifier(name)) was not rewritten")
        }
        try connection.execute("PRAGMA writable_schema = ON")
        defer { try? connection.execute("PRAGMA writable_schema = OFF") }
        try connection.execute("UPDATE sqlite_schema SET \"sql\" = ? WHERE \"type\" = 'table' AND \"name\" = ?", [.text(text), .text(name)])
        // Other connections (and this one) read the schema again.
        try connection.execute("PRAGMA schema_version = \(schemaVersion + 1)")
        try connection.execute("PRAGMA writable_schema = OFF")
    }

    /// `definition` with its columns in the stored order (and the stored defaults unless
    /// `rowsRewritten`), after checking that it describes the stored table.
    private static func canonical(_ definition: SQLTableDefinition, matching stored: StoredTable, rowsRewritten: Bool) throws -> SQLTableDefinition {
        let name = definition.name
        func mismatch(_ reason: String) -> Mismatch { Mismatch(table: name, reason: reason) }
        guard stored.kind == "table" else {
            throw mismatch(stored.kind.map { "it is a \($0 == "virtual" ? "virtual table" : $0); the schema has an ordinary table" } ?? "it does not exist; the schema has it")
        }
        if stored.withoutRowid { throw mismatch("it is a WITHOUT ROWID table; the schema's tables have rowids") }
        if stored.strict { throw mismatch("it is a STRICT table; the schema's tables are not STRICT") }
        let keyColumns = definition.keyColumns
        var columns: [SQLColumnDefinition] = []
        for column in stored.columns {
            if column.hidden != 0 {
                throw mismatch("its column \(SQLiteRenderer.identifier(column.name)) is \(column.hiddenDescription); the schema has no generated or hidden columns")
            }
            guard var expected = definition.columns.first(where: { $0.name == column.name }) else {
                throw mismatch("it has a column \(SQLiteRenderer.identifier(column.name)) \(column.describe()) that the schema does not have")
            }
            let isKey = keyColumns.contains(column.name)
            guard column.type == expected.type.rawValue, column.isKey == isKey, column.notNull == (expected.isNotNull || expected.isPrimaryKey) else {
                let schema = StoredTable.Column.describe(type: expected.type.rawValue, notNull: expected.isNotNull || expected.isPrimaryKey, isKey: isKey)
                throw mismatch("its column \(SQLiteRenderer.identifier(column.name)) is \(column.describe()); the schema has \(schema)")
            }
            if !rowsRewritten, let declared = column.defaultText {
                expected.defaultValue = .declared(declared)
            }
            columns.append(expected)
        }
        let missing = definition.columns.map(\.name).filter { name in !stored.columns.contains { $0.name == name } }
        guard missing.isEmpty else {
            throw mismatch("it lacks the schema's column\(missing.count == 1 ? "" : "s") \(SQLiteRenderer.identifiers(missing))")
        }
        var normalized = definition
        normalized.columns = columns

        let expectedIndexes = expectedUniqueIndexes(normalized)
        guard stored.uniqueIndexes == expectedIndexes else {
            throw mismatch("its key and unique indexes are \(StoredTable.describe(stored.uniqueIndexes)); the schema's are \(StoredTable.describe(expectedIndexes))")
        }
        // An index of the table's own (CREATE INDEX) takes the collation a column declares:
        // a definition without it would read that index in another order.
        for (indexName, index) in stored.otherIndexes.sorted(by: { $0.key < $1.key }) {
            if let column = index.columns.first(where: { $0.collation.uppercased() != "BINARY" }) {
                throw mismatch(
                    "its index \(SQLiteRenderer.identifier(indexName)) orders \(SQLiteRenderer.identifier(column.name)) with COLLATE \(column.collation); the schema's columns use BINARY"
                )
            }
        }
        let expectedKeys = Set(
            definition.constraints.compactMap { constraint -> StoredTable.ForeignKey? in
                guard case .foreignKey(let column, let key) = constraint else { return nil }
                return StoredTable.ForeignKey(column: column, table: key.table, targetColumn: key.column, onUpdate: "NO ACTION", onDelete: key.onDelete.rawValue)
            })
        guard stored.foreignKeys == expectedKeys else {
            throw mismatch("its foreign keys are \(StoredTable.describe(stored.foreignKeys)); the schema's are \(StoredTable.describe(expectedKeys))")
        }
        return normalized
    }

    /// The automatic indexes SQLite makes of `definition`'s text, by name: a `PRIMARY KEY`
    /// (other than an `INTEGER PRIMARY KEY`, which is the rowid) and each `UNIQUE`, numbered
    /// in the order the text declares them, every column in `BINARY` ascending order.
    private static func expectedUniqueIndexes(_ definition: SQLTableDefinition) -> [String: StoredTable.Index] {
        var indexes: [String: StoredTable.Index] = [:]
        func add(_ origin: String, _ columns: [String]) {
            indexes["sqlite_autoindex_\(definition.name)_\(indexes.count + 1)"] = StoredTable.Index(
                origin: origin, columns: columns.map { StoredTable.IndexColumn(name: $0, collation: "BINARY", descending: false) }
            )
        }
        func isRowid(_ columns: [String]) -> Bool {
            columns.count == 1 && definition.columns.first { $0.name == columns[0] }?.type == .integer
        }
        for column in definition.columns where column.isPrimaryKey && column.type != .integer {
            add("pk", [column.name])
        }
        for constraint in definition.constraints {
            switch constraint {
            case .primaryKey(let columns) where !isRowid(columns): add("pk", columns)
            case .unique(let columns): add("u", columns)
            case .primaryKey, .foreignKey: break
            }
        }
        return indexes
    }

    /// Reads the table again after the write: SQLite must read the new text as the table it
    /// had, with `normalized`'s columns (and defaults).
    private static func confirm(_ connection: Connection, _ normalized: SQLTableDefinition, before stored: StoredTable) throws {
        let name = normalized.name
        let reread = try StoredTable.read(connection, name)
        var expected = stored
        expected.sql = .text(SQLiteRenderer().createTable(normalized))
        expected.columns = zip(stored.columns, normalized.columns).map { column, definition in
            var column = column
            column.defaultText =
                switch definition.defaultValue {
                case .declared(let text): text
                case .value(let value): SQLiteRenderer().expression(value, in: "")
                case nil: nil
                }
            return column
        }
        guard reread != expected else { return }
        var differences: [String] = []
        if reread.kind != expected.kind || reread.withoutRowid != expected.withoutRowid || reread.strict != expected.strict {
            differences.append("as \(reread.kindDescription), not \(expected.kindDescription)")
        }
        if reread.columns != expected.columns {
            differences.append("with the columns \(StoredTable.describe(reread.columns)), not \(StoredTable.describe(expected.columns))")
        }
        if reread.uniqueIndexes != expected.uniqueIndexes || reread.otherIndexes != expected.otherIndexes {
            differences.append(
                "with the indexes \(StoredTable.describe(reread.uniqueIndexes.merging(reread.otherIndexes) { a, _ in a })), not \(StoredTable.describe(expected.uniqueIndexes.merging(expected.otherIndexes) { a, _ in a }))"
            )
        }
        if reread.foreignKeys != expected.foreignKeys {
            differences.append("with the foreign keys \(StoredTable.describe(reread.foreignKeys)), not \(StoredTable.describe(expected.foreignKeys))")
        }
        if reread.sql != expected.sql { differences.append("as other text than was written") }
        throw Mismatch(table: name, reason: "SQLite reads the definition written for it \(differences.joined(separator: ", "))")
    }
}

extension SQLTableDefinition {
    /// The primary key's columns, whether declared on a column or as a table constraint.
    fileprivate var keyColumns: Set<String> {
        var keys = Set(columns.filter(\.isPrimaryKey).map(\.name))
        for constraint in constraints {
            if case .primaryKey(let names) = constraint { keys.formUnion(names) }
        }
        return keys
    }
}

/// A table as SQLite's pragmas describe it (`pragma_table_list`, `pragma_table_xinfo`,
/// `pragma_index_list`/`pragma_index_xinfo`, `pragma_foreign_key_list`): what a new
/// definition text must describe exactly.
private struct StoredTable: Equatable {
    struct Column: Equatable {
        var name: String
        var type: String
        var notNull: Bool
        var defaultText: String?
        var isKey: Bool
        /// 0 for an ordinary column, 1 hidden (virtual tables), 2 generated `VIRTUAL`, 3
        /// generated `STORED`.
        var hidden: Int64

        func describe() -> String { Self.describe(type: type, notNull: notNull, isKey: isKey) }

        static func describe(type: String, notNull: Bool, isKey: Bool) -> String {
            [type.isEmpty ? "without a type" : type, notNull ? "NOT NULL" : nil, isKey ? "PRIMARY KEY" : nil].compactMap { $0 }.joined(separator: " ")
        }

        var hiddenDescription: String {
            switch hidden {
            case 2: "a generated column (VIRTUAL)"
            case 3: "a generated column (STORED)"
            default: "a hidden column"
            }
        }
    }

    struct IndexColumn: Equatable {
        var name: String
        var collation: String
        var descending: Bool
    }

    struct Index: Equatable {
        /// `pk`, `u` (a constraint's automatic index) or `c` (`CREATE INDEX`).
        var origin: String
        var columns: [IndexColumn]
    }

    struct ForeignKey: Hashable {
        var column: String
        var table: String
        var targetColumn: String
        var onUpdate: String
        var onDelete: String
    }

    /// `table`, `view`, `virtual`, `shadow`; nil when there is no such table.
    var kind: String?
    var withoutRowid = false
    var strict = false
    var sql: StoreValue = .null
    var columns: [Column] = []
    /// The primary key's and `UNIQUE` constraints' automatic indexes, by name.
    var uniqueIndexes: [String: Index] = [:]
    /// The table's other indexes, by name.
    var otherIndexes: [String: Index] = [:]
    var foreignKeys: Set<ForeignKey> = []

    var kindDescription: String {
        (kind.map { $0 == "table" ? "an ordinary table" : "a \($0)" } ?? "no table") + (withoutRowid ? " WITHOUT ROWID" : "") + (strict ? " STRICT" : "")
    }

    static func read(_ connection: Connection, _ name: String) throws -> StoredTable {
        var table = StoredTable()
        guard let row = try connection.query("SELECT \"type\", \"wr\", \"strict\" FROM pragma_table_list(?) WHERE \"schema\" = 'main'", [.text(name)]).first else {
            return table
        }
        table.kind = text(row[0])
        table.withoutRowid = row[1] != .integer(0)
        table.strict = row[2] != .integer(0)
        table.sql = try connection.scalar("SELECT \"sql\" FROM sqlite_schema WHERE \"type\" = 'table' AND \"name\" = ?", [.text(name)])
        table.columns = try connection.query(
            "SELECT \"name\", \"type\", \"notnull\", \"dflt_value\", \"pk\", \"hidden\" FROM pragma_table_xinfo(?) ORDER BY \"cid\"", [.text(name)]
        ).map { row in
            Column(
                name: text(row[0]), type: text(row[1]), notNull: row[2] == .integer(1), defaultText: row[3] == .null ? nil : text(row[3]),
                isKey: row[4] != .integer(0), hidden: integer(row[5]))
        }
        for index in try connection.query("SELECT \"name\", \"origin\" FROM pragma_index_list(?)", [.text(name)]) {
            let indexName = text(index[0])
            let columns = try connection.query("SELECT \"name\", \"coll\", \"desc\" FROM pragma_index_xinfo(?) WHERE \"key\" = 1 ORDER BY \"seqno\"", [.text(indexName)]).map {
                row in
                // An expression's column has no name.
                IndexColumn(name: row[0] == .null ? "(an expression)" : text(row[0]), collation: text(row[1]), descending: row[2] != .integer(0))
            }
            let origin = text(index[1])
            if origin == "pk" || origin == "u" {
                table.uniqueIndexes[indexName] = Index(origin: origin, columns: columns)
            } else {
                table.otherIndexes[indexName] = Index(origin: origin, columns: columns)
            }
        }
        table.foreignKeys = Set(
            try connection.query("SELECT \"from\", \"table\", \"to\", \"on_update\", \"on_delete\" FROM pragma_foreign_key_list(?)", [.text(name)]).map { row in
                ForeignKey(
                    column: text(row[0]), table: text(row[1]), targetColumn: row[2] == .null ? "(its primary key)" : text(row[2]), onUpdate: text(row[3]), onDelete: text(row[4]))
            })
        return table
    }

    static func describe(_ columns: [Column]) -> String {
        columns.map { "\(SQLiteRenderer.identifier($0.name)) \($0.describe())\($0.defaultText.map { " DEFAULT \($0)" } ?? "")" }.joined(separator: ", ")
    }

    /// `sqlite_autoindex_Person_1 (primary key on "id" COLLATE NOCASE)`, in name order; `none`.
    static func describe(_ indexes: [String: Index]) -> String {
        guard !indexes.isEmpty else { return "none" }
        return indexes.sorted { $0.key < $1.key }.map { name, index in
            let kind =
                switch index.origin {
                case "pk": "primary key"
                case "u": "unique"
                default: "index"
                }
            let columns = index.columns.map { column in
                SQLiteRenderer.identifier(column.name) + (column.collation.uppercased() == "BINARY" ? "" : " COLLATE \(column.collation)") + (column.descending ? " DESC" : "")
            }
            return "\(name) (\(kind) on \(columns.joined(separator: ", ")))"
        }.joined(separator: ", ")
    }

    /// `"owner" → "Person" ("id") ON DELETE CASCADE`, sorted; `none`.
    static func describe(_ keys: Set<ForeignKey>) -> String {
        guard !keys.isEmpty else { return "none" }
        return keys.map { key in
            "\(SQLiteRenderer.identifier(key.column)) → \(SQLiteRenderer.identifier(key.table)) (\(SQLiteRenderer.identifier(key.targetColumn)))"
                + (key.onUpdate == "NO ACTION" ? "" : " ON UPDATE \(key.onUpdate)") + " ON DELETE \(key.onDelete)"
        }.sorted().joined(separator: ", ")
    }

    private static func text(_ value: StoreValue) -> String {
        if case .text(let text) = value { return text }
        return value.description
    }

    private static func integer(_ value: StoreValue) -> Int64 {
        if case .integer(let number) = value { return number }
        return 0
    }
}
