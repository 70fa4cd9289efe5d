import Foundation
import XCTest

/// `remodel migration squash --through N` on a copy of the example, through the real binary:
/// what it writes, what migrates afterwards and what is refused, and what `check` says.
extension CheckCommandTests {
    func testSquashKeepsStoresFromTheBaselineOnMigratingAndRefusesOlderOnes() throws {
        // Stores the old history made, before the squash: one at version 1, one at version 2.
        let v1 = path("v1.db")
        let v2 = path("v2.db")
        try remodel(["import", "--store", v1, "--version", "1", Self.fixtures.appendingPathComponent("v1.json").path])
        try remodel(["import", "--store", v2, "--version", "2", Self.fixtures.appendingPathComponent("v2.json").path])

        let squashed = try remodel(["migration", "squash", "--through", "2"])
        XCTAssertEqual(
            squashed.stdout,
            "Squashed versions 1 to 2 into the baseline 'Migrations/0002-split-person-name.yaml' (removed 2 files); 'Migrations/remodel.sum' written. "
                + "Stores at version 2 or later migrate as before; older ones are refused: upgrade them first with a release built before the squash\n")
        for gone in ["Migrations/0001-initial.yaml", "Migrations/snapshots/v1.yaml"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path(gone)), gone)
        }
        let baseline = try String(contentsOfFile: path("Migrations/0002-split-person-name.yaml"), encoding: .utf8)
        XCTAssertTrue(baseline.contains("squashedFrom: 1\nsteps: []\n"), baseline)
        XCTAssertEqual(
            try String(contentsOfFile: path("Migrations/snapshots/v2.yaml"), encoding: .utf8),
            try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Migrations/snapshots/v2.yaml"), encoding: .utf8))
        XCTAssertTrue(try check(["--strict"], expect: 0).stdout.hasPrefix("remodel check: passed: versions 2–3, version 3 judged as new\n"))
        try remodel(["validate"])

        // From the baseline on, as before: version 2 to the golden export.
        let start = Date()
        try remodel(["migrate", "--store", v2, "--no-backup"])
        XCTAssertEqual(try normalisedExport(v2, start: start, end: Date()), try golden("v2-to-v3.json"))
        // Older: refused, with what to do, and unchanged.
        let before = try export(v1)
        let refused = try remodel(["migrate", "--store", v1, "--no-backup"], expect: 1)
        XCTAssertTrue(
            refused.stderr.contains(
                "the store is at version 1, older than version 2, the oldest this history supports: versions up to 2 were squashed into one baseline ('remodel migration squash'), so this build cannot upgrade it"
            ), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("upgrade the store first with a release built before the squash"), refused.stderr)
        XCTAssertEqual(try export(v1), before)

        // Nothing more to fold at 2; a version the history does not have.
        for (through, message) in [("2", "the history has versions 2 to 3, so there is nothing to fold through version 2"), ("9", "pass a version from 3 to 3")] {
            let output = try remodel(["migration", "squash", "--through", through], expect: 1)
            XCTAssertTrue(output.stderr.contains(message), output.stderr)
        }
        // And it squashes again: versions 2 and 3 into 3, still counted from version 1.
        try remodel(["migration", "squash", "--through", "3"])
        XCTAssertTrue(try String(contentsOfFile: path("Migrations/0003-dog-details.yaml"), encoding: .utf8).contains("squashedFrom: 1\n"))
        try check(["--strict"], expect: 0)
    }

    /// With `--keep-upgrade-path`, every old fixture still migrates to the golden export, the
    /// folded versions kept in `Migrations/upgrade/`.
    func testSquashKeepingTheUpgradePathStillMigratesEveryOldFixture() throws {
        let v1 = path("v1.db")
        let v2 = path("v2.db")
        try remodel(["import", "--store", v1, "--version", "1", Self.fixtures.appendingPathComponent("v1.json").path])
        try remodel(["import", "--store", v2, "--version", "2", Self.fixtures.appendingPathComponent("v2.json").path])
        let squashed = try remodel(["migration", "squash", "--through", "2", "--keep-upgrade-path"])
        XCTAssertTrue(squashed.stdout.contains("Older stores still upgrade through 'Migrations/upgrade'"), squashed.stdout)
        for kept in ["0001-initial.yaml", "0002-split-person-name.yaml", "snapshots/v1.yaml", "snapshots/v2.yaml", "remodel.sum"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: path("Migrations/upgrade/" + kept)), kept)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("Migrations/0001-initial.yaml")))
        try check(["--strict"], expect: 0)
        for (store, golden) in [(v1, "v1-to-v3.json"), (v2, "v2-to-v3.json")] {
            let start = Date()
            try remodel(["migrate", "--store", store, "--no-backup"])
            XCTAssertEqual(try normalisedExport(store, start: start, end: Date()), try self.golden(golden), golden)
        }
    }

    /// Realm's migration example squashed through version 4, keeping the upgrade path: a store
    /// at version 1 migrates to what it migrates to without the squash; without the path it is
    /// refused.
    func testTheRealmExampleSquashedKeepsOldStoresMigrating() throws {
        let example = CLIRunner.packageRoot.appendingPathComponent("Examples/RealmMigration")
        for (copy, keep) in [("kept", true), ("folded", false)] {
            try FileManager.default.copyItem(at: example, to: folder.appendingPathComponent(copy))
            let arguments = ["--schemas", path(copy + "/Schemas"), "--migrations", path(copy + "/Migrations")]
            let plain = path(copy + "-plain.db")
            let squashedStore = path(copy + "-squashed.db")
            for store in [plain, squashedStore] {
                try remodel(["import", "--store", store, "--version", "1"] + arguments + [path(copy + "/data/v1.json")])
            }
            try remodel(["migrate", "--store", plain, "--no-backup"] + arguments)
            try remodel(["migration", "squash", "--through", "4"] + (keep ? ["--keep-upgrade-path"] : []) + arguments)
            try remodel(["check", "--strict"] + arguments)
            if keep {
                try remodel(["migrate", "--store", squashedStore, "--no-backup"] + arguments)
                XCTAssertEqual(
                    Self.numberingUUIDs(try remodel(["export", "--store", squashedStore]).stdout), Self.numberingUUIDs(try remodel(["export", "--store", plain]).stdout))
            } else {
                let refused = try remodel(["migrate", "--store", squashedStore, "--no-backup"] + arguments, expect: 1)
                XCTAssertTrue(refused.stderr.contains("the store is at version 1, older than version 4, the oldest this history supports"), refused.stderr)
            }
        }
    }

    /// A squash is not an edit of released versions for `--base`; an edit of the squashed
    /// baseline afterwards is, and remodel.sum catches it at once.
    func testAnEditedSquashIsFlagged() throws {
        try git(["init", "-q"])
        try git(["add", "Schemas", "Migrations"])
        try git(["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "release"])
        try remodel(["migration", "squash", "--through", "2"])
        XCTAssertTrue(try findings(try check(["--base", "HEAD", "--format", "json"], expect: 0), rule: "released-version-edited").isEmpty)
        try git(["add", "-A", "Migrations"])
        try git(["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "squash"])

        try edit("Migrations/0002-split-person-name.yaml") { $0.replacingOccurrences(of: "squashedFrom: 1", with: "squashedFrom: 1\n# edited") }
        let output = try check(["--format", "json"], expect: 1)
        XCTAssertEqual(try findings(output, rule: "sum-file-changed").map(\.file), ["Migrations/0002-split-person-name.yaml"], output.stdout)
        try remodel(["migration", "hash"])
        let based = try check(["--base", "HEAD", "--format", "json"], expect: 1)
        XCTAssertEqual(try findings(based, rule: "released-version-edited").map(\.file), ["Migrations/0002-split-person-name.yaml"], based.stdout)
    }
}
