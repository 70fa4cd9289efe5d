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
}
