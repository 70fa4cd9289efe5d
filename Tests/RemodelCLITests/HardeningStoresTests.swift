import Foundation
import RemodelCore
import XCTest

/// Stores the data commands must refuse, each with what is wrong, where and how to fix it,
/// exit status 1 and no file changed or left behind: damaged, from a newer Remodel,
/// incomplete, on read-only storage; and names that only differ in letter case.
final class HardeningStoresTests: CLIFolderTestCase {

    /// The SHA-256 of every file in the folder (recursively), by relative path.
    private func snapshot(_ root: URL? = nil) throws -> [String: String] {
        let root = root ?? folder!
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            result[String(url.path.dropFirst(root.path.count))] = SHA256.hexDigest(of: [UInt8](try Data(contentsOf: url)))
        }
        return result
    }

    static let version1 = """
        objects:
          Person:
            primaryKey: id
            properties:
              id: string
              name: { type: string, indexed: true }
              age: int
              tags: list<string>
        """

    /// A two-version history (version 2 adds `nickname`, set from `name`) and a store at
    /// version 1 with 3000 people, large enough to damage a page in the middle.
    private func makeProject() throws -> String {
        try write(Self.version1, to: "Schemas/Person.yaml")
        try remodel(["migration", "new", "initial"], expect: 0)
        try write(Self.version1 + "\n      nickname: string?\n", to: "Schemas/Person.yaml")
        try remodel(["migration", "new", "add-nickname"], expect: 0)
        try write("description: nickname\nsteps:\n  - set: { type: Person, property: nickname, value: \"{name}\" }\n", to: "Migrations/0002-add-nickname.yaml")
        try remodel(["migration", "amend"], expect: 0)
        try remodel(["init", "--store", "store.db", "--version", "1"], expect: 0)
        let people = (0..<3000).map { "{\"id\": \"p\($0)\", \"name\": \"\(String(repeating: "n", count: 300))\", \"age\": \($0), \"tags\": [\"t\"]}" }
        try write("{\"Person\": [\(people.joined(separator: ","))]}", to: "people.json")
        try remodel(["import", "--store", "store.db", "people.json"], expect: 0)
        try write("{\"Person\": [{\"id\": \"new\", \"name\": \"n\", \"age\": 1, \"tags\": []}]}", to: "one.json")
        return path("store.db")
    }

    /// Overwrites 2000 bytes of a page in the middle of the file, as a failing disk would.
    private func damage(_ store: String) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: store))
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: (size / 2 / 4096) * 4096 + 200)
        handle.write(Data(repeating: 0xDE, count: 2000))
        try handle.close()
    }

    private func requireSQLite3() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("needs the sqlite3 command-line tool to edit a store") }
    }

    // MARK: - Damaged stores

    func testMigrateRefusesADamagedStoreAndChangesNothing() throws {
        try damage(try makeProject())
        let before = try snapshot()
        for arguments in [["migrate", "--store", "store.db"], ["migrate", "--store", "store.db", "--no-backup"], ["migrate", "--store", "store.db", "--dry-run"]] {
            let output = try remodel(arguments, expect: 1)
            XCTAssertTrue(output.stderr.contains("the store 'store.db' is damaged: SQLite's quick_check found"), output.stderr)
            XCTAssertTrue(output.stderr.contains("it was not changed: restore it from a backup"), output.stderr)
            if arguments.count == 3 {
                XCTAssertTrue(output.stderr.contains("the backup made before the check was removed (it is damaged too)"), output.stderr)
            }
            XCTAssertEqual(try snapshot(), before, "\(arguments): no file changed, no backup left behind")
        }
    }

    func testImportRefusesADamagedStore() throws {
        let store = try makeProject()
        try damage(store)
        let before = try snapshot()
        let output = try remodel(["import", "--store", "store.db", "one.json"], expect: 1)
        XCTAssertTrue(output.stderr.contains("'store.db' is damaged"), output.stderr)
        XCTAssertTrue(output.stderr.contains("restore it from a backup"), output.stderr)
        XCTAssertEqual(try snapshot(), before)
    }

    // MARK: - Stores Remodel cannot read

    func testStoreOfANewerFormatIsRefusedByEveryCommand() throws {
        try requireSQLite3()
        _ = try makeProject()
        _ = try SQLiteSchema.run("UPDATE _remodel_metadata SET value = 99 WHERE key = 'formatVersion'", on: path("store.db"))
        let before = try snapshot()
        for arguments in [
            ["status", "--store", "store.db"], ["export", "--store", "store.db"], ["migrate", "--store", "store.db"], ["import", "--store", "store.db", "one.json"],
        ] {
            let output = try remodel(arguments, expect: 1)
            XCTAssertTrue(
                output.stderr.contains("the store 'store.db' was written by a newer Remodel (store format 99; this Remodel reads format 1 and older); upgrade remodel"),
                "\(arguments): \(output.stderr)")
            XCTAssertEqual(try snapshot(), before, "\(arguments)")
        }
    }

    func testNegativeSchemaVersionIsRefused() throws {
        try requireSQLite3()
        _ = try makeProject()
        _ = try SQLiteSchema.run("PRAGMA user_version = -3", on: path("store.db"))
        let before = try snapshot()
        for arguments in [["status", "--store", "store.db"], ["export", "--store", "store.db"], ["migrate", "--store", "store.db"]] {
            let output = try remodel(arguments, expect: 1)
            XCTAssertTrue(
                output.stderr.contains(
                    "'store.db' is not a complete Remodel store: its schema version (PRAGMA user_version) is -3; a Remodel store's is 1 or more; restore it from a backup"),
                "\(arguments): \(output.stderr)")
            XCTAssertEqual(try snapshot(), before, "\(arguments)")
        }
    }

    func testRemodelApplicationIDWithoutMetadataIsNotACompleteStore() throws {
        try requireSQLite3()
        try write(Self.version1, to: "Schemas/Person.yaml")
        _ = try SQLiteSchema.run("CREATE TABLE t (x); PRAGMA application_id = 1380273476", on: path("half.db"))
        let before = try snapshot()
        for arguments in [["status", "--store", "half.db"], ["export", "--store", "half.db"], ["migrate", "--store", "half.db"]] {
            let output = try remodel(arguments, expect: 1)
            XCTAssertTrue(
                output.stderr.contains("'half.db' is not a complete Remodel store: it has Remodel's application_id but no '_remodel_metadata' table"),
                "\(arguments): \(output.stderr)")
            XCTAssertFalse(output.stderr.contains("no such table"), output.stderr)
            XCTAssertEqual(try snapshot(), before, "\(arguments)")
        }
    }

    func testFilesThatAreNoStoreGetAClearMessage() throws {
        try write("hello, not a database\n", to: "text.db")
        try write("", to: "empty.db")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("folder.db"), withIntermediateDirectories: true)
        let expected = [
            "text.db": "'text.db' is not an SQLite database",
            "empty.db": "cannot open the store 'empty.db': the file is empty (0 bytes), so it holds no store",
            "folder.db": "it is a folder, not a file",
            "missing.db": "cannot open the store 'missing.db'",
        ]
        let before = try snapshot()
        for (file, message) in expected {
            for command in ["status", "export"] {
                let output = try remodel([command, "--store", file], expect: 1)
                XCTAssertTrue(output.stderr.contains(message), "\(command) \(file): \(output.stderr)")
            }
        }
        XCTAssertEqual(try snapshot(), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("missing.db")))
    }

    // MARK: - Read-only storage

    /// A folder the CLI cannot write to, even though the tests run as root: a tmpfs mounted
    /// read-only when mounting is allowed, else a 0555 folder and 0444 file used through
    /// `setpriv` as the unprivileged user 65534. `run` runs the CLI there.
    private struct ReadOnlyPlace {
        var folder: URL
        var run: ([String]) throws -> CLIRunner.Output
        var cleanUp: () -> Void
    }

    private func readOnlyPlace(with files: [String]) throws -> ReadOnlyPlace {
        let mountPoint = folder.appendingPathComponent("readonly")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let inFolder = { (arguments: [String]) in try CLIRunner.run(arguments, in: self.folder) }
        if try shell("/bin/mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", mountPoint.path]) == 0 {
            for file in files { try FileManager.default.copyItem(atPath: path(file), toPath: mountPoint.appendingPathComponent(file).path) }
            if try shell("/bin/mount", ["-o", "remount,ro", mountPoint.path]) == 0 {
                return ReadOnlyPlace(folder: mountPoint, run: inFolder) { _ = try? self.shell("/bin/umount", [mountPoint.path]) }
            }
            _ = try shell("/bin/umount", [mountPoint.path])
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("cannot make read-only storage here: mounting a tmpfs is not permitted and there is no setpriv to run as an unprivileged user")
        }
        for file in files {
            let target = mountPoint.appendingPathComponent(file).path
            try FileManager.default.copyItem(atPath: path(file), toPath: target)
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: target)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: mountPoint.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let executable = try CLIRunner.executable().path
        let run = { (arguments: [String]) throws -> CLIRunner.Output in
            try self.runAsNobody(["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments)
        }
        return ReadOnlyPlace(folder: mountPoint, run: run) {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: mountPoint.path)
        }
    }

    /// Runs `setpriv arguments…` in the test folder.
    private func runAsNobody(_ arguments: [String]) throws -> CLIRunner.Output {
        try CLIRunner.runProgram("/usr/bin/setpriv", arguments, in: folder)
    }

    private func shell(_ tool: String, _ arguments: [String]) throws -> Int32 {
        guard FileManager.default.isExecutableFile(atPath: tool) else { return -1 }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    func testReadOnlyStorageReadsAndRefusesWritesBeforeAnyWork() throws {
        _ = try makeProject()
        let expected = try remodel(["export", "--store", "store.db"], expect: 0).stdout
        let place = try readOnlyPlace(with: ["store.db", "one.json"])
        defer { place.cleanUp() }
        let store = "readonly/store.db"
        let before = try snapshot(place.folder)

        let status = try place.run(["status", "--store", store])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("Person  3000"), status.stdout)
        let export = try place.run(["export", "--store", store])
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertEqual(export.stdout, expected)

        for arguments in [["migrate", "--store", store], ["migrate", "--store", store, "--dry-run"], ["import", "--store", store, "readonly/one.json"]] {
            let output = try place.run(arguments)
            XCTAssertEqual(output.status, 1, "\(arguments): \(output.stderr)")
            XCTAssertTrue(output.stderr.contains("the store '\(store)' cannot be written"), "\(arguments): \(output.stderr)")
            XCTAssertTrue(output.stderr.contains("copy it") && output.stderr.contains("writable storage"), "\(arguments): \(output.stderr)")
            XCTAssertFalse(output.stdout.contains("Plan:"), "refused before planning: \(output.stdout)")
        }
        XCTAssertEqual(try snapshot(place.folder), before, "nothing changed, no -wal, -shm or backup left")
    }

    // MARK: - Names

    func testNamesThatDifferOnlyInCaseFailValidateNotInit() throws {
        try write(
            "objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: string\n      name: string\n      Name: string\n  person:\n    primaryKey: id\n    properties:\n      id: string\n  sqlite_stat:\n    primaryKey: id\n    properties:\n      id: string\n",
            to: "Schemas/Person.yaml")
        let validate = try remodel(["validate"], expect: 1)
        XCTAssertTrue(
            validate.stderr.contains("Schemas/Person.yaml:7:7: error: object 'Person' has properties 'name' and 'Name', which differ only in letter case"), validate.stderr)
        XCTAssertTrue(validate.stderr.contains("Schemas/Person.yaml:6:7: note: 'name' declared here"), validate.stderr)
        XCTAssertTrue(validate.stderr.contains("Schemas/Person.yaml:8:3: error: 'person' differs from 'Person' only in letter case"), validate.stderr)
        XCTAssertTrue(
            validate.stderr.contains("Schemas/Person.yaml:12:3: error: object name 'sqlite_stat' starts with 'sqlite_', which is reserved for SQLite's own tables"), validate.stderr
        )
        let before = try snapshot()
        let initialise = try remodel(["init", "--store", "store.db"], expect: 1)
        XCTAssertFalse(initialise.stderr.contains("SQLite error"), initialise.stderr)
        XCTAssertEqual(try snapshot(), before)
    }

    /// `title` renamed to `Name` while `name` goes away: SQLite sees one column name twice.
    func testRenameIntoANameThatDiffersOnlyInCaseFromARemovedOne() throws {
        let version1 = "objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: string\n      name: string\n      title: string\n"
        try write(version1, to: "Schemas/Person.yaml")
        try remodel(["migration", "new", "initial"], expect: 0)
        try remodel(["init", "--store", "store.db"], expect: 0)
        try write("{\"Person\": [{\"id\": \"1\", \"name\": \"Ada\", \"title\": \"Countess\"}]}", to: "people.json")
        try remodel(["import", "--store", "store.db", "people.json"], expect: 0)
        try write("objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: string\n      Name: string\n", to: "Schemas/Person.yaml")
        try remodel(["migration", "new", "rename"], expect: 0)
        try write("description: rename\nsteps:\n  - renameProperty: { type: Person, from: title, to: Name }\n", to: "Migrations/0002-rename.yaml")
        try remodel(["migration", "amend"], expect: 0)
        try remodel(["validate"], expect: 0)
        try remodel(["migrate", "--store", "store.db", "--no-backup"], expect: 0)
        let export = try remodel(["export", "--store", "store.db"], expect: 0)
        XCTAssertTrue(export.stdout.contains("\"Name\": \"Countess\""), export.stdout)
    }
}
