import Foundation
import RemodelTestSupport
import XCTest

/// The plan a reviewer reads is what runs, through the real CLI: each check a plan prints stops
/// the migration on the data it describes (and changes nothing), the result of every version
/// conforms to its schema, and reshaped embedded objects keep their members.
final class PlanIsWhatRunsTests: CLIFolderTestCase {
    // MARK: - Removed enum cases

    static let notes = """
        enums:
          Priority:
            type: string
            cases: [low, normal, urgent]
        objects:
          Note:
            primaryKey: id
            properties:
              id: string
              priority: PRIORITY

        """

    static let notesData = #"{"Note": [{"id": "a", "priority": "low"}, {"id": "b", "priority": "urgent"}, {"id": "c", "priority": "normal"}]}"#

    func testRemovedStringEnumCasesStopTheMigrationNamingTheObjects() throws {
        let v1 = Self.notes.replacingOccurrences(of: "PRIORITY", with: "Priority")
        let store = try history(v1: v1, data: Self.notesData, v2: v1.replacingOccurrences(of: "[low, normal, urgent]", with: "[normal, critical]"))
        try expectRefused(
            store,
            contains: [
                "2 Note objects with values of enum cases removed from Priority (low, urgent) in Note.priority: \"a\" (\"low\"), \"b\" (\"urgent\")",
                "hint: add a mapValues step that maps the removed cases to remaining ones",
            ])
    }

    func testRemovedIntEnumCasesStopTheMigration() throws {
        let v1 = """
            enums:
              Level:
                type: int
                cases: { low: 1, normal: 2, urgent: 3 }
            objects:
              Note:
                primaryKey: id
                properties:
                  id: string
                  level: Level

            """
        let data = #"{"Note": [{"id": "a", "level": 1}, {"id": "b", "level": 2}]}"#
        let store = try history(v1: v1, data: data, v2: v1.replacingOccurrences(of: "{ low: 1, normal: 2, urgent: 3 }", with: "{ normal: 2, urgent: 3 }"))
        try expectRefused(store, contains: ["1 Note object with values of enum cases removed from Level (low) in Note.level: \"a\" (1)"])
    }

    func testRemovedCasesOfAnOptionalEnumStopTheMigrationAndNullsPass() throws {
        let v1 = Self.notes.replacingOccurrences(of: "PRIORITY", with: "Priority?")
        let data = #"{"Note": [{"id": "a", "priority": "low"}, {"id": "b", "priority": null}, {"id": "c", "priority": "normal"}]}"#
        let store = try history(v1: v1, data: data, v2: v1.replacingOccurrences(of: "[low, normal, urgent]", with: "[normal]"))
        try expectRefused(store, contains: ["1 Note object with values of enum cases removed from Priority (low, urgent) in Note.priority: \"a\" (\"low\")"])
    }

    /// Owners of embedded boxes holding a priority; `OWNER` is the owner's box properties.
    static let boxes = """
        enums:
          Priority:
            type: string
            cases: [low, normal, urgent]
        objects:
          Owner:
            primaryKey: id
            properties:
              id: int
              OWNER
          Box:
            embedded: true
            properties:
              priority: Priority

        """

    func testRemovedCasesOfAnEnumInsideAnEmbeddedObjectStopTheMigration() throws {
        let v1 = Self.boxes.replacingOccurrences(of: "OWNER", with: "box: Box?\n      boxes: list<Box>")
        let data = #"{"Owner": [{"id": 1, "box": {"priority": "urgent"}, "boxes": []}, {"id": 2, "box": null, "boxes": [{"priority": "normal"}, {"priority": "low"}]}]}"#
        let store = try history(v1: v1, data: data, v2: v1.replacingOccurrences(of: "[low, normal, urgent]", with: "[normal]"))
        try expectRefused(
            store,
            contains: [
                "1 Owner object with values of enum cases removed from Priority (low, urgent) in Owner.box.priority: 1 (\"urgent\")"
            ])
    }

    /// Elements of a list of embedded objects: the error counts the objects that hold them.
    func testRemovedCasesInAListOfEmbeddedObjectsCountTheObjectsThatHoldThem() throws {
        let v1 = Self.boxes.replacingOccurrences(of: "OWNER", with: "boxes: list<Box>")
        let data = #"{"Owner": [{"id": 1, "boxes": [{"priority": "low"}, {"priority": "urgent"}, {"priority": "low"}]}, {"id": 2, "boxes": [{"priority": "normal"}]}]}"#
        let store = try history(v1: v1, data: data, v2: v1.replacingOccurrences(of: "[low, normal, urgent]", with: "[normal]"))
        try expectRefused(store, contains: ["1 Owner object with values of enum cases removed from Priority (low, urgent) in Owner.boxes.priority: 1 (\"low\")"])
    }

    static let nested = """
        enums:
          Priority:
            type: string
            cases: [low, normal, urgent]
        objects:
          Owner:
            primaryKey: id
            properties:
              id: int
              box: Box?
          Box:
            embedded: true
            properties:
              inner: Inner?
              INNERS
          Inner:
            embedded: true
            properties:
              priority: Priority

        """

    func testRemovedCasesOfAnEnumTwoEmbeddedLevelsDownStopTheMigration() throws {
        let v1 = Self.nested.replacingOccurrences(of: "INNERS", with: "")
        let data = #"{"Owner": [{"id": 1, "box": {"inner": {"priority": "urgent"}}}, {"id": 2, "box": {"inner": {"priority": "normal"}}}, {"id": 3, "box": null}]}"#
        let store = try history(v1: v1, data: data, v2: v1.replacingOccurrences(of: "[low, normal, urgent]", with: "[normal]"))
        try expectRefused(
            store, contains: ["1 Owner object with values of enum cases removed from Priority (low, urgent) in Owner.box.inner.priority: 1 (\"urgent\")"])
    }

    func testAMapValuesStepTwoEmbeddedLevelsDownMapsEachValueOnce() throws {
        let v1 = Self.nested.replacingOccurrences(of: "INNERS", with: "")
        let data = #"{"Owner": [{"id": 1, "box": {"inner": {"priority": "low"}}}, {"id": 2, "box": {"inner": {"priority": "normal"}}}]}"#
        let store = try history(
            v1: v1, data: data, v2: v1, steps: "  - mapValues: { type: Inner, property: priority, values: { low: normal, normal: urgent } }\n")
        try remodel(["migrate", "--store", store, "--quiet"])
        let expected = #"{"Owner": [{"id": 1, "box": {"inner": {"priority": "normal"}}}, {"id": 2, "box": {"inner": {"priority": "urgent"}}}]}"#
        XCTAssertEqual(try export(store), try Self.canonicalJSON(JSONSerialization.jsonObject(with: Data(expected.utf8))))
    }

    func testAChangedEmbeddedTypeInAListInsideAnEmbeddedObjectIsRefusedWhereItIsDeclared() throws {
        let v1 = Self.nested.replacingOccurrences(of: "INNERS", with: "inners: list<Inner>")
        let data = #"{"Owner": [{"id": 1, "box": {"inner": null, "inners": [{"priority": "low"}]}}]}"#
        let store = try history(
            v1: v1, data: data, v2: v1, steps: "  - mapValues: { type: Inner, property: priority, values: { low: normal } }\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let output = try remodel(["migrate", "--store", store, "--quiet"], expect: 1)
        XCTAssertTrue(
            output.stderr.contains(
                "Schemas/S.yaml:15:7: error: migration 2: 'Box.inners' holds Inner values inside embedded objects, and version 2 changes and must check them"),
            output.stderr)
        XCTAssertTrue(output.stderr.contains("custom: { name: NAME, type: Owner, writes: [box] }"), output.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), before)
    }

    func testAMapValuesStepForTheRemovedCasesMigratesEveryValue() throws {
        let v1 = Self.notes.replacingOccurrences(of: "PRIORITY", with: "Priority")
        let store = try history(
            v1: v1, data: Self.notesData, v2: v1.replacingOccurrences(of: "[low, normal, urgent]", with: "[normal, critical]"),
            steps: "  - mapValues: { type: Note, property: priority, values: { low: normal, urgent: critical } }\n")
        try remodel(["migrate", "--store", store, "--quiet"])
        XCTAssertEqual(
            try export(store),
            try Self.canonicalJSON(["Note": [["id": "a", "priority": "normal"], ["id": "b", "priority": "critical"], ["id": "c", "priority": "normal"]]]))
    }

    /// Every value a version wrote or narrowed is checked against its schema after the
    /// version's last statement, unless the expression that wrote it can only give allowed
    /// values (a mapValues into cases): the plan shows each check it runs.
    func testThePlanShowsTheConformanceCheckOfANarrowedEnumAndNoneForAMapValuesIntoCases() throws {
        let v1 = Self.notes.replacingOccurrences(of: "PRIORITY", with: "Priority")
        let store = try history(v1: v1, data: Self.notesData, v2: v1.replacingOccurrences(of: "[low, normal, urgent]", with: "[normal, critical]"))
        let refused = try remodel(["migrate", "--store", store, "--dry-run"], expect: 1)
        XCTAssertTrue(refused.stdout.contains("check that every Note.priority is a case of Priority after version 2"), refused.stdout)
        XCTAssertTrue(
            refused.stdout.contains(#"(schema): SELECT "id", "priority" FROM "Note" WHERE "priority" IS NOT NULL AND NOT "priority" IN ('normal', 'critical') LIMIT 10"#),
            refused.stdout)
        try write(
            "description: change\nsteps:\n  - mapValues: { type: Note, property: priority, values: { low: normal, urgent: critical } }\n", to: "Migrations/0002-change.yaml")
        let mapped = try remodel(["migrate", "--store", store, "--dry-run"])
        XCTAssertFalse(mapped.stdout.contains("check that every Note.priority"), mapped.stdout)
    }

    // MARK: - Embedded objects keep their members

    func testAReshapedEmbeddedObjectKeepsItsNullMembersAsAFreshStoreDoes() throws {
        let v1 = """
            objects:
              Owner:
                primaryKey: id
                properties:
                  id: int
                  box: Box?
              Box:
                embedded: true
                properties:
                  embeddedId1: int
                  embeddedEntity2: Inner?
              Inner:
                embedded: true
                properties:
                  x: int

            """
        let v2 = v1.replacingOccurrences(of: "      embeddedEntity2: Inner?\n", with: "      embeddedEntity2: Inner?\n      added: string?\n")
        let data = #"{"Owner": [{"id": 1, "box": {"embeddedId1": 11, "embeddedEntity2": null}}, {"id": 2, "box": {"embeddedId1": 12, "embeddedEntity2": {"x": 3}}}]}"#
        let store = try history(v1: v1, data: data, v2: v2)
        try remodel(["migrate", "--store", store, "--quiet"])
        let migrated = try export(store)
        XCTAssertTrue(migrated.contains(#""embeddedEntity2" : null"#), migrated)
        // A fresh store at version 2 holding the same objects exports the same.
        try remodel(["import", "--store", path("fresh.sqlite"), "--quiet", path("data.json")])
        XCTAssertEqual(try export(path("fresh.sqlite")), migrated)
    }
}

/// `migration new` drafts what removed enum cases become, as it drafts property renames: a
/// commented `mapValues` for each property holding the enum, with a question; answered, the
/// version migrates every value.
final class RemovedEnumCaseDraftTests: CLIFolderTestCase {
    func testTheDraftAsksWhatRemovedCasesBecomeAndItsAnswerMigrates() throws {
        let v1 = PlanIsWhatRunsTests.notes.replacingOccurrences(of: "PRIORITY", with: "Priority")
        try write(v1, to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
        try write(PlanIsWhatRunsTests.notesData, to: "data.json")
        try remodel(["import", "--store", path("s.sqlite"), "--quiet", path("data.json")])
        try write(v1.replacingOccurrences(of: "[low, normal, urgent]", with: "[normal, veryUrgent]"), to: "Schemas/S.yaml")
        let output = try remodel(["migration", "new", "fewer-priorities"])
        XCTAssertTrue(output.stdout.contains("it asks 1 question"), output.stdout)
        let file = path("Migrations/0002-fewer-priorities.yaml")
        let draft = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(
            draft.contains(
                "  # Question: what do the cases removed from Priority (low, urgent) become in Note.priority? Stored values of a removed case stop the migration.\n"
                    + "  # Uncomment this step and check each value (low → normal is a guess; urgent → veryUrgent looks like a rename).\n"
                    + "  # - mapValues: { type: Note, property: priority, values: { low: normal, urgent: veryUrgent } }\n"), draft)
        // Left unanswered, the migration stops on the stored values and changes nothing.
        let refused = try remodel(["migrate", "--store", path("s.sqlite"), "--quiet"], expect: 1)
        XCTAssertTrue(refused.stderr.contains("2 Note objects with values of enum cases removed from Priority (low, urgent)"), refused.stderr)
        // `validate` and `check` name the open question at its line.
        let validate = try remodel(["validate"], expect: 0)
        XCTAssertTrue(validate.stderr.contains("0002-fewer-priorities.yaml:") || validate.stdout.contains("0002-fewer-priorities.yaml:"), validate.stdout + validate.stderr)
        // Answered, every value migrates.
        try draft.replacingOccurrences(of: "  # - mapValues:", with: "  - mapValues:").write(toFile: file, atomically: true, encoding: .utf8)
        try remodel(["migrate", "--store", path("s.sqlite"), "--quiet"])
        XCTAssertEqual(
            try export(path("s.sqlite")),
            try Self.canonicalJSON(["Note": [["id": "a", "priority": "normal"], ["id": "b", "priority": "veryUrgent"], ["id": "c", "priority": "normal"]]]))
    }
}

extension CLIFolderTestCase {

    /// `Schemas/S.yaml` at `v1`, frozen as version 1, a store `s.sqlite` holding `data`, then
    /// the schema edited to `v2` and frozen as version 2 with `steps` (YAML list items, or
    /// `[]`; `nil` keeps the draft `migration new` wrote). Returns the store's path.
    @discardableResult
    func history(v1: String, data: String, v2: String, steps: String? = "  []\n") throws -> String {
        try write(v1, to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
        try write(data, to: "data.json")
        try remodel(["import", "--store", path("s.sqlite"), "--quiet", path("data.json")])
        try write(v2, to: "Schemas/S.yaml")
        let output = try CLIRunner.run(["migration", "new", "change"], in: folder)
        XCTAssertTrue([0, 1].contains(output.status), output.stderr)
        if let steps { try write("description: change\nsteps:\n\(steps)", to: "Migrations/0002-change.yaml") }
        return path("s.sqlite")
    }

    /// Runs `migrate` (a dry run, then for real) expecting a data error with every text of
    /// `contains`, and checks that the store's bytes did not change.
    func expectRefused(_ store: String, contains texts: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        for arguments in [["--dry-run"], []] {
            let output = try remodel(["migrate", "--store", store, "--quiet"] + arguments, expect: 1, file: file, line: line)
            for text in texts {
                XCTAssertTrue(output.stderr.contains(text), "missing: \(text)\n\(output.stderr)", file: file, line: line)
            }
            XCTAssertTrue(output.stderr.contains("Nothing was changed"), output.stderr, file: file, line: line)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), before, "the store changed", file: file, line: line)
        }
    }
}
