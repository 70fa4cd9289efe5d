import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import Testing

/// Stores whose tables were changed by hand (or by another program) in ways the pragmas the
/// layout check read did not show: migrating one must stop with a layout error naming the
/// table and the difference, and leave the file byte for byte as it was. Before the check read
/// `pragma_table_xinfo`, index collations and `pragma_table_list`, the first two migrated into
/// a store whose values or index no longer matched its definition, and the third ended in
/// "database disk image is malformed".
@Suite struct HandEditedStoreTests {
    static let v1 = Schema(objects: [
        ObjectType(
            name: "Person", primaryKey: "id",
            properties: [
                Property("id", .scalar(.string)), Property("name", .scalar(.string), default: .string("")),
            ])
    ])
    /// Adds a column, so the migration gives `Person` a fresh store's definition.
    static let v2 = Schema(objects: [
        ObjectType(
            name: "Person", primaryKey: "id",
            properties: [
                Property("id", .scalar(.string)), Property("name", .scalar(.string), default: .string("")),
                Property("age", .scalar(.int), default: .int(0)),
            ])
    ])

    /// A version 1 store whose `Person` table is declared as `columns` (and `options`), holding
    /// Ada and Bob.
    static func store(_ columns: String, options: String = "") throws -> StoreFixture {
        let store = try StoreFixture(schema: v1, version: 1)
        try store.execute("DROP TABLE \"Person\"; CREATE TABLE \"Person\" (\(columns))\(options); INSERT INTO \"Person\" (\"id\", \"name\") VALUES ('p1', 'Ada'), ('p2', 'Bob')")
        return store
    }

    /// The layout error of migrating `store` to version 2; the file must not change.
    static func layoutError(_ store: StoreFixture) throws -> String {
        let hash = try store.fileHash()
        do {
            _ = try Migrator(history: StepSemanticsTests.history([v1, v2], [])).migrate(storeAt: store.path)
            Issue.record("the migration succeeded")
        } catch let error as MigrationError {
            #expect(try store.fileHash() == hash, "a failed migration changed the store")
            guard case .layout(let version, let reason) = error else {
                Issue.record("expected a layout error, got \(error)")
                return "\(error)"
            }
            #expect(version == 2)
            #expect(reason.contains("the table \"Person\" does not have the layout of the new schema"))
            return reason
        }
        return ""
    }

    @Test func aGeneratedColumnIsALayoutError() throws {
        let store = try Self.store("\"id\" TEXT PRIMARY KEY NOT NULL, \"shout\" TEXT GENERATED ALWAYS AS (upper(\"name\")) STORED, \"name\" TEXT NOT NULL DEFAULT ''")
        defer { store.remove() }
        let reason = try Self.layoutError(store)
        #expect(reason.contains("its column \"shout\" is a generated column (STORED); the schema has no generated or hidden columns"), "\(reason)")
    }

    @Test func aKeyWithAnotherCollationIsALayoutError() throws {
        let store = try Self.store("\"id\" TEXT PRIMARY KEY COLLATE NOCASE NOT NULL, \"name\" TEXT NOT NULL DEFAULT ''")
        defer { store.remove() }
        let reason = try Self.layoutError(store)
        #expect(
            reason.contains(
                "its key and unique indexes are sqlite_autoindex_Person_1 (primary key on \"id\" COLLATE NOCASE); the schema's are sqlite_autoindex_Person_1 (primary key on \"id\")"
            ), "\(reason)")
    }

    @Test func aDescendingKeyIsALayoutError() throws {
        let store = try Self.store("\"id\" TEXT NOT NULL, \"name\" TEXT NOT NULL DEFAULT '', PRIMARY KEY (\"id\" DESC)")
        defer { store.remove() }
        let reason = try Self.layoutError(store)
        #expect(reason.contains("(primary key on \"id\" DESC); the schema's are sqlite_autoindex_Person_1 (primary key on \"id\")"), "\(reason)")
    }

    @Test func anIndexOfAColumnWithAnotherCollationIsALayoutError() throws {
        let store = try Self.store("\"id\" TEXT PRIMARY KEY NOT NULL, \"name\" TEXT NOT NULL DEFAULT '' COLLATE NOCASE")
        defer { store.remove() }
        try store.execute("CREATE INDEX \"byName\" ON \"Person\" (\"name\")")
        let reason = try Self.layoutError(store)
        #expect(reason.contains("its index \"byName\" orders \"name\" with COLLATE NOCASE; the schema's columns use BINARY"), "\(reason)")
    }

    @Test func aWithoutRowidTableIsALayoutError() throws {
        let store = try Self.store("\"id\" TEXT PRIMARY KEY NOT NULL, \"name\" TEXT NOT NULL DEFAULT ''", options: " WITHOUT ROWID")
        defer { store.remove() }
        let reason = try Self.layoutError(store)
        #expect(reason.contains("it is a WITHOUT ROWID table; the schema's tables have rowids"), "\(reason)")
    }

    @Test func aStrictTableIsALayoutError() throws {
        let store = try Self.store("\"id\" TEXT PRIMARY KEY NOT NULL, \"name\" TEXT NOT NULL DEFAULT ''", options: " STRICT")
        defer { store.remove() }
        let reason = try Self.layoutError(store)
        #expect(reason.contains("it is a STRICT table; the schema's tables are not STRICT"), "\(reason)")
    }

    /// The message says what is stored and what the schema has.
    @Test func aColumnOfAnotherTypeSaysBoth() throws {
        let store = try Self.store("\"id\" TEXT PRIMARY KEY NOT NULL, \"name\" INTEGER NOT NULL DEFAULT 0")
        defer { store.remove() }
        let reason = try Self.layoutError(store)
        #expect(reason.contains("its column \"name\" is INTEGER NOT NULL; the schema has TEXT NOT NULL"), "\(reason)")
    }

    @Test func anExtraUniqueConstraintSaysBoth() throws {
        let store = try Self.store("\"id\" TEXT PRIMARY KEY NOT NULL, \"name\" TEXT NOT NULL DEFAULT '', UNIQUE (\"name\")")
        defer { store.remove() }
        let reason = try Self.layoutError(store)
        #expect(
            reason.contains(
                "its key and unique indexes are sqlite_autoindex_Person_1 (primary key on \"id\"), sqlite_autoindex_Person_2 (unique on \"name\"); the schema's are sqlite_autoindex_Person_1 (primary key on \"id\")"
            ), "\(reason)")
    }

    /// The table as a fresh store declares it still migrates, and reads as a fresh store's.
    @Test func aStoreAsRemodelWroteItIsNormalized() throws {
        let store = try StoreFixture(schema: Self.v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES ('p1', 'Ada')")
        _ = try Migrator(history: StepSemanticsTests.history([Self.v1, Self.v2], [])).migrate(storeAt: store.path)
        let fresh = try StoreFixture(schema: Self.v2, version: 2, file: "fresh.db")
        defer { fresh.remove() }
        let definition = "SELECT sql FROM sqlite_schema WHERE name = 'Person'"
        #expect(try store.query(definition) == fresh.query(definition))
        #expect(try store.query("SELECT * FROM \"Person\"") == [[.text("p1"), .text("Ada"), .integer(0)]])
        #expect(try store.query("PRAGMA integrity_check") == [[.text("ok")]])
    }
}
