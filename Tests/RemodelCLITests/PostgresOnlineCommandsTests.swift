import Foundation
import RemodelTestSupport
import XCTest

/// `remodel migrate --online`, `--complete` and `--abort` as a user runs them: the example's
/// history, a throwaway server, the real binary.
extension PostgresCommandsTests {
    /// The expand and contract phases give what the default mode gives: the golden exports.
    func testOnlineThenCompleteGivesTheGoldenExport() throws {
        try startServer()
        for version in 1..<3 {
            let golden = try golden("v\(version)-to-v3.json")
            let url = try makeStore(version: version, schema: "online_v\(version)")
            let start = Date()
            let expanded = try remodel(["migrate", "--store", url, "--online"])
            let display = "postgresql://postgres@/\(database!)?host=\(server.socketFolder)&port=\(server.port) (schema online_v\(version))"
            XCTAssertTrue(expanded.stdout.contains("Expanded \(display) from version \(version) to 3 in "), expanded.stdout)
            XCTAssertTrue(expanded.stdout.contains("apps of version 3 read and write it through the views in schema 'online_v\(version)__remodel_v3'"), expanded.stdout)
            let dogs = version == 1 ? 8 : 7
            XCTAssertTrue(expanded.stdout.contains("  Dog: \(dogs) objects backfilled\n"), expanded.stdout)
            let status = try remodel(["status", "--store", url]).stdout
            XCTAssertTrue(status.contains("Schema version:  \(version)\n"), status)
            XCTAssertTrue(status.contains("Online migration: expanded from version \(version) to 3; apps of both versions use the store"), status)
            XCTAssertTrue(status.contains("  backfill Dog: 100% (1 of 1 pages, \(dogs) objects)"), status)
            let again = try remodel(["migrate", "--store", url, "--online"])
            XCTAssertTrue(again.stdout.contains("the expand phase to version 3 had finished; nothing to do"), again.stdout)
            let completed = try remodel(["migrate", "--store", url, "--complete"])
            let end = Date()
            XCTAssertTrue(completed.stdout.contains("Completed \(display): the store is at version 3"), completed.stdout)
            XCTAssertEqual(try normalisedExport(url, start: start, end: end), golden, "v\(version) → v3 online")
            XCTAssertFalse(try remodel(["status", "--store", url]).stdout.contains("Online migration"))
            let nothing = try remodel(["migrate", "--store", url, "--complete"], expect: 1)
            XCTAssertTrue(nothing.stderr.contains("has no online migration in progress, so there is nothing to complete. Nothing was changed."), nothing.stderr)
        }
    }

    /// 20 runs of `--online` and 20 of `--complete` killed at a random moment: running the
    /// phase again goes on, and the store ends as the uninterrupted run leaves it.
    func testKilledOnlineAndCompleteRunsGoOnToTheSameStore() throws {
        try startServer()
        let data = try write(Self.generatedV1(people: 4_000), to: "big-v1.json")
        let timing = try makeStore(version: 1, schema: "online_timing", data: data)
        var started = Date()
        try remodel(["migrate", "--store", timing, "--online"])
        let expandTime = Date().timeIntervalSince(started)
        started = Date()
        try remodel(["migrate", "--store", timing, "--complete"])
        let completeTime = Date().timeIntervalSince(started)
        let reference = Self.withoutDates(try export(timing))
        var generator = SystemRandomNumberGenerator()
        var stoppedIn: [String: Int] = [:]
        func killed(_ arguments: [String], within seconds: Double) throws {
            let run = try CLIRunner.start(arguments)
            Thread.sleep(forTimeInterval: Double.random(in: 0...(seconds * 1.1), using: &generator))
            kill(run.process.processIdentifier, SIGKILL)
            _ = try run.wait()
            try waitUntilTheKilledSessionEnded()
        }
        func phase(_ schema: String) throws -> String {
            guard try server.psql("SELECT to_regclass('\(schema)._remodel_online') IS NOT NULL", database: database) == "t\n" else { return "not started" }
            return try server.psql("SELECT value FROM \(schema)._remodel_online WHERE key = 'phase'", database: database).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for trial in 0..<20 {
            let schema = "online_kill_\(trial)"
            let url = try makeStore(version: 1, schema: schema, data: data)
            try killed(["migrate", "--store", url, "--online"], within: expandTime)
            stoppedIn["expand: " + (try phase(schema)), default: 0] += 1
            let resumed = try remodel(["migrate", "--store", url, "--online"])
            XCTAssertTrue(resumed.stdout.contains("Expanded ") || resumed.stdout.contains("had finished; nothing to do"), "trial \(trial): \(resumed.stdout)")
            try killed(["migrate", "--store", url, "--complete"], within: completeTime)
            let version = try server.psql("SELECT value FROM \(schema)._remodel_metadata WHERE key = 'schemaVersion'", database: database)
            stoppedIn["contract: version " + version.trimmingCharacters(in: .whitespacesAndNewlines), default: 0] += 1
            if version == "1\n" { try remodel(["migrate", "--store", url, "--complete"]) }
            XCTAssertEqual(Self.withoutDates(try export(url)), reference, "trial \(trial)")
            XCTAssertEqual(
                try server.psql(
                    "SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '\(schema)' AND NOT t.tgisinternal",
                    database: database), "0\n")
        }
        print("killed online migrations stopped at: \(stoppedIn.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))")
    }

    /// `--abort` after the expand phase: version 1, every object either app wrote, and nothing
    /// of the new shape left.
    func testAbortAfterTheExpandPhaseLeavesVersion1WithEveryObject() throws {
        try startServer()
        let url = try makeStore(version: 1, schema: "online_abort")
        let before = try export(url)
        try remodel(["migrate", "--store", url, "--online"])
        let aborted = try remodel(["migrate", "--store", url, "--abort"])
        XCTAssertTrue(aborted.stdout.contains("Aborted the online migration of ") && aborted.stdout.contains("the store is at version 1 as before"), aborted.stdout)
        XCTAssertEqual(try export(url), before)
        XCTAssertEqual(
            try server.psql(
                "SELECT count(*) FROM information_schema.columns WHERE table_schema = 'online_abort' AND column_name LIKE '\\_\\_remodel\\_new%'", database: database), "0\n")
        XCTAssertEqual(try server.psql("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'online_abort%'", database: database), "1\n")
        XCTAssertFalse(try remodel(["status", "--store", url]).stdout.contains("Online migration"))
    }

    /// A version whose steps read other objects cannot be kept in step by a trigger on one
    /// row: refused with the step, before anything changes.
    func testAVersionThatReadsOtherObjectsIsRefusedOnline() throws {
        try startServer()
        let example = CLIRunner.packageRoot.appendingPathComponent("Examples/RealmMigration").path
        let history = ["--schemas", example + "/Schemas", "--migrations", example + "/Migrations"]
        let url = server.url(database: database) + "?schema=online_realm"
        try remodel(["import", "--store", url, "--version", "1"] + history + [example + "/data/v1.json"])
        let before = try server.dump(database: database, schema: "online_realm")
        let refused = try remodel(["migrate", "--store", url, "--online"] + history, expect: 1)
        XCTAssertTrue(refused.stderr.contains("(schema online_realm) cannot be migrated online: version "), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("Nothing was changed.\n  hint: migrate that version with 'remodel migrate --store URL'"), refused.stderr)
        XCTAssertEqual(try server.dump(database: database, schema: "online_realm"), before)
    }

    /// The expand phase's first transaction waits for a lock as the default mode does, and
    /// when it gives up nothing has changed.
    func testTheExpandPhaseWaitsForALockBrieflyThenNamesTheSession() throws {
        try startServer()
        let url = try makeStore(version: 1, schema: "online_locked")
        let before = try server.dump(database: database, schema: "online_locked")
        let (holder, holderPID) = try holdLock(on: "online_locked")
        defer { if holder.isRunning { holder.terminate() } }
        let refused = try remodel(["migrate", "--store", url, "--online", "--lock-timeout", "100ms"], expect: 1)
        XCTAssertTrue(refused.stderr.contains("gave up waiting for a table lock: 5 tries of at most 0.1 s each"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("pid \(holderPID) ("), refused.stderr)
        XCTAssertEqual(try server.dump(database: database, schema: "online_locked"), before)
        try server.psql("SELECT pg_terminate_backend(\(holderPID))", database: database)
        holder.waitUntilExit()
        try remodel(["migrate", "--store", url, "--online", "--lock-timeout", "100ms"])
        XCTAssertTrue(try remodel(["status", "--store", url]).stdout.contains("Online migration: expanded from version 1 to 3"))
    }

    func testOnlinePhasesAreUsageErrorsWhereTheyDoNotApply() throws {
        let url = "postgresql://nobody@/x?host=/nonexistent"
        let cases: [([String], String)] = [
            (["--store", path("store.db"), "--online"], "--online applies to PostgreSQL stores (postgresql://…)"),
            (["--store", url, "--online", "--complete"], "--online and --complete are phases of one online migration: give one of them"),
            (["--store", url, "--complete", "--to", "2"], "--complete finishes the online migration in progress, to its own version: leave out --to"),
            (["--store", url, "--abort", "--dry-run"], "--abort cannot be combined with --dry-run"),
        ]
        for (arguments, message) in cases {
            let output = try remodel(["migrate"] + arguments, expect: 64)
            XCTAssertTrue(output.stderr.contains(message), output.stderr)
        }
    }
}

extension PostgresCommandsTests {
    /// An index, a link and a rename on an existing type: the expand phase builds the index
    /// concurrently and the foreign key NOT VALID, the views give each version its own name,
    /// and after the contract the store is the default mode's: the same objects, and the same
    /// columns, indexes and constraints under the same names.
    func testIndexesLinksAndRenamesMigrateOnlineAsTheDefaultModeDoes() throws {
        try startServer()
        let history = try historyWithVersion4(
            steps: "  - renameProperty: { type: Dog, from: breed, to: kind }\n",
            edit: {
                $0.replacingOccurrences(
                    of: "      name:\n        type: string\n        default: \"\"\n      breed:\n        type: string",
                    with: "      name:\n        type: string\n        default: \"\"\n        indexed: true\n      kind:\n        type: string"
                )
                .replacingOccurrences(
                    of: "      favoriteToy:", with: "      walker:\n        type: \"Person?\"\n      tag:\n        type: string\n        default: none\n      favoriteToy:")
            })
        let arguments = ["--migrations", history.migrations, "--schemas", history.schemas]
        let direct = try makeStore(version: 1, schema: "v4_direct")
        let online = try makeStore(version: 1, schema: "v4_online")
        try remodel(["migrate", "--store", direct] + arguments)
        try remodel(["migrate", "--store", online, "--online"] + arguments)
        let during = try server.psql(
            "SELECT string_agg(indexname || ':' || indexdef, E'\\n' ORDER BY indexname) FROM pg_indexes WHERE schemaname = 'v4_online' AND tablename = 'Dog'", database: database)
        XCTAssertTrue(during.contains("__remodel_ix_4_Dog.name.index"), during)
        try remodel(["migrate", "--store", online, "--complete"] + arguments)
        XCTAssertEqual(Self.withoutDates(try export(online)), Self.withoutDates(try export(direct)))
        func shape(_ schema: String) throws -> String {
            try server.psql(
                """
                SELECT string_agg(x, E'\\n' ORDER BY x) FROM (
                  SELECT c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END AS x
                    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = '\(schema)' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped AND c.relname <> '_remodel_online'
                  UNION ALL SELECT 'index ' || indexname || ' ' || replace(indexdef, '\(schema).', '') FROM pg_indexes WHERE schemaname = '\(schema)' AND tablename <> '_remodel_online'
                  UNION ALL SELECT 'constraint ' || conname || ' ' || pg_get_constraintdef(k.oid) FROM pg_constraint k JOIN pg_namespace n ON n.oid = k.connamespace
                    WHERE n.nspname = '\(schema)' AND conname NOT LIKE '_remodel_online%') s
                """, database: database
            ).replacingOccurrences(of: schema + ".", with: "")
        }
        XCTAssertEqual(try shape("v4_online"), try shape("v4_direct"))
    }
}

extension PostgresCommandsTests {
    /// A `uuid` property added with `$uuid`: SQLite's plan adds the column with an empty blob
    /// as a placeholder, which PostgreSQL's uuid cannot hold. Both modes give every dog a tag of
    /// its own, and the column is NOT NULL as in a fresh store.
    func testAUUIDPropertyAddedWithAFreshDefaultMigratesInBothModes() throws {
        try startServer()
        let history = try historyWithVersion4(
            steps: "", edit: { $0.replacingOccurrences(of: "      favoriteToy:", with: "      tag:\n        type: uuid\n        default: $uuid\n      favoriteToy:") })
        let arguments = ["--migrations", history.migrations, "--schemas", history.schemas]
        for (schema, phases) in [("uuid_direct", [[String]()]), ("uuid_online", [["--online"], ["--complete"]])] {
            let url = try makeStore(version: 1, schema: schema)
            for phase in phases { try remodel(["migrate", "--store", url] + phase + arguments) }
            XCTAssertEqual(
                try server.psql("SELECT count(DISTINCT tag), count(*) FROM \(schema).\"Dog\"", database: database), "8|8\n", schema)
            XCTAssertEqual(
                try server.psql(
                    "SELECT is_nullable FROM information_schema.columns WHERE table_schema = '\(schema)' AND table_name = 'Dog' AND column_name = 'tag'", database: database),
                "NO\n", schema)
        }
    }
}

extension PostgresCommandsTests {
    /// `--online --to 2` takes the store to version 2 only; the next online migration keeps
    /// the views apps of version 2 use until its own contract.
    func testOnlineMigrationsOneVersionAtATimeKeepTheViewsTheRunningAppUses() throws {
        try startServer()
        let url = try makeStore(version: 1, schema: "online_steps")
        let start = Date()
        try remodel(["migrate", "--store", url, "--online", "--to", "2"])
        try remodel(["migrate", "--store", url, "--complete"])
        func views(_ version: Int) throws -> String {
            try server.psql("SELECT count(*) FROM pg_namespace WHERE nspname = 'online_steps__remodel_v\(version)'", database: database)
        }
        XCTAssertEqual(try views(2), "1\n")
        try remodel(["migrate", "--store", url, "--online"])
        XCTAssertEqual(try views(2), "1\n", "apps of version 2 still read through these views")
        try remodel(["migrate", "--store", url, "--complete"])
        XCTAssertEqual(try views(2), "0\n")
        XCTAssertEqual(try views(3), "1\n")
        XCTAssertEqual(try normalisedExport(url, start: start, end: Date()), try golden("v1-to-v3.json"))
    }

    /// `--online --to 2` takes the store to version 2 only; the default mode then migrates on
    /// from there (dropping the views the online migration left) to the golden export.
    func testAnOnlineMigrationToAnEarlierVersionThenTheDefaultModeGiveTheGoldenExport() throws {
        try startServer()
        let url = try makeStore(version: 1, schema: "online_to2")
        let start = Date()
        let expanded = try remodel(["migrate", "--store", url, "--online", "--to", "2"])
        XCTAssertTrue(expanded.stdout.contains("from version 1 to 2 in "), expanded.stdout)
        try remodel(["migrate", "--store", url, "--complete"])
        XCTAssertTrue(try remodel(["status", "--store", url]).stdout.contains("Schema version:  2\n"))
        XCTAssertEqual(try server.psql("SELECT count(*) FROM pg_namespace WHERE nspname = 'online_to2__remodel_v2'", database: database), "1\n")
        try remodel(["migrate", "--store", url])
        XCTAssertEqual(try normalisedExport(url, start: start, end: Date()), try golden("v1-to-v3.json"))
        XCTAssertEqual(try server.psql("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'online_to2\\_\\_remodel%'", database: database), "0\n")
        XCTAssertEqual(try server.psql("SELECT to_regclass('online_to2._remodel_online') IS NULL", database: database), "t\n")
    }
}
