import CSQLite
import Foundation
import RemodelCore
import XCTest

@testable import RemodelStore

final class OpeningTests: XCTestCase {
    private func schema(version: Int = 1, extraProperty: Bool = false) -> (Schema, Int) {
        var schema = TestSchemaManifest.schema
        if extraProperty { schema.objects[0].properties.append(Property("title", .scalar(.string, optional: true))) }
        return (schema, version)
    }

    func testCreatesTheDocumentedLayout() throws {
        let folder = TemporaryFolder()
        let path = folder.file("store.db")
        _ = try makeStore(folder)
        XCTAssertEqual(try rawSQL(path, "PRAGMA application_id"), [[.integer(Int64(StoreFormat.applicationID))]])
        XCTAssertEqual(try rawSQL(path, "PRAGMA user_version"), [[.integer(1)]])
        XCTAssertEqual(try rawSQL(path, "PRAGMA journal_mode"), [[.text("wal")]])
        let metadata = try rawSQL(path, "SELECT \"key\", \"value\" FROM \"_remodel_metadata\" ORDER BY \"key\"")
        XCTAssertEqual(
            metadata,
            [
                [.text("formatVersion"), .integer(1)],
                [.text("incompatibleVersions"), .text("")],
                [.text("schema"), .text(CanonicalYAML.text(of: TestSchemaManifest.schema))],
                [.text("schemaHash"), .text(TestSchemaManifest.schema.storageHash)],
            ])
        let tables = try rawSQL(path, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").map { $0[0] }
        XCTAssertEqual(
            tables,
            [
                "Dog", "LogEntry", "Note", "Person", "Person.dogs", "Sample", "Sample.addresses", "Sample.attributes",
                "Sample.friends", "Sample.priorities", "Sample.scores", "Sample.sparse", "Sample.tags",
                "_remodel_metadata", "_remodel_migrations",
            ].map(StoreValue.text))
        let person = try rawSQL(path, "SELECT sql FROM sqlite_schema WHERE name = 'Person'")
        XCTAssertEqual(
            person,
            [
                [
                    .text(
                        """
                        CREATE TABLE "Person" (
                          "_id" BLOB PRIMARY KEY NOT NULL,
                          "firstName" TEXT NOT NULL,
                          "company" TEXT NOT NULL,
                          "businessUnit" TEXT NOT NULL,
                          "profileImageUrl" TEXT
                        )
                        """)
                ]
            ])
        let dogs = try rawSQL(path, "SELECT sql FROM sqlite_schema WHERE name = 'Person.dogs'")
        XCTAssertEqual(
            dogs,
            [
                [
                    .text(
                        """
                        CREATE TABLE "Person.dogs" (
                          "owner" BLOB NOT NULL,
                          "position" INTEGER NOT NULL,
                          "value" BLOB NOT NULL,
                          PRIMARY KEY ("owner", "position"),
                          FOREIGN KEY ("owner") REFERENCES "Person" ("_id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
                          FOREIGN KEY ("value") REFERENCES "Dog" ("_id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
                        )
                        """)
                ]
            ])
        let indexes = try rawSQL(path, "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name").map { $0[0] }
        XCTAssertEqual(indexes, ["Dog.weight.index", "Person.dogs.value", "Sample.friends.value", "Sample.owner.index", "Sample.text.index"].map(StoreValue.text))
        let sample = try rawSQL(path, "SELECT sql FROM sqlite_schema WHERE name = 'Sample'")
        guard case .text(let sql) = sample.first?.first else { return XCTFail() }
        XCTAssertTrue(sql.contains("\"id\" INTEGER PRIMARY KEY NOT NULL"))
        XCTAssertTrue(sql.contains("\"date\" INTEGER NOT NULL"))
        XCTAssertTrue(sql.contains("\"amount\" TEXT NOT NULL"))
        XCTAssertTrue(sql.contains("\"priority\" INTEGER,"))
        XCTAssertTrue(sql.contains("\"address\" TEXT,"))
        XCTAssertTrue(sql.contains("FOREIGN KEY (\"owner\") REFERENCES \"Person\" (\"_id\") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED"))
    }

    func testReopensAnExistingStore() throws {
        let folder = TemporaryFolder()
        do {
            let store = try makeStore(folder)
            try store.write { tx in try tx.insert(TestNote(identifier: "kept", content: "x")) }
        }
        let store = try makeStore(folder)
        XCTAssertEqual(try store.read { try $0.object(TestNote.self, forKey: "kept")?.content }, "x")
    }

    func testNotSQLiteAtAll() throws {
        let folder = TemporaryFolder()
        let path = folder.file("notes.txt")
        try Data("these are my notes, not a database\n".utf8).write(to: URL(fileURLWithPath: path))
        let before = fileBytes(path)
        assertStoreError(
            try RemodelStore(path: path, manifest: TestSchemaManifest.self),
            contains: ["'\(path)' is not an SQLite database", "open the right file"])
        XCTAssertEqual(fileBytes(path), before)
    }

    func testForeignSQLiteDatabase() throws {
        let folder = TemporaryFolder()
        let path = folder.file("other.db")
        _ = try rawSQL(path, "CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        let before = fileBytes(path)
        assertStoreError(
            try RemodelStore(path: path, manifest: TestSchemaManifest.self),
            contains: ["is an SQLite database but not a Remodel store", "application_id is 0", "1380273476"])
        XCTAssertEqual(fileBytes(path), before)
    }

    func testSupersededStoreIsNeverDowngraded() throws {
        let folder = TemporaryFolder()
        let path = folder.file("store.db")
        _ = try RemodelStore(path: path, schema: TestSchemaManifest.schema, version: 3)
        let before = fileBytes(path)
        assertStoreError(try makeStore(folder), contains: ["is at schema version 3, newer than version 1 of the schema here (superseded)", "will not be downgraded"]) {
            if case .superseded(_, 3, 1) = $0 { return true }
            return false
        }
        XCTAssertEqual(fileBytes(path), before)
    }

    func testOlderStoreNeedsMigration() throws {
        let folder = TemporaryFolder()
        let path = folder.file("store.db")
        _ = try makeStore(folder)
        let before = fileBytes(path)
        let (schema, _) = schema(extraProperty: true)
        assertStoreError(
            try RemodelStore(path: path, schema: schema, version: 2),
            contains: ["is at schema version 1 and this code needs version 2", "remodel migrate --store", "OpenOptions.migrator"])
        XCTAssertEqual(fileBytes(path), before)
    }

    func testSameVersionDifferentSchemaIsRefused() throws {
        let folder = TemporaryFolder()
        let path = folder.file("store.db")
        _ = try makeStore(folder)
        let before = fileBytes(path)
        let (schema, _) = schema(extraProperty: true)
        assertStoreError(
            try RemodelStore(path: path, schema: schema, version: 1),
            contains: ["is at schema version 1 but was written with a different schema", TestSchemaManifest.schemaHash, schema.storageHash, "remodel migration new"])
        XCTAssertEqual(fileBytes(path), before)
    }

    func testCorruptedFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file("store.db")
        do {
            let store = try makeStore(folder)
            try store.checkpoint()
        }
        // Keep the header, scramble every page after the first.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for index in 4096..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31) }
        // And the schema page's b-tree header.
        for index in 100..<120 { bytes[index] = 0xFF }
        try bytes.write(to: URL(fileURLWithPath: path))
        let before = fileBytes(path)
        assertStoreError(try makeStore(folder), contains: ["is corrupted", "restore it from a backup"]) {
            if case .corrupted = $0 { return true }
            return false
        }
        XCTAssertEqual(fileBytes(path), before)
    }

    func testReadOnlyFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file("store.db")
        _ = try makeStore(folder)
        let undo = try makeUnwritable(path)
        defer { undo() }
        let before = fileBytes(path)
        assertStoreError(try makeStore(folder), contains: ["cannot be written: the file is read-only", "OpenOptions(readOnly: true)"])
        XCTAssertEqual(fileBytes(path), before)
    }

    func testReadOnlyFolderAndReadOnlyOption() throws {
        let folder = TemporaryFolder()
        let path = folder.file("store.db")
        do {
            let store = try makeStore(folder)
            try store.write { tx in try tx.insert(TestNote(identifier: "a", content: "b")) }
        }
        // Opened read-only, the store reads but refuses writes.
        let readOnly = try makeStore(folder, options: OpenOptions(readOnly: true))
        XCTAssertEqual(try readOnly.read { try $0.count(TestNote.self) }, 1)
        assertStoreError(try readOnly.write { tx in try tx.insert(TestNote(identifier: "c", content: "d")) }, contains: ["opened with OpenOptions(readOnly: true)"])
        // A store cannot be created in a read-only folder.
        let locked = folder.file("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
        let undo = try makeUnwritable(locked)
        defer { undo() }
        assertStoreError(
            try RemodelStore(path: locked + "/new.db", manifest: TestSchemaManifest.self),
            contains: ["its folder", "is read-only, so the store cannot be created there"])
        _ = path
    }

    func testMissingFolder() throws {
        let folder = TemporaryFolder()
        assertStoreError(
            try RemodelStore(path: folder.file("nope/store.db"), manifest: TestSchemaManifest.self),
            contains: ["cannot open the store", "the folder", "does not exist; create it first"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("nope")))
    }

    func testInconsistentManifestIsReported() throws {
        enum Broken: SchemaManifest {
            static let version = 1
            static let schema = TestSchemaManifest.schema
            static let schemaHash = "remodel-v1:0000"
            static let history: MigrationHistory? = nil
            static let models: [any PersistentModel.Type] = []
        }
        let folder = TemporaryFolder()
        assertStoreError(try RemodelStore(path: folder.file("x.db"), manifest: Broken.self), contains: ["is not the hash of", "regenerate it"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.file("x.db")))
    }

    func testMigratorHookUpgradesAtomically() throws {
        struct AddTitle: StoreMigrator {
            let fail: Bool
            func migrate(_ migration: StoreMigration) throws {
                XCTAssertEqual(migration.storeVersion, 1)
                XCTAssertEqual(migration.targetVersion, 2)
                XCTAssertTrue(migration.storedSchemaText.hasPrefix(CanonicalYAML.header))
                try migration.execute("ALTER TABLE \"Note\" ADD COLUMN \"title\" TEXT")
                try migration.execute("UPDATE \"Note\" SET \"title\" = ?", [.text("untitled")])
                if fail { throw StoreError.invalidInput("step 2 failed on purpose") }
                try migration.recordMigration(version: 2, name: "0002-add-title", checksum: "abc", durationMilliseconds: 3)
            }
        }
        let folder = TemporaryFolder()
        let path = folder.file("store.db")
        do {
            let store = try makeStore(folder)
            try store.write { tx in try tx.insert(TestNote(identifier: "n", content: "c")) }
            try store.checkpoint()
        }
        let (schema, _) = schema(extraProperty: true)
        let before = fileBytes(path)
        assertStoreError(try RemodelStore(path: path, schema: schema, version: 2, options: OpenOptions(migrator: AddTitle(fail: true))), contains: ["step 2 failed on purpose"])
        XCTAssertEqual(fileBytes(path)[0], before[0])
        XCTAssertEqual(try rawSQL(path, "PRAGMA user_version"), [[.integer(1)]])

        let store = try RemodelStore(path: path, schema: schema, version: 2, options: OpenOptions(migrator: AddTitle(fail: false)))
        XCTAssertEqual(store.version, 2)
        XCTAssertEqual(try store.read { try $0.dynamicObjects(ofType: "Note").first?["title"] }, .text("untitled"))
        XCTAssertEqual(try store.appliedMigrations().map(\.name), ["0002-add-title"])
        XCTAssertEqual(try store.metadata()["schemaHash"], .text(schema.storageHash))
    }

    func testInspectReadsTheSelfDescriptionWithoutChangingTheFile() throws {
        let folder = TemporaryFolder()
        let path = folder.file("store.db")
        do {
            let store = try makeStore(folder)
            try store.checkpoint()
        }
        let before = fileBytes(path)
        let info = try RemodelStore.inspect(path: path)
        XCTAssertEqual(info.version, 1)
        XCTAssertEqual(info.schemaHash, TestSchemaManifest.schemaHash)
        XCTAssertEqual(info.schemaText, CanonicalYAML.text(of: TestSchemaManifest.schema))
        XCTAssertEqual(info.formatVersion, StoreFormat.formatVersion)
        XCTAssertGreaterThan(info.size, 0)
        XCTAssertEqual(fileBytes(path)[0], before[0], "the store file is unchanged (a read-only open may leave an empty -wal)")
        assertStoreError(try RemodelStore.inspect(path: folder.file("missing.db")), contains: ["the file does not exist; check the path"])
    }

    func testSchemasTheStoreCannotLayOutAreRefusedBeforeCreatingAnything() throws {
        let folder = TemporaryFolder()
        let keyless = Schema(objects: [ObjectType(name: "Log", properties: [Property("lines", PropertyType(.scalar(.string), collection: .list))])])
        assertStoreError(
            try RemodelStore(path: folder.file("a.db"), schema: keyless, version: 1),
            contains: ["'Log' has no primary key, so its collection property 'lines' has nothing to attach to; give 'Log' a primaryKey"])
        let reserved = Schema(objects: [ObjectType(name: "_remodel_things", primaryKey: "id", properties: [Property("id", .scalar(.int))])])
        assertStoreError(try RemodelStore(path: folder.file("b.db"), schema: reserved, version: 1), contains: ["starts with '_remodel', which is reserved"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }
}
