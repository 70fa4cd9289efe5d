import Foundation
import XCTest

/// `remodel json-schema`, through the real binary: what it prints is what the repository
/// ships, and a wrong kind is a usage error that says which kinds there are.
final class JSONSchemaCommandTests: XCTestCase {
    func testEachKindPrintsTheShippedFile() throws {
        for (kind, file) in [("schema", "remodel-schema.schema.json"), ("migration", "remodel-migration.schema.json")] {
            let output = try CLIRunner.run(["json-schema", kind])
            XCTAssertEqual(output.status, 0, output.stderr)
            XCTAssertEqual(output.stderr, "")
            let shipped = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("JSONSchema").appendingPathComponent(file), encoding: .utf8)
            XCTAssertEqual(output.stdout, shipped, "JSONSchema/\(file) differs from 'remodel json-schema \(kind)'")
            let json = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
            XCTAssertEqual(json?["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema")
        }
    }

    func testAnUnknownOrMissingKindIsAUsageError() throws {
        let unknown = try CLIRunner.run(["json-schema", "snapshot"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.stdout, "")
        XCTAssertTrue(unknown.stderr.hasPrefix("Error: unknown kind of file 'snapshot': expected 'schema' or 'migration' (snapshots are schema files: 'schema')\n"), unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("Usage: remodel json-schema KIND"), unknown.stderr)

        let missing = try CLIRunner.run(["json-schema"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(missing.stderr.contains("KIND"), missing.stderr)
    }

    func testHelpSaysWhatTheSchemasAreForAndWhereTheyAre() throws {
        let help = try CLIRunner.run(["json-schema", "--help"])
        XCTAssertEqual(help.status, 0)
        let text = help.stdout.replacingOccurrences(of: "\n", with: " ")
        for expected in ["USAGE: remodel json-schema KIND", "yaml-language-server", "JSONSchema/remodel-schema.schema.json", "remodel validate"] {
            XCTAssertTrue(text.contains(expected), "missing \(expected) in:\n\(help.stdout)")
        }
        XCTAssertTrue(try CLIRunner.run(["--help"]).stdout.contains("  json-schema "))
    }
}
