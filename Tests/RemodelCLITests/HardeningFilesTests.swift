import Foundation
import RemodelCore
import XCTest

/// What the commands that write files refuse, and what they leave after a failure: never a
/// replaced file they did not write, never the store overwritten, never partial output or a
/// stray file; a full disk or file size limit reported with what failed, what is intact and
/// how to fix it, and exit status 1 (never a signal).
final class HardeningFilesTests: CLIFolderTestCase {
    override var commandDirectory: URL { CLIRunner.packageRoot }

    /// Runs `remodel` under `ulimit -f blocks` WITHOUT ignoring SIGXFSZ first (unlike
    /// `CLIRunner.run(fileSizeLimit:)`): remodel must survive an oversized write by itself.
    private func runUnderFileSizeLimit(_ blocks: Int, _ arguments: [String], in directory: URL = CLIRunner.packageRoot) throws -> CLIRunner.Output {
        try CLIRunner.runProgram("/bin/sh", ["-c", "ulimit -f \(blocks) && exec \"$0\" \"$@\"", try CLIRunner.executable().path] + arguments, in: directory)
    }

    /// SHA-256 of every file in `directory` (hidden ones too), by name; but for the `-wal`
    /// and `-shm` files SQLite itself keeps beside a store that is read.
    private func hashes(_ directory: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let skipped = { (name: String) in name.hasPrefix(".stdout-") || name.hasPrefix(".stderr-") || name.hasSuffix(".db-wal") || name.hasSuffix(".db-shm") }
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !skipped(name) {
            var isFolder: ObjCBool = false
            let file = directory.appendingPathComponent(name).path
            _ = FileManager.default.fileExists(atPath: file, isDirectory: &isFolder)
            result[name] = isFolder.boolValue ? "folder" : SHA256.hexDigest(of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))))
        }
        return result
    }

    private func makeStore(people: Int = 0) throws -> String {
        let store = path("s.db")
        if people == 0 {
            try remodel(["init", "--store", store])
        } else {
            let objects = (1...people).map { n in
                let id = String(n, radix: 16)
                return [
                    "_id": String(repeating: "0", count: 24 - id.count) + id, "firstName": "Person \(n) " + String(repeating: "x", count: 1000), "lastName": "L",
                    "businessUnit": "Engineering", "profileImageUrl": "https://example.com/\(n).png", "dogs": [],
                ] as [String: Any]
            }
            let data = folder.appendingPathComponent("people.json")
            try JSONSerialization.data(withJSONObject: ["Person": objects]).write(to: data)
            try remodel(["import", "--store", store, data.path])
            try FileManager.default.removeItem(at: data)
        }
        return store
    }

    /// A copy of the package's Schemas/ and Migrations/ in the test folder.
    private func makeProject() throws -> URL {
        let project = folder.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        for name in ["Schemas", "Migrations"] {
            try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent(name), to: project.appendingPathComponent(name))
        }
        return project
    }

    // MARK: - export

    func testExportRefusesToWriteOverTheStoreByAnyPathOrLink() throws {
        let store = try makeStore()
        try FileManager.default.createSymbolicLink(atPath: path("soft.db"), withDestinationPath: store)
        try FileManager.default.linkItem(atPath: store, toPath: path("hard.db"))
        let before = try hashes(folder)
        for output in [store, path("soft.db"), path("hard.db"), folder.path + "/./s.db"] {
            for force in [[], ["--force"]] {
                let result = try remodel(["export", "--store", store, "--output", output] + force, expect: 1)
                XCTAssertEqual(
                    result.stderr,
                    "Error: refusing to write '\(output)': it is the store '\(store)' being exported (the same file, by another path or link); nothing was written: choose another output path\n"
                )
            }
        }
        XCTAssertEqual(try hashes(folder), before, "a file changed, or one was left behind")
        try remodel(["status", "--store", store])
    }

    func testExportReplacesOnlyAnEarlierExportUnlessForced() throws {
        let store = try makeStore()
        let output = path("out.json")
        try remodel(["export", "--store", store, "--output", output])
        try remodel(["export", "--store", store, "--output", output])
        let mine = path("notes.json")
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: mine))
        let before = try hashes(folder)
        let refused = try remodel(["export", "--store", store, "--output", mine], expect: 1)
        XCTAssertEqual(
            refused.stderr,
            "Error: refusing to replace '\(mine)': it is not JSON in the export format (an earlier `remodel export`); nothing was written: choose another path, or pass --force to replace it\n"
        )
        XCTAssertEqual(try hashes(folder), before)
        try remodel(["export", "--store", store, "--output", mine, "--force"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: mine)), try Data(contentsOf: URL(fileURLWithPath: output)))
        XCTAssertTrue(try remodel(["export", "--help"]).stdout.contains("--force"))
    }

    func testExportToAFolderOrIntoAMissingFolderIsExplained() throws {
        let store = try makeStore()
        let before = try hashes(folder)
        let intoFolder = try remodel(["export", "--store", store, "--output", folder.path], expect: 1)
        XCTAssertEqual(intoFolder.stderr, "Error: cannot write '\(folder.path)': it is a folder; name a file (e.g. '\(folder.path)/export.json')\n")
        let missing = path("missing/out.json")
        let intoMissing = try remodel(["export", "--store", store, "--output", missing], expect: 1)
        XCTAssertEqual(
            intoMissing.stderr,
            "Error: cannot write '\(missing)': the folder '\(path("missing"))' does not exist; create it first (mkdir -p '\(path("missing"))') or choose another path\n")
        XCTAssertEqual(try hashes(folder), before)
    }

    func testExportToAFullStandardOutputFailsWithAMessage() throws {
        let store = try makeStore()
        let output = try CLIRunner.runProgram(try CLIRunner.executable().path, ["export", "--store", store, "--quiet"], in: folder, stdout: "/dev/full")
        XCTAssertEqual(output.status, 1, output.stderr)
        XCTAssertEqual(
            output.stderr,
            "Error: cannot write to standard output: the disk is full; the output written so far is incomplete; the store is unchanged; free some space and run again\n")
    }

    func testExportPastTheFileSizeLimitKeepsTheEarlierExport() throws {
        let store = try makeStore(people: 100)
        let output = path("out.json")
        try Data("{\"Person\": []}\n".utf8).write(to: URL(fileURLWithPath: output))
        let before = try hashes(folder)
        // 100 blocks: room to open the store (its 32 KiB -shm), not for 100 KB of JSON.
        let result = try runUnderFileSizeLimit(100, ["export", "--store", store, "--output", output, "--quiet"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(
            result.stderr,
            "Error: cannot write '\(output)': the file would exceed the file size limit of this process (ulimit -f); nothing was written (a file already there is unchanged); raise the limit (ulimit -f unlimited) and run again\n"
        )
        XCTAssertEqual(try hashes(folder), before, "the earlier export changed, or a temporary file was left")
    }

    // MARK: - generate

    func testGenerateRefusesToReplaceAHandWrittenFile() throws {
        let project = try makeProject()
        let output = project.appendingPathComponent("Generated")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data("// Written by hand.\nstruct Person {}\n".utf8).write(to: output.appendingPathComponent("Person.swift"))
        let before = try hashes(output)
        let result = try remodel(["generate", "--output", "Generated"], expect: 1, in: project)
        XCTAssertEqual(
            result.stderr,
            "Error: refusing to replace 'Generated/Person.swift': not written by remodel (it has no '// DO NOT EDIT. … Generated by remodel' header); nothing was written: move or rename it, or choose another output folder for the generated code\n"
        )
        XCTAssertEqual(try hashes(output), before, "a file was written or changed")
        XCTAssertTrue(try remodel(["generate", "--help"]).stdout.contains("never replaces a file it did not write"))
    }

    func testGenerateRefusesTheSchemasAndMigrationsFoldersAndAFile() throws {
        let project = try makeProject()
        let schemas = try hashes(project.appendingPathComponent("Schemas"))
        let migrations = try hashes(project.appendingPathComponent("Migrations"))
        let intoSchemas = try remodel(["generate", "--output", "./Schemas"], expect: 1, in: project)
        XCTAssertEqual(
            intoSchemas.stderr,
            "Error: refusing to write generated files into './Schemas': it is the schemas folder ('Schemas'); nothing was written: choose a folder of their own (e.g. Sources/Models/Generated)\n"
        )
        let intoMigrations = try remodel(["generate", "--output", "Migrations"], expect: 1, in: project)
        XCTAssertTrue(intoMigrations.stderr.contains("it is the migrations folder"), intoMigrations.stderr)
        XCTAssertEqual(try hashes(project.appendingPathComponent("Schemas")), schemas)
        XCTAssertEqual(try hashes(project.appendingPathComponent("Migrations")), migrations)
        try Data("x".utf8).write(to: project.appendingPathComponent("file"))
        let intoFile = try remodel(["generate", "--output", "file"], expect: 1, in: project)
        XCTAssertEqual(
            intoFile.stderr,
            "Error: refusing to write generated files into 'file': it is a file, not a folder; nothing was written: choose a folder of their own (e.g. Sources/Models/Generated)\n")
    }

    func testGeneratePastTheFileSizeLimitLeavesTheOldFilesOrNone() throws {
        let project = try makeProject()
        let output = project.appendingPathComponent("Generated")
        try remodel(["generate", "--output", "Generated"], in: project)
        // Every generated file out of date (its header kept), so that all are rewritten.
        for name in try FileManager.default.contentsOfDirectory(atPath: output.path) {
            let file = output.appendingPathComponent(name)
            try (try Data(contentsOf: file) + Data("// old\n".utf8)).write(to: file)
        }
        let before = try hashes(output)
        // 8 blocks (4 KiB): the small files fit, the manifest does not.
        let result = try runUnderFileSizeLimit(8, ["generate", "--output", "Generated"], in: project)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("Error: cannot write 'Generated/"), result.stderr)
        XCTAssertTrue(
            result.stderr.hasSuffix(
                ": the file would exceed the file size limit of this process (ulimit -f); no file in 'Generated' was changed (the old generated files are intact); raise the limit (ulimit -f unlimited) and run again\n"
            ), result.stderr)
        XCTAssertEqual(try hashes(output), before, "some files were rewritten and others not, or a temporary file was left")
        // A folder that did not exist is not left behind either.
        let fresh = try runUnderFileSizeLimit(8, ["generate", "--output", "New/Generated"], in: project)
        XCTAssertEqual(fresh.status, 1, fresh.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: project.appendingPathComponent("New").path), "the new output folder was left behind")
    }

    // MARK: - init and import

    func testInitPastTheFileSizeLimitLeavesNoFileThatBlocksTheNextInit() throws {
        let store = path("s.db")
        let result = try runUnderFileSizeLimit(4, ["init", "--store", store])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(
            result.stderr,
            "Error: cannot create the store '\(store)': the file would exceed the file size limit of this process (ulimit -f); no store was created and nothing is left behind; raise the limit (ulimit -f unlimited) and run again\n"
        )
        XCTAssertEqual(try hashes(folder), [:], "a stray store file was left behind")
        try remodel(["init", "--store", store])
    }

    func testImportPastTheFileSizeLimitImportsNothing() throws {
        let store = try makeStore()
        let people = (1...100).map { n in
            let id = String(n, radix: 16)
            return [
                "_id": String(repeating: "0", count: 24 - id.count) + id, "firstName": String(repeating: "y", count: 1000), "lastName": "L",
                "businessUnit": "Engineering", "profileImageUrl": "https://example.com/\(n).png", "dogs": [],
            ] as [String: Any]
        }
        let data = path("people.json")
        try JSONSerialization.data(withJSONObject: ["Person": people]).write(to: URL(fileURLWithPath: data))
        try remodel(["status", "--store", store])
        let before = try hashes(folder)
        let exported = try remodel(["export", "--store", store]).stdout
        let result = try runUnderFileSizeLimit(100, ["import", "--store", store, data, "--quiet"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(
            result.stderr,
            "Error: cannot import into '\(store)': the file would exceed the file size limit of this process (ulimit -f); nothing was imported; the store is unchanged; raise the limit (ulimit -f unlimited) and run again\n"
        )
        XCTAssertEqual(try hashes(folder), before, "the store changed, or a file was left behind")
        XCTAssertEqual(try remodel(["export", "--store", store]).stdout, exported)

        // Into a new store: nothing is left behind.
        let fresh = path("fresh.db")
        let created = try runUnderFileSizeLimit(100, ["import", "--store", fresh, data])
        XCTAssertEqual(created.status, 1, created.stderr)
        XCTAssertTrue(created.stderr.contains("nothing was imported, no store was created and nothing is left behind"), created.stderr)
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.contains("fresh.db") }, "a store file was left behind")
    }

    // MARK: - migration new

    func testMigrationNewPastTheFileSizeLimitWritesNeitherFile() throws {
        let project = try makeProject()
        let migrations = project.appendingPathComponent("Migrations")
        let before = try hashes(migrations)
        let snapshots = try hashes(migrations.appendingPathComponent("snapshots"))
        // 4 blocks (2 KiB): the migration draft would fit, the snapshot of version 4 does not.
        let result = try runUnderFileSizeLimit(4, ["migration", "new", "extra"], in: project)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "Error: cannot write 'Migrations/snapshots/v4.yaml': the file would exceed the file size limit of this process (ulimit -f); no migration file or snapshot was written or changed; raise the limit (ulimit -f unlimited) and run again"
            ), result.stderr)
        XCTAssertEqual(try hashes(migrations), before, "a migration file was written")
        XCTAssertEqual(try hashes(migrations.appendingPathComponent("snapshots")), snapshots, "a snapshot or a temporary file was left")
        try remodel(["migration", "new", "extra"], in: project)
    }

    // MARK: - backup on a real full disk

    func testBackupOnAFullDiskLeavesNoPartialFiles() throws {
        let disk = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: disk, withIntermediateDirectories: true)
        let mount = try CLIRunner.runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=160k", "tmpfs", disk.path], in: folder)
        guard mount.status == 0 else { throw XCTSkip("a full disk needs a small tmpfs, and mount is not permitted here: \(mount.stderr)") }
        defer { _ = try? CLIRunner.runProgram("/bin/umount", [disk.path], in: folder) }
        let project = try makeProject()
        let store = disk.appendingPathComponent("s.db").path
        try remodel(["init", "--store", store, "--version", "1"], in: project)
        // A store of about 52 KiB and 104 KiB free: the copy fits, its -wal and -shm do not.
        let filler = disk.appendingPathComponent("filler")
        try Data(count: 160 * 1024 - 52 * 1024 - 104 * 1024).write(to: filler)
        let before = try hashes(disk)
        let result = try remodel(["migrate", "--store", store], expect: 1, in: project)
        XCTAssertTrue(result.stderr.contains("Error: cannot back up the store to '\(store).v1-backup-"), result.stderr)
        XCTAssertTrue(result.stderr.contains(": the disk is full; nothing was migrated"), result.stderr)
        XCTAssertEqual(try hashes(disk), before, "a partial backup, its -wal or -shm was left behind")
    }
}
