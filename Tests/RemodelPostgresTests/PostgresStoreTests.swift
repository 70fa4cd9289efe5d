import Foundation
import RemodelCore
import RemodelLayout
import RemodelPostgres
import RemodelTestSupport
import XCTest

/// The store layout on PostgreSQL: the reviewed DDL of the example schema, the tables it
/// really creates, the SQLite store's delete rules, and what `create` refuses.
final class PostgresStoreTests: XCTestCase {
    /// The example's newest schema as PostgreSQL DDL, against a reviewed reference file
    /// (`References/example-v3.sql`). Set REMODEL_RECORD=1 to write the file anew.
    func testTheExampleLayoutMatchesItsReference() throws {
        let layout = try PostgresLayout(schema: ExampleHistory.v3, schemaName: "public")
        let text = layout.createStatements.joined(separator: ";\n") + ";\n"
        let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("References/example-v3.sql")
        if ProcessInfo.processInfo.environment["REMODEL_RECORD"] == "1" {
            try FileManager.default.createDirectory(at: reference.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: reference, atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(text, try String(contentsOf: reference, encoding: .utf8), "run with REMODEL_RECORD=1 to record, then review the diff")
    }

    func testNamesPostgreSQLWouldCutShortAreRefusedOrHashed() throws {
        let long = "T" + String(repeating: "x", count: 63)
        let schema = Schema(objects: [ObjectType(name: long, primaryKey: "id", properties: [Property(name: "id", kind: .stored(PropertyType(.scalar(.int))))])])
        XCTAssertThrowsError(try PostgresLayout(schema: schema, schemaName: "public")) { error in
            XCTAssertEqual(
                "\(error)",
                "unsupported schema: the table name of object type '\(long)' is 64 bytes long; PostgreSQL keeps names of at most 63 bytes (longer ones are cut short, so two could become one): shorten it"
            )
        }
        let index = "Type." + String(repeating: "p", count: 60) + ".index"
        let short = PostgresLayout.indexName(index)
        XCTAssertLessThanOrEqual(short.utf8.count, PostgresLayout.nameLimit)
        XCTAssertTrue(short.hasPrefix("Type.ppp"), short)
        XCTAssertNotEqual(short, PostgresLayout.indexName(index + "x"))
        XCTAssertEqual(PostgresLayout.indexName("Dog.owner.index"), "Dog.owner.index")
    }

    // MARK: - On a server

    private var server: PostgresTestServer!

    private func database() throws -> String {
        server = try PostgresTestServer.shared { XCTSkip($0) }
        return try server.makeDatabase()
    }

    func testCreateMakesTheTablesWithNativeTypesAndDeferredKeys() throws {
        let name = try database()
        let target = try PostgresTarget(server.url(database: name) + "?schema=app")
        let info = try PostgresStore.create(at: target, schema: ExampleHistory.v3, version: 3)
        XCTAssertEqual(info.version, 3)
        XCTAssertEqual(info.schemaName, "app")
        XCTAssertEqual(info.schemaHash, ExampleHistory.v3.storageHash)
        XCTAssertEqual(info.objectCounts.map(\.type), ["Person", "Dog", "Note"])
        XCTAssertEqual(info.objectCounts.map(\.count), [0, 0, 0])

        let columns = try server.psql(
            "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable FROM information_schema.columns WHERE table_schema = 'app' AND table_name IN ('Person', 'Dog', 'Person.dogs') ORDER BY table_name, ordinal_position",
            database: name
        ).split(separator: "\n").map(String.init)
        XCTAssertEqual(
            columns,
            [
                "Dog.__remodel_rowid bigint NO", "Dog._id uuid NO", "Dog.name text NO", "Dog.breed text NO", "Dog.weight bigint NO", "Dog.favoriteToy text NO",
                "Dog.profileImageUrl text YES", "Dog.dateLastUpdated timestamp with time zone NO",
                "Person.__remodel_rowid bigint NO", "Person._id bytea NO", "Person.firstName text NO", "Person.lastName text NO", "Person.personId text NO",
                "Person.company text NO",
                "Person.businessUnit text NO", "Person.profileImageUrl text YES",
                "Person.dogs.__remodel_rowid bigint NO", "Person.dogs.owner bytea NO", "Person.dogs.position bigint NO", "Person.dogs.value uuid NO",
            ])
        let keys = try server.psql(
            "SELECT conrelid::regclass::text || ' ' || confdeltype::text || ' ' || condeferrable::text || ' ' || condeferred::text FROM pg_constraint WHERE contype = 'f' AND connamespace = 'app'::regnamespace ORDER BY 1",
            database: name
        ).split(separator: "\n").map(String.init)
        // c = CASCADE: a list's elements go with their owner and leave it when their target goes.
        XCTAssertEqual(keys, ["app.\"Person.dogs\" c true true", "app.\"Person.dogs\" c true true"])
        let metadata = try server.psql("SELECT key FROM app._remodel_metadata ORDER BY key", database: name)
        XCTAssertEqual(metadata, "formatVersion\nschema\nschemaHash\nschemaVersion\n")
    }

    func testDeleteRulesAreTheSQLiteStores() throws {
        let name = try database()
        let target = try PostgresTarget(server.url(database: name))
        try PostgresStore.create(at: target, schema: ExampleHistory.v3, version: 3)
        try server.psql(
            """
            INSERT INTO "Person" ("_id", "firstName", "lastName", "personId", "company", "businessUnit") VALUES ('\\x01', 'A', 'B', 'p', 'c', 'Engineering');
            INSERT INTO "Dog" ("_id", "name", "breed", "weight", "favoriteToy", "dateLastUpdated") VALUES ('00000000-0000-0000-0000-000000000001', 'Rex', '', 1, '', now()), ('00000000-0000-0000-0000-000000000002', 'Fido', '', 1, '', now());
            INSERT INTO "Person.dogs" ("owner", "position", "value") VALUES ('\\x01', 0, '00000000-0000-0000-0000-000000000001'), ('\\x01', 1, '00000000-0000-0000-0000-000000000002');
            """, database: name)
        try server.psql("DELETE FROM \"Dog\" WHERE name = 'Rex'", database: name)
        XCTAssertEqual(try server.psql("SELECT position FROM \"Person.dogs\"", database: name), "1\n")
        try server.psql("DELETE FROM \"Person\"", database: name)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM \"Person.dogs\"", database: name), "0\n")
        // Deferred: an element may be written before its target within one transaction.
        try server.psql(
            """
            BEGIN;
            INSERT INTO "Person" ("_id", "firstName", "lastName", "personId", "company", "businessUnit") VALUES ('\\x02', 'A', 'B', 'p', 'c', 'Engineering');
            INSERT INTO "Person.dogs" ("owner", "position", "value") VALUES ('\\x02', 0, '00000000-0000-0000-0000-000000000009');
            INSERT INTO "Dog" ("_id", "name", "breed", "weight", "favoriteToy", "dateLastUpdated") VALUES ('00000000-0000-0000-0000-000000000009', 'Late', '', 1, '', now());
            COMMIT;
            """, database: name)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM \"Person.dogs\"", database: name), "1\n")
    }

    func testAToOneLinkBecomesNullWhenItsTargetIsDeleted() throws {
        let name = try database()
        let schema = Schema(objects: [
            ObjectType(
                name: "Owner", primaryKey: "id",
                properties: [
                    Property(name: "id", kind: .stored(PropertyType(.scalar(.int)))),
                    Property(name: "pet", kind: .stored(PropertyType(.object("Pet"), optional: true))),
                ]),
            ObjectType(name: "Pet", primaryKey: "id", properties: [Property(name: "id", kind: .stored(PropertyType(.scalar(.string))))]),
        ])
        try PostgresStore.create(at: try PostgresTarget(server.url(database: name)), schema: schema, version: 1)
        XCTAssertEqual(try server.psql("SELECT confdeltype::text FROM pg_constraint WHERE contype = 'f'", database: name), "n\n")
        try server.psql("INSERT INTO \"Pet\" (\"id\") VALUES ('rex'); INSERT INTO \"Owner\" (\"id\", \"pet\") VALUES (1, 'rex')", database: name)
        try server.psql("DELETE FROM \"Pet\"", database: name)
        XCTAssertEqual(try server.psql("SELECT id::text || ':' || coalesce(pet, 'null') FROM \"Owner\"", database: name), "1:null\n")
        XCTAssertEqual(try server.psql("SELECT indexname FROM pg_indexes WHERE tablename = 'Owner' ORDER BY 1", database: name), "Owner.pet.index\nOwner_pkey\n")
    }

    /// Text is compared by bytes, as SQLite compares it, in a database whose own collation
    /// (ICU's en-US: 'a' before 'B') orders otherwise.
    func testTextKeysOrderByBytesWhateverTheDatabaseLocale() throws {
        _ = try database()
        try server.psql("CREATE DATABASE icu_collated LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C' TEMPLATE template0")
        XCTAssertEqual(try server.psql("SELECT string_agg(x, ',' ORDER BY x) FROM (VALUES ('a'), ('B')) v(x)", database: "icu_collated"), "a,B\n")
        try PostgresStore.create(at: try PostgresTarget(server.url(database: "icu_collated")), schema: ExampleHistory.v3, version: 3)
        try server.psql("INSERT INTO \"Note\" (\"identifier\", \"content\", \"lastEdited\") VALUES ('a', '', now()), ('B', '', now())", database: "icu_collated")
        XCTAssertEqual(try server.psql("SELECT string_agg(identifier, ',' ORDER BY identifier) FROM \"Note\"", database: "icu_collated"), "B,a\n")
    }

    func testCreateRefusesASchemaWithAStoreOrTheTablesItNeedsAndChangesNothing() throws {
        let name = try database()
        let target = try PostgresTarget(server.url(database: name))
        try PostgresStore.create(at: target, schema: ExampleHistory.v1, version: 1)
        let before = try server.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'", database: name)
        XCTAssertThrowsError(try PostgresStore.create(at: target, schema: ExampleHistory.v3, version: 3)) { error in
            XCTAssertEqual(
                "\(error)",
                "the schema 'public' of postgresql://postgres@/\(name)?host=\(server.socketFolder)&port=5432 already holds a Remodel store; nothing was changed: use 'remodel status' to see it, or another schema (?schema=NAME) for a new store"
            )
        }
        XCTAssertEqual(try server.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'", database: name), before)
        XCTAssertEqual(try server.psql("SELECT value FROM _remodel_metadata WHERE key = 'schemaVersion'", database: name), "1\n")

        try server.psql("CREATE SCHEMA mine; CREATE TABLE mine.\"Dog\" (x int); INSERT INTO mine.\"Dog\" VALUES (7)", database: name)
        let mine = try PostgresTarget(server.url(database: name) + "?schema=mine")
        XCTAssertThrowsError(try PostgresStore.create(at: mine, schema: ExampleHistory.v3, version: 3)) { error in
            XCTAssertTrue("\(error)".hasPrefix("the schema 'mine' of postgresql://"), "\(error)")
            XCTAssertTrue(
                "\(error)".hasSuffix("already has tables the store needs ('Dog'); nothing was changed: choose another schema (?schema=NAME) or drop those tables"), "\(error)")
        }
        XCTAssertEqual(try server.psql("SELECT string_agg(table_name, ',') FROM information_schema.tables WHERE table_schema = 'mine'", database: name), "Dog\n")
        XCTAssertEqual(try server.psql("SELECT x FROM mine.\"Dog\"", database: name), "7\n")
    }

    func testInfoRefusesASchemaWithoutAStore() throws {
        let name = try database()
        XCTAssertThrowsError(try PostgresStore.info(at: try PostgresTarget(server.url(database: name)), recordedSchema: { _ in nil })) { error in
            XCTAssertTrue(
                "\(error)".hasSuffix("holds no Remodel store (no '_remodel_metadata' table): create one with 'remodel init', or name the schema it is in (?schema=NAME)"),
                "\(error)")
        }
    }
}
