import Foundation
import RemodelTestSupport
import XCTest

/// `deduplicate` through the command line, on SQLite and PostgreSQL: one object of each group
/// stays, every link, list and set entry that pointed at a deleted one points at it, the plan
/// says what the step does and the report counts what it deleted; without the step, the
/// version that adds uniqueness stops on the shared values.
final class DeduplicateCommandTests: CLIFolderTestCase {
    static let v1 = """
        objects:
          Trip:
            primaryKey: id
            properties:
              id: int
              name: string?
              destination: string
              start: int
              tags: set<Tag>
          Tag:
            primaryKey: label
            properties:
              label: string
          Person:
            primaryKey: id
            properties:
              id: int
              favorite: Trip?
              trips: list<Trip>
              wishes: set<Trip>

        """

    static let v2 = v1.replacingOccurrences(of: "      name: string?", with: "      name: { type: string?, unique: true }")

    /// Trips 1, 2 and 4 share "Paris" (2 and 4 start at 3, before 1); two have no name, which
    /// shares nothing.
    static let data = """
        {"Tag": [{"label": "a"}],
         "Trip": [{"id": 1, "name": "Paris", "destination": "FR", "start": 5, "tags": ["a"]}, {"id": 2, "name": "Paris", "destination": "FR", "start": 3, "tags": []},
                  {"id": 3, "name": "Rome", "destination": "IT", "start": 1, "tags": []}, {"id": 4, "name": "Paris", "destination": "FR", "start": 3, "tags": ["a"]},
                  {"id": 5, "name": null, "destination": "IT", "start": 1, "tags": []}, {"id": 6, "name": null, "destination": "IT", "start": 1, "tags": []}],
         "Person": [{"id": 1, "favorite": 1, "trips": [1, 2, 3, 4], "wishes": [1, 2]}, {"id": 2, "favorite": 4, "trips": [], "wishes": [4, 3]}]}
        """

    static let step = "  - deduplicate: { type: Trip, by: [name], keep: first, orderBy: start }\n"

    private func objects(_ store: String) throws -> [String: [[String: Any]]] {
        let json = try JSONSerialization.jsonObject(with: Data(try export(store).utf8)) as? [String: [[String: Any]]]
        return try XCTUnwrap(json)
    }

    /// What the history above must leave: trip 2 kept for Paris (first by start, then by key),
    /// 3 for Rome, both unnamed trips; links, list entries and set entries moved to 2.
    private func checkDeduplicated(_ store: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let objects = try objects(store)
        XCTAssertEqual(objects["Trip"]?.map { $0["id"] as? Int }, [2, 3, 5, 6], file: file, line: line)
        let people = objects["Person"] ?? []
        XCTAssertEqual(people.map { $0["favorite"] as? Int }, [2, 2], file: file, line: line)
        XCTAssertEqual(people.map { $0["trips"] as? [Int] }, [[2, 2, 3, 2], []], file: file, line: line)
        XCTAssertEqual(people.map { ($0["wishes"] as? [Int])?.sorted() }, [[2], [2, 3]], file: file, line: line)
    }

    func testDeduplicateMovesLinksListsAndSetsToTheKeptObject() throws {
        let store = try history(v1: Self.v1, data: Self.data, v2: Self.v2, steps: Self.step)
        let dryRun = try remodel(["migrate", "--store", store, "--dry-run"])
        XCTAssertTrue(
            dryRun.stdout.contains(
                "[destructive]    deduplicate Trip by name, keeping the first by start, then by key; links to the others move to the kept one  (step 1 (deduplicate))"),
            dryRun.stdout)
        XCTAssertTrue(dryRun.stdout.contains("    2 Trip objects deleted as duplicates (step 1 (deduplicate))"), dryRun.stdout)
        XCTAssertTrue(dryRun.stdout.contains("  Trip    6 → 4"), dryRun.stdout)
        let migrated = try remodel(["migrate", "--store", store])
        XCTAssertTrue(migrated.stdout.contains("    2 Trip objects deleted as duplicates (step 1 (deduplicate))"), migrated.stdout)
        try checkDeduplicated(store)
        let schema = try SQLiteSchema.run(".schema", on: store)
        XCTAssertTrue(schema.contains(#"CREATE UNIQUE INDEX "Trip.name.unique" ON "Trip" ("name")"#), schema)
    }

    func testKeepLastOfACompoundGroup() throws {
        let v2 = Self.v1.replacingOccurrences(
            of: "    primaryKey: id\n    properties:\n      id: int\n      name",
            with: "    primaryKey: id\n    unique: [[destination, start]]\n    properties:\n      id: int\n      name")
        let store = try history(v1: Self.v1, data: Self.data, v2: v2, steps: "  - deduplicate: { type: Trip, by: [destination, start], keep: last }\n")
        let migrated = try remodel(["migrate", "--store", store])
        XCTAssertTrue(migrated.stdout.contains("deduplicate Trip by (destination, start), keeping the last by key"), migrated.stdout)
        XCTAssertTrue(migrated.stdout.contains("make Trip's (destination, start) unique"), migrated.stdout)
        // (FR, 3): 2 and 4, the last by key is 4; (IT, 1): 3, 5 and 6, 6 stays.
        let objects = try objects(store)
        XCTAssertEqual(objects["Trip"]?.map { $0["id"] as? Int }, [1, 4, 6])
        XCTAssertEqual(objects["Person"]?.map { $0["trips"] as? [Int] }, [[1, 4, 6, 4], []])
        XCTAssertEqual(objects["Person"]?.map { ($0["wishes"] as? [Int])?.sorted() }, [[1, 4], [4, 6]])
    }

    func testWithoutTheStepTheSharedValuesStopTheMigration() throws {
        let store = try history(v1: Self.v1, data: Self.data, v2: Self.v2)
        try expectRefused(
            store, contains: ["3 Trip objects with a value another object holds too, but 'name' becomes unique in Trip.name: 1 (\"Paris\"), 2 (\"Paris\"), 4 (\"Paris\")"])
    }

    func testMistakesInTheStepAreLocated() throws {
        let store = try history(v1: Self.v1, data: Self.data, v2: Self.v2, steps: "  - deduplicate: { type: Trip, by: [nme, trips], keep: middle }\n")
        let badKeep = try remodel(["migrate", "--store", store, "--dry-run"], expect: 1)
        XCTAssertTrue(badKeep.stderr.contains("Migrations/0002-change.yaml:3:56: error: 'keep' in step 'deduplicate' must be one of first, last, found 'middle'"), badKeep.stderr)
        try write("description: change\nsteps:\n  - deduplicate: { type: Trip, by: [name, start, name] }\n", to: "Migrations/0002-change.yaml")
        let twice = try remodel(["migrate", "--store", store, "--dry-run"], expect: 1)
        XCTAssertTrue(twice.stderr.contains("Migrations/0002-change.yaml:3:50: error: 'by' in step 'deduplicate' lists 'name' twice [invalid-value]"), twice.stderr)
        try write("description: change\nsteps:\n  - deduplicate: { type: Trip, by: [nme], orderBy: tags }\n", to: "Migrations/0002-change.yaml")
        let unknown = try remodel(["migrate", "--store", store, "--dry-run"], expect: 1)
        XCTAssertTrue(
            unknown.stderr.contains(
                "Migrations/0002-change.yaml:3:37: error: migration 2 step 1 (deduplicate): 'Trip' has no property 'nme' at this point of the migration [migration-unknown-property]"
            ),
            unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("did you mean 'name'?"), unknown.stderr)
        try write("description: change\nsteps:\n  - deduplicate: { type: Trip, by: [name], orderBy: tags }\n", to: "Migrations/0002-change.yaml")
        let unordered = try remodel(["migrate", "--store", store, "--dry-run"], expect: 1)
        XCTAssertTrue(
            unordered.stderr.contains(
                "Migrations/0002-change.yaml:3:53: error: migration 2 step 1 (deduplicate): 'Trip.tags' is set<Tag>: steps read single values (and to-one links), not collections"),
            unordered.stderr)
        XCTAssertEqual(try objects(store)["Trip"]?.count, 6)
    }

    func testOnPostgreSQLTheSameObjectsStay() throws {
        let server = try PostgresTestServer.shared { XCTSkip($0) }
        let url = server.url(database: try server.makeDatabase()) + "?schema=trips"
        _ = try history(v1: Self.v1, data: Self.data, v2: Self.v2, steps: Self.step)
        try remodel(["init", "--store", url, "--version", "1"])
        try remodel(["import", "--store", url, "--quiet", path("data.json")])
        let migrated = try remodel(["migrate", "--store", url])
        XCTAssertTrue(migrated.stdout.contains("    2 Trip objects deleted as duplicates (step 1 (deduplicate))"), migrated.stdout)
        try checkDeduplicated(url)
        try write(#"{"Trip": [{"id": 9, "name": "Rome", "destination": "IT", "start": 9, "tags": []}]}"#, to: "more.json")
        let collision = try remodel(["import", "--store", url, "--quiet", path("more.json")], expect: 1)
        XCTAssertTrue(collision.stderr.contains("Trip.name \"Rome\" is already held by the Trip with primary key 3"), collision.stderr)
        XCTAssertTrue(collision.stderr.contains("nothing was written"), collision.stderr)
        XCTAssertEqual(try objects(url)["Trip"]?.count, 4)
    }

    func testOnPostgreSQLSharedValuesStopTheMigration() throws {
        let server = try PostgresTestServer.shared { XCTSkip($0) }
        let url = server.url(database: try server.makeDatabase()) + "?schema=trips"
        _ = try history(v1: Self.v1, data: Self.data, v2: Self.v2)
        try remodel(["init", "--store", url, "--version", "1"])
        try remodel(["import", "--store", url, "--quiet", path("data.json")])
        let refused = try remodel(["migrate", "--store", url], expect: 1)
        XCTAssertTrue(
            refused.stderr.contains("3 Trip objects with a value another object holds too, but 'name' becomes unique in Trip.name: 1 (\"Paris\"), 2 (\"Paris\"), 4 (\"Paris\")"),
            refused.stderr)
        XCTAssertTrue(refused.stderr.contains("Nothing was changed"), refused.stderr)
        XCTAssertEqual(try objects(url)["Trip"]?.count, 6)
    }

    /// `migration new` asks whether stored objects may share the value a version makes
    /// unique, with the step commented; `check` wants the question answered, and with the step
    /// the uniqueness is no data-dependent change left to accept.
    func testMigrationNewDraftsTheStepAndCheckWantsItAnswered() throws {
        try write(Self.v1, to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
        try write(Self.v2, to: "Schemas/S.yaml")
        try remodel(["migration", "new", "unique-names"])
        let draft = try String(contentsOfFile: path("Migrations/0002-unique-names.yaml"), encoding: .utf8)
        XCTAssertTrue(draft.contains("#   [data-dependent] Trip.name made unique: objects that share values stop the migration; a deduplicate step keeps one of each\n"), draft)
        XCTAssertTrue(
            draft.contains(
                """
                  # Question: may two stored Trip objects have the same name? Making it unique stops the migration on objects that do.
                  # If so, uncomment this step: it keeps one object of each (choose keep: first or last, and an orderBy property) and moves links to it.
                  # - deduplicate: { type: Trip, by: [name], keep: first }

                """), draft)
        let open = try remodel(["check"], expect: 1)
        XCTAssertTrue(open.stderr.contains("[draft-question-unanswered]"), open.stderr)
        // Edited but still commented, the step answers nothing.
        try write(draft.replacingOccurrences(of: "keep: first }", with: "keep: last, orderBy: start }"), to: "Migrations/0002-unique-names.yaml")
        let edited = try remodel(["check"], expect: 1)
        XCTAssertTrue(edited.stderr.contains("[draft-question-unanswered]"), edited.stderr)
        try write(draft.replacingOccurrences(of: "  # - deduplicate", with: "  - deduplicate"), to: "Migrations/0002-unique-names.yaml")
        let answered = try remodel(["check"])
        XCTAssertFalse(answered.stderr.contains("data-dependent-change"), answered.stderr)
        XCTAssertFalse(answered.stderr.contains("draft-question-unanswered"), answered.stderr)
        // Without the step, the uniqueness is a data-dependent change to accept.
        try write(draft.replacingOccurrences(of: "  # - deduplicate: { type: Trip, by: [name], keep: first }\n", with: ""), to: "Migrations/0002-unique-names.yaml")
        let unaccepted = try remodel(["check"])
        XCTAssertTrue(unaccepted.stderr.contains("Trip.name made unique — keeps every value only if the data allows"), unaccepted.stderr)
    }

    /// Enums on both engines: an int enum orders by its number, a string enum collides and is
    /// named by its text, as the store shows it.
    func testEnumsOrderAndCollideAlikeOnBothEngines() throws {
        let server = try PostgresTestServer.shared { XCTSkip($0) }
        let enums = """
            enums:
              Priority:
                type: int
                cases: { low: 0, high: 10 }
              Color:
                cases: [red, blue]

            """
        let v1 = enums + "objects:\n  Task:\n    primaryKey: id\n    properties:\n      id: int\n      color: Color\n      priority: Priority\n"
        let data = #"{"Task": [{"id": 1, "color": "red", "priority": 0}, {"id": 2, "color": "red", "priority": 10}, {"id": 3, "color": "blue", "priority": 0}]}"#
        let store = try history(
            v1: v1, data: data, v2: v1.replacingOccurrences(of: "      color: Color", with: "      color: { type: Color, unique: true }"),
            steps: "  - deduplicate: { type: Task, by: [color], keep: last, orderBy: priority }\n")
        let url = server.url(database: try server.makeDatabase()) + "?schema=tasks"
        try remodel(["init", "--store", url, "--version", "1"])
        try remodel(["import", "--store", url, "--quiet", path("data.json")])
        for target in [store, url] {
            try remodel(["migrate", "--store", target, "--quiet"])
            // Of the red tasks, the one of higher priority (10 > 0 as numbers) stays.
            XCTAssertEqual(try objects(target)["Task"]?.map { $0["id"] as? Int }.sorted { ($0 ?? 0) < ($1 ?? 0) }, [2, 3], target)
            try write(#"{"Task": [{"id": 9, "color": "blue", "priority": 0}]}"#, to: "more.json")
            let collision = try remodel(["import", "--store", target, "--quiet", path("more.json")], expect: 1)
            XCTAssertTrue(collision.stderr.contains("\"blue\" is already held by"), collision.stderr)
        }
    }
}
