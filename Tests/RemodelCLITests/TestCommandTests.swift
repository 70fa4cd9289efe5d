import Foundation
import XCTest

/// `remodel test`, `remodel fixture record` and `remodel check --test`, as a user runs them.
final class TestCommandTests: CLIFolderTestCase {
    /// The example's history with its weight conversion made strict: generated text that is
    /// no whole number fails it.
    private func copyStrictExample() throws {
        try copyExample()
        try makeStrict()
    }

    private func makeStrict() throws {
        let file = path("Migrations/0003-dog-details.yaml")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "onError: default", with: "onError: fail").write(toFile: file, atomically: true, encoding: .utf8)
    }

    func testTheExampleHistoryPasses() throws {
        try copyExample()
        let output = try remodel(["test"])
        XCTAssertTrue(
            output.stdout.hasPrefix("remodel test passed: 3 data sets (")
                && output.stdout.contains("objects) from 3 versions, each migrated to version 3 directly and version by version (seed 1)"),
            output.stdout)
    }

    /// A failure names the step, the data set, the object and value, and the smallest data.
    func testADataErrorIsReportedWhereWithWhatAndTheSmallestData() throws {
        try copyStrictExample()
        let output = try remodel(["test", "--quiet"], expect: 1)
        XCTAssertTrue(output.stderr.contains("Migrations/0003-dog-details.yaml:14:5: error: migration to version 3 (dog-details), step 1 (convert): "), output.stderr)
        XCTAssertTrue(output.stderr.contains("Dog objects with values that cannot be converted to int [test-migration]"), output.stderr)
        XCTAssertTrue(output.stderr.contains("note: data: generated data (seed 1), imported at version 1"), output.stderr)
        XCTAssertTrue(output.stderr.contains("note: first offending object: Dog "), output.stderr)
        let marker = "smallest data that fails so (an export document: import it at version 1 to see it): "
        let smallest = try XCTUnwrap(output.stderr.split(separator: "\n").first { $0.contains(marker) }).components(separatedBy: marker)[1]
        XCTAssertTrue(smallest.hasPrefix(#"{"Dog":[{"_id":"#) && smallest.contains(#""weight":"#), smallest)
        // It is an export document that fails so when imported at version 1 and migrated.
        try smallest.write(toFile: path("smallest.json"), atomically: true, encoding: .utf8)
        try remodel(["import", "smallest.json", "--store", "smallest.db", "--version", "1", "--quiet"])
        XCTAssertTrue(try remodel(["migrate", "--store", "smallest.db", "--dry-run", "--quiet"], expect: 1).stderr.contains("cannot be converted to int"))
        XCTAssertTrue(output.stdout.contains("remodel test failed: 2 of 3 data sets ("), output.stdout)

        let json = try remodel(["test", "--format", "json"], expect: 1)
        let diagnostics = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(diagnostics.count, 2)
        XCTAssertEqual(diagnostics.first?["rule"] as? String, "test-migration")
        let github = try remodel(["test", "--format", "github"], expect: 1)
        XCTAssertTrue(github.stdout.contains("::error file=Migrations/0003-dog-details.yaml,line=14,col=5"), github.stdout)
        // Another seed makes other data, and finds the same failure.
        XCTAssertTrue(try remodel(["test", "--quiet", "--seed", "42"], expect: 1).stderr.contains("[test-migration]"))
    }

    func testUsageErrors() throws {
        try copyExample()
        XCTAssertTrue(try remodel(["test", "--seed", "x"], expect: 64).stderr.contains("--seed needs a whole number"))
        XCTAssertTrue(try remodel(["test", "--objects", "0"], expect: 64).stderr.contains("--objects needs a whole number from 1 to 10000, found '0'"))
        // Not a usage error: no history here.
        let empty = try remodel(["test", "--schemas", "nowhere", "--migrations", "nothing"], expect: 1)
        XCTAssertTrue(empty.stderr.contains("there is no migration history in 'nothing' and no schema in 'nowhere'"), empty.stderr)
        let missing = try remodel(["fixture", "record", "--store", "missing.db"], expect: 1)
        XCTAssertTrue(missing.stderr.contains("missing.db"), missing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("Migrations/fixtures")), "nothing written")
        let help = try remodel(["test", "--help"])
        XCTAssertTrue(help.stdout.contains("--seed N") && help.stdout.contains("fixtures/<version>/NAME.json"), help.stdout)
    }

    /// Fixtures beside the history: ignored by the history loader, migrated by the test, named
    /// when they fail; a folder that names no version is an error.
    func testFixturesAreTestedAndIgnoredByTheHistory() throws {
        try copyExample()
        try FileManager.default.createDirectory(atPath: path("Migrations/fixtures/2"), withIntermediateDirectories: true)
        try #"{ "Person": [], "Dog": [{ "_id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "name": "Rex", "breed": "", "weight": "heavy" }] }"#
            .write(toFile: path("Migrations/fixtures/2/rex.json"), atomically: true, encoding: .utf8)
        try remodel(["validate"])
        try remodel(["check", "--strict"])
        XCTAssertTrue(try remodel(["test", "--quiet"]).stdout.contains("(1 fixture; "), "the example's convert makes 'heavy' 0")
        try makeStrict()
        let output = try remodel(["test", "--quiet", "--fixtures-only"], expect: 1)
        XCTAssertTrue(output.stderr.contains("note: data: Migrations/fixtures/2/rex.json, imported at version 2"), output.stderr)
        XCTAssertTrue(output.stderr.contains("= \"heavy\""), output.stderr)
        XCTAssertTrue(output.stdout.contains("1 data set (1 fixture; "), output.stdout)

        try FileManager.default.createDirectory(atPath: path("Migrations/fixtures/two"), withIntermediateDirectories: true)
        let wrong = try remodel(["test"], expect: 1)
        XCTAssertTrue(wrong.stderr.contains("Migrations/fixtures/two:1:1: error: 'Migrations/fixtures/two' is not named by a version number"), wrong.stderr)
    }

    /// `fixture record`: a store's export into the fixtures of its version; at a newer version
    /// through a migrated copy; anonymised; never over a fixture without --force.
    func testFixtureRecordWritesTheStoresData() throws {
        try copyExample()
        try remodel(["import", Self.fixtures.appendingPathComponent("v1.json").path, "--store", "app.db", "--version", "1"])
        let before = try Data(contentsOf: URL(fileURLWithPath: path("app.db")))
        let recorded = try remodel(["fixture", "record", "--store", "app.db"])
        XCTAssertTrue(recorded.stdout.contains("at version 1") && recorded.stdout.contains("'Migrations/fixtures/1/app.json'"), recorded.stdout)
        XCTAssertEqual(try String(contentsOfFile: path("Migrations/fixtures/1/app.json"), encoding: .utf8), try remodel(["export", "--store", "app.db"]).stdout)
        let again = try remodel(["fixture", "record", "--store", "app.db"], expect: 1)
        XCTAssertTrue(again.stderr.contains("--force"), again.stderr)

        try remodel(["fixture", "record", "--store", "app.db", "--version", "3", "--anonymize", "--name", "app.json"])
        let v3 = try String(contentsOfFile: path("Migrations/fixtures/3/app.json"), encoding: .utf8)
        XCTAssertTrue(v3.contains("\"dateLastUpdated\""), v3)
        let v1 = try String(contentsOfFile: path("Migrations/fixtures/1/app.json"), encoding: .utf8)
        for name in ["Lovelace", "Hopper"] where v1.contains(name) { XCTAssertFalse(v3.contains(name), name) }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("app.db"))), before, "the store is unchanged")
        XCTAssertTrue(try remodel(["test", "--quiet"]).stdout.contains("(2 fixtures; "))

        // Each recording makes up other text: the made-up text cannot be matched against guesses.
        try remodel(["fixture", "record", "--store", "app.db", "--anonymize", "--name", "first"])
        try remodel(["fixture", "record", "--store", "app.db", "--anonymize", "--name", "second"])
        XCTAssertNotEqual(
            try String(contentsOfFile: path("Migrations/fixtures/1/first.json"), encoding: .utf8),
            try String(contentsOfFile: path("Migrations/fixtures/1/second.json"), encoding: .utf8))
        // A store name a fixture name cannot hold becomes one.
        try FileManager.default.copyItem(atPath: path("app.db"), toPath: path("my store!.db"))
        XCTAssertTrue(try remodel(["fixture", "record", "--store", "my store!.db"]).stdout.contains("'Migrations/fixtures/1/my-store-.json'"))

        try remodel(["migrate", "--store", "app.db", "--no-backup", "--quiet"])
        let older = try remodel(["fixture", "record", "--store", "app.db", "--version", "2"], expect: 1)
        XCTAssertTrue(older.stderr.contains("'app.db' is at version 3, newer than 2"), older.stderr)
    }

    /// What would let a CI job pass without testing anything, or test something else than
    /// the user meant, is an error.
    func testMistakesInWhatToTestAreErrors() throws {
        try copyExample()
        let noHistory = try remodel(["test", "--migrations", "Migrationz"], expect: 1)
        XCTAssertTrue(noHistory.stderr.contains("there is no migrations folder at 'Migrationz'"), noHistory.stderr)
        XCTAssertTrue(try remodel(["test", "--fixtures-only"], expect: 1).stderr.contains("--fixtures-only, but there are no fixtures"))
        try FileManager.default.createDirectory(atPath: path("Migrations/fixtures/9/nested"), withIntermediateDirectories: true)
        try "{}".write(toFile: path("Migrations/fixtures/9/later.json"), atomically: true, encoding: .utf8)
        let wrong = try remodel(["test"], expect: 1)
        XCTAssertTrue(
            wrong.stderr.contains(
                "Migrations/fixtures/9/later.json:1:1: error: 'Migrations/fixtures/9/later.json' is in the fixtures of version 9, which the history does not have (its versions are 1 to 3) [fixture-version]"
            ), wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("'Migrations/fixtures/9/nested' is not a fixture: only NAME.json files directly in 'Migrations/fixtures/9' are read"), wrong.stderr)
        try FileManager.default.removeItem(atPath: path("Migrations/fixtures"))
        // A file where the fixtures folder goes; then a fixture whose name ends in .JSON, which is read.
        try "".write(toFile: path("Migrations/fixtures"), atomically: true, encoding: .utf8)
        XCTAssertTrue(try remodel(["test"], expect: 1).stderr.contains("'Migrations/fixtures' is not a folder that can be read"))
        try FileManager.default.removeItem(atPath: path("Migrations/fixtures"))
        try FileManager.default.createDirectory(atPath: path("Migrations/fixtures/1"), withIntermediateDirectories: true)
        try #"{ "Person": [], "Dog": [] }"#.write(toFile: path("Migrations/fixtures/1/UPPER.JSON"), atomically: true, encoding: .utf8)
        XCTAssertTrue(try remodel(["test", "--fixtures-only"]).stdout.contains("1 data set (1 fixture; "))
        try FileManager.default.removeItem(atPath: path("Migrations/fixtures"))
        // A history with a custom step this program has no closure for: the planning error, in the format asked for.
        let file = path("Migrations/0003-dog-details.yaml")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "steps:\n", with: "steps:\n  - custom: { name: tidy, type: Dog }\n").write(toFile: file, atomically: true, encoding: .utf8)
        let custom = try remodel(["test", "--format", "json"], expect: 1)
        XCTAssertTrue(custom.stderr.contains("cannot plan it (above); a custom step runs in a tool of your app's own"), custom.stderr)
    }

    /// Ctrl-C or a CI job's timeout: the scratch stores go with the process.
    func testAnInterruptedTestLeavesNoStores() throws {
        try copyExample()
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let run = try CLIRunner.start(["test", "--objects", "4000"], in: folder)
            let scratch = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
            let mine = "remodel-test-\(run.process.processIdentifier)-"
            try CLIRunner.waitUntil("the scratch folder is made") {
                (try FileManager.default.contentsOfDirectory(atPath: scratch)).contains { $0.hasPrefix(mine) } || !run.process.isRunning
            }
            kill(run.process.processIdentifier, signal)
            let output = try run.wait()
            XCTAssertEqual(output.status, status, output.stderr)
            XCTAssertTrue(output.stderr.contains("Removed what was half made: the test's stores in"), output.stderr)
            XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: scratch).contains { $0.hasPrefix(mine) }, "the scratch folder is left")
        }
    }

    func testCheckRunsTheTestWhenAsked() throws {
        try copyExample()
        XCTAssertTrue(try remodel(["check", "--test", "--quiet"]).stdout.contains(", 3 data sets migrated"))
        try makeStrict()
        let output = try remodel(["check", "--test", "--quiet"], expect: 1)
        XCTAssertTrue(output.stderr.contains("[test-migration]"), output.stderr)
        XCTAssertTrue(output.stdout.contains("remodel check: failed") && output.stdout.contains("remodel test failed"), output.stdout)
    }
}
