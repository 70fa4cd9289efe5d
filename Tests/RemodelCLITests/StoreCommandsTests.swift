import Foundation
import XCTest

/// `remodel init`, `import`, `export` and `status` through the real binary, on the example
/// app's schema and migration history.
final class StoreCommandsTests: CLIFolderTestCase {
    override var commandDirectory: URL { CLIRunner.packageRoot }

    static let data = """
        {
          "Person": [
            { "_id": "65a1b2c3d4e5f60718293a4b", "firstName": "Ada", "lastName": "Lovelace", "businessUnit": "Customer Engineering",
              "profileImageUrl": "https://example.com/a.png", "dogs": ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"] }
          ],
          "Dog": [
            { "_id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "name": "Rex \\"🐕\\"\\n", "weight": 12, "dateLastUpdated": "2024-03-01T09:30:00.123456Z" }
          ],
          "Note": [ { "identifier": "n1", "content": "", "lastEdited": "1969-12-31T23:59:59.999999Z" } ]
        }
        """

    func testInitCreatesTheStoreAndRefusesToOverwrite() throws {
        let store = path("s.db")
        let created = try remodel(["init", "--store", store])
        XCTAssertTrue(created.stdout.hasPrefix("Created '\(store)' at schema version 3"), created.stdout)
        let again = try remodel(["init", "--store", store], expect: 1)
        XCTAssertEqual(again.stderr, "Error: '\(store)' already exists; remove it first, or choose another path for the new store\n")
        let older = try remodel(["init", "--store", path("v1.db"), "--version", "1"])
        XCTAssertTrue(older.stdout.contains("at schema version 1"), older.stdout)
        let missing = try remodel(["init", "--store", path("v9.db"), "--version", "9"], expect: 64)
        XCTAssertTrue(missing.stderr.hasPrefix("Error: there is no schema version 9: the migration history has versions 1 to 3\n"), missing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("v9.db")))
    }

    func testExportThenImportRoundTripsExactly() throws {
        let data = try write(Self.data, to: "data.json")
        let imported = try remodel(["import", "--store", path("a.db"), data])
        XCTAssertEqual(imported.stdout, "Imported 1 Person, 1 Dog, 1 Note into '\(path("a.db"))'\n")
        let first = try remodel(["export", "--store", path("a.db")]).stdout
        XCTAssertTrue(first.contains("\"dateLastUpdated\": \"2024-03-01T09:30:00.123456Z\""), first)
        XCTAssertTrue(first.contains("\"lastEdited\": \"1969-12-31T23:59:59.999999Z\""), first)
        XCTAssertTrue(first.contains("\"name\": \"Rex \\\"🐕\\\"\\n\""), first)
        let exported = try write(first, to: "exported.json")
        try remodel(["import", "--store", path("b.db"), exported])
        try remodel(["export", "--store", path("b.db"), "--output", path("again.json")])
        XCTAssertEqual(try String(contentsOfFile: path("again.json"), encoding: .utf8), first)
    }

    func testImportNamesEveryOffendingObjectAndImportsNothing() throws {
        let store = path("s.db")
        try remodel(["init", "--store", store])
        let before = FileManager.default.contents(atPath: store)
        let bad = try write(
            """
            { "Dog": [ { "_id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "weight": "heavy" } ],
              "Person": [ {}, { "businessUnit": "Sales & Marketing" } ] }
            """, to: "bad.json")
        let output = try remodel(["import", "--store", store, bad, "--quiet"], expect: 1)
        XCTAssertEqual(
            output.stderr,
            """
            Error: cannot import \(bad); nothing was imported:
              \(bad): Dog[0].weight: expected an integer (int), found a string
              \(bad): Person[1].businessUnit: "Sales & Marketing" is not a raw value of BusinessUnitEnum (one of: Customer Engineering, Education, Community and Docs, Engineering, Finance and Operations, Human Resources and Recruiting, Management, Marketing, Product, Sales)

            """)
        XCTAssertEqual(FileManager.default.contents(atPath: store), before)
        let counts = try remodel(["status", "--store", store]).stdout
        XCTAssertTrue(counts.contains("  Dog     0\n"), counts)

        let dangling = try write(#"{ "Person": [ { "dogs": ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F"] } ] }"#, to: "dangling.json")
        let refused = try remodel(["import", "--store", path("new.db"), dangling], expect: 1)
        XCTAssertTrue(
            refused.stderr.contains("dangling.json: Person[0].dogs[0]: links to Dog \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", which is neither in the store nor in the file"),
            refused.stderr)
        XCTAssertTrue(refused.stderr.contains("nothing was imported"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("new.db")), "a failed import into a new store leaves no file")

        let syntax = try write("{ \"Dog\": [ }", to: "syntax.json")
        XCTAssertEqual(try remodel(["import", "--store", store, syntax], expect: 1).stderr, "\(syntax):1:12: error: unexpected character '}'\n")

        let wrongVersion = try remodel(["import", "--store", store, "--version", "2", bad], expect: 1)
        XCTAssertTrue(wrongVersion.stderr.contains("is at schema version 3, not 2"), wrongVersion.stderr)
    }

    func testStatusShowsVersionHashCountsAndPendingMigrations() throws {
        let store = path("s.db")
        try remodel(["init", "--store", store, "--version", "1"])
        let status = try remodel(["status", "--store", store]).stdout
        XCTAssertTrue(status.contains("Schema version:  1\n"), status)
        XCTAssertTrue(status.contains("Schema hash:     1:"), status)
        XCTAssertTrue(status.contains("Pending migrations: 2: 2 split-person-name, 3 dog-details (run `remodel migrate --store \(store)`)"), status)
        XCTAssertTrue(status.contains("Size:"), status)
        let notAStore = try write("hello", to: "hello.txt")
        let refused = try remodel(["status", "--store", notAStore], expect: 1)
        XCTAssertTrue(refused.stderr.contains("is not an SQLite database"), refused.stderr)
    }
}
