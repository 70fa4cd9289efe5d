import Foundation
import XCTest

/// A report that never arrived is no success, and an option's value is never read as a flag.
final class OutputAndArgumentsTests: CLIFolderTestCase {
    /// Standard output on a full disk: every command that prints its result exits 1 and says
    /// its output is incomplete; what it did (a migration) stays done.
    func testAFullStandardOutputIsAFailureAndTheMigrationStaysCommitted() throws {
        try copyExample()
        let store = path("store.db")
        try remodel(["init", "--store", store, "--version", "1"])
        try remodel(["import", "--store", store, "--version", "1", CLIFolderTestCase.fixtures.appendingPathComponent("v1.json").path])
        let executable = try CLIRunner.executable().path

        let migrate = try CLIRunner.runProgram(executable, ["migrate", "--store", store, "--no-backup"], in: folder, stdout: "/dev/full")
        XCTAssertEqual(migrate.status, 1, migrate.stderr)
        XCTAssertTrue(migrate.stderr.contains("standard output"), migrate.stderr)
        XCTAssertTrue(migrate.stderr.contains("a migration stays committed"), migrate.stderr)
        XCTAssertTrue(try remodel(["status", "--store", store]).stdout.contains("Schema version:  3"))

        for arguments in [
            ["status", "--store", store], ["diff", "1", "3"], ["validate", "--format", "json"], ["check", "--format", "json"],
            ["migration", "hash"],
        ] {
            let output = try CLIRunner.runProgram(executable, arguments, in: folder, stdout: "/dev/full")
            XCTAssertEqual(output.status, 1, "\(arguments): \(output.stderr)")
            XCTAssertTrue(output.stderr.contains("standard output"), "\(arguments): \(output.stderr)")
            // The same command with somewhere to write succeeds: the failure was the output's.
            try remodel(arguments)
        }
    }

    /// `-h` where an option's value goes is a missing value, not a request for help that
    /// would exit 0 over a broken schema.
    func testAnOptionsValueIsNeverReadAsAFlag() throws {
        try write("objects:\n  Dog:\n    properties:\n      weight: integer\n", to: "Schemas/S.yaml")
        for arguments in [["check", "--base", "-h"], ["check", "--format", "-h"], ["validate", "--schemas", "--help"]] {
            let output = try remodel(arguments, expect: 64)
            XCTAssertTrue(output.stderr.contains("missing value for '--\(arguments[1].dropFirst(2))"), "\(arguments): \(output.stderr)")
            XCTAssertFalse(output.stdout.contains("OVERVIEW"), "\(arguments): \(output.stdout)")
        }
        // Help where help is asked for, even after an option with its value.
        XCTAssertTrue(try remodel(["check", "--base", "main", "-h"]).stdout.contains("OVERVIEW"))
        XCTAssertTrue(try remodel(["validate", "--help"]).stdout.contains("OVERVIEW"))
    }

    /// Files read whole are read up to their limit and no further: a file too large, or a
    /// device that never ends, is refused at once with the limit.
    func testFilesTooLargeOrEndlessAreRefusedWithTheLimit() throws {
        try write("objects:\n  Dog:\n    properties:\n      name: string\n", to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
        try write("description: huge\nsteps: []\n# " + String(repeating: "x", count: 6_000_000) + "\n", to: "Migrations/0002-huge.yaml")
        let huge = try remodel(["validate"], expect: 1)
        XCTAssertTrue(
            huge.stderr.contains("Migrations/0002-huge.yaml:1:1: error: the migration file is 6 MB; migration files are limited to 5 MB, and read whole"), huge.stderr)
        try FileManager.default.removeItem(atPath: path("Migrations/0002-huge.yaml"))
        try FileManager.default.createSymbolicLink(atPath: path("Migrations/0002-zero.yaml"), withDestinationPath: "/dev/zero")
        let endless = try remodel(["validate"], expect: 1)
        XCTAssertTrue(endless.stderr.contains("error: the migration file is more than 5 MB; migration files are limited to 5 MB"), endless.stderr)
        try FileManager.default.removeItem(atPath: path("Migrations/0002-zero.yaml"))
        try FileManager.default.createSymbolicLink(atPath: path("Schemas/Zero.yaml"), withDestinationPath: "/dev/zero")
        let device = try remodel(["validate"], expect: 1)
        XCTAssertTrue(device.stderr.contains("'Schemas/Zero.yaml' is not a regular file (a device, a pipe or a socket)"), device.stderr)
    }

    /// An import file is refused by its first bytes when it holds no JSON object (not read
    /// whole first), read from a pipe like any file, and a missing one is named with why.
    func testAnImportFileIsJudgedByItsStartAndReadFromPipesToo() throws {
        try write("objects:\n  Dog:\n    primaryKey: id\n    properties:\n      id: int\n", to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
        try Data(count: 20_000_000).write(to: URL(fileURLWithPath: path("zeros.json")))
        let zeros = try remodel(["import", "--store", path("a.db"), path("zeros.json")], expect: 1)
        XCTAssertTrue(zeros.stderr.contains("zeros.json: error: the file does not start with a JSON object: byte 0x00 at offset 0"), zeros.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("a.db")))

        let missing = try remodel(["import", "--store", path("a.db"), path("missing.json")], expect: 1)
        XCTAssertTrue(missing.stderr.contains("cannot read '\(path("missing.json"))': No such file or directory"), missing.stderr)

        try write(#"{"Dog": [{"id": 7}]}"#, to: "dogs.json")
        let piped = try CLIRunner.runProgram(
            "/bin/sh", ["-c", "exec \"$0\" import --store b.db --quiet /dev/stdin < dogs.json", try CLIRunner.executable().path], in: folder)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertTrue(try export(path("b.db")).contains("\"id\" : 7"))
    }
}
