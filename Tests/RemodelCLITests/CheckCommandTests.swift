import Foundation
import XCTest

/// `remodel check`, the CI gate, through the real binary on copies of the example: each rule
/// triggered by one repository state and not by another, with its ID, location and exit
/// status; remodel.sum; --base; formats; and the end-to-end path from a schema edit to a
/// migrated store.
final class CheckCommandTests: CLIFolderTestCase {
    private var schemas: String { path("Schemas") }
    private var migrations: String { path("Migrations") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        for name in ["Schemas", "Migrations"] {
            try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
    }

    @discardableResult
    func check(_ extra: [String] = [], expect status: Int32, file: StaticString = #filePath, line: UInt = #line) throws -> CLIRunner.Output {
        try remodel(["check"] + extra, expect: status, file: file, line: line)
    }

    func edit(_ name: String, _ change: (String) -> String) throws {
        let url = folder.appendingPathComponent(name)
        try change(try String(contentsOf: url, encoding: .utf8)).write(to: url, atomically: true, encoding: .utf8)
    }

    /// The findings of `--format json` with `rule`: (file, line, severity).
    func findings(_ output: CLIRunner.Output, rule: String) throws -> [(file: String, line: Int, severity: String)] {
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]], output.stdout)
        return array.filter { $0["rule"] as? String == rule }.map { entry in
            ((entry["file"] as? String) ?? "", (entry["line"] as? Int) ?? 0, (entry["severity"] as? String) ?? "")
        }
    }

    /// A new version `4` made by the real `migration new` from a schema edit.
    private func newVersion(_ name: String, editing schemaFile: String = "Schemas/DoggoDB.yaml", _ change: (String) -> String) throws {
        try edit(schemaFile, change)
        try remodel(["migration", "new", name])
    }

    // MARK: - The example

    func testTheExamplePassesAndPassesStrict() throws {
        let plain = try check(expect: 0)
        XCTAssertEqual(
            plain.stdout,
            "remodel check: passed: 3 versions, version 3 judged as new\n"
                + "version 3: not backward-readable: apps of version 2 cannot open its stores (it does more than add optional properties, collections and types)\n")
        XCTAssertEqual(plain.stderr, "")
        try check(["--strict"], expect: 0)
    }

    // MARK: - Drift, history, plannability

    func testSchemaEditedWithoutANewVersion() throws {
        try edit("Schemas/DoggoDB.yaml") { $0.replacingOccurrences(of: "      favoriteToy:", with: "      nickname: string?\n      favoriteToy:") }
        let output = try check(expect: 1)
        XCTAssertTrue(
            output.stderr.contains(
                "error: the schema in 'Schemas' differs from the newest snapshot 'Migrations/snapshots/v3.yaml' (version 3) (property Dog.nickname added): the schema changed without a new migration [schema-not-snapshotted]"
            ), output.stderr)
        XCTAssertTrue(output.stderr.contains("run 'remodel migration new NAME' to freeze it as version 4"), output.stderr)
        XCTAssertTrue(output.stdout.hasPrefix("remodel check: failed (1 error)"), output.stdout)
        // It points at the edited declaration, so that a pull request's annotation lands there.
        let json = try check(["--format", "json"], expect: 1)
        let found = try findings(json, rule: "schema-not-snapshotted")
        XCTAssertEqual(found.map(\.file), ["Schemas/DoggoDB.yaml"])
        let text = try String(contentsOfFile: path("Schemas/DoggoDB.yaml"), encoding: .utf8)
        XCTAssertEqual(found.first?.line, (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("nickname: string?") } ?? -1) + 1)
    }

    func testAMigrationThatCannotBePlanned() throws {
        try edit("Migrations/0003-dog-details.yaml") { $0.replacingOccurrences(of: "property: weight, to: int", with: "property: wieght, to: int") }
        try remodel(["migration", "hash"], expect: 1)
        let output = try check(expect: 1)
        XCTAssertTrue(output.stderr.contains("Migrations/0003-dog-details.yaml:14:"), output.stderr)
        XCTAssertTrue(output.stderr.contains("wieght"), output.stderr)
    }

    // MARK: - remodel.sum

    func testEditingAReleasedMigrationFailsNamingTheFile() throws {
        try edit("Migrations/0002-split-person-name.yaml") { $0.replacingOccurrences(of: "otherwise: engineering", with: "otherwise: sales") }
        let output = try check(["--format", "json"], expect: 1)
        let found = try findings(output, rule: "sum-file-changed")
        XCTAssertEqual(found.map(\.file), ["Migrations/0002-split-person-name.yaml"])
        XCTAssertEqual(found.first?.severity, "error")
        let text = try check(expect: 1)
        XCTAssertTrue(
            text.stderr.contains("Migrations/0002-split-person-name.yaml:1:1: error: 'Migrations/0002-split-person-name.yaml' changed since remodel.sum recorded it"), text.stderr)
        XCTAssertTrue(text.stderr.contains("restore it from version control and put the change in a new migration"), text.stderr)
        XCTAssertTrue(text.stderr.contains("Migrations/remodel.sum:5:1: note: recorded here"), text.stderr)
        // An intended edit of an unreleased version is recorded with `migration hash`.
        let hashed = try remodel(["migration", "hash"])
        XCTAssertEqual(hashed.stdout, "Migrations/remodel.sum: written (6 files; re-hashed 0002-split-person-name.yaml)\n")
        XCTAssertTrue(hashed.stderr.contains("Warning: version 2 is older than the newest (3): if any store has applied it, the edit never reaches that store"), hashed.stderr)
        try check(expect: 0)
    }

    /// A snapshot whose bytes remodel.sum records is read without validation; one edited
    /// since is validated as any schema file, so an edit cannot slip through as unchecked.
    func testAnEditedSnapshotIsValidatedAgain() throws {
        try edit("Migrations/snapshots/v2.yaml") { $0.replacingOccurrences(of: "        type: \"list<Dog>\"", with: "        type: \"list<Dgo>\"") }
        let output = try check(expect: 1)
        XCTAssertTrue(output.stderr.contains("Migrations/snapshots/v2.yaml:1:1: error: 'Migrations/snapshots/v2.yaml' changed since remodel.sum recorded it"), output.stderr)
        XCTAssertTrue(output.stderr.contains("Migrations/snapshots/v2.yaml:"), output.stderr)
        XCTAssertTrue(output.stderr.contains("unknown type 'Dgo'"), output.stderr)
        // Re-hashing does not make it pass: migration hash records only a history that loads.
        XCTAssertTrue(try remodel(["migration", "hash"], expect: 1).stderr.contains("unknown type 'Dgo'"))
    }

    func testDeletingASnapshotFailsNamingIt() throws {
        try FileManager.default.removeItem(atPath: path("Migrations/snapshots/v2.yaml"))
        let output = try check(["--format", "json"], expect: 1)
        XCTAssertEqual(try findings(output, rule: "sum-file-deleted").map(\.file), ["Migrations/remodel.sum"])
        XCTAssertEqual(try findings(output, rule: "migration-without-snapshot").map(\.file), ["Migrations/0002-split-person-name.yaml"])
        let text = try check(expect: 1)
        XCTAssertTrue(
            text.stderr.contains("'Migrations/snapshots/v2.yaml' is recorded in remodel.sum but is missing: a snapshot of a version was deleted [sum-file-deleted]"), text.stderr)
    }

    func testTwoBranchesAddingTheSameVersionFailNamingBoth() throws {
        // Branch A's version 4, recorded in remodel.sum; branch B's arrives by a merge.
        try newVersion("nickname") { $0.replacingOccurrences(of: "      favoriteToy:", with: "      nickname: string?\n      favoriteToy:") }
        try "description: Branch B's version 4\nsteps: []\n".write(toFile: path("Migrations/0004-toys.yaml"), atomically: true, encoding: .utf8)
        let output = try check(["--format", "json"], expect: 1)
        XCTAssertEqual(try findings(output, rule: "migration-duplicate-version").map(\.file), ["Migrations/0004-toys.yaml"])
        XCTAssertEqual(try findings(output, rule: "sum-file-unrecorded").map(\.file), ["Migrations/0004-toys.yaml"])
        let text = try check(expect: 1)
        XCTAssertTrue(text.stderr.contains("two migration files have version 4: 'Migrations/0004-nickname.yaml' and 'Migrations/0004-toys.yaml'"), text.stderr)
        XCTAssertTrue(
            text.stderr.contains(
                "'Migrations/0004-toys.yaml' is not recorded in remodel.sum, which has 'Migrations/0004-nickname.yaml' as version 4: two branches added the same version"),
            text.stderr)
    }

    func testAHistoryWithoutASumGetsOne() throws {
        try FileManager.default.removeItem(atPath: path("Migrations/remodel.sum"))
        let output = try check(expect: 0)
        XCTAssertTrue(
            output.stderr.contains("warning: 'Migrations' has no remodel.sum, so an edited released migration or a deleted snapshot would go unnoticed [sum-missing]"),
            output.stderr)
        try check(["--strict"], expect: 1)
        // The next `migration new` writes it, with the new version.
        try newVersion("nickname") { $0.replacingOccurrences(of: "      favoriteToy:", with: "      nickname: string?\n      favoriteToy:") }
        let sum = try String(contentsOfFile: path("Migrations/remodel.sum"), encoding: .utf8)
        XCTAssertTrue(sum.hasPrefix("remodel-sum 1\ntotal "), sum)
        XCTAssertTrue(sum.contains("\n0004-nickname.yaml ") && sum.contains("\nsnapshots/v4.yaml ") && sum.contains("\n0001-initial.yaml "), sum)
        XCTAssertFalse(try check(expect: 0).stderr.contains("sum-missing"))
    }

    func testMigrationNewRefusesOnTopOfAnEditedReleasedVersion() throws {
        try edit("Migrations/0002-split-person-name.yaml") { $0 + "# edited\n" }
        try edit("Schemas/DoggoDB.yaml") { $0.replacingOccurrences(of: "      favoriteToy:", with: "      nickname: string?\n      favoriteToy:") }
        let before = try FileManager.default.contentsOfDirectory(atPath: migrations).sorted()
        let output = try remodel(["migration", "new", "nickname"], expect: 1)
        XCTAssertTrue(output.stderr.contains("do not match its remodel.sum (the problems above), so nothing was written"), output.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: migrations).sorted(), before)
    }

    func testASumWithConflictMarkersSaysSo() throws {
        try edit("Migrations/remodel.sum") { "<<<<<<< HEAD\n" + $0 + "=======\n>>>>>>> other\n" }
        let output = try check(expect: 1)
        XCTAssertTrue(
            output.stderr.contains(
                "Migrations/remodel.sum:1:1: error: 'Migrations/remodel.sum' has Git conflict markers: two branches each changed the history (most likely each added a version) [sum-conflict]"
            ), output.stderr)
    }

    func testAnInvalidSumFileIsNamed() throws {
        try edit("Migrations/remodel.sum") { text in
            // One hex digit of the first file's hash changed, the total left as it was.
            let range = try! XCTUnwrap(text.range(of: "0001-initial.yaml "))
            let digit = text[range.upperBound]
            return text.replacingCharacters(in: range.upperBound...range.upperBound, with: digit == "0" ? "1" : "0")
        }
        let output = try check(expect: 1)
        XCTAssertTrue(output.stderr.contains("Migrations/remodel.sum:2:1: error: the total in 'Migrations/remodel.sum' does not match its lines"), output.stderr)
        try "remodel-sum 7\n".write(toFile: path("Migrations/remodel.sum"), atomically: true, encoding: .utf8)
        XCTAssertTrue(try check(expect: 1).stderr.contains("has format 7, and this remodel reads format 1 [sum-format]"))
    }

    // MARK: - Change rules

    func testDestructiveChangeNotAccepted() throws {
        try newVersion("drop-toy") { $0.replacingOccurrences(of: "      favoriteToy: { type: string, default: \"\" }\n", with: "") }
        let output = try check(["--format", "json"], expect: 1)
        let found = try findings(output, rule: "destructive-change")
        XCTAssertEqual(found.map(\.file), ["Migrations/0004-drop-toy.yaml"])
        XCTAssertEqual(found.map(\.severity), ["error"])
        let text = try check(expect: 1)
        XCTAssertTrue(
            text.stderr.contains("version 4: property Dog.favoriteToy removed — deletes stored data, and 'Migrations/0004-drop-toy.yaml' does not accept it [destructive-change]"),
            text.stderr)
        XCTAssertTrue(text.stderr.contains("'accept: { destructive: { Dog.favoriteToy: \"why\" } }'"), text.stderr)
        // Accepted, with the reason, where reviewers read it.
        try edit("Migrations/0004-drop-toy.yaml") {
            $0 + "accept:\n  destructive:\n    Dog.favoriteToy: nobody filled it in\n  breaking:\n    Dog.favoriteToy: the app never showed it\n"
        }
        let accepted = try check(expect: 0)
        XCTAssertFalse(accepted.stderr.contains("destructive-change"), accepted.stderr)
        XCTAssertTrue(accepted.stderr.contains("[sum-unreleased-outdated]"), accepted.stderr)
        try remodel(["migration", "hash"])
        try check(["--strict"], expect: 0)
    }

    func testAnAdditiveVersionHasNoFindings() throws {
        try newVersion("nickname") { $0.replacingOccurrences(of: "      favoriteToy:", with: "      nickname: string?\n      favoriteToy:") }
        let output = try check(["--strict"], expect: 0)
        XCTAssertEqual(
            output.stdout,
            "remodel check: passed: 4 versions, version 4 judged as new\n"
                + "version 4: backward-readable: apps of version 3 can keep opening its stores (OpenOptions(allowNewerCompatibleStore: true))\n")
    }

    func testDataDependentChangeWarnsAndStrictFails() throws {
        // Optional → required.
        try newVersion("require-image") {
            $0.replacingOccurrences(of: "      profileImageUrl: url?", with: "      profileImageUrl: { type: url, default: \"https://example.com/dog.png\" }")
        }
        let output = try check(["--format", "json"], expect: 0)
        let found = try findings(output, rule: "data-dependent-change")
        XCTAssertFalse(found.isEmpty, output.stdout)
        XCTAssertEqual(Set(found.map(\.file)), ["Migrations/0004-require-image.yaml"])
        XCTAssertEqual(Set(found.map(\.severity)), ["warning"])
        let strict = try check(["--strict"], expect: 1)
        XCTAssertTrue(strict.stderr.contains("became required — keeps every value only if the data allows"), strict.stderr)
        XCTAssertTrue(strict.stderr.contains("(an error with --strict) [data-dependent-change]"), strict.stderr)
    }

    func testBreakingAPIChange() throws {
        try newVersion("memos", editing: "Schemas/Notes.yaml") { $0.replacingOccurrences(of: "  Note:", with: "  Memo:\n    renamedFrom: Note") }
        let output = try check(["--format", "json"], expect: 0)
        let found = try findings(output, rule: "breaking-api-change")
        XCTAssertEqual(found.map(\.file), ["Migrations/0004-memos.yaml"], output.stdout)
        XCTAssertEqual(found.map(\.severity), ["warning"])
        XCTAssertTrue(try findings(output, rule: "destructive-change").isEmpty, output.stdout)
        XCTAssertTrue(try check(expect: 0).stderr.contains("version 4: type Note renamed to Memo — breaks the generated Swift API"))
        try check(["--strict"], expect: 1)
    }

    func testUnansweredDraftQuestionFailsTheDogToPetDraft() throws {
        try newVersion("pets") { $0.replacingOccurrences(of: "  Dog:", with: "  Pet:").replacingOccurrences(of: "list<Dog>", with: "list<Pet>") }
        let output = try check(["--format", "json"], expect: 1)
        let found = try findings(output, rule: "draft-question-unanswered")
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.file, "Migrations/0004-pets.yaml")
        let text = try String(contentsOfFile: path("Migrations/0004-pets.yaml"), encoding: .utf8)
        let stepLine = try XCTUnwrap(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("# - renameType: { from: Dog, to: Pet }") })
        XCTAssertEqual(found.first?.line, stepLine + 1)
        XCTAssertTrue(try check(expect: 1).stderr.contains("version 4 leaves a question of its draft open: was type Dog renamed to Pet?"))
        // `validate` says so too, as a warning (it passes drafts in progress).
        XCTAssertTrue(
            try remodel(["validate"]).stderr.contains(
                "warning: version 4 leaves a question of its draft open: was type Dog renamed to Pet? (same key and properties) [draft-question-unanswered]"))
        // Deleting the question (the Dog objects may go) leaves the destructive change to accept.
        try edit("Migrations/0004-pets.yaml") { $0.replacingOccurrences(of: "  # - renameType: { from: Dog, to: Pet }\n", with: "") }
        let deleted = try check(["--format", "json"], expect: 1)
        XCTAssertTrue(try findings(deleted, rule: "draft-question-unanswered").isEmpty)
        XCTAssertFalse(try findings(deleted, rule: "destructive-change").isEmpty)
    }

    func testUnusedAcceptance() throws {
        try newVersion("nickname") { $0.replacingOccurrences(of: "      favoriteToy:", with: "      nickname: string?\n      favoriteToy:") }
        try edit("Migrations/0004-nickname.yaml") { $0 + "accept:\n  destructive:\n    Dog.nickName: typo\n" }
        let output = try check(["--format", "json"], expect: 0)
        let found = try findings(output, rule: "unused-acceptance")
        XCTAssertEqual(found.map(\.file), ["Migrations/0004-nickname.yaml"])
        let text = try String(contentsOfFile: path("Migrations/0004-nickname.yaml"), encoding: .utf8)
        XCTAssertEqual(found.first?.line, text.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
    }

    /// A mistake that stops the history from loading leaves the newest version new: its
    /// edited files are still only out of date in remodel.sum, and the summary counts every version.
    func testAHistoryThatDoesNotLoadStillJudgesItsNewestVersionAsNew() throws {
        try newVersion("nickname") { $0.replacingOccurrences(of: "      favoriteToy:", with: "      nickname: string?\n      favoriteToy:") }
        try edit("Migrations/0004-nickname.yaml") { $0 + "accept:\n  braking:\n    Dog: typo\n" }
        let output = try check(["--format", "json"], expect: 1)
        XCTAssertEqual(try findings(output, rule: "unknown-key").map(\.file), ["Migrations/0004-nickname.yaml"], output.stdout)
        XCTAssertEqual(try findings(output, rule: "sum-unreleased-outdated").map(\.file), ["Migrations/0004-nickname.yaml"])
        XCTAssertTrue(try findings(output, rule: "sum-file-changed").isEmpty)
        XCTAssertTrue(try check(expect: 1).stdout.contains(": 4 versions, version 4 judged as new"))
    }

    func testAnAcceptanceWithoutAReasonIsAnError() throws {
        try edit("Migrations/0003-dog-details.yaml") { $0.replacingOccurrences(of: "    Dog.weight: the app reads whole-number weights as Int", with: "    Dog.weight:") }
        let output = try check(expect: 1)
        XCTAssertTrue(output.stderr.contains("error: the breaking change 'Dog.weight' is accepted without a reason [invalid-value]"), output.stderr)
    }

    // MARK: - --base

    func testBaseJudgesEveryNewVersionAndCatchesReleasedEdits() throws {
        try git(["init", "-q"])
        try git(["add", "Schemas", "Migrations"])
        try git(["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "release"])
        // Two new versions on a branch: both judged.
        try newVersion("nickname") { $0.replacingOccurrences(of: "      favoriteToy:", with: "      nickname: string?\n      favoriteToy:") }
        try newVersion("drop-toy") { $0.replacingOccurrences(of: "      favoriteToy: { type: string, default: \"\" }\n", with: "") }
        let judged = try check(["--base", "HEAD", "--format", "json"], expect: 1)
        XCTAssertEqual(try findings(judged, rule: "destructive-change").map(\.file), ["Migrations/0005-drop-toy.yaml"])
        XCTAssertTrue(try findings(judged, rule: "released-version-edited").isEmpty)
        XCTAssertTrue(try check(["--base", "HEAD"], expect: 1).stdout.contains("versions 4–5 judged as new"))
        // A released file edited and re-hashed: remodel.sum agrees, the base does not.
        try edit("Migrations/0003-dog-details.yaml") { $0 + "# edited\n" }
        try remodel(["migration", "hash"])
        XCTAssertFalse(try check(expect: 1).stderr.contains("released-version-edited"))
        let output = try check(["--base", "HEAD", "--format", "json"], expect: 1)
        XCTAssertEqual(try findings(output, rule: "released-version-edited").map(\.file), ["Migrations/0003-dog-details.yaml"])
        // An unknown ref is a usage error.
        let unknown = try check(["--base", "no-such-branch"], expect: 64)
        XCTAssertTrue(
            unknown.stderr.contains(
                "'no-such-branch' is not a commit, branch or tag that the Git repository holding 'Migrations' has: pass one it has (e.g. origin/main), or fetch it first"),
            unknown.stderr)
    }

    func git(_ arguments: [String]) throws {
        let output = try CLIRunner.runProgram("/usr/bin/env", ["git"] + arguments, in: folder)
        XCTAssertEqual(output.status, 0, output.stderr)
    }

    // MARK: - Configuration, formats, generated code

    func testSeveritiesConfiguredInTheMigrationsFolder() throws {
        try newVersion("drop-toy") { $0.replacingOccurrences(of: "      favoriteToy: { type: string, default: \"\" }\n", with: "") }
        try "rules:\n  destructive-change: warning\n  breaking-api-change: off\n".write(toFile: path("Migrations/remodel-check.yaml"), atomically: true, encoding: .utf8)
        let output = try check(["--format", "json"], expect: 0)
        XCTAssertEqual(try findings(output, rule: "destructive-change").map(\.severity), ["warning"])
        // The log says which rules the repository set.
        XCTAssertTrue(try check(expect: 0).stdout.contains("rules set by Migrations/remodel-check.yaml: breaking-api-change off, destructive-change warning\n"))
        XCTAssertTrue(try findings(output, rule: "breaking-api-change").isEmpty)
        try "rules:\n  destructive-changes: off\n".write(toFile: path("Migrations/remodel-check.yaml"), atomically: true, encoding: .utf8)
        let typo = try check(expect: 1)
        XCTAssertTrue(
            typo.stderr.contains("Migrations/remodel-check.yaml:2:3: error: 'destructive-changes' is not a rule of remodel check that can be tuned [check-config-unknown-rule]"),
            typo.stderr)
        XCTAssertTrue(typo.stderr.contains("did you mean 'destructive-change'?"), typo.stderr)
    }

    func testGitHubFormat() throws {
        try newVersion("drop-toy") { $0.replacingOccurrences(of: "      favoriteToy: { type: string, default: \"\" }\n", with: "") }
        let output = try check(["--format", "github"], expect: 1)
        // At the migration file's `steps:`, where the reviewer reads the version.
        let text = try String(contentsOfFile: path("Migrations/0004-drop-toy.yaml"), encoding: .utf8)
        let steps = try XCTUnwrap(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("steps:") }) + 1
        XCTAssertTrue(output.stdout.contains("::error file=Migrations/0004-drop-toy.yaml,line=\(steps),col=1,title=destructive-change::"), output.stdout)
    }

    func testGeneratedCodeOutOfDate() throws {
        try remodel(["generate", "--output", "Generated"])
        try check(["--generated", "Generated"], expect: 0)
        try newVersion("nickname") { $0.replacingOccurrences(of: "      favoriteToy:", with: "      nickname: string?\n      favoriteToy:") }
        let output = try check(["--generated", "Generated", "--format", "json"], expect: 1)
        XCTAssertTrue(try findings(output, rule: "generated-out-of-date").map(\.file).contains("Generated/Dog.swift"), output.stdout)
        try remodel(["generate", "--output", "Generated"])
        try check(["--generated", "Generated"], expect: 0)
    }

    /// The manual's rule table ("Check in CI") and `remodel check --help` list the same rules,
    /// with the same default severities.
    func testTheManualListsEveryRule() throws {
        let help = try remodel(["check", "--help"]).stdout
        let article = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Docs/Guides.docc/CheckInCI.md"), encoding: .utf8)
        let rows = article.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { row in
            row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let table = Set(rows.map { "\($0[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))) (\($0[1]))" })
        let listed = Set(
            help.split(separator: "\n").compactMap { line -> String? in
                let text = line.trimmingCharacters(in: .whitespaces)
                guard let colon = text.range(of: "): "), let open = text.range(of: " ("), open.lowerBound < colon.lowerBound,
                    text[..<open.lowerBound].allSatisfy({ $0.isLowercase || $0 == "-" })
                else { return nil }
                return String(text[..<colon.lowerBound]) + ")"
            })
        XCTAssertFalse(listed.isEmpty, help)
        XCTAssertEqual(table.intersection(listed), listed, "CheckInCI.md's table lacks rules of 'remodel check --help'")
    }

    // MARK: - End to end

    /// Change Schemas/ → check fails (drift) → migration new → answer the draft's question →
    /// check passes → migrate a store of the old version.
    func testFromASchemaEditToAMigratedStore() throws {
        try remodel(["init", "--store", "dogs.sqlite", "--version", "3"])
        try "{\"Dog\": [{\"_id\": \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", \"name\": \"Rex\", \"weight\": 12}]}".write(
            toFile: path("dogs.json"), atomically: true, encoding: .utf8)
        try remodel(["import", "--store", "dogs.sqlite", "dogs.json"])
        try edit("Schemas/DoggoDB.yaml") { $0.replacingOccurrences(of: "  Dog:", with: "  Pet:").replacingOccurrences(of: "list<Dog>", with: "list<Pet>") }
        XCTAssertTrue(try check(expect: 1).stderr.contains("[schema-not-snapshotted]"))
        try remodel(["migration", "new", "pets"])
        XCTAssertTrue(try check(expect: 1).stderr.contains("[draft-question-unanswered]"))
        try edit("Migrations/0004-pets.yaml") { $0.replacingOccurrences(of: "  # - renameType: { from: Dog, to: Pet }", with: "  - renameType: { from: Dog, to: Pet }") }
        let passed = try check(expect: 0)
        XCTAssertTrue(passed.stdout.hasPrefix("remodel check: passed"), passed.stdout)
        try remodel(["migrate", "--store", "dogs.sqlite", "--no-backup"])
        let exported = try remodel(["export", "--store", "dogs.sqlite"])
        XCTAssertTrue(exported.stdout.contains("\"Pet\""), exported.stdout)
        XCTAssertTrue(exported.stdout.contains("\"Rex\""), exported.stdout)
    }

    // MARK: - diff

    func testDiffBetweenVersionsShowsClassesAndThePlan() throws {
        let output = try remodel(["diff", "2", "3"])
        XCTAssertTrue(output.stdout.hasPrefix("Changes from version 2 to version 3:\n"), output.stdout)
        XCTAssertTrue(output.stdout.contains("  [data-dependent] property Dog.weight changed type from string to int  (breaks the generated Swift API)\n"), output.stdout)
        XCTAssertTrue(output.stdout.contains("The plan (as 'remodel migrate' runs it):"), output.stdout)
        XCTAssertTrue(output.stdout.contains("convert Dog.weight from string to int (onError: default)"), output.stdout)
        // `$now` is the time of a run, as `migrate --dry-run` shows it, not the epoch.
        XCTAssertFalse(output.stdout.contains("1970-01-01"), output.stdout)
        // Across several versions, renames made by steps are followed, not shown as removals.
        let across = try remodel(["diff", "1", "3"]).stdout
        XCTAssertTrue(across.contains("property Person.employeeId renamed to personId"), across)
        XCTAssertFalse(across.contains("property Person.employeeId removed"), across)
        let json = try remodel(["diff", "2", "3", "--format", "json"])
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let changes = try XCTUnwrap(document["changes"] as? [[String: Any]])
        XCTAssertTrue(changes.contains { $0["subject"] as? String == "Dog.weight" && $0["impact"] as? String == "data-dependent" && $0["breaksAPI"] as? Bool == true })
        XCTAssertEqual((document["plan"] as? [[String: Any]])?.first?["version"] as? Int, 3)
        // The working schema against the newest version: nothing yet; then an edit.
        XCTAssertTrue(try remodel(["diff"]).stdout.contains("none: both store the same data"))
        try remodel(["diff", "--exit-code"])
        try edit("Schemas/DoggoDB.yaml") { $0.replacingOccurrences(of: "      favoriteToy:", with: "      nickname: string?\n      favoriteToy:") }
        XCTAssertTrue(try remodel(["diff", "--exit-code"], expect: 1).stdout.contains("  [additive] property Dog.nickname added\n"))
        let files = try remodel(["diff", "Migrations/snapshots/v1.yaml", "Schemas"]).stdout
        XCTAssertTrue(files.contains("  [destructive]    property Person.name removed  (breaks the generated Swift API)\n"), files)
        XCTAssertTrue(files.contains("(renames are matched by name and renamedFrom only"), files)
        XCTAssertTrue(try remodel(["diff", "9"], expect: 64).stderr.contains("version 9 does not exist: the history in 'Migrations' has versions 1 to 3"))
        XCTAssertTrue(try remodel(["diff", "nowhere"], expect: 64).stderr.contains("'nowhere' is neither a version number nor a schema file or folder"))
    }
}

extension CheckCommandTests {
    // MARK: - PostgreSQL's locking rules

    /// `--engine postgresql` flags each change the default mode locks a table for or that
    /// breaks instances of the previous version, says what to do instead, and takes
    /// `accept: { locking: … }`; without it none of them is judged.
    func testPostgresLockingRulesFlagWhatTheDefaultModeLocksAndTakeAcceptances() throws {
        try newVersion("dog-tags") {
            $0.replacingOccurrences(
                of: "      name: { type: string, default: \"\" }\n      breed:", with: "      name: { type: string, default: \"\", indexed: true }\n      breed:"
            )
            .replacingOccurrences(
                of: "      profileImageUrl: url?\n      dateLastUpdated",
                with: "      profileImageUrl: { type: url, default: \"https://example.com/dog.png\" }\n      dateLastUpdated"
            )
            .replacingOccurrences(of: "      favoriteToy:", with: "      tag: { type: uuid, default: $uuid }\n      walker: Person?\n      favoriteToy:")
        }
        try edit("Migrations/0004-dog-tags.yaml") { $0.replacingOccurrences(of: "steps: []", with: "steps:\n  - renameProperty: { type: Dog, from: breed, to: kind }") }
        try edit("Schemas/DoggoDB.yaml") { $0.replacingOccurrences(of: "      breed: { type: string", with: "      kind: { type: string") }
        try remodel(["migration", "amend"])
        let plain = try check(["--format", "json"], expect: 0)
        for rule in ["postgres-blocking-index", "postgres-not-null-scan", "postgres-volatile-default", "postgres-validating-foreign-key", "postgres-rename"] {
            XCTAssertTrue(try findings(plain, rule: rule).isEmpty, "\(rule) without --engine postgresql:\n\(plain.stdout)")
        }
        let output = try check(["--engine", "postgresql", "--format", "json"], expect: 0)
        for rule in ["postgres-blocking-index", "postgres-not-null-scan", "postgres-volatile-default", "postgres-validating-foreign-key", "postgres-rename"] {
            let found = try findings(output, rule: rule)
            XCTAssertEqual(found.map(\.file), ["Migrations/0004-dog-tags.yaml"], "\(rule):\n\(output.stdout)")
            XCTAssertEqual(found.map(\.severity), ["warning"], rule)
        }
        let text = try check(["--engine", "postgresql", "--strict"], expect: 1).stderr
        for expected in [
            "version 4: index on Dog.name added — locks or rewrites a table on PostgreSQL in the default mode",
            "CREATE INDEX blocks writes to Dog until it is built; `remodel migrate --online` builds it CONCURRENTLY",
            "SET NOT NULL reads every row while writes wait; `remodel migrate --online` adds a CHECK … NOT VALID",
            "a default made fresh for each object ($uuid) is computed for every existing row",
            "adding the foreign key reads every Dog row while writes to Dog and its target wait; `remodel migrate --online` adds it NOT VALID",
            "instances of the previous version still read 'breed' until they are replaced",
            "'accept: { locking: { Dog.breed: \"why\" } }'",
            "[postgres-rename]",
        ] {
            XCTAssertTrue(text.contains(expected), "missing \(expected):\n\(text)")
        }
        // Accepted one by one, as the other classes of change are.
        try edit("Migrations/0004-dog-tags.yaml") {
            $0 + """
                accept:
                  locking:
                    Dog.name: the dogs table is small
                    Dog.profileImageUrl: the dogs table is small
                    Dog.tag: the dogs table is small
                    Dog.walker: the dogs table is small
                    Dog.breed: the app reads both names in this release
                    Dog.nothing: a typo

                """
        }
        let accepted = try check(["--engine", "postgresql", "--format", "json"], expect: 0)
        XCTAssertTrue(try findings(accepted, rule: "postgres-rename").isEmpty, accepted.stdout)
        XCTAssertTrue(try findings(accepted, rule: "postgres-blocking-index").isEmpty, accepted.stdout)
        XCTAssertEqual(try findings(accepted, rule: "unused-acceptance").count, 1, accepted.stdout)
        // Without the engine, `locking` acceptances are not judged.
        XCTAssertTrue(try findings(try check(["--format", "json"], expect: 0), rule: "unused-acceptance").isEmpty)
    }

    /// The example's version 3 converts every dog's weight: a rewrite of the table.
    func testTheExamplesConversionIsATableRewriteOnPostgres() throws {
        let output = try check(["--engine", "postgresql"], expect: 0)
        XCTAssertTrue(
            output.stderr.contains(
                "Migrations/0003-dog-details.yaml:12:1: warning: version 3: convert Dog.weight from string to int (onError: default) — locks or rewrites a table on PostgreSQL in the default mode"
            ), output.stderr)
        XCTAssertTrue(output.stderr.contains("[postgres-table-rewrite]"), output.stderr)
        let usage = try check(["--engine", "oracle"], expect: 64)
        XCTAssertTrue(usage.stderr.contains("--engine is sqlite or postgresql, found 'oracle'"), usage.stderr)
    }
}
