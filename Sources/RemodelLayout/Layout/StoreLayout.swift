import RemodelCore

/// The tables, columns, side tables and indexes that store a schema: the one place that maps
/// a `Schema` to SQL. The migration engine derives its target layout from here too.
///
/// - One table per non-embedded object type, named as the type; one column per stored,
///   non-collection property, in declaration order; the primary key declared
///   `PRIMARY KEY NOT NULL`.
/// - One side table per list, set or map property, named `Type.property`, with `owner`
///   (the owner's key, cascading deletes), `position` (lists) or `key` (maps), and `value`.
/// - Links hold the target's primary key, with deferred foreign keys: to-one links
///   `ON DELETE SET NULL`, list and set elements `ON DELETE CASCADE`.
package struct StoreLayout: Sendable {
    package let schema: Schema
    /// Tables in schema order.
    package let tables: [TableLayout]
    private let tableIndex: [String: Int]

    /// Derives the layout of `schema`; throws `UnsupportedSchema` for what the
    /// store cannot hold (a collection on a type without primary key, a link to a type
    /// without one).
    package init(schema: Schema) throws {
        self.schema = schema
        var tables: [TableLayout] = []
        // The validator reports these at their declarations; a schema built in Swift is checked here.
        var tableNames: [String: String] = [:]
        for object in schema.objects where !object.isEmbedded {
            if let reservation = StoreNames.tableNameReservation(object.name) {
                throw UnsupportedSchema("the object type name '\(object.name)' \(reservation); \(reservation.fix)")
            }
            if let first = tableNames.updateValue(object.name, forKey: StoreNames.foldedKey(object.name)) {
                throw UnsupportedSchema("the object types '\(first)' and '\(object.name)' differ only in letter case, which SQLite's table names ignore; rename one of them")
            }
            var columnNames: [String: String] = [:]
            for property in object.properties where property.storedType != nil {
                if let reservation = StoreNames.columnNameReservation(property.name) {
                    throw UnsupportedSchema("the property name '\(object.name).\(property.name)' \(reservation); \(reservation.fix)")
                }
                if let first = columnNames.updateValue(property.name, forKey: StoreNames.foldedKey(property.name)) {
                    throw UnsupportedSchema(
                        "the properties '\(object.name).\(first)' and '\(object.name).\(property.name)' differ only in letter case, which SQLite's column names ignore; rename one of them"
                    )
                }
            }
            tables.append(try TableLayout(object: object, schema: schema))
        }
        self.tables = tables
        tableIndex = Dictionary(uniqueKeysWithValues: tables.enumerated().map { ($1.name, $0) })
    }

    /// The table of object type `name`.
    package func table(named name: String) -> TableLayout? {
        tableIndex[name].map { tables[$0] }
    }

    /// Every statement that creates the layout in an empty database, in order.
    package var createStatements: [SQLStatement] {
        tables.flatMap(\.createStatements)
    }
}

/// The storage of one object type.
package struct TableLayout: Sendable {
    package let name: String
    package let object: ObjectType
    /// Column properties, in declaration order.
    package let columns: [ColumnLayout]
    /// Collection properties, in declaration order.
    package let sideTables: [SideTableLayout]
    /// The index of the primary-key column in `columns`, if the type has a key.
    package let primaryKeyIndex: Int?

    init(object: ObjectType, schema: Schema) throws {
        name = object.name
        self.object = object
        var columns: [ColumnLayout] = []
        var sideTables: [SideTableLayout] = []
        for property in object.properties {
            guard let type = property.storedType else { continue }
            if type.collection != nil {
                sideTables.append(try SideTableLayout(owner: object, property: property, type: type, schema: schema))
            } else {
                columns.append(try ColumnLayout(owner: object, property: property, type: type, schema: schema))
            }
        }
        self.columns = columns
        self.sideTables = sideTables
        primaryKeyIndex = object.primaryKey.flatMap { key in columns.firstIndex { $0.name == key } }
        if primaryKeyIndex == nil, let first = sideTables.first {
            throw UnsupportedSchema(
                "object type '\(object.name)' has no primary key, so its collection property '\(first.property)' has nothing to attach to; give '\(object.name)' a primaryKey"
            )
        }
    }

    /// The primary-key column, if any.
    package var primaryKey: ColumnLayout? { primaryKeyIndex.map { columns[$0] } }

    /// Column names, in declaration order.
    package var columnNames: [String] { columns.map(\.name) }

    /// The side table of property `name`, if it is a collection.
    package func sideTable(property name: String) -> SideTableLayout? {
        sideTables.first { $0.property == name }
    }

    /// The column of property `name`, if it is one.
    package func column(named name: String) -> ColumnLayout? {
        columns.first { $0.name == name }
    }

    /// The object table alone, as `CREATE TABLE` declares it: columns in declaration order,
    /// then a deferred foreign key per link column.
    package var definition: SQLTableDefinition {
        SQLTableDefinition(
            name: name, columns: columns.map(\.definition),
            constraints: columns.compactMap { column in column.foreignKey.map { .foreignKey(column: column.name, $0) } }
        )
    }

    /// The indexes of indexed properties and link columns, named `Type.property.index`; the
    /// unique indexes of unique properties, `Type.property.unique`; then the object's groups,
    /// `Type.a.b.unique` and `Type.a.b.index`.
    package var indexes: [SQLIndexDefinition] {
        let single = columns.filter { ($0.isIndexed || $0.isUnique || $0.link != nil) && $0.name != primaryKey?.name }.map { column in
            column.isUnique
                ? SQLIndexDefinition(name: "\(name).\(column.name).unique", table: name, columns: [column.name], isUnique: true)
                : SQLIndexDefinition(name: "\(name).\(column.name).index", table: name, column: column.name)
        }
        let uniqueColumns = Set(columns.filter(\.isUnique).map(\.name))
        let groups =
            object.uniquenessGroups.filter { $0.count > 1 || !uniqueColumns.contains($0[0]) }.map {
                SQLIndexDefinition(name: "\(name).\($0.joined(separator: ".")).unique", table: name, columns: $0, isUnique: true)
            }
            + object.indexes.map { SQLIndexDefinition(name: "\(name).\($0.joined(separator: ".")).index", table: name, columns: $0, isUnique: false) }
        return single + groups
    }

    /// Everything that creates this type's storage.
    package var createStatements: [SQLStatement] {
        [.createTable(definition)] + indexes.map(SQLStatement.createIndex) + sideTables.flatMap(\.createStatements)
    }
}

/// One column of an object table.
package struct ColumnLayout: Sendable {
    package let name: String
    package let type: PropertyType
    package let sqlType: SQLColumnType
    package let isPrimaryKey: Bool
    package let isIndexed: Bool
    /// No two rows hold the same value (a unique index; NULLs never collide).
    package let isUnique: Bool
    /// The linked object type and its primary-key column, for links.
    package let link: (table: String, column: String)?

    init(owner: ObjectType, property: Property, type: PropertyType, schema: Schema) throws {
        name = property.name
        self.type = type
        isPrimaryKey = owner.primaryKey == property.name
        isIndexed = property.isIndexed
        isUnique = property.isUnique
        (sqlType, link) = try StoreTypeMapping.columnType(of: type.element, in: schema, context: "\(owner.name).\(property.name)")
    }

    /// The column as `CREATE TABLE` declares it.
    package var definition: SQLColumnDefinition {
        SQLColumnDefinition(name: name, type: sqlType, primaryKey: isPrimaryKey, notNull: !isPrimaryKey && !type.isOptional)
    }

    /// The deferred foreign key of a link column: to-one links become null when their target
    /// is deleted.
    package var foreignKey: SQLForeignKey? {
        link.map { SQLForeignKey(table: $0.table, column: $0.column, onDelete: .setNull) }
    }
}

/// The side table of one list, set or map property.
package struct SideTableLayout: Sendable {
    /// `Type.property`.
    package let name: String
    package let owner: String
    package let ownerKey: (column: String, sqlType: SQLColumnType)
    package let property: String
    package let type: PropertyType
    package let valueSQLType: SQLColumnType
    package let link: (table: String, column: String)?

    init(owner object: ObjectType, property: Property, type: PropertyType, schema: Schema) throws {
        name = "\(object.name).\(property.name)"
        owner = object.name
        self.property = property.name
        self.type = type
        if let key = object.primaryKeyProperty, let keyType = key.storedType {
            ownerKey = (key.name, try StoreTypeMapping.columnType(of: keyType, in: schema, context: "\(object.name).\(key.name)").sqlType)
        } else {
            ownerKey = ("rowid", .integer)
        }
        (valueSQLType, link) = try StoreTypeMapping.columnType(of: type.element, in: schema, context: name)
    }

    package var kind: CollectionKind { type.collection ?? .list }

    /// The query reading one owner's elements: `value` first, then `key` for maps.
    package var selectStatement: String {
        switch kind {
        case .list: "SELECT \"value\" FROM \(SQLiteRenderer.identifier(name)) WHERE \"owner\" = ? ORDER BY \"position\""
        case .set: "SELECT \"value\" FROM \(SQLiteRenderer.identifier(name)) WHERE \"owner\" = ?"
        case .map: "SELECT \"value\", \"key\" FROM \(SQLiteRenderer.identifier(name)) WHERE \"owner\" = ? ORDER BY \"key\""
        }
    }

    /// The statement inserting one element: owner, position or key (not for sets), value.
    package var insertStatement: String {
        switch kind {
        case .list: "INSERT INTO \(SQLiteRenderer.identifier(name)) (\"owner\", \"position\", \"value\") VALUES (?, ?, ?)"
        case .set: "INSERT OR IGNORE INTO \(SQLiteRenderer.identifier(name)) (\"owner\", \"value\") VALUES (?, ?)"
        case .map: "INSERT INTO \(SQLiteRenderer.identifier(name)) (\"owner\", \"key\", \"value\") VALUES (?, ?, ?)"
        }
    }

    /// The statement removing one owner's elements.
    package var deleteStatement: String {
        "DELETE FROM \(SQLiteRenderer.identifier(name)) WHERE \"owner\" = ?"
    }

    /// The side table as `CREATE TABLE` declares it.
    package var definition: SQLTableDefinition {
        var columns = [SQLColumnDefinition(name: "owner", type: ownerKey.sqlType, notNull: true)]
        switch kind {
        case .list: columns.append(SQLColumnDefinition(name: "position", type: .integer, notNull: true))
        case .map: columns.append(SQLColumnDefinition(name: "key", type: .text, notNull: true))
        case .set: break
        }
        columns.append(SQLColumnDefinition(name: "value", type: valueSQLType, notNull: !type.isOptional))
        var constraints: [SQLTableConstraint] =
            switch kind {
            case .list: [.primaryKey(["owner", "position"])]
            case .map: [.primaryKey(["owner", "key"])]
            case .set: [.unique(["owner", "value"])]
            }
        // Elements go with their owner, and leave every collection when their target goes.
        constraints.append(.foreignKey(column: "owner", SQLForeignKey(table: owner, column: ownerKey.column, onDelete: .cascade)))
        if let link {
            constraints.append(.foreignKey(column: "value", SQLForeignKey(table: link.table, column: link.column, onDelete: .cascade)))
        }
        return SQLTableDefinition(name: name, columns: columns, constraints: constraints)
    }

    /// The index on the values of a link collection, `Type.property.value`.
    package var index: SQLIndexDefinition? {
        link == nil ? nil : SQLIndexDefinition(name: "\(name).value", table: name, column: "value")
    }

    package var createStatements: [SQLStatement] {
        [.createTable(definition)] + (index.map { [.createIndex($0)] } ?? [])
    }
}
