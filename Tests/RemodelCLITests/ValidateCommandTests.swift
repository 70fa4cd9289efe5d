import Foundation
import XCTest

/// `remodel validate`, `--help`, `--version` and usage errors, through the real binary.
final class ValidateCommandTests: CLIFolderTestCase {

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Schemas"), withIntermediateDirectories: true)
    }

    private func writeSchema(_ text: String, name: String = "Person.yaml") throws {
        try text.write(to: folder.appendingPathComponent("Schemas").appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    static let broken = """
        objects:
          Person:
            primaryKey: _id
            properties:
              _id: objectId
              dogs: list<Dgo>
              age: { type: int8, default: 300 }

        """

    /// `--schemas other/Schemas` reads `other/Migrations`, never the working directory's
    /// `Migrations/` (which here holds an unrelated, broken history).
    func testTheMigrationsFolderDefaultsToTheOneBesideTheSchemas() throws {
        let other = folder.appendingPathComponent("other/Schemas")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try "objects:\n  Note:\n    primaryKey: id\n    properties:\n      id: string\n".write(to: other.appendingPathComponent("Note.yaml"), atomically: true, encoding: .utf8)
        let unrelated = folder.appendingPathComponent("Migrations")
        try FileManager.default.createDirectory(at: unrelated, withIntermediateDirectories: true)
        try "steps: [".write(to: unrelated.appendingPathComponent("0001-initial.yaml"), atomically: true, encoding: .utf8)

        try remodel(["migration", "new", "initial", "--schemas", "other/Schemas"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("other/Migrations/0001-initial.yaml")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("other/Migrations/snapshots/v1.yaml")))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: unrelated.path), ["0001-initial.yaml"], "the working directory's Migrations/ was written to")

        let output = try remodel(["validate", "--schemas", "other/Schemas"])
        XCTAssertTrue(output.stdout.contains("Migrations: valid (1 version"), output.stdout + output.stderr)
        // The one beside the schemas in the working directory is still read by default, and
        // --migrations still names any folder.
        try remodel(["validate", "--schemas", "other/Schemas", "--migrations", "Migrations"], expect: 1)
        try remodel(["validate", "--schemas", "other/Schemas/"])
        try remodel(["validate", "--schemas", "other/Schemas/Note.yaml"])
    }

    func testExampleSchemaIsValid() throws {
        let output = try CLIRunner.run(["validate"])
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(output.stdout, "Schemas: valid (3 objects, 1 enum, 1 projection in 3 files)\nMigrations: valid (3 versions, current version 3)\n")
        XCTAssertEqual(output.stderr, "")
    }

    /// Replaces the test folder's Schemas/ with the package's, next to a copy of Migrations/.
    private func copyExampleProject() throws {
        let root = CLIRunner.packageRoot
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Schemas"))
        try FileManager.default.copyItem(at: root.appendingPathComponent("Schemas").resolvingSymlinksInPath(), to: folder.appendingPathComponent("Schemas"))
        try FileManager.default.copyItem(at: root.appendingPathComponent("Migrations").resolvingSymlinksInPath(), to: folder.appendingPathComponent("Migrations"))
    }

    func testMigrationStepThatDoesNotFitItsSchemasIsReportedAtItsLine() throws {
        try copyExampleProject()
        let file = folder.appendingPathComponent("Migrations/0002-split-person-name.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("property: name,"), text)
        try text.replacingOccurrences(of: "property: name,", with: "property: nmae,").write(to: file, atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["validate"], in: folder)
        XCTAssertEqual(output.status, 1, output.stderr)
        let lines = output.stderr.split(separator: "\n").map(String.init)
        let error = try XCTUnwrap(lines.first { $0.contains("[migration-unknown-property]") }, output.stderr)
        XCTAssertTrue(error.hasPrefix("Migrations/0002-split-person-name.yaml:"), error)
        XCTAssertTrue(error.contains("has no property 'nmae'"), error)
        XCTAssertTrue(output.stderr.contains("did you mean 'name'?"), output.stderr)
    }

    /// A typo in a convert step is one error at the step, not also a missing step for the
    /// retype it no longer covers.
    func testOneMistakeInAStepIsOneError() throws {
        try copyExampleProject()
        let file = folder.appendingPathComponent("Migrations/0003-dog-details.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("property: weight,"), text)
        try text.replacingOccurrences(of: "property: weight,", with: "property: wieght,").write(to: file, atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["validate"], in: folder)
        XCTAssertEqual(output.status, 1, output.stderr)
        let errors = output.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        XCTAssertEqual(errors.count, 1, output.stderr)
        XCTAssertTrue(errors.first?.contains("'Dog' has no property 'wieght' at this point of the migration [migration-unknown-property]") == true, output.stderr)
        XCTAssertTrue(output.stderr.contains("did you mean 'weight'?"), output.stderr)
    }

    func testSchemaEditedWithoutANewMigrationIsReported() throws {
        try copyExampleProject()
        let file = folder.appendingPathComponent("Schemas/Notes.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "      lastEdited:", with: "      pinned: { type: bool, default: false }\n      lastEdited:").write(
            to: file, atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["validate"], in: folder)
        XCTAssertEqual(output.status, 1, output.stderr)
        XCTAssertTrue(output.stderr.contains("[schema-not-snapshotted]"), output.stderr)
        XCTAssertTrue(output.stderr.contains("property Note.pinned added"), output.stderr)
        XCTAssertTrue(output.stderr.contains("remodel migration new NAME"), output.stderr)
    }

    func testBrokenSchemaListsEveryErrorWithLocationRuleAndHint() throws {
        try writeSchema(Self.broken)
        let output = try CLIRunner.run(["validate"], in: folder)
        XCTAssertEqual(output.status, 1)
        XCTAssertEqual(output.stdout, "")
        XCTAssertEqual(
            output.stderr,
            """
            Schemas/Person.yaml:6:18: error: unknown type 'Dgo' for property 'Person.dogs' [unknown-type]
            Schemas/Person.yaml:6:18: note: use a scalar type (bool, int, int8, int16, int32, int64, float, double, string, data, date, decimal128, objectId, uuid, url) or an enum or object declared in the schema
            Schemas/Person.yaml:7:35: error: default 300 of property 'Person.age' does not fit in int8 (-128...127) [default-out-of-range]
            Schemas/Person.yaml:7:35: note: write a value in range, or use a wider type such as int64
            2 errors

            """)
    }

    func testBrokenCopyOfTheExampleSchemaListsEveryError() throws {
        let schemas = folder.appendingPathComponent("Schemas")
        try FileManager.default.removeItem(at: schemas)
        // Copy the files, not a symlink to them: the test edits the copy.
        try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent("Schemas").resolvingSymlinksInPath(), to: schemas)
        func edit(_ file: String, _ old: String, _ new: String) throws {
            let url = schemas.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            XCTAssertTrue(text.contains(old), "\(file) no longer contains \(old)")
            try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
        }
        try edit("DoggoDB.yaml", "type: list<Dog>", "type: list<Dgo>")
        try edit("DoggoDB.yaml", "default: engineering", "default: Engineering")
        try edit("Notes.yaml", "type: date", "type: datetime")
        try edit("Profiles.yaml", "of: Person", "of: Persn")
        let output = try CLIRunner.run(["validate"], in: folder)
        XCTAssertEqual(output.status, 1)
        let errors = output.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        XCTAssertEqual(errors.count, 4, output.stderr)
        for (prefix, rule) in [
            ("Schemas/DoggoDB.yaml:", "[unknown-type]"), ("Schemas/DoggoDB.yaml:", "[default-not-a-case]"),
            ("Schemas/Notes.yaml:", "[unknown-type]"), ("Schemas/Profiles.yaml:", "[unknown-type]"),
        ] {
            XCTAssertTrue(errors.contains { $0.hasPrefix(prefix) && $0.hasSuffix(rule) }, "no \(rule) in \(prefix):\n\(output.stderr)")
        }
        XCTAssertTrue(output.stderr.contains("note: did you mean 'Dog'?"))
        XCTAssertTrue(output.stderr.contains("note: did you mean 'date'?"))
        XCTAssertTrue(output.stderr.contains("note: did you mean 'Person'?"))
        XCTAssertTrue(output.stderr.contains("'Engineering' is the raw value of case 'engineering': write the case name"))
        XCTAssertTrue(output.stderr.hasSuffix("4 errors\n"))
    }

    func testSchemasOptionTakesAFolderOrAFile() throws {
        try writeSchema(Self.broken)
        let file = try CLIRunner.run(["validate", "--schemas", "Schemas/Person.yaml"], in: folder)
        XCTAssertEqual(file.status, 1)
        XCTAssertTrue(file.stderr.hasPrefix("Schemas/Person.yaml:6:18: error:"), file.stderr)
        let equals = try CLIRunner.run(["validate", "--schemas=\(CLIRunner.packageRoot.path)/Schemas"], in: folder)
        XCTAssertEqual(equals.status, 0, equals.stderr)
    }

    func testJSONFormatPrintsAnArrayOnStdout() throws {
        try writeSchema(Self.broken)
        let output = try CLIRunner.run(["validate", "--format", "json"], in: folder)
        XCTAssertEqual(output.status, 1)
        let array = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.map { $0["rule"] as? String }, ["unknown-type", "default-out-of-range"])
        XCTAssertEqual(array.first?["file"] as? String, "Schemas/Person.yaml")
        XCTAssertEqual(array.first?["line"] as? Int, 6)
        XCTAssertEqual(array.first?["column"] as? Int, 18)
    }

    func testGitHubFormatPrintsWorkflowCommands() throws {
        try writeSchema(Self.broken)
        let output = try CLIRunner.run(["validate", "--format=github"], in: folder)
        XCTAssertEqual(output.status, 1)
        let lines = output.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix("::error file=Schemas/Person.yaml,line=6,col=18,title=unknown-type::unknown type 'Dgo'"), String(lines[0]))
    }

    func testWarningsAloneExitZero() throws {
        try writeSchema("objects:\n  Thing:\n    properties:\n      default: string\n")
        let output = try CLIRunner.run(["validate"], in: folder)
        XCTAssertEqual(output.status, 0)
        XCTAssertTrue(output.stderr.contains("warning: property name 'default' is a Swift keyword [swift-keyword]"), output.stderr)
    }

    func testMissingSchemaFolderFails() throws {
        let output = try CLIRunner.run(["validate", "--schemas", "Nope"], in: folder)
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.stderr.hasPrefix("error: 'Nope' does not exist [file-unreadable]"), output.stderr)
    }

    func testHelpIsTheSameEveryWay() throws {
        let help = try CLIRunner.run(["validate", "--help"])
        XCTAssertEqual(help.status, 0)
        for section in [
            "OVERVIEW: ", "USAGE: remodel validate [--schemas DIR] [--migrations DIR] [--realm] [--format text|json|github]", "OPTIONS:", "--schemas DIR", "(default: Schemas)",
            "-h, --help",
        ] {
            XCTAssertTrue(help.stdout.contains(section), "missing \(section) in:\n\(help.stdout)")
        }
        XCTAssertEqual(try CLIRunner.run(["validate", "-h"]).stdout, help.stdout)
        XCTAssertEqual(try CLIRunner.run(["help", "validate"]).stdout, help.stdout)
    }

    func testToolHelpListsSubcommands() throws {
        let output = try CLIRunner.run(["--help"])
        XCTAssertEqual(output.status, 0)
        XCTAssertTrue(output.stdout.contains("SUBCOMMANDS:"))
        XCTAssertTrue(output.stdout.contains("  validate "))
        XCTAssertEqual(try CLIRunner.run(["help"]).stdout, output.stdout)
    }

    func testVersion() throws {
        let output = try CLIRunner.run(["--version"])
        XCTAssertEqual(output.status, 0)
        XCTAssertTrue(output.stdout.hasSuffix("\n"))
        XCTAssertTrue(output.stdout.first?.isNumber ?? false, output.stdout)
    }

    func testUnknownOptionIsAUsageError() throws {
        let output = try CLIRunner.run(["validate", "--fromat", "json"])
        XCTAssertEqual(output.status, 64)
        XCTAssertEqual(
            output.stderr,
            """
            Error: unknown option '--fromat'; did you mean '--format'?
            Usage: remodel validate [--schemas DIR] [--migrations DIR] [--realm] [--format text|json|github]
              See 'remodel validate --help' for more information.

            """)
    }

    func testOtherUsageErrors() throws {
        let cases: [([String], String)] = [
            (["validate", "--format", "xml"], "Error: invalid value 'xml' for '--format': expected text, json or github"),
            (["validate", "--schemas"], "Error: missing value for '--schemas DIR'"),
            (["validate", "extra"], "Error: unexpected argument 'extra'"),
            (["valdate"], "Error: unknown command 'valdate'; did you mean 'validate'?"),
            (["help", "nope"], "Error: unknown command 'nope'"),
        ]
        for (arguments, message) in cases {
            let output = try CLIRunner.run(arguments)
            XCTAssertEqual(output.status, 64, "\(arguments)")
            XCTAssertTrue(output.stderr.hasPrefix(message + "\n"), "\(arguments): \(output.stderr)")
            XCTAssertTrue(output.stderr.contains("Usage: remodel"), "\(arguments): \(output.stderr)")
        }
    }
}
