import Foundation
import RemodelCore
import XCTest

/// The migration core as a new user meets it, through the real binary: every command runs the
/// same check and agrees; drafts ask the right questions and say at once what they still
/// need; `migration amend` re-freezes an unreleased version; two migrations started together
/// apply a version once; a migrated store is laid out as a fresh one. Each test here failed
/// on the tool before the typed plan.
final class MigrationCoreCommandTests: CLIFolderTestCase {

    /// Writes `Schemas/People.yaml` in the project folder.
    private func schema(_ text: String) throws {
        let schemas = folder.appendingPathComponent("Schemas")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        try text.write(to: schemas.appendingPathComponent("People.yaml"), atomically: true, encoding: .utf8)
    }

    private func read(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    static let names = """
        objects:
          Person:
            primaryKey: id
            properties:
              id: { type: string }
              firstName: { type: string, default: "" }
              lastName: { type: string, default: "" }

        """
    static let fullName = """
        objects:
          Person:
            primaryKey: id
            properties:
              id: { type: string }
              fullName: { type: string, default: "" }

        """

    /// Version 1 with `names`, version 2 with `fullName`.
    private func fullNameProject() throws {
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        try schema(Self.fullName)
        try remodel(["migration", "new", "full-name"])
    }

    // MARK: - One check for all

    /// Both rename questions uncommented: `validate` accepted it and which name survived
    /// changed from run to run. Now every command refuses it with the same diagnostic, at
    /// the second rename.
    func testEveryCommandRefusesTwoRenamesIntoOneName() throws {
        try fullNameProject()
        let store = folder.appendingPathComponent("app.db").path
        try remodel(["init", "--store", store, "--version", "1"])
        try write(
            """
            description: full name
            steps:
              - renameProperty: { type: Person, from: firstName, to: fullName }
              - renameProperty: { type: Person, from: lastName, to: fullName }

            """, to: "Migrations/0002-full-name.yaml")
        let diagnostic =
            "Migrations/0002-full-name.yaml:4:5: error: migration 2 step 2 (renameProperty): renames 'Person.lastName' to 'fullName', but step 1 already renames 'firstName' to it: one property cannot continue two [migration-rename-conflict]"
        let hash = try Data(contentsOf: URL(fileURLWithPath: store))
        for arguments in [
            ["validate"], ["generate", "--output", "Generated"], ["generate", "--bundle", "Bundle"], ["migrate", "--store", store], ["migrate", "--store", store, "--dry-run"],
        ] {
            let output = try remodel(arguments, expect: 1)
            XCTAssertTrue(output.stderr.contains(diagnostic), "\(arguments): \(output.stderr)")
            XCTAssertTrue(output.stderr.contains("Migrations/0002-full-name.yaml:3:5: note: the other rename is here"), "\(arguments): \(output.stderr)")
        }
        // Nothing was generated for a history that cannot migrate the stores it would open.
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Generated").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Bundle").path))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), hash)
        let status = try remodel(["status", "--store", store])
        XCTAssertTrue(status.stdout.contains("Pending migrations: unknown (the history has errors, listed above"), status.stdout)
        XCTAssertTrue(status.stderr.contains(diagnostic), status.stderr)
    }

    /// A history the plain tool cannot run (a custom step): `status` says so, at the step,
    /// instead of recommending `remodel migrate`; a custom step the store has run already is
    /// not mentioned.
    func testStatusDoesNotRecommendAMigrationTheToolCannotRun() throws {
        try fullNameProject()
        let store = folder.appendingPathComponent("app.db").path
        try remodel(["init", "--store", store, "--version", "1"])
        try write("description: full name\nsteps:\n  - custom: { name: joinNames, type: Person }\n", to: "Migrations/0002-full-name.yaml")
        let status = try remodel(["status", "--store", store])
        XCTAssertTrue(
            status.stdout.contains(
                "Pending migrations: 1: 2 full-name (they have custom steps this program does not register, in Migrations/0002-full-name.yaml:3; run them with the app, or a remodel built with RemodelTool that registers them"
            ), status.stdout)
        XCTAssertFalse(status.stdout.contains("run `remodel migrate"), status.stdout)
        let current = folder.appendingPathComponent("current.db").path
        try remodel(["init", "--store", current])
        XCTAssertTrue(try remodel(["status", "--store", current]).stdout.contains("Pending migrations: none (up to date)\n"))
    }

    // MARK: - Drafts

    /// First + last name → full name: one `set` template, not two rename questions into
    /// the same property.
    func testTheDraftOffersASetTemplateForPartsOfANewProperty() throws {
        try fullNameProject()
        let draft = try read("Migrations/0002-full-name.yaml")
        XCTAssertTrue(draft.contains("  # Question: does Person.fullName combine firstName and lastName?\n"), draft)
        XCTAssertTrue(draft.contains("  # - set: { type: Person, property: fullName, value: \"{firstName} {lastName}\" }\n"), draft)
        XCTAssertFalse(draft.contains("- renameProperty"), draft)
        // Answered as the comment says, it runs.
        try write(draft.replacingOccurrences(of: "  # - set:", with: "  - set:"), to: "Migrations/0002-full-name.yaml")
        let store = folder.appendingPathComponent("app.db").path
        try remodel(["init", "--store", store, "--version", "1"])
        try write(#"{ "Person": [{ "id": "p1", "firstName": "Ada", "lastName": "Lovelace" }] }"#, to: "v1.json")
        try remodel(["import", "--store", store, "v1.json"])
        try remodel(["migrate", "--store", store, "--no-backup"])
        XCTAssertTrue(try remodel(["export", "--store", store]).stdout.contains("\"fullName\": \"Ada Lovelace\""))
    }

    /// Dog → Pet with a new `kind`: the draft proposed deleting every dog. Now it asks
    /// whether the type was renamed, and whether the list of dogs follows it.
    func testTheDraftAsksWhetherATypeWithChangedPropertiesWasRenamed() throws {
        try schema(
            """
            objects:
              Person:
                primaryKey: id
                properties:
                  id: string
                  dogs: list<Dog>
              Dog:
                primaryKey: id
                properties:
                  id: { type: uuid, default: $uuid }
                  name: { type: string, default: "" }

            """)
        try remodel(["migration", "new", "initial"])
        try schema(
            """
            objects:
              Person:
                primaryKey: id
                properties:
                  id: string
                  pets: list<Pet>
              Pet:
                primaryKey: id
                properties:
                  id: { type: uuid, default: $uuid }
                  name: { type: string, default: "" }
                  kind: { type: string, default: dog }

            """)
        try remodel(["migration", "new", "pets"])
        let draft = try read("Migrations/0002-pets.yaml")
        XCTAssertTrue(draft.contains("  # Question: was type Dog renamed to Pet? (the same key type, and 2 properties in common: id, name)\n"), draft)
        XCTAssertTrue(draft.contains("  # - renameType: { from: Dog, to: Pet }\n"), draft)
        XCTAssertTrue(draft.contains("  # Question: was Person.dogs renamed to pets? (if Dog was renamed to Pet)\n"), draft)
        XCTAssertTrue(draft.contains("  # - renameProperty: { type: Person, from: dogs, to: pets }\n"), draft)
        // Both answered: the dogs stay, as pets, in their owners' lists.
        try write(draft.replacingOccurrences(of: "  # - rename", with: "  - rename"), to: "Migrations/0002-pets.yaml")
        let store = folder.appendingPathComponent("app.db").path
        try write(
            #"{ "Person": [{ "id": "p1", "dogs": ["00000000-0000-0000-0000-0000000000D1"] }], "Dog": [{ "id": "00000000-0000-0000-0000-0000000000D1", "name": "Rex" }] }"#,
            to: "v1.json")
        try remodel(["import", "--store", store, "--version", "1", "v1.json"])
        let migrated = try remodel(["migrate", "--store", store, "--no-backup"])
        XCTAssertFalse(migrated.stdout.contains("[destructive]"), migrated.stdout)
        let export = try remodel(["export", "--store", store]).stdout
        XCTAssertTrue(export.contains("\"name\": \"Rex\""), export)
        XCTAssertTrue(export.contains("\"kind\": \"dog\""), export)
        XCTAssertTrue(export.contains("\"pets\": [\n        \"00000000-0000-0000-0000-0000000000D1\""), export)
    }

    /// A new required property without a default: the draft's note said "review them",
    /// `validate` blamed line 1 of the file's comment header, and its hint created the next
    /// version. Now `migration new` says at once what to write and where, `validate` points
    /// at the property, and `migration amend` re-freezes the version after the fix.
    func testADraftThatCannotRunSaysSoAtOnceAndIsAmended() throws {
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        try schema(
            Self.names.replacingOccurrences(
                of: "      lastName: { type: string, default: \"\" }\n", with: "      lastName: { type: string, default: \"\" }\n      nickname: string\n"))
        let drafted = try remodel(["migration", "new", "nicknames"])
        let diagnostic =
            "Schemas/People.yaml:8:7: error: migration 2: 'Person.nickname' is new and required but has no default, so existing objects would have no value [migration-missing-value]"
        XCTAssertTrue(drafted.stderr.contains(diagnostic), drafted.stderr)
        XCTAssertTrue(drafted.stderr.contains("after editing the schema, run 'remodel migration amend' to freeze version 2 again"), drafted.stderr)
        XCTAssertTrue(
            drafted.stderr.contains("Version 2 cannot run yet: fix the problems above in 'Migrations/0002-nicknames.yaml' or in 'Schemas' (then run 'remodel migration amend'"),
            drafted.stderr)
        let validate = try remodel(["validate"], expect: 1)
        XCTAssertTrue(validate.stderr.contains(diagnostic), validate.stderr)

        // The user edits the migration's description, then gives the property a default.
        let edited = try read("Migrations/0002-nicknames.yaml").replacingOccurrences(of: "description: \"nicknames\"", with: "description: People get nicknames")
        try write(edited, to: "Migrations/0002-nicknames.yaml")
        try schema(
            Self.names.replacingOccurrences(
                of: "      lastName: { type: string, default: \"\" }\n", with: "      lastName: { type: string, default: \"\" }\n      nickname: { type: string, default: \"\" }\n")
        )
        let amended = try remodel(["migration", "amend"])
        XCTAssertTrue(amended.stdout.contains("Migrations/snapshots/v2.yaml: the schema of version 2, frozen again from 'Schemas'"), amended.stdout)
        XCTAssertTrue(amended.stdout.contains("Version 2 can run as written"), amended.stdout)
        XCTAssertTrue(amended.stderr.contains("amend only a version no store has applied yet"), amended.stderr)
        let file = try read("Migrations/0002-nicknames.yaml")
        XCTAssertTrue(file.contains("description: People get nicknames\n"), file)
        XCTAssertTrue(file.contains("#   [additive] property Person.nickname added: existing objects get \"\"\n"), file)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Migrations/0003-nicknames.yaml").path))
        try remodel(["validate"])
        let again = try remodel(["migration", "amend"])
        XCTAssertTrue(again.stdout.contains("nothing to amend"), again.stdout)
    }

    /// An unchanged schema gives a data-only version, whose steps run.
    func testADataOnlyVersionRunsItsSteps() throws {
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        let drafted = try remodel(["migration", "new", "clean-up"])
        XCTAssertTrue(drafted.stdout.contains("a data-only version (the schema did not change)"), drafted.stdout)
        try write(
            "description: clean up\nsteps:\n  - deleteObjects: { type: Person, where: { firstName: \"\" } }\n  - set: { type: Person, property: lastName, value: \"{lastName}!\" }\n",
            to: "Migrations/0002-clean-up.yaml")
        let store = folder.appendingPathComponent("app.db").path
        try write(#"{ "Person": [{ "id": "p1", "firstName": "Ada", "lastName": "L" }, { "id": "p2" }] }"#, to: "v1.json")
        try remodel(["import", "--store", store, "--version", "1", "v1.json"])
        try remodel(["migrate", "--store", store, "--no-backup"])
        let export = try remodel(["export", "--store", store]).stdout
        XCTAssertTrue(export.contains("\"lastName\": \"L!\""), export)
        XCTAssertFalse(export.contains("p2"), export)
    }

    /// One removed text property and two new ones: the draft asked "was fullName renamed to
    /// lastName?". Now it offers a `split`, which runs as written.
    func testTheDraftOffersASplitForOneTextPropertyBecomingSeveral() throws {
        try schema(Self.fullName)
        try remodel(["migration", "new", "initial"])
        try schema(Self.names)
        try remodel(["migration", "new", "names"])
        let draft = try read("Migrations/0002-names.yaml")
        XCTAssertTrue(draft.contains("  # Question: does Person.fullName split into firstName and lastName? (the parts in this order, separated by a space)\n"), draft)
        XCTAssertTrue(draft.contains("  # - split: { type: Person, property: fullName, into: [firstName, lastName], separator: \" \" }\n"), draft)
        XCTAssertFalse(draft.contains("- renameProperty"), draft)
        try write(draft.replacingOccurrences(of: "  # - split:", with: "  - split:"), to: "Migrations/0002-names.yaml")
        let store = folder.appendingPathComponent("app.db").path
        try write(#"{ "Person": [{ "id": "p1", "fullName": "Grace Brewster Hopper" }] }"#, to: "v1.json")
        try remodel(["import", "--store", store, "--version", "1", "v1.json"])
        try remodel(["migrate", "--store", store, "--no-backup"])
        let export = try remodel(["export", "--store", store]).stdout
        XCTAssertTrue(export.contains("\"firstName\": \"Grace\"") && export.contains("\"lastName\": \"Brewster Hopper\""), export)
    }

    /// `amend` listed a property the file renames as removed, asked whether the new name
    /// combined the old ones, and proposed a second rename into a name a step already uses.
    func testAmendDoesNotAskAboutWhatTheStepsAlreadyDo() throws {
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        try schema(Self.fullName)
        try remodel(["migration", "new", "full-name"])
        try write("description: full name\nsteps:\n  - renameProperty: { type: Person, from: firstName, to: fullName }\n", to: "Migrations/0002-full-name.yaml")
        try schema(
            Self.fullName.replacingOccurrences(
                of: "      fullName: { type: string, default: \"\" }\n", with: "      fullName: { type: string, default: \"\" }\n      nickname: { type: string, default: \"\" }\n")
        )
        try remodel(["migration", "amend"])
        let amended = try read("Migrations/0002-full-name.yaml")
        XCTAssertTrue(amended.contains("#   [additive] property Person.firstName renamed to fullName\n"), amended)
        XCTAssertFalse(amended.contains("Person.firstName removed"), amended)
        XCTAssertFalse(amended.contains("combine"), amended)
        XCTAssertEqual(amended.components(separatedBy: "to: fullName").count, 2, amended)
        XCTAssertTrue(amended.contains("  # - renameProperty: { type: Person, from: lastName, to: nickname }\n"), amended)
        XCTAssertTrue(amended.contains("  - renameProperty: { type: Person, from: firstName, to: fullName }\n"), amended)
    }

    // MARK: - Diagnostics of step values

    /// Problems with a value were reported at its key (`weight:`), and several had no hint.
    func testAProblemWithAValueIsReportedAtTheValueWithAHint() throws {
        try schema(
            Self.names.replacingOccurrences(
                of: "      id: { type: string }\n", with: "      id: { type: string }\n      weight: { type: double, default: 0 }\n      age: { type: int, default: 0 }\n"))
        try remodel(["migration", "new", "initial"])
        try remodel(["migration", "new", "clean-up"])
        let line = "  - deleteObjects: { type: Person, where: { weight: heavy } }"
        let column = line.distance(from: line.startIndex, to: line.range(of: "heavy")!.lowerBound) + 1
        try write("description: clean up\nsteps:\n\(line)\n", to: "Migrations/0002-clean-up.yaml")
        let output = try remodel(["validate"], expect: 1)
        XCTAssertTrue(
            output.stderr.contains(
                "Migrations/0002-clean-up.yaml:3:\(column): error: migration 2 step 1 (deleteObjects): where weight: \"heavy\" is not a valid double [migration-invalid-value]"),
            output.stderr)
        XCTAssertTrue(output.stderr.contains("Migrations/0002-clean-up.yaml:3:\(column): note: write a number such as 1.5, without quotes"), output.stderr)
        let comparison = "  - deleteObjects: { type: Person, where: { age: { contains: x } } }"
        let at = comparison.distance(from: comparison.startIndex, to: comparison.range(of: "x }")!.lowerBound) + 1
        try write("description: clean up\nsteps:\n\(comparison)\n", to: "Migrations/0002-clean-up.yaml")
        let text = try remodel(["validate"], expect: 1)
        XCTAssertTrue(
            text.stderr.contains("Migrations/0002-clean-up.yaml:3:\(at): error: migration 2 step 1 (deleteObjects): where age: contains compares text, but 'age' is int"),
            text.stderr)
        XCTAssertTrue(text.stderr.contains("note: compare int values with equals, in or an ordering"), text.stderr)
        let list = "  - createObjects: { type: Person, objects: [{ id: p7, lastName: [x] }] }"
        let listAt = list.distance(from: list.startIndex, to: list.range(of: "[x]")!.lowerBound) + 1
        try write("description: clean up\nsteps:\n\(list)\n", to: "Migrations/0002-clean-up.yaml")
        let lists = try remodel(["validate"], expect: 1)
        XCTAssertTrue(
            lists.stderr.contains("Migrations/0002-clean-up.yaml:3:\(listAt): error: the value of 'lastName' for a new object must be a single value, found a list"), lists.stderr)
        XCTAssertTrue(lists.stderr.contains("note: steps set single values: fill lists, sets, maps and embedded objects in a custom step"), lists.stderr)
    }

    /// A custom step passed `validate` silently, although plain `remodel migrate` refuses it.
    func testValidateWarnsAboutACustomStepThisToolCannotRun() throws {
        try fullNameProject()
        try write("description: full name\nsteps:\n  - custom: { name: joinNames, type: Person }\n", to: "Migrations/0002-full-name.yaml")
        let output = try remodel(["validate"])
        XCTAssertTrue(
            output.stderr.contains(
                "Migrations/0002-full-name.yaml:3:5: warning: migration 2 step 1 (custom): custom step 'joinNames' is a Swift closure that this remodel does not register, so `remodel migrate` refuses version 2 [migration-custom-step-unavailable]"
            ), output.stderr)
        XCTAssertTrue(output.stderr.contains("RemodelTool"), output.stderr)
        XCTAssertTrue(output.stdout.contains("Migrations: valid (2 versions, current version 2)"), output.stdout)
    }

    // MARK: - Messages a new user met

    /// The `names` schema as version 1, then `nickname` required with no default as version 2:
    /// a draft that cannot run (its problem is at `Schemas/People.yaml:8:7`).
    private func brokenSecondVersion() throws {
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        try schema(Self.names + "      nickname: string\n")
        try remodel(["migration", "new", "nicknames"])
    }

    private func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path)
    }

    /// `migration new 0002-x` wrote `0002-0002-x.yaml`. Now the number is dropped when it is
    /// the next version's, and another number is a usage error saying remodel chooses it.
    func testANameStartingWithAVersionNumber() throws {
        try schema(Self.names)
        let first = try remodel(["migration", "new", "0001-initial"])
        XCTAssertTrue(first.stdout.contains("Migrations/0001-initial.yaml: the baseline (no steps)"), first.stdout)
        try schema(Self.fullName)
        let wrong = try remodel(["migration", "new", "0003-full-name"], expect: 64)
        XCTAssertTrue(
            wrong.stderr.contains(
                "Error: '0003-full-name' starts with the version number 0003, but remodel chooses the number: the next version is 2, so pass the name alone ('remodel migration new full-name' writes '0002-full-name.yaml')"
            ), wrong.stderr)
        XCTAssertFalse(exists("Migrations/snapshots/v2.yaml"))
        let drafted = try remodel(["migration", "new", "0002-full-name"])
        XCTAssertTrue(drafted.stdout.contains("Migrations/0002-full-name.yaml: the steps from version 1; review them"), drafted.stdout)
        XCTAssertTrue(exists("Migrations/0002-full-name.yaml"))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Migrations").path).sorted(),
            ["0001-initial.yaml", "0002-full-name.yaml", "remodel.sum", "snapshots"])
    }

    /// A new version on top of one that cannot run was written, and its readiness line sent
    /// the user to the new file. Now nothing is written and the broken file is named.
    func testNoNewVersionOnTopOfOneThatCannotRun() throws {
        try brokenSecondVersion()
        let refused = try remodel(["migration", "new", "0003-x"], expect: 1)
        XCTAssertTrue(refused.stderr.contains("Schemas/People.yaml:8:7: error: migration 2: 'Person.nickname' is new and required but has no default"), refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains("Error: version 2 cannot run yet (the problems above), so no version 3 was written: fix 'Migrations/0002-nicknames.yaml' first"), refused.stderr
        )
        XCTAssertTrue(refused.stderr.contains("then run 'remodel migration new x' again\n"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("Version 3"), refused.stderr)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertFalse(exists("Migrations/0003-x.yaml"))
        XCTAssertFalse(exists("Migrations/0003-0003-x.yaml"))
        XCTAssertFalse(exists("Migrations/snapshots/v3.yaml"))

        // A problem in a step of the earlier file: the same refusal, at the step.
        try schema(Self.names + "      nickname: { type: string, default: \"\" }\n")
        try remodel(["migration", "amend"])
        try write("description: nicknames\nsteps:\n  - set: { type: Person, property: nickname, value: \"{firstNme}\" }\n", to: "Migrations/0002-nicknames.yaml")
        let step = try remodel(["migration", "new", "x"], expect: 1)
        XCTAssertTrue(step.stderr.contains("Migrations/0002-nicknames.yaml:3:53: error: migration 2 step 1 (set): 'Person' has no property 'firstNme'"), step.stderr)
        XCTAssertTrue(step.stderr.contains("fix 'Migrations/0002-nicknames.yaml' first, check with 'remodel validate', then run 'remodel migration new x' again\n"), step.stderr)
        XCTAssertFalse(exists("Migrations/snapshots/v3.yaml"))
    }

    /// `init --version 1` and `import --version 1` refused a history whose version 2 cannot
    /// run with only version 2's diagnostic. Now a line says what failed, why they need it,
    /// and what to fix; they still refuse, and create nothing.
    func testInitAndImportSayWhyAnOlderVersionNeedsTheWholeHistory() throws {
        try brokenSecondVersion()
        try write(#"{ "Person": [{ "id": "p1" }] }"#, to: "v1.json")
        for (command, extra) in [("init", [String]()), ("import", ["v1.json"])] {
            let output = try remodel([command, "--store", "app.db", "--version", "1"] + extra, expect: 1)
            XCTAssertTrue(output.stderr.contains("Schemas/People.yaml:8:7: error: migration 2:"), output.stderr)
            XCTAssertTrue(
                output.stderr.hasSuffix(
                    """
                    1 error
                    Error: the migration history in 'Migrations' does not load, and `remodel \(command)` needs all of it, even for --version 1: \
                    it creates a store only from a history whose every version can run, so that the store can be migrated later; nothing was created. \
                    Fix the problems above in 'Schemas/People.yaml', check with 'remodel validate', then run it again

                    """), output.stderr)
            XCTAssertFalse(exists("app.db"), command)
        }
    }

    /// A released version amended (its file and snapshot rewritten): `migrate` said "the
    /// schema changed without a new version: add a migration", which cannot help. Now it says
    /// to restore the files the store applied, and make the change in a new version.
    func testAnAmendedReleasedVersionIsToBeRestored() throws {
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        try schema(Self.names + "      nickname: { type: string, default: \"\" }\n")
        try remodel(["migration", "new", "nicknames"])
        let store = folder.appendingPathComponent("app.db").path
        try remodel(["init", "--store", store, "--version", "1"])
        try remodel(["migrate", "--store", store, "--no-backup"])
        try schema(Self.names + "      nickname: { type: string, default: \"\" }\n      age: { type: int, default: 0 }\n")
        try remodel(["migration", "amend"])
        let hash = try Data(contentsOf: URL(fileURLWithPath: store))
        let refused = try remodel(["migrate", "--store", store, "--no-backup"], expect: 1)
        XCTAssertTrue(refused.stderr.contains("Warning: migration 2 (Migrations/0002-nicknames.yaml) has changed since this store applied it"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("Error: the store '\(store)' is at schema version 2 but was written with a different schema"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("its history was changed after the store applied it ('Migrations/0002-nicknames.yaml', the warning above;"), refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains(
                "Restore 'Migrations/0002-nicknames.yaml' and 'Migrations/snapshots/v2.yaml' as they were when the store applied version 2 (from version control), then make the change in a new version (`remodel migration new NAME`); the store is unchanged\n"
            ), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("add a migration"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), hash)
    }

    /// `init` said "1 object types".
    func testInitCountsObjectTypesInPlainEnglish() throws {
        try schema(Self.names)
        let one = try remodel(["init", "--store", "one.db"])
        XCTAssertTrue(one.stdout.hasPrefix("Created 'one.db' at schema version 1 (1 object type, schema hash "), one.stdout)
        try schema(Self.names + "  Dog:\n    properties:\n      name: string\n")
        let two = try remodel(["init", "--store", "two.db"])
        XCTAssertTrue(two.stdout.hasPrefix("Created 'two.db' at schema version 1 (2 object types, schema hash "), two.stdout)
    }

    /// Notes were bold black (`1;30`) on a terminal: invisible on a dark theme. Now bold in
    /// the terminal's own colour, as swiftc prints them. Run under a pseudo-terminal.
    func testNotesOnATerminalAreReadableOnDarkThemes() throws {
        let script = URL(fileURLWithPath: "/usr/bin/script")
        guard FileManager.default.isExecutableFile(atPath: script.path) else { throw XCTSkip("needs script(1) for a pseudo-terminal") }
        try schema("objects:\n  Dog:\n    properties:\n      weight: integer\n")
        let process = Process()
        process.executableURL = script
        let command = "env -u NO_COLOR TERM=xterm '\(try CLIRunner.executable().path)' validate"
        process.arguments = ["-qec", command, "/dev/null"]
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 1, text)
        XCTAssertTrue(text.contains("\u{1B}[1mSchemas/People.yaml:4:15: \u{1B}[0m\u{1B}[1;31merror:\u{1B}[0m \u{1B}[1munknown type 'integer'"), text)
        XCTAssertTrue(text.contains("\u{1B}[1mSchemas/People.yaml:4:15: \u{1B}[0m\u{1B}[1;39mnote:\u{1B}[0m did you mean 'int'?"), text)
        XCTAssertFalse(text.contains("1;30m"), text)
    }

    /// The manual's samples of diagnostics are the tool's output, byte for byte.
    func testTheManualSamplesAreTheRealOutput() throws {
        let migrationFiles = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Docs/Guides.docc/MigrationFiles.md"), encoding: .utf8)
        let diagnostics = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Docs/Guides.docc/Diagnostics.md"), encoding: .utf8)
        // `remodel migration new` with a new required property.
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        try schema(Self.names + "      nickname: string\n")
        let drafted = try remodel(["migration", "new", "nicknames"])
        let sample = "```\n$ remodel migration new nicknames\n" + drafted.stdout + drafted.stderr + "```\n"
        XCTAssertTrue(migrationFiles.contains(sample), "MigrationFiles.md should show:\n\(sample)")
        // The draft's comment and the error list the same steps.
        let draft = try read("Migrations/0002-nicknames.yaml")
        XCTAssertTrue(draft.contains("#   [data-dependent] property Person.nickname added: needs `default:` in the schema, or a step that sets it (set, split, convert)\n"), draft)
        XCTAssertTrue(drafted.stderr.contains("or add a step that sets it (set, split, convert);"), drafted.stderr)

        // `remodel validate` on the example with a misspelt type.
        let project = folder.appendingPathComponent("example")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        for name in ["Schemas", "Migrations"] {
            try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent(name), to: project.appendingPathComponent(name))
        }
        let doggo = project.appendingPathComponent("Schemas/DoggoDB.yaml")
        let text = try String(contentsOf: doggo, encoding: .utf8)
        XCTAssertTrue(text.contains("        type: list<Dog>\n"), text)
        try text.replacingOccurrences(of: "        type: list<Dog>\n", with: "        type: list<Dgo>\n").write(to: doggo, atomically: true, encoding: .utf8)
        let validate = try CLIRunner.run(["validate"], in: project)
        XCTAssertEqual(validate.status, 1, validate.stderr)
        let validateSample = "Text (default, stderr, coloured on a terminal):\n\n```\n" + validate.stderr + "```\n"
        XCTAssertTrue(diagnostics.contains(validateSample), "Diagnostics.md should show:\n\(validateSample)")
    }

    /// A migration file of binary bytes was "binary data [that] cannot be a schema"; an empty
    /// migration file was accepted without a word. Now both speak of a migration file, and
    /// an empty one gets a warning as an empty schema file does.
    func testBinaryAndEmptyMigrationFiles() throws {
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        try remodel(["migration", "new", "clean-up"])
        let file = folder.appendingPathComponent("Migrations/0002-clean-up.yaml")
        try Data([0x64, 0x65, 0x73, 0x63, 0x3A, 0x0A, 0x00, 0xFF, 0xFE, 0x01]).write(to: file)
        let binary = try remodel(["validate"], expect: 1)
        XCTAssertTrue(binary.stderr.contains("Migrations/0002-clean-up.yaml:2:1: error: the file is not valid UTF-8 text"), binary.stderr)
        XCTAssertTrue(binary.stderr.contains("Migrations/0002-clean-up.yaml:2:1: note: save the file as UTF-8 text; binary data cannot be a migration file\n"), binary.stderr)
        XCTAssertFalse(binary.stderr.contains("cannot be a schema"), binary.stderr)

        try Data().write(to: file)
        let empty = try remodel(["validate"])
        XCTAssertTrue(
            empty.stderr.contains(
                """
                Migrations/0002-clean-up.yaml:1:1: warning: the migration file of version 2 is empty: it has no description and no steps [empty-file]
                Migrations/0002-clean-up.yaml:1:1: note: write 'description: …' and its 'steps:' ('steps: []' for none), or restore it from version control
                1 warning

                """), empty.stderr)
        XCTAssertTrue(empty.stdout.contains("Migrations: valid (2 versions, current version 2)"), empty.stdout)
    }

    // MARK: - Facts, not text

    /// A retype drafts a `convert` step ending in a `# string → int: …` comment; `amend`
    /// compared suggestions by text, never matched that step, and added it again (commented)
    /// on every run, so "nothing to amend" was never reached.
    func testAmendDoesNotAddAConvertTheFileHas() throws {
        try schema(Self.names + "      age: { type: string, default: \"\" }\n")
        try remodel(["migration", "new", "initial"])
        try schema(Self.names + "      age: { type: int, default: 0 }\n")
        try remodel(["migration", "new", "x"])
        let drafted = try read("Migrations/0002-x.yaml")
        XCTAssertTrue(drafted.contains("  - convert: { type: Person, property: age, to: int, onError: fail }   # string → int: fail, default or null\n"), drafted)
        for _ in 0..<2 {
            let amended = try remodel(["migration", "amend"])
            XCTAssertTrue(amended.stdout.contains("Migrations/snapshots/v2.yaml: version 2 already freezes 'Schemas'; nothing to amend\n"), amended.stdout)
        }
        XCTAssertEqual(try read("Migrations/0002-x.yaml"), drafted)
        // A convert written differently (another onError) is not suggested either.
        try write(drafted.replacingOccurrences(of: "onError: fail }", with: "onError: default }"), to: "Migrations/0002-x.yaml")
        XCTAssertTrue(try remodel(["migration", "amend"]).stdout.contains("nothing to amend"))
    }

    /// The count of open questions came from the file's `# Question:` lines, so a question
    /// answered by uncommenting its step was still "asked". Now a question is open while its
    /// commented step is in the file and the steps do not answer it.
    func testAnAnsweredQuestionIsNoLongerCountedAsOpen() throws {
        try fullNameProject()
        let file = "Migrations/0002-full-name.yaml"
        let draft = try read(file)
        XCTAssertTrue(draft.contains("  # - set: { type: Person, property: fullName, value: \"{firstName} {lastName}\" }\n"), draft)
        let open = try remodel(["migration", "amend"])
        XCTAssertTrue(open.stdout.contains("Version 2 can run as written; it asks 1 question: answer each by uncommenting its step"), open.stdout)
        // Answered: the step uncommented, its `# Question:` comment left in place.
        try write(draft.replacingOccurrences(of: "  # - set:", with: "  - set:"), to: file)
        let answered = try remodel(["migration", "amend"])
        XCTAssertTrue(answered.stdout.contains("nothing to amend"), answered.stdout)
        XCTAssertTrue(answered.stdout.contains("Version 2 can run as written; check it with"), answered.stdout)
        XCTAssertFalse(answered.stdout.contains("question"), answered.stdout)
        // Deleted: `amend` asks it again at the end of the file, and counts it.
        try write(draft.replacingOccurrences(of: "  # - set: { type: Person, property: fullName, value: \"{firstName} {lastName}\" }\n", with: ""), to: file)
        let again = try remodel(["migration", "amend"])
        XCTAssertTrue(again.stdout.contains("its list of changes renewed"), again.stdout)
        XCTAssertTrue(again.stdout.contains("it asks 1 question"), again.stdout)
    }

    /// A store created with `init` at version 2, then version 2 amended: no applied checksum
    /// differs, and `migrate` said "the schema changed without a new version: add a
    /// migration". `Schemas/` is the newest snapshot, so snapshot 2 changed: restore it.
    func testAStoreCreatedAtAnAmendedVersionIsToldWhatToRestore() throws {
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        try schema(Self.names + "      nickname: { type: string, default: \"\" }\n")
        try remodel(["migration", "new", "nicknames"])
        let store = folder.appendingPathComponent("app.db").path
        try remodel(["init", "--store", store])
        try schema(Self.names + "      nickname: { type: string, default: \"\" }\n      age: { type: int, default: 0 }\n")
        try remodel(["migration", "amend"])
        let hash = try Data(contentsOf: URL(fileURLWithPath: store))
        let refused = try remodel(["migrate", "--store", store, "--no-backup"], expect: 1)
        XCTAssertTrue(refused.stderr.contains("Error: the store '\(store)' is at schema version 2 but was written with a different schema"), refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains(
                "the schema of version 2 in 'Migrations' was changed after the store was written ('remodel migration amend' rewrites a version's file and snapshot). "),
            refused.stderr)
        XCTAssertTrue(
            refused.stderr.contains(
                "Restore 'Migrations/0002-nicknames.yaml' and 'Migrations/snapshots/v2.yaml' as they were released (from version control), then make the change in a new version (`remodel migration new NAME`); the store is unchanged\n"
            ), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("add a migration"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("Warning"), refused.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), hash)
    }

    /// `init` and `import` on a schema edited since the newest version said "the migration
    /// history in 'Migrations' does not load". Now they say what changed and what to run.
    func testInitAndImportOnAnEditedSchemaSayToFreezeIt() throws {
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        try schema(Self.fullName)
        try write(#"{ "Person": [{ "id": "p1" }] }"#, to: "v1.json")
        for (command, extra) in [("init", [String]()), ("import", ["v1.json"])] {
            let output = try remodel([command, "--store", "app.db"] + extra, expect: 1)
            XCTAssertTrue(output.stderr.contains("[schema-not-snapshotted]"), output.stderr)
            XCTAssertTrue(
                output.stderr.hasSuffix(
                    """
                    Error: the schema in 'Schemas' is not a version of the history in 'Migrations': it changed since version 1 (the newest snapshot, 'Migrations/snapshots/v1.yaml'), \
                    and `remodel \(command)` needs all of it: it creates a store only from a history whose every version can run, so that the store can be migrated later; nothing was created. \
                    Run 'remodel migration new NAME' to freeze it as version 2 (or 'remodel migration amend' to freeze version 1 again, if no store has applied it yet), then run it again

                    """), output.stderr)
            XCTAssertFalse(output.stderr.contains("does not load"), output.stderr)
            XCTAssertFalse(exists("app.db"), command)
        }
    }

    /// `migration new` over a history that does not load said "the migration history in
    /// 'Migrations' has errors; fix them before freezing a new version", naming no file; a
    /// missing schema folder got "does not exist", then "the schema in 'nope' is invalid".
    func testMigrationNewNamesTheFilesThatStopIt() throws {
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        try remodel(["migration", "new", "clean-up"])
        let missing = try remodel(["migration", "new", "x", "--schemas", "nope"], expect: 1)
        XCTAssertEqual(missing.stderr, "error: 'nope' does not exist [file-unreadable]\nnote: run from the package folder, or pass the schema folder with --schemas DIR\n1 error\n")
        XCTAssertEqual(missing.stdout, "")
        try write("description: clean up\nsteps:\n  - deleteObject: { type: Person, all: true }\n", to: "Migrations/0002-clean-up.yaml")
        for (command, what) in [(["new", "x"], "a new version"), (["amend"], "the newest version again")] {
            let refused = try remodel(["migration"] + command, expect: 1)
            XCTAssertTrue(refused.stderr.contains("Migrations/0002-clean-up.yaml:3:5: error: unknown step kind 'deleteObject'"), refused.stderr)
            XCTAssertTrue(
                refused.stderr.hasSuffix(
                    "Error: the migration history in 'Migrations' does not load, and `remodel migration \(command[0])` freezes \(what) only from a valid schema, on top of a history that loads; "
                        + "nothing was written. Fix the problems above in 'Migrations/0002-clean-up.yaml', check with 'remodel validate', then run it again\n"
                ), refused.stderr)
        }
        XCTAssertFalse(exists("Migrations/0003-x.yaml"))
    }

    /// Whether a problem is in the schema files was decided by the path not starting with the
    /// migrations folder's: with `--migrations db --schemas db-schemas` the schema's problem
    /// was taken for the migration file's, and the advice to fix the schema was left out.
    func testASchemaProblemIsFoundByItsFileNotItsPathPrefix() throws {
        let paths = ["--schemas", "db-schemas", "--migrations", "db"]
        let schemas = folder.appendingPathComponent("db-schemas")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        try Self.names.write(to: schemas.appendingPathComponent("People.yaml"), atomically: true, encoding: .utf8)
        try remodel(["migration", "new", "initial"] + paths)
        try (Self.names + "      nickname: string\n").write(to: schemas.appendingPathComponent("People.yaml"), atomically: true, encoding: .utf8)
        let drafted = try remodel(["migration", "new", "nicknames"] + paths)
        XCTAssertTrue(drafted.stderr.contains("db-schemas/People.yaml:8:7: error: migration 2: 'Person.nickname' is new and required but has no default"), drafted.stderr)
        XCTAssertTrue(
            drafted.stderr.contains(
                "Version 2 cannot run yet: fix the problems above in 'db/0002-nicknames.yaml' or in 'db-schemas' (then run 'remodel migration amend --schemas db-schemas --migrations db' to freeze the schema again), and check with 'remodel validate'\n"
            ), drafted.stderr)
    }

    /// `migration new` without NAME: the example the command kept for it was unreachable (the
    /// parser reports the missing argument first). Now the parser's message has it.
    func testAMissingNameIsShownWithAnExample() throws {
        let output = try remodel(["migration", "new"], expect: 64)
        XCTAssertTrue(output.stderr.hasPrefix("Error: missing argument 'NAME', e.g. 'remodel migration new split-person-name'\nUsage: remodel migration new "), output.stderr)
    }

    /// `migration amend --migrations nope` suggested `remodel migration new initial`, which
    /// would read another folder.
    func testAmendWithoutAHistorySuggestsTheSameFolders() throws {
        try schema(Self.names)
        let output = try remodel(["migration", "amend", "--migrations", "nope"], expect: 1)
        XCTAssertEqual(output.stderr, "Error: there is no version to amend in 'nope'; create the first one with 'remodel migration new initial --migrations nope'\n")
    }

    /// `generate` (and the build plugin, which runs it) refuses a schema edited without a
    /// new version, as `migrate` does; its help said only "invalid schema or out of date".
    func testGenerateRefusesAnEditedSchemaAndItsHelpSaysSo() throws {
        try schema(Self.names)
        try remodel(["migration", "new", "initial"])
        try schema(Self.fullName)
        let refused = try remodel(["generate", "--bundle", "Bundle"], expect: 1)
        XCTAssertTrue(refused.stderr.contains("[schema-not-snapshotted]"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("run 'remodel migration new NAME' to freeze it as version 2"), refused.stderr)
        XCTAssertFalse(exists("Bundle"))
        let help = try remodel(["generate", "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
        XCTAssertTrue(help.contains("schema-not-snapshotted"), help)
        XCTAssertTrue(help.contains("run `remodel migration new NAME`"), help)
        XCTAssertTrue(help.contains("so does the build plugin"), help)
    }

    // MARK: - Two processes

    /// Two `remodel migrate` started together both reported success and applied a `set`
    /// twice (`c5` → `xxc5`). Both are started while a third connection holds the write
    /// lock, so both plan from version 1; one migrates, the other finds it done.
    func testTwoMigrationsStartedTogetherApplyTheStepsOnce() throws {
        try fullNameProject()
        try write("description: full name\nsteps:\n  - set: { type: Person, property: fullName, value: \"x{firstName}\" }\n", to: "Migrations/0002-full-name.yaml")
        let store = folder.appendingPathComponent("app.db").path
        try write(#"{ "Person": [{ "id": "p1", "firstName": "c5" }] }"#, to: "v1.json")
        try remodel(["import", "--store", store, "--version", "1", "v1.json"])

        let sqlite = URL(fileURLWithPath: "/usr/bin/sqlite3")
        guard FileManager.default.isExecutableFile(atPath: sqlite.path) else { throw XCTSkip("needs the sqlite3 command-line tool") }
        let holder = Process()
        holder.executableURL = sqlite
        holder.arguments = [store]
        let commands = Pipe()
        holder.standardInput = commands
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        commands.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nSELECT 1;\n".utf8))
        // The lock is held once another connection cannot take it.
        try CLIRunner.waitUntil("sqlite3 holds the write lock") {
            try SQLiteSchema.run("PRAGMA busy_timeout = 0; BEGIN IMMEDIATE; ROLLBACK;", on: store, allowingErrors: true).contains("locked")
        }
        let runs = try (0..<2).map { _ in try CLIRunner.start(["migrate", "--store", store, "--no-backup"], in: folder) }
        // Both have planned from version 1 (the plan is printed before the write lock is
        // asked for) and wait for the lock.
        try CLIRunner.waitUntil("both runs printed their plans") { runs.allSatisfy { $0.stdoutSoFar.contains("Plan: migrate") } }
        commands.fileHandleForWriting.write(Data("COMMIT;\n.quit\n".utf8))
        holder.waitUntilExit()
        let outputs = try runs.map { try $0.wait() }
        XCTAssertEqual(outputs.map(\.status), [0, 0], outputs.map(\.stderr).joined(separator: "\n"))
        XCTAssertTrue(outputs.allSatisfy { $0.stdout.contains("Plan: migrate '\(store)' from version 1 to 2") }, "both planned from version 1")
        XCTAssertEqual(outputs.filter { $0.stdout.contains("Migrated '\(store)' from version 1 to 2") }.count, 1, outputs.map(\.stdout).joined(separator: "\n"))
        XCTAssertEqual(
            outputs.filter { $0.stdout.contains("was migrated to version 2 by another process while this one waited; nothing to do") }.count, 1,
            outputs.map(\.stdout).joined(separator: "\n"))
        let export = try remodel(["export", "--store", store]).stdout
        XCTAssertTrue(export.contains("\"fullName\": \"xc5\""), export)
    }

    // MARK: - Layout

    /// Every fixture store migrated to version 3 has the layout of a fresh version 3 store
    /// (the order of columns aside): no `DEFAULT` clauses left by `ALTER TABLE`, the same
    /// types and constraints.
    func testMigratedFixturesHaveAFreshStoresLayout() throws {
        let root = CLIRunner.packageRoot.path
        let fixtures = CLIRunner.packageRoot.appendingPathComponent("Tests/RemodelMigrateTests/Resources/fixtures")
        let fresh = folder.appendingPathComponent("fresh.db").path
        let project = ["--schemas", root + "/Schemas", "--migrations", root + "/Migrations"]
        try remodel(["init", "--store", fresh] + project)
        for version in [1, 2] {
            for stepwise in [false, true] {
                let store = folder.appendingPathComponent("v\(version)-\(stepwise).db").path
                try remodel(["import", "--store", store, "--version", String(version), fixtures.appendingPathComponent("v\(version).json").path] + project)
                for target in stepwise ? Array((version + 1)...3) : [3] {
                    try remodel(["migrate", "--store", store, "--no-backup", "--to", String(target)] + project)
                }
                XCTAssertEqual(try SQLiteSchema.tables(of: store), try SQLiteSchema.tables(of: fresh), "v\(version) → v3\(stepwise ? " step by step" : "")")
                XCTAssertEqual(try SQLiteSchema.run("PRAGMA integrity_check;", on: store), "ok\n")
            }
        }
    }
}
