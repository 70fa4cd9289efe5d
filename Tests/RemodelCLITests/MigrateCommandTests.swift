import Foundation
import RemodelCore
import XCTest

/// `remodel migrate` through the real binary, on stores made with `remodel init` and
/// `remodel import` from the example fixtures: every older version migrates to the golden v3
/// export, directly and step by step; every data error exits 1, names type, property, keys and
/// step, and leaves the store byte for byte as it was, with the backup intact.
final class MigrateCommandTests: CLIFolderTestCase {
    override var commandDirectory: URL { CLIRunner.packageRoot }

    // MARK: - Helpers

    /// A store at `version` holding the fixture `vN.json` of that version.
    private func makeStore(version: Int, name: String = "store.db", migrations: String = "Migrations", schemas: String = "Schemas") throws -> String {
        let path = folder.appendingPathComponent(name).path
        try remodel(["init", "--store", path, "--version", String(version), "--migrations", migrations, "--schemas", schemas])
        try remodel([
            "import", "--store", path, "--version", String(version), "--migrations", migrations, "--schemas", schemas,
            CLIFolderTestCase.fixtures.appendingPathComponent("v\(version).json").path,
        ])
        return path
    }

    private func fileHash(_ path: String) throws -> String {
        SHA256.hexDigest(of: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// A v3 store made from the v1 fixture, migrated without a backup.
    private func makeV3Store() throws -> String {
        let store = try makeStore(version: 1)
        try remodel(["migrate", "--store", store, "--no-backup"])
        return store
    }

    /// Runs a migration that must fail with a data error; checks the message, that the store
    /// is unchanged and that the backup holds the store as it was.
    private func expectDataError(store: String, migrations: String, schemas: String, contains expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let hash = try fileHash(store)
        let before = try export(store)
        let output = try remodel(["migrate", "--store", store, "--migrations", migrations, "--schemas", schemas], expect: 1, file: file, line: line)
        for text in expected {
            XCTAssertTrue(output.stderr.contains(text), "stderr lacks \(text):\n\(output.stderr)", file: file, line: line)
        }
        XCTAssertTrue(output.stderr.contains("Nothing was changed"), output.stderr, file: file, line: line)
        XCTAssertEqual(try fileHash(store), hash, "the store file changed", file: file, line: line)
        let backupLine = try XCTUnwrap(output.stdout.split(separator: "\n").first { $0.hasPrefix("Backup: ") }, "no backup named:\n\(output.stdout)", file: file, line: line)
        let backup = String(backupLine.dropFirst("Backup: ".count))
        XCTAssertTrue(backup.hasPrefix(store + ".v"), backup, file: file, line: line)
        XCTAssertTrue(output.stderr.contains("the backup '\(backup)' is intact"), output.stderr, file: file, line: line)
        XCTAssertEqual(try export(backup), before, "the backup differs from the store before the migration", file: file, line: line)
    }

    // MARK: - Fixture matrix

    func testEveryOlderVersionMigratesToTheGoldenExportDirectlyAndStepByStep() throws {
        for version in 1..<3 {
            let golden = try golden("v\(version)-to-v3.json")

            let direct = try makeStore(version: version, name: "direct-v\(version).db")
            let start = Date()
            let output = try remodel(["migrate", "--store", direct, "--no-backup"])
            let end = Date()
            XCTAssertTrue(output.stdout.contains("Plan: migrate '\(direct)' from version \(version) to 3"), output.stdout)
            XCTAssertTrue(output.stdout.contains("Migrated '\(direct)' from version \(version) to 3"), output.stdout)
            XCTAssertTrue(output.stdout.contains("  [data-dependent] convert Dog.weight from string to int (onError: default)  (step 1 (convert))\n"), output.stdout)
            XCTAssertTrue(output.stdout.contains("\n      1. ALTER TABLE"), output.stdout)
            XCTAssertNotNil(
                output.stderr.range(of: #"^migrated ([0-9]+)/\1 statements in [0-9.]+s \([0-9,.]+/s\)\n$"#, options: .regularExpression),
                "a quick migration's progress on stderr is its summary alone: \(output.stderr)")
            if version == 1 {
                XCTAssertTrue(output.stdout.contains("  [data-dependent] split Person.name at \" \" into firstName, lastName  (step 2 (split))\n"), output.stdout)
                XCTAssertTrue(output.stdout.contains("  [destructive]    remove property Person.name and its values  (schema)\n"), output.stdout)
            }
            XCTAssertEqual(try normalisedExport(direct, start: start, end: end), golden, "v\(version) → v3 directly")

            let stepwise = try makeStore(version: version, name: "stepwise-v\(version).db")
            let stepStart = Date()
            for next in (version + 1)...3 {
                let step = try remodel(["migrate", "--store", stepwise, "--to", String(next), "--no-backup"])
                XCTAssertTrue(step.stdout.contains("from version \(next - 1) to \(next)"), step.stdout)
            }
            let stepEnd = Date()
            XCTAssertEqual(try normalisedExport(stepwise, start: stepStart, end: stepEnd), golden, "v\(version) → v3 step by step")
        }
    }

    func testAlreadyCurrentDryRunAndBackup() throws {
        let store = try makeStore(version: 1)
        let hash = try fileHash(store)
        let dryRun = try remodel(["migrate", "--store", store, "--dry-run"])
        XCTAssertTrue(dryRun.stdout.contains("Dry run: migrated '\(store)' from version 1 to 3"), dryRun.stdout)
        XCTAssertTrue(dryRun.stdout.contains("  Dog     8 → 8\n"), dryRun.stdout)
        XCTAssertFalse(dryRun.stdout.contains("Backup"), dryRun.stdout)
        XCTAssertEqual(try fileHash(store), hash)

        let before = try export(store)
        let migrated = try remodel(["migrate", "--store", store])
        let backup = try XCTUnwrap(migrated.stdout.split(separator: "\n").first { $0.hasPrefix("Backup: ") }.map { String($0.dropFirst(8)) })
        XCTAssertTrue(backup.hasPrefix(store + ".v1-backup-") && backup.hasSuffix("Z"), backup)
        XCTAssertEqual(try export(backup), before)

        let migratedHash = try fileHash(store)
        let again = try remodel(["migrate", "--store", store])
        XCTAssertEqual(again.stdout, "'\(store)' is already at version 3, the newest; nothing to do\n")
        XCTAssertEqual(try fileHash(store), migratedHash)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("backup") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
        XCTAssertEqual(files.count, 1, "\(files)")
    }

    func testWithoutAHistoryTheSchemaIsVersionOne() throws {
        let store = try makeStore(version: 1, migrations: folder.appendingPathComponent("none").path, schemas: "Tests/RemodelMigrateTests/Resources/history/v1")
        let output = try remodel([
            "migrate", "--store", store, "--migrations", folder.appendingPathComponent("none").path, "--schemas", "Tests/RemodelMigrateTests/Resources/history/v1",
        ])
        XCTAssertEqual(output.stdout, "'\(store)' is already at version 1, the newest; nothing to do\n")
    }

    func testSchemaEditedWithoutAMigrationIsRefused() throws {
        let store = try makeStore(version: 1)
        let hash = try fileHash(store)
        // The package's history with other schemas: --migrations names it (by default the
        // Migrations folder beside --schemas is read).
        let output = try remodel(["migrate", "--store", store, "--schemas", "Tests/RemodelMigrateTests/Resources/history/v2", "--migrations", "Migrations"], expect: 1)
        XCTAssertTrue(output.stderr.contains("differs from the newest snapshot 'Migrations/snapshots/v3.yaml' (version 3)"), output.stderr)
        XCTAssertTrue(output.stderr.contains("[schema-not-snapshotted]"), output.stderr)
        XCTAssertTrue(output.stderr.contains("run 'remodel migration new NAME'"), output.stderr)
        XCTAssertEqual(try fileHash(store), hash)
    }

    // MARK: - Failures

    func testConvertThatFailsOnBadData() throws {
        let migrations = folder.appendingPathComponent("Migrations")
        try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent("Migrations"), to: migrations)
        let file = migrations.appendingPathComponent("0003-dog-details.yaml")
        let text = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "onError: default", with: "onError: fail")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let store = try makeStore(version: 1)
        // A dry run reports the same data error, makes no backup and changes nothing.
        let hash = try fileHash(store)
        let dryRun = try remodel(["migrate", "--store", store, "--migrations", migrations.path, "--dry-run"], expect: 1)
        XCTAssertTrue(dryRun.stderr.contains("3 Dog objects with values that cannot be converted to int in Dog.weight"), dryRun.stderr)
        XCTAssertFalse(dryRun.stdout.contains("Backup"), dryRun.stdout)
        XCTAssertEqual(try fileHash(store), hash)
        try expectDataError(
            store: store, migrations: migrations.path, schemas: "Schemas",
            contains: [
                "migration to version 3 (dog-details), step 1 (convert) at \(migrations.path)/0003-dog-details.yaml:14:5: 3 Dog objects with values that cannot be converted to int in Dog.weight",
                "00000000-0000-0000-0000-0000000000D2 (\"\")", "00000000-0000-0000-0000-0000000000D3 (\"n/a\")", "(\"12.5\")",
                "hint: fix the values, or use onError: default or onError: null",
            ])
    }

    func testDuplicatePrimaryKey() throws {
        let store = try makeV3Store()
        let (migrations, schemas) = try historyWithVersion4(steps: "  - set: { type: Note, property: identifier, value: same }\n")
        try expectDataError(
            store: store, migrations: migrations, schemas: schemas,
            contains: [
                "migration to version 4 (v4), step 1 (set) at \(migrations)/0004-v4.yaml:3:5: 2 Note objects with a primary key that another object would also have in Note.identifier",
                "\"note-1\"", "\"note-2\"",
            ])
    }

    func testNullLeftInARequiredProperty() throws {
        let store = try makeV3Store()
        let (migrations, schemas) = try historyWithVersion4(steps: "  []\n") {
            $0.replacingOccurrences(of: "profileImageUrl:\n        type: \"url?\"\n      dogs:", with: "profileImageUrl:\n        type: url\n      dogs:")
        }
        try expectDataError(
            store: store, migrations: migrations, schemas: schemas,
            contains: [
                "migration to version 4 (v4), schema at ", "v4.yaml:39:7: 10 Person objects with no value, but 'profileImageUrl' becomes required in Person.profileImageUrl",
                "650000000000000000000001", "and 5 more",
            ])
    }

    func testUnmappedValueWithoutOtherwise() throws {
        let store = try makeV3Store()
        let (migrations, schemas) = try historyWithVersion4(steps: "  - mapValues: { type: Person, property: company, values: { MongoDB: MongoDB Inc. } }\n")
        try expectDataError(
            store: store, migrations: migrations, schemas: schemas,
            contains: [
                "step 1 (mapValues) at \(migrations)/0004-v4.yaml:3:5: 2 Person objects with values that mapValues does not map (and there is no `otherwise`) in Person.company",
                "650000000000000000000004 (\"\")", "650000000000000000000007 (\"Acme\")",
            ])
    }

    func testCustomStepIsRefusedByThePlainCLI() throws {
        let store = try makeV3Store()
        let hash = try fileHash(store)
        let (migrations, schemas) = try historyWithVersion4(steps: "  - custom: { name: fixNames, type: Person }\n")
        let output = try remodel(["migrate", "--store", store, "--migrations", migrations, "--schemas", schemas], expect: 1)
        XCTAssertTrue(
            output.stderr.contains(
                "\(migrations)/0004-v4.yaml:3:5: error: migration 4 step 1 (custom): custom step 'fixNames' is a Swift closure, which this program does not have [migration-custom-step-unavailable]"
            ), output.stderr)
        XCTAssertTrue(output.stderr.contains("Migrator.register"), output.stderr)
        XCTAssertEqual(try fileHash(store), hash)
        XCTAssertFalse(output.stdout.contains("Backup"), output.stdout)
    }

    func testAMigrationEditedAfterItWasAppliedIsReported() throws {
        let migrations = folder.appendingPathComponent("Migrations")
        try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent("Migrations"), to: migrations)
        let store = try makeStore(version: 1)
        try remodel(["migrate", "--store", store, "--no-backup", "--migrations", migrations.path])
        let file = migrations.appendingPathComponent("0003-dog-details.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let status = try remodel(["status", "--store", store, "--migrations", migrations.path])
        XCTAssertFalse(status.stderr.contains("Warning"), status.stderr)

        try text.replacingOccurrences(of: "onError: default", with: "onError: \"default\"").write(to: file, atomically: true, encoding: .utf8)
        let warning = "Warning: migration 3 (\(file.path)) has changed since this store applied it on "
        let edited = try remodel(["status", "--store", store, "--migrations", migrations.path])
        XCTAssertTrue(edited.stderr.contains(warning), edited.stderr)
        XCTAssertTrue(
            edited.stderr.contains(
                "(its checksum differs); a released migration must not be edited: restore the file, and make the change in a new migration (remodel migration new NAME)"),
            edited.stderr)
        XCTAssertTrue(edited.stdout.contains("Pending migrations: none (up to date)"), edited.stdout)
        let migrate = try remodel(["migrate", "--store", store, "--migrations", migrations.path])
        XCTAssertTrue(migrate.stderr.contains(warning), migrate.stderr)
        XCTAssertTrue(migrate.stdout.contains("is already at version 3"), migrate.stdout)
    }

    func testSupersededStore() throws {
        let store = try makeV3Store()
        let hash = try fileHash(store)
        let migrations = folder.appendingPathComponent("Old")
        try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent("Migrations"), to: migrations)
        try FileManager.default.removeItem(at: migrations.appendingPathComponent("0003-dog-details.yaml"))
        try FileManager.default.removeItem(at: migrations.appendingPathComponent("snapshots/v3.yaml"))
        let output = try remodel(["migrate", "--store", store, "--migrations", migrations.path, "--schemas", "Tests/RemodelMigrateTests/Resources/history/v2"], expect: 1)
        XCTAssertTrue(output.stderr.contains("is at schema version 3, newer than version 2 of the schema here (superseded)"), output.stderr)
        XCTAssertEqual(try fileHash(store), hash)
    }

    func testNotARemodelStore() throws {
        let text = folder.appendingPathComponent("notes.txt")
        try "hello".write(to: text, atomically: true, encoding: .utf8)
        let notSQLite = try remodel(["migrate", "--store", text.path], expect: 1)
        XCTAssertTrue(notSQLite.stderr.contains("is not an SQLite database"), notSQLite.stderr)

        let sqlite = URL(fileURLWithPath: "/usr/bin/sqlite3")
        guard FileManager.default.isExecutableFile(atPath: sqlite.path) else { throw XCTSkip("no sqlite3 CLI to make a plain SQLite file") }
        let plain = folder.appendingPathComponent("plain.db")
        let process = try Process.run(sqlite, arguments: [plain.path, "CREATE TABLE t (x)"])
        process.waitUntilExit()
        let hash = try fileHash(plain.path)
        let output = try remodel(["migrate", "--store", plain.path], expect: 1)
        XCTAssertTrue(output.stderr.contains("is an SQLite database but not a Remodel store"), output.stderr)
        XCTAssertEqual(try fileHash(plain.path), hash)

        let missing = try remodel(["migrate", "--store", folder.appendingPathComponent("missing.db").path], expect: 1)
        XCTAssertTrue(missing.stderr.contains("no such file; check the path, or create the store first (remodel init"), missing.stderr)

        let aFolder = try remodel(["migrate", "--store", folder.path], expect: 1)
        XCTAssertTrue(aFolder.stderr.contains("Error: cannot open the store '\(folder.path)': it is a folder, not a file; give the path of the store file"), aFolder.stderr)

        // A store cut short (a copy that stopped half-way): named as damaged, left as it is.
        let store = try makeStore(version: 1)
        let truncated = folder.appendingPathComponent("truncated.db").path
        try Data(try Data(contentsOf: URL(fileURLWithPath: store)).prefix(8192)).write(to: URL(fileURLWithPath: truncated))
        let truncatedHash = try fileHash(truncated)
        let damaged = try remodel(["migrate", "--store", truncated], expect: 1)
        XCTAssertTrue(damaged.stderr.contains("Error: the store '\(truncated)' is corrupted (database disk image is malformed); restore it from a backup"), damaged.stderr)
        XCTAssertEqual(try fileHash(truncated), truncatedHash)
        XCTAssertFalse(damaged.stdout.contains("Backup"), damaged.stdout)
    }

    /// A v1 store with `count` people (3 KiB of text each), too big to rewrite under a small
    /// file size limit.
    private func makeLargeV1Store(count: Int) throws -> String {
        let people = (1...count).map { n in
            let id = String(n, radix: 16)
            return [
                "_id": String(repeating: "0", count: 24 - id.count) + id, "name": "Person \(n) " + String(repeating: "x", count: 3000),
                "employeeId": "E\(n)", "company": "MongoDB", "businessUnit": "Eng", "dogs": [],
            ] as [String: Any]
        }
        let data = folder.appendingPathComponent("large.json")
        try JSONSerialization.data(withJSONObject: ["Person": people]).write(to: data)
        let path = folder.appendingPathComponent("large.db").path
        try remodel(["import", "--store", path, "--version", "1", data.path])
        return path
    }

    /// The files in the test folder whose names start with the store's.
    private func filesNextTo(_ store: String) throws -> [String] {
        let name = URL(fileURLWithPath: store).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(name) }.sorted()
    }

    func testFullDiskDuringTheMigrationChangesNothing() throws {
        let store = try makeLargeV1Store(count: 200)
        let hash = try fileHash(store)
        let before = try export(store)
        // 256 blocks: room for the -shm file, not for the rewritten Person table.
        let output = try CLIRunner.run(["migrate", "--store", store, "--no-backup"], fileSizeLimit: 256)
        XCTAssertEqual(output.status, 1, output.stderr)
        XCTAssertTrue(output.stderr.contains("Error: migration to version 2 failed: disk I/O error"), output.stderr)
        XCTAssertTrue(output.stderr.contains("while executing `UPDATE OR ROLLBACK \"Person\""), output.stderr)
        XCTAssertTrue(output.stderr.contains("Nothing was changed."), output.stderr)
        XCTAssertTrue(output.stderr.contains("hint: the store or its journal could not be written: the disk may be full"), output.stderr)
        XCTAssertTrue(output.stderr.contains("free some space and run it again"), output.stderr)
        XCTAssertEqual(try fileHash(store), hash, "the store file changed")
        XCTAssertEqual(try filesNextTo(store), ["large.db"], "a journal or partial file was left behind")
        // With room again, the same store migrates.
        XCTAssertEqual(try export(store), before)
        try remodel(["migrate", "--store", store, "--no-backup"])
        let status = try remodel(["status", "--store", store]).stdout
        XCTAssertTrue(status.contains("Schema version:  3"), status)
    }

    func testFullDiskDuringTheBackupMigratesNothing() throws {
        let store = try makeLargeV1Store(count: 200)
        let hash = try fileHash(store)
        let output = try CLIRunner.run(["migrate", "--store", store], fileSizeLimit: 256)
        XCTAssertEqual(output.status, 1, output.stderr)
        XCTAssertTrue(output.stderr.contains("Error: cannot back up the store to '\(store).v1-backup-"), output.stderr)
        XCTAssertTrue(output.stderr.contains("nothing was migrated (free some space or fix the folder's permissions, or pass --no-backup)"), output.stderr)
        XCTAssertFalse(output.stderr.contains(".partial"), "the message names a temporary file:\n\(output.stderr)")
        XCTAssertEqual(try fileHash(store), hash, "the store file changed")
        XCTAssertEqual(try filesNextTo(store), ["large.db"], "a partial backup or its journal was left behind")
    }

    func testLockedStoreIsReportedAfterTheBusyTimeout() throws {
        let sqlite = URL(fileURLWithPath: "/usr/bin/sqlite3")
        guard FileManager.default.isExecutableFile(atPath: sqlite.path) else { throw XCTSkip("needs the sqlite3 command-line tool") }
        let store = try makeStore(version: 1)
        let hash = try fileHash(store)
        // A second process takes the write lock and keeps it until told to roll back.
        let holder = Process()
        holder.executableURL = sqlite
        holder.arguments = [store]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nDELETE FROM \"Dog\";\nSELECT 'holding';\n".utf8))
        var buffer = Data()
        while !String(decoding: buffer, as: UTF8.self).contains("holding") {
            buffer += output.fileHandleForReading.availableData
        }
        let migrated = try remodel(["migrate", "--store", store, "--no-backup"], expect: 1)
        input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        XCTAssertTrue(migrated.stderr.contains("Error: the store '\(store)' is locked by another connection or process (waited 5 s: database is locked)"), migrated.stderr)
        XCTAssertTrue(migrated.stderr.contains("close the other writer or retry later"), migrated.stderr)
        XCTAssertEqual(try fileHash(store), hash, "the store file changed")
        try remodel(["migrate", "--store", store, "--no-backup"])
    }

    func testUsageErrors() throws {
        let noStore = try remodel(["migrate"], expect: 64)
        XCTAssertTrue(noStore.stderr.contains("--store"), noStore.stderr)
        let badTarget = try remodel(["migrate", "--store", "x.db", "--to", "three"], expect: 64)
        XCTAssertTrue(badTarget.stderr.contains("--to needs a version number"), badTarget.stderr)
    }
}
