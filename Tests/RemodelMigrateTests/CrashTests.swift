import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import RemodelTestSupport
import Testing

/// Kills `remodel migrate` with SIGKILL at random moments of a v1 → v3 migration of a
/// 200,000-object store, and checks each time that the store opens at version 1 or 3, passes
/// `PRAGMA integrity_check` and holds every object with the content of the pristine store or
/// of a completed migration.
///
/// Needs the `remodel` executable: built next to the tests by `swift test` in the package, or
/// named by the `REMODEL_EXECUTABLE` environment variable.
@Suite struct CrashTests {
    static let people = 80_000
    static let dogs = 80_000
    static let notes = 40_000
    static let trials = 20

    @Test(.enabled(if: CrashTestSetup.executable != nil, "the remodel executable is not built next to the tests; run swift build or set REMODEL_EXECUTABLE"))
    func sigkillDuringMigrationLeavesTheOldOrTheNewStore() throws {
        let executable = try #require(CrashTestSetup.executable)
        let folder = CrashTestSetup.scratchFolder + "/remodel-crash-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        // The pristine v1 store, generated once with set-based SQL.
        let pristine = folder + "/pristine.db"
        _ = try RemodelStore(path: pristine, schema: ExampleHistory.v1, version: 1)
        try Connection(path: pristine).execute(Self.fillSQL)
        let v1Sum = try CrashChecksum.v1(of: pristine)
        #expect(v1Sum.hasPrefix("Person \(Self.people)|"))

        // Complete migrations: the v3 content, and how long a migration takes here (the
        // shorter of two runs: the first pays for cold caches).
        let reference = folder + "/reference.db"
        var durations: [Double] = []
        var v3Sum = ""
        for run in 0..<2 {
            try CrashTestSetup.copyStore(pristine, to: reference)
            let started = ContinuousClock.now
            let complete = try CrashTestSetup.startMigration(executable, store: reference, log: folder + "/reference.log")
            complete.wait()
            let duration = ContinuousClock.now - started
            durations.append(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
            try #require(complete.exitCode == 0, "remodel migrate failed: \((try? String(contentsOfFile: folder + "/reference.log", encoding: .utf8)) ?? "")")
            #expect(try CrashTestSetup.userVersion(reference) == 3)
            let sum = try CrashChecksum.v3(of: reference)
            #expect(run == 0 || sum == v3Sum, "two complete migrations differ")
            v3Sum = sum
        }
        #expect(v3Sum != v1Sum)
        // The v3 side is checked even if every trial below is killed before the commit.
        _ = try RemodelStore(path: reference, schema: ExampleHistory.v3, version: 3)
        #expect(try Connection(path: reference).query("PRAGMA integrity_check") == [[.text("ok")]])

        // Kill at moments spread over the whole run: trial i waits a random time within the
        // i-th of `trials` equal slices of the measured duration. A run that finishes first
        // (a busy machine is uneven) must show the v3 store.
        let total = durations.min()!
        var outcomes: [Int: Int] = [:]
        var killed = 0
        var killedWhileWriting = 0
        for trial in 0..<Self.trials {
            let store = folder + "/trial.db"
            try CrashTestSetup.removeStore(store)
            try CrashTestSetup.copyStore(pristine, to: store)
            let delay = total * (Double(trial) + Double.random(in: 0..<1)) / Double(Self.trials)
            let child = try CrashTestSetup.startMigration(executable, store: store, log: folder + "/trial.log")
            Thread.sleep(forTimeInterval: delay)
            if child.kill() {
                killed += 1
                // Pages in the WAL: the kill came after the migration had begun writing.
                let wal = (try? FileManager.default.attributesOfItem(atPath: store + "-wal"))?[.size] as? NSNumber
                if (wal?.intValue ?? 0) > 0 { killedWhileWriting += 1 }
            } else {
                try #require(
                    child.exitCode == 0,
                    "trial \(trial): remodel migrate ended by itself with a failure: \((try? String(contentsOfFile: folder + "/trial.log", encoding: .utf8)) ?? "")")
            }
            let version = try CrashTestSetup.userVersion(store)
            outcomes[version, default: 0] += 1
            let context = "trial \(trial) (killed after \(String(format: "%.2f", delay)) s of \(String(format: "%.2f", total)) s)"
            try #require(version == 1 || version == 3, "\(context): the store is at version \(version)")
            // Opens through the store with the schema of its version (hash, layout, WAL).
            _ = try RemodelStore(path: store, schema: version == 1 ? ExampleHistory.v1 : ExampleHistory.v3, version: version)
            let connection = try Connection(path: store)
            #expect(try connection.query("PRAGMA integrity_check") == [[.text("ok")]], "\(context)")
            #expect(try connection.query("PRAGMA foreign_key_check").isEmpty, "\(context)")
            let sum = version == 1 ? try CrashChecksum.v1(of: store) : try CrashChecksum.v3(of: store)
            #expect(sum == (version == 1 ? v1Sum : v3Sum), "\(context): objects differ from the \(version == 1 ? "pristine" : "migrated") store")
        }
        // The first slice is a few percent of a run: that child is always still running.
        #expect(killed > 0)
        print(
            "crash test: \(Self.trials) trials over a \(String(format: "%.2f", total)) s migration, \(killed) killed while running (\(killedWhileWriting) while writing); stores at v1: \(outcomes[1] ?? 0), at v3: \(outcomes[3] ?? 0)"
        )
    }

    /// 80,000 Person, 80,000 Dog, 40,000 Note; about 84% of people have dogs, some dogs are
    /// in two lists. Names with one to three words and extra spaces, free-text units, bad weights.
    static let fillSQL = """
        BEGIN;
        CREATE TEMP TABLE n (i INTEGER PRIMARY KEY);
        WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < \(max(people, dogs, notes))) INSERT INTO n SELECT i FROM c;
        INSERT INTO "Person" ("_id", "name", "employeeId", "company", "businessUnit")
        SELECT CAST(x'65a1b2c3d4e5' || printf('%06d', i) AS BLOB),
          CASE i % 6 WHEN 0 THEN 'Ada' WHEN 1 THEN '  Grace   Brewster Hopper ' WHEN 2 THEN 'Zoë Ünal' WHEN 3 THEN '' WHEN 4 THEN 'Linus Torvalds' ELSE 'Ken ' || i END,
          'E' || i, 'MongoDB',
          CASE i % 7 WHEN 0 THEN 'Eng' WHEN 1 THEN 'HR' WHEN 2 THEN 'Docs' WHEN 3 THEN 'Sales' WHEN 4 THEN 'Knitting' WHEN 5 THEN '' ELSE 'Engineering' END
        FROM n WHERE i <= \(people);
        INSERT INTO "Dog" ("_id", "name", "breed", "weight")
        SELECT CAST(x'0a1b2c3d' || printf('%012d', (i * 7919) % 1000003) AS BLOB), 'Dog ' || i, 'mutt',
          CASE i % 8 WHEN 0 THEN '12' WHEN 1 THEN '' WHEN 2 THEN 'n/a' WHEN 3 THEN '12.5' WHEN 4 THEN ' 7 ' WHEN 5 THEN '-3' ELSE CAST(i % 40 AS TEXT) END
        FROM n WHERE i <= \(dogs);
        INSERT INTO "Note" ("identifier", "content", "lastEdited")
        SELECT printf('note-%08d', i), 'Note ' || i, 1700000000000000 + i FROM n WHERE i <= \(notes);
        INSERT INTO "Person.dogs" ("owner", "position", "value")
        SELECT p."_id", 0, d."_id" FROM "Person" p JOIN "Dog" d ON d.rowid = p.rowid WHERE p.rowid % 6 <> 0;
        INSERT INTO "Person.dogs" ("owner", "position", "value")
        SELECT p."_id", 1, d."_id" FROM "Person" p JOIN "Dog" d ON d.rowid = (p.rowid * 31) % \(dogs) + 1 WHERE p.rowid % 4 = 0;
        DROP TABLE temp.n;
        COMMIT;
        """
}

/// Where the crash test finds the tool, and small file helpers.
enum CrashTestSetup {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `REMODEL_EXECUTABLE`, or `remodel` in the products folder that holds the tests.
    static let executable: String? = {
        if let path = ProcessInfo.processInfo.environment["REMODEL_EXECUTABLE"], FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles { folders.append(bundle.bundleURL.deletingLastPathComponent()) }
        return folders.map { $0.appendingPathComponent("remodel").path }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// tmpfs when there is one with room (a container's /dev/shm may have only 64 MB): a
    /// process crash does not depend on the disk, and the shared disks of CI machines make
    /// fsync slow.
    static var scratchFolder: String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: "/dev/shm"),
            let free = (try? FileManager.default.attributesOfFileSystem(forPath: "/dev/shm"))?[.systemFreeSize] as? NSNumber,
            free.int64Value > 1_000_000_000
        {
            return "/dev/shm"
        }
        return FileManager.default.temporaryDirectory.path
    }

    static func startMigration(_ executable: String, store: String, log: String) throws -> CrashChildProcess {
        try CrashChildProcess(
            executable: executable,
            arguments: [
                "migrate", "--store", store, "--no-backup",
                "--migrations", packageRoot + "/Migrations", "--schemas", packageRoot + "/Schemas",
            ], log: log)
    }

    static func userVersion(_ path: String) throws -> Int {
        // Read-write, so that a hot journal or WAL is recovered first.
        guard case .integer(let version) = try Connection(path: path).scalar("PRAGMA user_version") else { return -1 }
        return Int(version)
    }

    static func copyStore(_ source: String, to destination: String) throws {
        try removeStore(destination)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    static func removeStore(_ path: String) throws {
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

/// Counts and content sums of every table, per schema version; `Dog.dateLastUpdated` (the
/// migration's time) counts only as one shared value.
enum CrashChecksum {
    static let key = "(unicode(substr(hex(\"_id\"), -1)) + 31 * unicode(substr(hex(\"_id\"), -2, 1)) + 961 * unicode(substr(hex(\"_id\"), -3, 1)))"

    static func v1(of path: String) throws -> String {
        try sums(
            path,
            [
                "Person":
                    "count(*), total(length(\"name\")), total(length(\"employeeId\")), total(length(\"businessUnit\")), total((length(\"name\") + 7 * length(\"businessUnit\")) * \(key))",
                "Dog": "count(*), total(length(\"weight\")), total(length(\"name\")), total(length(\"weight\") * \(key))",
            ])
    }

    static func v3(of path: String) throws -> String {
        try sums(
            path,
            [
                "Person":
                    "count(*), total(length(\"firstName\")), total(length(\"lastName\")), total(length(\"personId\")), total(length(\"businessUnit\")), count(\"profileImageUrl\"), total((length(\"firstName\") + 3 * length(\"lastName\") + 7 * length(\"businessUnit\")) * \(key))",
                "Dog":
                    "count(*), sum(\"weight\"), total(length(\"name\")), total(length(\"favoriteToy\")), count(\"profileImageUrl\"), count(DISTINCT \"dateLastUpdated\"), total(\"weight\" * \(key))",
            ])
    }

    private static func sums(_ path: String, _ columns: [String: String]) throws -> String {
        let connection = try Connection(path: path)
        var parts: [String] = []
        for (table, sql) in columns.sorted(by: { $0.key > $1.key }) + [
            ("Person.dogs", "count(*), count(DISTINCT \"owner\"), count(DISTINCT \"value\"), total(\"position\")"),
            ("Note", "count(*), total(length(\"content\")), total(\"lastEdited\" % 1000003)"),
        ] {
            let row = try connection.query("SELECT \(sql) FROM \(SQLiteRenderer.identifier(table))").first ?? []
            parts.append("\(table) " + row.map(\.description).joined(separator: "|"))
        }
        return parts.joined(separator: "; ")
    }
}
