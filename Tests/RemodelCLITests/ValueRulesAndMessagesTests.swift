import Foundation
import XCTest

/// No value is changed without a word, and each error says what, where and how to fix it.
final class ValueRulesAndMessagesTests: CLIFolderTestCase {
    static let values = "objects:\n  V:\n    primaryKey: id\n    properties:\n      id: int\n      d: double?\n      f: float?\n      s: set<string>\n"

    private func valuesHistory() throws {
        try write(Self.values, to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
    }

    // MARK: - One rule per value

    func testNumbersAStoreWouldChangeAndRepeatsInASetAreRefusedWhereTheyAre() throws {
        try valuesHistory()
        try write(#"{"V": [{"id": 1, "d": 1e-400, "s": []}]}"#, to: "tiny.json")
        let tiny = try remodel(["import", "--store", path("a.db"), path("tiny.json")], expect: 1)
        XCTAssertTrue(tiny.stderr.contains("tiny.json:1:23: error: the number '1e-400' is too small for a double (about ±4.9e-324): it would be stored as 0"), tiny.stderr)
        try write(#"{"V": [{"id": 1, "f": 1e-46, "s": ["a", "b", "a"]}]}"#, to: "float.json")
        let float = try remodel(["import", "--store", path("a.db"), path("float.json")], expect: 1)
        XCTAssertTrue(float.stderr.contains("nothing was imported"), float.stderr)
        XCTAssertTrue(float.stderr.contains("float.json: V[0].f: 1e-46 is too small for a float (about ±1.4e-45): it would be stored as 0"), float.stderr)
        XCTAssertTrue(float.stderr.contains("float.json: V[0].s[2]: \"a\" is in the set twice; a set holds each value once"), float.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("a.db")))
        // What fits is kept as written: the smallest double, and a float's smallest.
        try write(#"{"V": [{"id": 1, "d": 5e-324, "f": 1.5e-45, "s": ["a", "b"]}]}"#, to: "fits.json")
        try remodel(["import", "--store", path("a.db"), "--quiet", path("fits.json")])
        let exported = try export(path("a.db"))
        XCTAssertTrue(exported.contains("\"d\" : 5e-324") || exported.contains("\"d\" : 4.9406564584124654e-324"), exported)
    }

    // MARK: - Import errors

    func testAnImportThatCollidesOrLinksToNothingNamesThePlaceInTheFileAndChangesNothing() throws {
        try write(
            "objects:\n  Dog:\n    primaryKey: id\n    properties:\n      id: int\n  Person:\n    primaryKey: id\n    properties:\n      id: int\n      dogs: list<Dog>\n",
            to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
        try write(#"{"Dog": [{"id": 1}]}"#, to: "one.json")
        try remodel(["import", "--store", path("s.db"), "--quiet", path("one.json")])
        let before = try Data(contentsOf: URL(fileURLWithPath: path("s.db")))

        try write(#"{"Dog": [{"id": 2}, {"id": 1}]}"#, to: "again.json")
        let again = try remodel(["import", "--store", path("s.db"), path("again.json")], expect: 1)
        XCTAssertTrue(again.stderr.contains("cannot import \(path("again.json")); nothing was imported"), again.stderr)
        XCTAssertTrue(again.stderr.contains("again.json: Dog[1].id: the store already holds Dog 1 (its primary key); remove it from the file"), again.stderr)
        XCTAssertFalse(again.stderr.contains("upsert"), again.stderr)

        try write(#"{"Person": [{"id": 5, "dogs": [1]}, {"id": 6, "dogs": [1, 9]}]}"#, to: "links.json")
        let links = try remodel(["import", "--store", path("s.db"), path("links.json")], expect: 1)
        XCTAssertTrue(links.stderr.contains("nothing was imported"), links.stderr)
        XCTAssertTrue(links.stderr.contains("links.json: Person[1].dogs[1]: links to Dog 9, which is neither in the store nor in the file"), links.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("s.db"))), before)
    }

    func testAStoreThatIsADeviceOrAPipeIsNamedAsSuch() throws {
        try valuesHistory()
        XCTAssertEqual(mkfifo(path("pipe.db"), 0o600), 0)
        for store in ["/dev/zero", path("pipe.db")] {
            let output = try remodel(["status", "--store", store], expect: 1)
            XCTAssertTrue(output.stderr.contains("it is not a regular file (a device, a pipe or a socket), so it holds no store"), output.stderr)
        }
    }

    func testAClosedStandardOutputIsNamedAndNothingIsWrittenElsewhere() throws {
        try valuesHistory()
        try write(#"{"V": [{"id": 1, "s": []}]}"#, to: "v.json")
        try remodel(["import", "--store", path("v.db"), "--quiet", path("v.json")])
        let before = try Data(contentsOf: URL(fileURLWithPath: path("v.db")))
        for arguments in [["export", "--store", "v.db"], ["status", "--store", "v.db"]] {
            let output = try CLIRunner.runProgram("/bin/sh", ["-c", "exec \"$0\" \"$@\" >&-", try CLIRunner.executable().path] + arguments, in: folder)
            XCTAssertEqual(output.status, 1, "\(arguments): \(output.stderr)")
            XCTAssertTrue(output.stderr.contains("cannot write to standard output: it was closed when the tool started"), output.stderr)
            XCTAssertFalse(output.stderr.contains("NSCocoaErrorDomain"), output.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("v.db"))), before)
    }

    // MARK: - Schema files

    func testYAMLMergeKeysAndTagsAreRefusedNotMisread() throws {
        try write("base: &base\n  id: int\nobjects:\n  Dog:\n    properties:\n      <<: *base\n      name: string\n", to: "Schemas/S.yaml")
        let merge = try remodel(["validate"], expect: 1)
        XCTAssertTrue(merge.stderr.contains("Schemas/S.yaml:6:7: error: merge keys ('<<') are not read"), merge.stderr)
        try write("objects:\n  Dog:\n    properties:\n      name: { type: string, default: !!int \"5\" }\n", to: "Schemas/S.yaml")
        let tag = try remodel(["validate"], expect: 1)
        XCTAssertTrue(tag.stderr.contains("Schemas/S.yaml:4:38: error: the tag '!!int' is not read: remodel reads values by their text"), tag.stderr)
    }

    /// Text from a file is shown, never obeyed: escape sequences and bidirectional controls
    /// are written as `\u{…}`, and a huge value is cut to its start and end.
    func testDiagnosticsShowControlCharactersAndCutHugeValues() throws {
        try write("objects:\n  Dog:\n    properties:\n      weight: \"\\e[2J\\u202Eevil\"\n", to: "Schemas/S.yaml")
        let control = try remodel(["validate"], expect: 1)
        XCTAssertFalse(control.stderr.contains("\u{1B}"), control.stderr)
        XCTAssertFalse(control.stderr.contains("\u{202E}"), control.stderr)
        XCTAssertTrue(control.stderr.contains("'\\u{1B}[2J\\u{202E}evil'"), control.stderr)

        try write("objects:\n  Dog:\n    properties:\n      weight: \"" + String(repeating: "x", count: 3_000_000) + "\"\n", to: "Schemas/S.yaml")
        let huge = try remodel(["validate"], expect: 1)
        XCTAssertLessThan(huge.stderr.utf8.count, 10_000)
        XCTAssertTrue(huge.stderr.contains("characters not shown"), String(huge.stderr.prefix(300)))
    }
}
