import Foundation
import RemodelTestSupport
import XCTest

/// `remodel init` and `status` on a PostgreSQL URL, as a user runs them in this repository:
/// the example's history, a throwaway server, the real binary.
final class PostgresCommandsTests: CLIFolderTestCase {
    override var commandDirectory: URL { CLIRunner.packageRoot }
    private var server: PostgresTestServer!
    private var database: String!

    /// Starts (or reuses) the test server and makes this test's database.
    private func startServer() throws {
        server = try PostgresTestServer.shared { XCTSkip($0) }
        database = try server.makeDatabase()
    }

    func testInitAndStatusOnAURL() throws {
        try startServer()
        let url = server.url(database: database) + "?schema=notes"
        let display = "postgresql://postgres@/\(database!)?host=\(server.socketFolder)&port=\(server.port)"
        let created = try remodel(["init", "--store", url, "--version", "1"])
        XCTAssertTrue(created.stdout.hasPrefix("Created a store in schema 'notes' of \(display) at schema version 1 (3 object types, schema hash 1:"), created.stdout)
        XCTAssertEqual(try server.psql("SELECT string_agg(table_name, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'notes'", database: database), "Dog,Note,Person,Person.dogs,_remodel_metadata,_remodel_migrations\n")
        try server.psql("INSERT INTO notes.\"Note\" VALUES ('n1', 'text', now())", database: database)

        let status = try remodel(["status", "--store", url])
        XCTAssertEqual(status.stdout.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("Schema hash:") }, [
            "Store:           schema 'notes' of \(display)",
            "Schema version:  1",
            "Objects:",
            "  Person  0",
            "  Dog     0",
            "  Note    1",
            "Migrations applied: none (created at version 1)",
            "Pending migrations: 2: 2 split-person-name, 3 dog-details ('remodel migrate' does not run on PostgreSQL stores yet)",
        ])

        let again = try remodel(["init", "--store", url], expect: 1)
        XCTAssertEqual(again.stderr, "Error: the schema 'notes' of \(display) already holds a Remodel store; nothing was changed: use 'remodel status' to see it, or another schema (?schema=NAME) for a new store\n")
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

    func testCommandsThatDoNotTakeAURLSaySo() throws {
        let url = "postgresql://app@127.0.0.1:5432/notes"
        for command in [["export", "--store", url], ["import", "--store", url, "data.json"], ["migrate", "--store", url]] {
            let output = try remodel(command, expect: 64)
            XCTAssertTrue(output.stderr.hasPrefix("Error: --store takes a file here: PostgreSQL stores (postgresql:// URLs) work with 'remodel init' and 'remodel status' so far\n"), output.stderr)
        }
    }

    func testABadSchemaParameterIsAUsageError() throws {
        let output = try remodel(["status", "--store", "postgresql://app:s3cret@127.0.0.1:1/notes?schema="], expect: 64)
        XCTAssertTrue(output.stderr.hasPrefix("Error: --store: the URL's 'schema' parameter must name one schema of at most 63 bytes, as in '?schema=remodel'\n"), output.stderr)
        XCTAssertFalse(output.stderr.contains("s3cret"), output.stderr)
    }

    func testAServerThatDoesNotAnswerIsNamedWithoutThePassword() throws {
        let output = try remodel(["status", "--store", "postgresql://app:sup3r-secret@127.0.0.1:1/notes?connect_timeout=2"], expect: 1)
        XCTAssertTrue(output.stderr.hasPrefix("Error: cannot connect to PostgreSQL at postgresql://app@127.0.0.1:1/notes: connection to server at \"127.0.0.1\", port 1 failed: Connection refused; "), output.stderr)
        XCTAssertTrue(output.stderr.contains("hint: check the URL (postgresql://user@host:port/database), that the server runs and accepts connections from here"), output.stderr)
        XCTAssertFalse(output.stderr.contains("sup3r-secret"), output.stderr)
    }
}
