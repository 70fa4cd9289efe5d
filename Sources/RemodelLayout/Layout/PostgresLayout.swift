import RemodelCore

/// The store layout (`StoreLayout`) on PostgreSQL: the same tables, columns, side tables,
/// keys, foreign keys and indexes under the same names, in one schema of the database, with
/// PostgreSQL's own types.
///
/// | schema type              | column             | exactness                                   |
/// |--------------------------|--------------------|---------------------------------------------|
/// | bool                     | `boolean`          |                                             |
/// | int8, int16              | `smallint`         |                                             |
/// | int32                    | `integer`          |                                             |
/// | int, int64               | `bigint`           |                                             |
/// | float                    | `real`             |                                             |
/// | double                   | `double precision` |                                             |
/// | string, url              | `text COLLATE "C"` | URL: its absolute string; bytes order it    |
/// | data                     | `bytea`            |                                             |
/// | date                     | `timestamptz`      | microseconds, as the SQLite store keeps them |
/// | decimal128               | `numeric`          | every digit                                 |
/// | uuid                     | `uuid`             |                                             |
/// | objectId                 | `bytea`            | 12 bytes                                    |
/// | enum                     | text / `bigint`    | its raw value                               |
/// | embedded object          | `jsonb`            |                                             |
/// | link                     | the target key's   | the target's primary key                    |
///
/// Foreign keys are `DEFERRABLE INITIALLY DEFERRED` with the SQLite store's delete rules:
/// a to-one link becomes NULL when its target is deleted; collection elements go with their
/// owner and leave every collection when their target goes.
///
/// PostgreSQL cuts names longer than 63 bytes short without an error, so two long names could
/// become one: a table or column name that long is refused, and an index name (which no one
/// writes) is shortened with a hash of the whole.
package struct PostgresLayout: Sendable {
    /// Text compared byte by byte, as SQLite compares it (its BINARY collation), whatever the
    /// database's locale: keys, uniqueness and order are the same on both engines.
    package static let text = "text COLLATE \"C\""

    /// The longest name PostgreSQL keeps whole (NAMEDATALEN − 1).
    package static let nameLimit = 63

    package let layout: StoreLayout
    /// The database schema the tables live in.
    package let schemaName: String

    /// Throws `UnsupportedSchema` for a name PostgreSQL would cut short, and for what
    /// `StoreLayout` refuses.
    package init(schema: Schema, schemaName: String) throws {
        layout = try StoreLayout(schema: schema)
        self.schemaName = schemaName
        for table in layout.tables {
            try Self.checkLength(table.name, "the table name of object type '\(table.name)'")
            for column in table.columns { try Self.checkLength(column.name, "the column name '\(table.name).\(column.name)'") }
            for side in table.sideTables { try Self.checkLength(side.name, "the side table name '\(side.name)' (object type and collection property)") }
        }
    }

    private static func checkLength(_ name: String, _ what: String) throws {
        if name.utf8.count > nameLimit {
            throw UnsupportedSchema("\(what) is \(name.utf8.count) bytes long; PostgreSQL keeps names of at most \(nameLimit) bytes (longer ones are cut short, so two could become one): shorten it")
        }
    }

    /// `"schema"."name"`.
    package func qualified(_ name: String) -> String {
        Self.qualified(name, in: schemaName)
    }

    /// `"schema"."name"`.
    package static func qualified(_ name: String, in schemaName: String) -> String {
        SQLiteRenderer.identifier(schemaName) + "." + SQLiteRenderer.identifier(name)
    }

    /// Every statement that creates the layout and Remodel's metadata tables in an empty
    /// schema, in order: the tables, then their foreign keys (PostgreSQL, unlike SQLite,
    /// wants the table a key refers to to exist), then the indexes.
    package var createStatements: [String] {
        var tables = [
            "CREATE TABLE \(qualified(StoreFormat.metadataTable)) (\"key\" \(Self.text) PRIMARY KEY, \"value\" \(Self.text))",
            "CREATE TABLE \(qualified(StoreFormat.migrationsTable)) (\"version\" integer PRIMARY KEY, \"name\" \(Self.text) NOT NULL, \"checksum\" \(Self.text) NOT NULL, \"applied_at\" \(Self.text) NOT NULL, \"duration_ms\" bigint NOT NULL)",
        ]
        var keys: [String] = []
        var indexes: [String] = []
        func add(_ definition: SQLTableDefinition, types: [String: String]) {
            tables.append(create(definition, types: types))
            for case .foreignKey(let column, let key) in definition.constraints {
                keys.append(
                    "ALTER TABLE \(qualified(definition.name)) ADD FOREIGN KEY (\(SQLiteRenderer.identifier(column))) REFERENCES \(qualified(key.table)) (\(SQLiteRenderer.identifier(key.column))) "
                        + "ON DELETE \(key.onDelete.rawValue) DEFERRABLE INITIALLY DEFERRED"
                )
            }
        }
        for table in layout.tables {
            add(table.definition, types: Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, columnType(of: $0.type.element)) }))
            indexes += table.indexes.map(createIndex)
            for side in table.sideTables {
                add(side.definition, types: ["owner": ownerKeyType(of: side), "position": "bigint", "key": Self.text, "value": columnType(of: side.type.element)])
                indexes += side.index.map { [createIndex($0)] } ?? []
            }
        }
        return tables + keys + indexes
    }

    /// The PostgreSQL type of one value of `type` (a link: its target's key type), from
    /// `StoreTypeMapping.storedKind`; the layout is already checked, so nothing throws here.
    package func columnType(of type: PropertyType) -> String {
        switch try? StoreTypeMapping.storedKind(of: type, in: layout.schema, context: "") {
        case .scalar(let scalar)?, .enumeration(let scalar)?, .link(_, _, let scalar)?: Self.columnType(of: scalar)
        case .embedded?: "jsonb"
        case nil: Self.text
        }
    }

    /// The PostgreSQL type of a scalar.
    package static func columnType(of scalar: ScalarType) -> String {
        switch scalar {
        case .bool: "boolean"
        case .int8, .int16: "smallint"
        case .int32: "integer"
        case .int, .int64: "bigint"
        case .float: "real"
        case .double: "double precision"
        case .string, .url: text
        case .data, .objectId: "bytea"
        case .date: "timestamptz"
        case .decimal128: "numeric"
        case .uuid: "uuid"
        }
    }

    private func ownerKeyType(of side: SideTableLayout) -> String {
        layout.schema.objectType(named: side.owner)?.primaryKeyProperty?.storedType.map(columnType(of:)) ?? "bigint"
    }

    private func create(_ definition: SQLTableDefinition, types: [String: String]) -> String {
        var parts = definition.columns.map { column in
            SQLiteRenderer.identifier(column.name) + " " + (types[column.name] ?? Self.text)
                + (column.isPrimaryKey ? " PRIMARY KEY" : column.isNotNull ? " NOT NULL" : "")
        }
        for constraint in definition.constraints {
            switch constraint {
            case .primaryKey(let columns): parts.append("PRIMARY KEY (\(SQLiteRenderer.identifiers(columns)))")
            case .unique(let columns): parts.append("UNIQUE (\(SQLiteRenderer.identifiers(columns)))")
            case .foreignKey: break   // added once every table exists
            }
        }
        return "CREATE TABLE \(qualified(definition.name)) (\(parts.joined(separator: ", ")))"
    }

    private func createIndex(_ index: SQLIndexDefinition) -> String {
        "CREATE INDEX \(SQLiteRenderer.identifier(Self.indexName(index.name))) ON \(qualified(index.table)) (\(SQLiteRenderer.identifier(index.column)))"
    }

    /// The index name, or when it is longer than PostgreSQL keeps, its first bytes and 16
    /// hexadecimal digits of its SHA-256: still one name per index.
    package static func indexName(_ name: String) -> String {
        guard name.utf8.count > nameLimit else { return name }
        let digest = SHA256.hexDigest(of: name).prefix(16)
        var prefix = ""
        for character in name {
            if prefix.utf8.count + character.utf8.count > nameLimit - 17 { break }
            prefix.append(character)
        }
        return prefix + "~" + digest
    }
}
