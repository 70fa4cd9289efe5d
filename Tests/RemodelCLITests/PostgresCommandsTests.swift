import Foundation
import RemodelTestSupport
import XCTest

/// The data commands on a PostgreSQL URL, as a user runs them in this repository: the
/// example's history, a throwaway server, the real binary. What they write is what the same
/// commands write for a SQLite file.
final class PostgresCommandsTests: CLIFolderTestCase {
    override var commandDirectory: URL { CLIRunner.packageRoot }
    var server: PostgresTestServer!
    var database: String!

    /// Starts (or reuses) the test server and makes this test's database.
    func startServer() throws {
        server = try PostgresTestServer.shared { XCTSkip($0) }
        database = try server.makeDatabase()
    }

    func testInitAndStatusOnAURL() throws {
        try startServer()
        let url = server.url(database: database) + "?schema=notes"
        let display = "postgresql://postgres@/\(database!)?host=\(server.socketFolder)&port=\(server.port)"
        let created = try remodel(["init", "--store", url, "--version", "1"])
        XCTAssertTrue(created.stdout.hasPrefix("Created a store in schema 'notes' of \(display) at schema version 1 (3 object types, schema hash 1:"), created.stdout)
        XCTAssertEqual(
            try server.psql("SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'notes'", database: database),
            "Dog,Note,Person,Person.dogs,_remodel_metadata,_remodel_migrations\n")
        try server.psql("INSERT INTO notes.\"Note\" (\"identifier\", \"content\", \"lastEdited\") VALUES ('n1', 'text', now())", database: database)

        let status = try remodel(["status", "--store", url])
        XCTAssertEqual(
            status.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("Schema hash:") },
            [
                "Store:           schema 'notes' of \(display)",
                "Schema version:  1",
                "Objects:",
                "  Person  0",
                "  Dog     0",
                "  Note    1",
                "Migrations applied: none (created at version 1)",
                "Pending migrations: 2: 2 split-person-name, 3 dog-details (run `remodel migrate --store '\(url)'`)",
            ])

        let again = try remodel(["init", "--store", url], expect: 1)
        XCTAssertEqual(
            again.stderr,
            "Error: the schema 'notes' of \(display) already holds a Remodel store; nothing was changed: use 'remodel status' to see it, or another schema (?schema=NAME) for a new store\n"
        )
        XCTAssertEqual(try server.psql("SELECT value FROM notes._remodel_metadata WHERE key = 'schemaVersion'", database: database), "1\n")
        XCTAssertEqual(try server.psql("SELECT count(*) FROM notes.\"Note\"", database: database), "1\n")
    }

    /// Ten `init`s at once on one schema (ten app instances starting): the advisory lock
    /// lets one create the store; every other one finds it and changes nothing.
    func testConcurrentInitsCreateOneStore() throws {
        try startServer()
        let url = server.url(database: database) + "?schema=race"
        let runs = try (0..<10).map { _ in try CLIRunner.start(["init", "--store", url, "--version", "2"]) }
        let outputs = try runs.map { try $0.wait() }
        XCTAssertEqual(outputs.filter { $0.status == 0 }.count, 1, outputs.map { "\($0.status): \($0.stdout)\($0.stderr)" }.joined(separator: "\n"))
        for output in outputs where output.status != 0 {
            XCTAssertEqual(output.status, 1)
            XCTAssertTrue(output.stderr.contains("already holds a Remodel store; nothing was changed"), output.stderr)
        }
        XCTAssertEqual(try server.psql("SELECT value FROM race._remodel_metadata WHERE key = 'schemaVersion'", database: database), "2\n")
        XCTAssertEqual(try server.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'race'", database: database), "6\n")
    }

    func testABadSchemaParameterIsAUsageError() throws {
        let output = try remodel(["status", "--store", "postgresql://app:s3cret@127.0.0.1:1/notes?schema="], expect: 64)
        XCTAssertTrue(output.stderr.hasPrefix("Error: --store: the URL's 'schema' parameter must name one schema of at most 63 bytes, as in '?schema=remodel'\n"), output.stderr)
        XCTAssertFalse(output.stderr.contains("s3cret"), output.stderr)
    }

    func testAServerThatDoesNotAnswerIsNamedWithoutThePassword() throws {
        let output = try remodel(["status", "--store", "postgresql://app:sup3r-secret@127.0.0.1:1/notes?connect_timeout=2"], expect: 1)
        XCTAssertTrue(
            output.stderr.hasPrefix(
                "Error: cannot connect to PostgreSQL at postgresql://app@127.0.0.1:1/notes: connection to server at \"127.0.0.1\", port 1 failed: Connection refused; "),
            output.stderr)
        XCTAssertTrue(output.stderr.contains("hint: check the URL (postgresql://user@host:port/database), that the server runs and accepts connections from here"), output.stderr)
        XCTAssertFalse(output.stderr.contains("sup3r-secret"), output.stderr)
    }

    // MARK: - import, export, migrate

    /// A store in `schema` at `version`, holding the example fixture of that version.
    func makeStore(version: Int, schema: String, data: String? = nil) throws -> String {
        let url = server.url(database: database) + "?schema=" + schema
        try remodel(["import", "--store", url, "--version", String(version), data ?? Self.fixtures.appendingPathComponent("v\(version).json").path])
        return url
    }

    func testImportAndExportWriteWhatTheSQLiteStoreWrites() throws {
        try startServer()
        for version in 1...2 {
            let url = try makeStore(version: version, schema: "round_v\(version)")
            let file = path("v\(version).db")
            try remodel(["import", "--store", file, "--version", String(version), Self.fixtures.appendingPathComponent("v\(version).json").path])
            XCTAssertEqual(try remodel(["export", "--store", url]).stdout, try remodel(["export", "--store", file]).stdout, "version \(version)")
        }
        let named = try remodel(["import", "--store", server.url(database: database) + "?schema=named", "--version", "1", Self.fixtures.appendingPathComponent("v1.json").path])
        XCTAssertEqual(
            named.stdout, "Imported 10 Person, 8 Dog, 2 Note into schema 'named' of postgresql://postgres@/\(database!)?host=\(server.socketFolder)&port=\(server.port)\n")
        // Into an existing store: the objects add up, and the store's version is checked.
        let url = server.url(database: database) + "?schema=round_v1"
        let wrongVersion = try remodel(["import", "--store", url, "--version", "2", Self.fixtures.appendingPathComponent("v1.json").path], expect: 1)
        XCTAssertTrue(wrongVersion.stderr.contains("is at schema version 1, not 2; nothing was changed"), wrongVersion.stderr)
        let twice = try remodel(["import", "--store", url, Self.fixtures.appendingPathComponent("v1.json").path], expect: 1)
        XCTAssertTrue(twice.stderr.contains("a Person with primary key "), twice.stderr)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM round_v1.\"Person\"", database: database), "10\n")
    }

    func testImportOfABadFileCreatesNothing() throws {
        try startServer()
        let url = server.url(database: database) + "?schema=bad"
        let data = try write(#"{"Person": [{"_id": "650000000000000000000001", "name": 7}], "Dog": [{"_id": "not a uuid"}]}"#, to: "bad.json")
        let output = try remodel(["import", "--store", url, "--version", "1", data], expect: 1)
        XCTAssertTrue(output.stderr.contains("Person[0].name: "), output.stderr)
        XCTAssertTrue(output.stderr.contains("Dog[0]._id: "), output.stderr)
        XCTAssertTrue(output.stderr.contains("nothing was imported"), output.stderr)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM pg_namespace WHERE nspname = 'bad'", database: database), "0\n")

        let dangling = try write(
            #"{"Person": [{"_id": "650000000000000000000001", "name": "A", "employeeId": "E", "company": "C", "businessUnit": "Eng", "dogs": ["00000000-0000-0000-0000-0000000000D9"]}]}"#,
            to: "dangling.json")
        let linked = try remodel(["import", "--store", url, "--version", "1", dangling], expect: 1)
        XCTAssertTrue(linked.stderr.contains("a link points at an object that is neither in the store nor in the data"), linked.stderr)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM pg_namespace WHERE nspname = 'bad'", database: database), "0\n")
    }

    /// The example's fixture matrix: v1 and v2 migrate to the golden v3 export, directly and
    /// step by step, as they do on SQLite.
    func testEveryOlderVersionMigratesToTheGoldenExportDirectlyAndStepByStep() throws {
        try startServer()
        for version in 1..<3 {
            let golden = try golden("v\(version)-to-v3.json")
            let direct = try makeStore(version: version, schema: "direct_v\(version)")
            let start = Date()
            let output = try remodel(["migrate", "--store", direct])
            let end = Date()
            XCTAssertTrue(output.stdout.contains("Plan: migrate 'postgresql://"), output.stdout)
            XCTAssertTrue(output.stdout.contains("(schema direct_v\(version))' from version \(version) to 3"), output.stdout)
            XCTAssertTrue(output.stdout.contains("  [data-dependent] convert Dog.weight from string to int (onError: default)  (step 1 (convert))\n"), output.stdout)
            XCTAssertTrue(output.stdout.contains("ALTER TABLE \"Dog\" ADD COLUMN \"dateLastUpdated\" timestamptz NOT NULL"), output.stdout)
            XCTAssertTrue(output.stdout.contains("No backup: on PostgreSQL the migration is one transaction"), output.stdout)
            XCTAssertTrue(output.stdout.contains("from version \(version) to 3 in "), output.stdout)
            XCTAssertEqual(try normalisedExport(direct, start: start, end: end), golden, "v\(version) → v3 directly")

            let stepwise = try makeStore(version: version, schema: "stepwise_v\(version)")
            let stepStart = Date()
            for next in (version + 1)...3 {
                let step = try remodel(["migrate", "--store", stepwise, "--to", String(next)])
                XCTAssertTrue(step.stdout.contains("from version \(next - 1) to \(next)"), step.stdout)
            }
            let stepEnd = Date()
            XCTAssertEqual(try normalisedExport(stepwise, start: stepStart, end: stepEnd), golden, "v\(version) → v3 step by step")
            XCTAssertEqual(
                try server.psql("SELECT string_agg(version::text || ' ' || name, ', ' ORDER BY version) FROM stepwise_v\(version)._remodel_migrations", database: database),
                (version == 1 ? "2 split-person-name, 3 dog-details" : "3 dog-details") + "\n")
            let again = try remodel(["migrate", "--store", stepwise])
            XCTAssertTrue(again.stdout.contains("is already at version 3, the newest; nothing to do"), again.stdout)
        }
    }

    func testDryRunChangesNothing() throws {
        try startServer()
        let url = try makeStore(version: 1, schema: "dry")
        let before = try server.dump(database: database, schema: "dry")
        let output = try remodel(["migrate", "--store", url, "--dry-run"])
        XCTAssertTrue(output.stdout.contains("Dry run: migrated "), output.stdout)
        XCTAssertTrue(output.stdout.contains("inside a transaction, then rolled back; the store is unchanged"), output.stdout)
        XCTAssertFalse(output.stdout.contains("No backup"), output.stdout)
        XCTAssertEqual(try server.dump(database: database, schema: "dry"), before)
    }

    /// A data error in the last version rolls back every version: the schema's dump, tables
    /// and rows, is the same text before and after.
    func testADataErrorRollsBackEverything() throws {
        try startServer()
        let history = try historyWithVersion4(
            steps: "  - convert: { type: Dog, property: name, to: int, onError: fail }\n",
            edit: {
                $0.replacingOccurrences(
                    of: "      name:\n        type: string\n        default: \"\"\n      breed:", with: "      name:\n        type: int\n        default: 0\n      breed:")
            })
        let url = try makeStore(version: 1, schema: "failing")
        let before = try server.dump(database: database, schema: "failing")
        let output = try remodel(["migrate", "--store", url, "--migrations", history.migrations, "--schemas", history.schemas], expect: 1)
        XCTAssertTrue(output.stderr.contains("migration to version 4 (v4), step 1 (convert)"), output.stderr)
        XCTAssertTrue(output.stderr.contains("8 Dog objects with values that cannot be converted to int in Dog.name: "), output.stderr)
        XCTAssertTrue(output.stderr.contains("00000000-0000-0000-0000-0000000000D1 (\"Rex\")"), output.stderr)
        XCTAssertTrue(output.stderr.contains("Nothing was changed"), output.stderr)
        XCTAssertEqual(try server.dump(database: database, schema: "failing"), before, "the schema changed")
        XCTAssertTrue(try remodel(["status", "--store", url]).stdout.contains("Schema version:  1\n"))
    }

    /// A session of the app holding a lock on a table the migration alters: each try waits
    /// `--lock-timeout`, is rolled back and tried again after a pause; after the last one the
    /// message names the session and what it runs, and nothing has changed. Once the session
    /// ends, the same command migrates.
    func testALockHeldByTheAppIsWaitedForBrieflyThenNamed() throws {
        try startServer()
        let url = try makeStore(version: 1, schema: "locked")
        let before = try server.dump(database: database, schema: "locked")
        let (holder, holderPID) = try holdLock(on: "locked")
        defer { if holder.isRunning { holder.terminate() } }

        let started = Date()
        let refused = try remodel(["migrate", "--store", url, "--lock-timeout", "200ms"], expect: 1)
        let elapsed = Date().timeIntervalSince(started)
        let display = "postgresql://postgres@/\(database!)?host=\(server.socketFolder)&port=\(server.port) (schema locked)"
        XCTAssertTrue(
            refused.stderr.contains("Error: the migration of \(display) gave up waiting for a table lock: 5 tries of at most 0.2 s each (lock_timeout)"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("Nothing was changed."), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("pid \(holderPID) ("), "names the session holding the lock:\n\(refused.stderr)")
        XCTAssertTrue(refused.stderr.contains("holds \"Person\"): LOCK TABLE locked.\"Person\" IN ACCESS SHARE MODE; SELECT pg_sleep(60)"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("SELECT pg_terminate_backend(\(holderPID))"), refused.stderr)
        XCTAssertEqual(refused.stderr.components(separatedBy: "Waiting: a table lock was not free (try ").count - 1, 4, refused.stderr)
        // Four pauses of 0.2, 0.4, 0.8 and 1.6 s (± 20 %) between five tries of 0.2 s.
        XCTAssertGreaterThan(elapsed, 2.4, "the tries were not spaced out")
        XCTAssertEqual(try server.dump(database: database, schema: "locked"), before, "the schema changed")

        // Ending psql leaves its server process sleeping with the lock: end that.
        try server.psql("SELECT pg_terminate_backend(\(holderPID))", database: database)
        holder.waitUntilExit()
        let migrated = try remodel(["migrate", "--store", url, "--lock-timeout", "200ms"])
        XCTAssertFalse(migrated.stderr.contains("Waiting"), migrated.stderr)
        XCTAssertEqual(try server.psql("SELECT value FROM locked._remodel_metadata WHERE key = 'schemaVersion'", database: database), "3\n")
    }

    /// Waits until the server has ended a killed client's session (it ends a dead client's
    /// transaction when it next talks to it).
    func waitUntilTheKilledSessionEnded() throws {
        try CLIRunner.waitUntil("the killed run's session ended") {
            try server.psql(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'", database: database)
                == "0\n"
        }
    }

    /// A psql session that takes a lock on `schema`'s Person table and sleeps with it, and
    /// its server process's pid.
    func holdLock(on schema: String) throws -> (Process, String) {
        // One implicit transaction: the lock is held while it sleeps.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: server.binaryFolder + "/psql")
        holder.arguments = [
            "-X", "-q", "-h", server.socketFolder, "-p", String(server.port), "-U", server.superuser, "-d", database,
            "-c", "LOCK TABLE \(schema).\"Person\" IN ACCESS SHARE MODE; SELECT pg_sleep(60)",
        ]
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        var holderPID = ""
        try CLIRunner.waitUntil("the other session holds its lock") {
            holderPID = try server.psql(
                "SELECT string_agg(l.pid::text, ',') FROM pg_locks l JOIN pg_class c ON c.oid = l.relation JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '\(schema)' AND c.relname = 'Person' AND l.granted AND l.mode = 'AccessShareLock'",
                database: database
            ).trimmingCharacters(in: .whitespacesAndNewlines)
            return !holderPID.isEmpty
        }
        return (holder, holderPID)
    }

    func testALockTimeoutThatIsNoDurationIsAUsageError() throws {
        for text in ["0", "soon", "0.5ms", "5h", "1e999s", "1e16s", "3000000s"] {
            let output = try remodel(["migrate", "--store", "postgresql://nobody@/x?host=/nonexistent", "--lock-timeout", text], expect: 64)
            XCTAssertTrue(output.stderr.contains("--lock-timeout needs a duration from 1ms to 24 days, such as 250ms, 5s or 1m, found '\(text)'"), output.stderr)
        }
        let file = try remodel(["migrate", "--store", path("store.db"), "--lock-timeout", "5s"], expect: 64)
        XCTAssertTrue(file.stderr.contains("--lock-timeout applies to PostgreSQL stores"), file.stderr)
    }

    /// Ten app instances starting at once: one migrates, each migration is applied once, and
    /// the others find the store migrated. They wait for it however short a `lock_timeout` the
    /// database sets: that limit is for the tables' locks, not for another instance's migration.
    func testTenConcurrentMigratesApplyEachMigrationOnce() throws {
        try startServer()
        let url = try makeStore(version: 1, schema: "race_migrate")
        try server.psql("ALTER DATABASE \(database!) SET lock_timeout = '1ms'")
        let start = Date()
        let runs = try (0..<10).map { _ in try CLIRunner.start(["migrate", "--store", url]) }
        let outputs = try runs.map { try $0.wait() }
        let end = Date()
        let log = outputs.map { "\($0.status): \($0.stdout)\($0.stderr)" }.joined(separator: "\n")
        XCTAssertEqual(outputs.filter { $0.status == 0 }.count, 10, log)
        XCTAssertFalse(log.contains("Waiting: "), log)
        XCTAssertEqual(outputs.filter { $0.stdout.contains("Migrated 'postgresql://") }.count, 1, log)
        for output in outputs where !output.stdout.contains("Migrated 'postgresql://") {
            XCTAssertTrue(output.stdout.contains("was migrated to version 3 by another process") || output.stdout.contains("is already at version 3"), output.stdout)
        }
        XCTAssertEqual(try server.psql("SELECT string_agg(version::text, ',' ORDER BY version) FROM race_migrate._remodel_migrations", database: database), "2,3\n")
        XCTAssertEqual(try normalisedExport(url, start: start, end: end), try golden("v1-to-v3.json"))
    }

    /// `migrate` killed with SIGKILL at random moments: the store is at the old version with
    /// the old objects, or at the new one with the migrated objects, never in between.
    func testAKilledMigrateLeavesTheOldOrTheNewVersion() throws {
        try startServer()
        let data = try write(Self.generatedV1(people: 1_500), to: "big-v1.json")
        let timing = try makeStore(version: 1, schema: "kill_timing", data: data)
        let before = try export(timing)
        let started = Date()
        try remodel(["migrate", "--store", timing])
        let duration = Date().timeIntervalSince(started)
        let after = try export(timing)
        var outcomes = [1: 0, 3: 0]
        var generator = SystemRandomNumberGenerator()
        for trial in 0..<20 {
            let url = try makeStore(version: 1, schema: "kill_\(trial)", data: data)
            let run = try CLIRunner.start(["migrate", "--store", url])
            Thread.sleep(forTimeInterval: Double.random(in: 0...(duration * 1.1), using: &generator))
            kill(run.process.processIdentifier, SIGKILL)
            _ = try run.wait()
            try waitUntilTheKilledSessionEnded()
            let version = try XCTUnwrap(
                Int(
                    try server.psql("SELECT value FROM kill_\(trial)._remodel_metadata WHERE key = 'schemaVersion'", database: database).trimmingCharacters(
                        in: .whitespacesAndNewlines)))
            let exported = try export(url)
            switch version {
            case 1: XCTAssertEqual(exported, before, "trial \(trial): at version 1 with other objects")
            case 3: XCTAssertEqual(Self.withoutDates(exported), Self.withoutDates(after), "trial \(trial): at version 3 with other objects")
            default: XCTFail("trial \(trial): the store is at version \(version)")
            }
            outcomes[version, default: 0] += 1
        }
        print("killed migrations: \(outcomes[1]!) left at version 1, \(outcomes[3]!) at version 3")
    }

    /// Realm's own migration example (Examples/RealmMigration: names joined, dogs created,
    /// renamed to Pet with a kind, addresses created and then embedded) migrates on
    /// PostgreSQL to what it migrates to on SQLite, but for the keys `$uuid` draws.
    func testTheRealmExampleMigratesAsOnSQLite() throws {
        try startServer()
        let example = CLIRunner.packageRoot.appendingPathComponent("Examples/RealmMigration").path
        let history = ["--schemas", example + "/Schemas", "--migrations", example + "/Migrations"]
        let url = server.url(database: database) + "?schema=realm_example"
        let file = path("realm.db")
        for store in [url, file] {
            try remodel(["import", "--store", store, "--version", "1"] + history + [example + "/data/v1.json"])
            let migrated = try remodel(["migrate", "--store", store] + history + (store == file ? ["--no-backup"] : []))
            XCTAssertTrue(migrated.stdout.contains("Migrated '") && migrated.stdout.contains("' from version 1 to 6 in "), migrated.stdout)
        }
        XCTAssertEqual(Self.numberingUUIDs(try remodel(["export", "--store", url]).stdout), Self.numberingUUIDs(try remodel(["export", "--store", file]).stdout))
    }

    /// `dateLastUpdated` is the time of each migration; the rest must match.
    static func withoutDates(_ export: String) -> String {
        export.split(separator: "\n").filter { !$0.contains("\"dateLastUpdated\"") }.joined(separator: "\n")
    }
}
