import Foundation
import XCTest

/// libpq is loaded when a PostgreSQL store is first opened, not linked: the tool starts
/// without it, works on files without it, and says what to install when a PostgreSQL command
/// cannot find it.
final class LibPQLoadingTests: XCTestCase {
    /// A URL that never reaches a server: the library is loaded before connecting.
    static let store = "postgresql://nobody@/notes?host=/nonexistent-remodel-socket-folder"

    func testTheToolDoesNotLinkLibpqAndWorksOnFilesWithoutIt() throws {
        #if os(Linux)
            let libraries = try CLIRunner.runProgram("/usr/bin/env", ["ldd", try CLIRunner.executable().path], in: CLIRunner.packageRoot)
            XCTAssertEqual(libraries.status, 0, libraries.stderr)
            XCTAssertTrue(libraries.stdout.contains("libsqlite3"), "ldd lists the libraries the tool links:\n\(libraries.stdout)")
            XCTAssertFalse(libraries.stdout.contains("libpq"), "the tool links libpq:\n\(libraries.stdout)")
        #endif
        let validated = try CLIRunner.run(
            ["validate", "--schemas", "Schemas", "--migrations", "Migrations"], environment: ["REMODEL_LIBPQ": "/nonexistent/libpq.so.5"])
        XCTAssertEqual(validated.status, 0, validated.stderr)
    }

    func testAMissingLibpqSaysWhatToInstall() throws {
        let output = try CLIRunner.run(["status", "--store", Self.store], environment: ["REMODEL_LIBPQ": "/nonexistent/libpq.so.5"])
        XCTAssertEqual(output.status, 1, output.stdout + output.stderr)
        XCTAssertTrue(output.stderr.contains("libpq, PostgreSQL's client library, cannot be loaded: "), output.stderr)
        XCTAssertTrue(output.stderr.contains("/nonexistent/libpq.so.5"), "names what it tried to load:\n\(output.stderr)")
        XCTAssertTrue(output.stderr.contains("set REMODEL_LIBPQ to the path of libpq.so.5 or libpq.5.dylib, or unset it"), output.stderr)
        XCTAssertTrue(output.stderr.contains("postgresql://nobody@"), "names the store:\n\(output.stderr)")
    }

    func testALibraryThatIsNotLibpqIsRefusedByName() throws {
        #if os(Linux)
            let libraries = try CLIRunner.runProgram("/usr/bin/env", ["ldd", try CLIRunner.executable().path], in: CLIRunner.packageRoot)
            let sqlite = try XCTUnwrap(
                libraries.stdout.split(separator: "\n").first { $0.contains("libsqlite3") }.flatMap { line in
                    line.split(separator: " ").first { $0.hasPrefix("/") }.map(String.init)
                }, "no path to libsqlite3 in:\n\(libraries.stdout)")
            let output = try CLIRunner.run(["status", "--store", Self.store], environment: ["REMODEL_LIBPQ": sqlite])
            XCTAssertEqual(output.status, 1, output.stdout + output.stderr)
            XCTAssertTrue(output.stderr.contains("'\(sqlite)' is not libpq 9.1 or newer: it has no function PQconninfoParse"), output.stderr)
            XCTAssertTrue(output.stderr.contains("set REMODEL_LIBPQ to PostgreSQL's client library"), output.stderr)
        #endif
    }
}
