import Foundation
import XCTest

/// `remodel migration new` through the real binary: it re-creates the example history's
/// snapshots byte for byte, drafts migration files, and refuses what it must.
final class MigrationNewCommandTests: CLIFolderTestCase {

    static let historySources = "Tests/RemodelMigrateTests/Resources/history"

    private func migrationNew(_ name: String, schemas: String, migrations: String) throws -> CLIRunner.Output {
        try CLIRunner.run(["migration", "new", name, "--schemas", schemas, "--migrations", migrations])
    }

    /// The documented way to re-create Migrations/snapshots gives exactly the committed files.
    func testRecreatesTheExampleSnapshots() throws {
        let migrations = folder.appendingPathComponent("Migrations").path
        let first = try migrationNew("initial", schemas: Self.historySources + "/v1", migrations: migrations)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(
            first.stdout,
            "\(migrations)/snapshots/v1.yaml: the schema of version 1\n\(migrations)/0001-initial.yaml: the baseline (no steps)\nVersion 1 can run as written; check it with 'remodel migrate --store FILE --dry-run'\n"
        )
        let second = try migrationNew("split-person-name", schemas: Self.historySources + "/v2", migrations: migrations)
        XCTAssertEqual(second.status, 0, second.stderr)
        let third = try migrationNew("dog-details", schemas: "Schemas", migrations: migrations)
        XCTAssertEqual(third.status, 0, third.stderr)
        for version in 1...3 {
            let made = try String(contentsOfFile: "\(migrations)/snapshots/v\(version).yaml", encoding: .utf8)
            let committed = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Migrations/snapshots/v\(version).yaml"), encoding: .utf8)
            XCTAssertEqual(made, committed, "snapshot v\(version): re-create Migrations/snapshots as \(Self.historySources)/README.md says")
        }
        XCTAssertEqual(
            try String(contentsOfFile: "\(migrations)/0001-initial.yaml", encoding: .utf8),
            try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Migrations/0001-initial.yaml"), encoding: .utf8))

        // The drafts: changes as comments, a convert step for each risky retype, rename questions.
        let v2 = try String(contentsOfFile: "\(migrations)/0002-split-person-name.yaml", encoding: .utf8)
        XCTAssertTrue(v2.contains("#   [destructive] property Person.name removed: its stored values are deleted\n"), v2)
        XCTAssertTrue(v2.contains("  - convert: { type: Person, property: businessUnit, to: BusinessUnitEnum, onError: fail }"), v2)
        XCTAssertTrue(v2.contains("  # Question: was Person.employeeId renamed to personId?"), v2)
        XCTAssertTrue(v2.contains("  # - renameProperty: { type: Person, from: employeeId, to: personId }"), v2)
        let v3 = try String(contentsOfFile: "\(migrations)/0003-dog-details.yaml", encoding: .utf8)
        XCTAssertTrue(v3.contains("  - convert: { type: Dog, property: weight, to: int, onError: fail }"), v3)
        XCTAssertTrue(v3.contains("#   [additive] property Dog.dateLastUpdated added: existing objects get the time of the migration\n"), v3)

        // On an unchanged schema, a data-only version: the same snapshot, steps to write.
        let again = try CLIRunner.run(["migration", "new", "again", "--schemas", "Schemas", "--migrations", migrations])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("0004-again.yaml: a data-only version (the schema did not change): write the steps it runs"), again.stdout)
        XCTAssertEqual(
            try String(contentsOfFile: "\(migrations)/snapshots/v4.yaml", encoding: .utf8), try String(contentsOfFile: "\(migrations)/snapshots/v3.yaml", encoding: .utf8))
        let dataOnly = try String(contentsOfFile: "\(migrations)/0004-again.yaml", encoding: .utf8)
        XCTAssertTrue(dataOnly.contains("# The schema stores the same data as version 3: this is a data-only version.\n"), dataOnly)
        XCTAssertTrue(dataOnly.hasSuffix("steps: []\n"), dataOnly)
    }

    /// A copy of the example's Schemas/ and a new Migrations/ holding it as version 1.
    private func exampleWithBaseline() throws -> (schemas: URL, migrations: String) {
        let schemas = folder.appendingPathComponent("Schemas")
        try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent("Schemas"), to: schemas)
        let migrations = folder.appendingPathComponent("Migrations").path
        XCTAssertEqual(try migrationNew("initial", schemas: schemas.path, migrations: migrations).status, 0)
        return (schemas, migrations)
    }

    /// A draft whose only content is a rename question is valid as written, and stays valid
    /// once its step is uncommented as the comment says.
    func testARenameQuestionCanBeAnsweredByUncommentingIt() throws {
        let (schemas, migrations) = try exampleWithBaseline()
        let doggo = schemas.appendingPathComponent("DoggoDB.yaml")
        let text = try String(contentsOf: doggo, encoding: .utf8)
        XCTAssertTrue(text.contains("      breed: {"), text)
        try text.replacingOccurrences(of: "      breed: {", with: "      kind: {").write(to: doggo, atomically: true, encoding: .utf8)
        let drafted = try migrationNew("breed-to-kind", schemas: schemas.path, migrations: migrations)
        XCTAssertEqual(drafted.status, 0, drafted.stderr)
        let file = migrations + "/0002-breed-to-kind.yaml"
        let draft = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(draft.contains("steps:\n  # Question: was Dog.breed renamed to kind?"), draft)
        let validate = ["validate", "--schemas", schemas.path, "--migrations", migrations]
        let asDrafted = try CLIRunner.run(validate)
        XCTAssertEqual(asDrafted.status, 0, asDrafted.stderr)
        try draft.replacingOccurrences(of: "  # - renameProperty:", with: "  - renameProperty:").write(toFile: file, atomically: true, encoding: .utf8)
        let answered = try CLIRunner.run(validate)
        XCTAssertEqual(answered.status, 0, answered.stderr)
        XCTAssertTrue(answered.stdout.contains("Migrations: valid (2 versions, current version 2)"), answered.stdout)
    }

    /// A removed and an added type with the same properties get a renameType question; once
    /// answered, the objects are kept under the new name.
    func testARenamedTypeIsAskedAbout() throws {
        let (schemas, migrations) = try exampleWithBaseline()
        let store = folder.appendingPathComponent("store.db").path
        XCTAssertEqual(try CLIRunner.run(["init", "--store", store, "--schemas", schemas.path, "--migrations", migrations]).status, 0)
        let notes = schemas.appendingPathComponent("Notes.yaml")
        let text = try String(contentsOf: notes, encoding: .utf8)
        XCTAssertTrue(text.contains("\n  Note:\n"), text)
        try text.replacingOccurrences(of: "\n  Note:\n", with: "\n  Memo:\n").write(to: notes, atomically: true, encoding: .utf8)
        XCTAssertEqual(try migrationNew("memos", schemas: schemas.path, migrations: migrations).status, 0)
        let file = migrations + "/0002-memos.yaml"
        let draft = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(draft.contains("  # Question: was type Note renamed to Memo? (same key and properties)\n"), draft)
        XCTAssertTrue(draft.contains("  # If so, uncomment this step to keep its objects; if not, every Note is deleted.\n  # - renameType: { from: Note, to: Memo }\n"), draft)
        try draft.replacingOccurrences(of: "  # - renameType:", with: "  - renameType:").write(toFile: file, atomically: true, encoding: .utf8)
        let plan = try CLIRunner.run(["migrate", "--store", store, "--dry-run", "--schemas", schemas.path, "--migrations", migrations])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.stdout.contains("rename type Note to Memo"), plan.stdout)
        XCTAssertFalse(plan.stdout.contains("remove type Note"), plan.stdout)
    }

    func testNeverOverwritesAFile() throws {
        let migrations = folder.appendingPathComponent("Migrations").path
        XCTAssertEqual(try migrationNew("initial", schemas: Self.historySources + "/v1", migrations: migrations).status, 0)
        try "keep me".write(toFile: "\(migrations)/snapshots/v2.yaml", atomically: true, encoding: .utf8)
        let result = try migrationNew("split-person-name", schemas: Self.historySources + "/v2", migrations: migrations)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("snapshot-without-migration") || result.stderr.contains("already exists"), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: "\(migrations)/snapshots/v2.yaml", encoding: .utf8), "keep me")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(migrations)/0002-split-person-name.yaml"))
    }

    func testRefusesAnInvalidSchemaAndABadName() throws {
        let schemas = folder.appendingPathComponent("Schemas")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        try "objects:\n  Dog:\n    properties:\n      weight: integer\n".write(to: schemas.appendingPathComponent("Dog.yaml"), atomically: true, encoding: .utf8)
        let migrations = folder.appendingPathComponent("Migrations").path
        let invalid = try migrationNew("initial", schemas: schemas.path, migrations: migrations)
        XCTAssertEqual(invalid.status, 1)
        XCTAssertTrue(invalid.stderr.contains("Dog.yaml:4:"), invalid.stderr)
        XCTAssertTrue(
            invalid.stderr.contains(
                "Error: the schema in '\(schemas.path)' does not load, and `remodel migration new` freezes a new version only from a valid schema, on top of a history that loads; nothing was written. Fix the problems above in '\(schemas.path)/Dog.yaml'"
            ), invalid.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: migrations))

        let badName = try migrationNew("two words", schemas: schemas.path, migrations: migrations)
        XCTAssertEqual(badName.status, 64)
        XCTAssertTrue(badName.stderr.contains("'two words' cannot be a migration name"), badName.stderr)
    }
}
