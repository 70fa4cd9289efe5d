import Foundation
import RemodelCore
import XCTest

/// Values the store cannot keep as written are refused — by `import`, schema validation and
/// `migrate` alike — with what is wrong, where, and how to fix it, exit status 1 and no file
/// changed; values that fit are stored the same whichever way they arrive.
final class HardeningValuesTests: CLIFolderTestCase {

    static let schema = """
        objects:
          T:
            primaryKey: id
            properties:
              id: int
              when: date?
              blob: { type: data, default: "aGVsbG8=" }
              d: { type: double, default: 0 }
              od: double?
              f: float?
              s: string?
              i8: int8?
              dec: { type: decimal128, default: "1.50" }
              place: Place?
              counts: map<int>
          Place:
            embedded: true
            properties:
              name: string?
        """

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Schemas"), withIntermediateDirectories: true)
        try write(Self.schema, to: "Schemas/a.yaml")
        try remodel(["migration", "new", "initial"])
        try remodel(["init", "--store", "s.db", "--version", "1"])
    }

    // MARK: - Helpers

    @discardableResult
    private func write(_ data: Data, to name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    /// The SHA-256 of every file in the folder, by relative path.
    private func snapshot() throws -> [String: String] {
        var hashes: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])!
        for case let url as URL in enumerator where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            hashes[String(url.path.dropFirst(folder.path.count))] = SHA256.hexDigest(of: [UInt8](try Data(contentsOf: url)))
        }
        return hashes
    }

    /// Runs `arguments`, expects exit status 1 with every one of `expected` in stderr, and no
    /// file changed, added or removed (except `ignoring`, the input file written first).
    private func refuses(_ arguments: [String], saying expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try snapshot()
        let output = try remodel(arguments, expect: 1, file: file, line: line)
        for part in expected {
            XCTAssertTrue(output.stderr.contains(part), "expected '\(part)' in:\n\(output.stderr)", file: file, line: line)
        }
        XCTAssertEqual(try snapshot(), before, "a refused command changed files", file: file, line: line)
    }

    /// Imports one object `json` (inside `{"T": [ … ]}`) and expects the refusal.
    private func importRefuses(_ object: String, saying expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        try write("{\"T\": [\(object)]}", to: "x.json")
        try refuses(["import", "--store", "s.db", "x.json"], saying: ["x.json"] + expected, file: file, line: line)
    }

    // MARK: - Dates

    func testDatesBeyondTheSupportedYearsAreRefusedWithTheRange() throws {
        try importRefuses(
            #"{"id": 1, "when": "999999-12-31T23:59:59Z"}"#,
            saying: ["T[0].when", "\"999999-12-31T23:59:59Z\" is out of range", "years -9999 through 9999"])
        try importRefuses(
            #"{"id": 1, "when": "-292300-01-01T00:00:00Z"}"#,
            saying: ["T[0].when", "is out of range", "years -9999 through 9999"])
    }

    func testATimeZoneOffsetOutOfRangeIsNamed() throws {
        try importRefuses(
            #"{"id": 1, "when": "2024-01-01T00:00:00+99:99"}"#,
            saying: ["T[0].when", "time-zone offset out of range: +99:99 (hours 00–23, minutes 00–59)"])
        try importRefuses(#"{"id": 1, "when": "2024-02-30"}"#, saying: ["day 30 does not exist in 2024-02 (01–29)"])
    }

    func testConvertingTextToADateOutOfRangeFailsWithTheRange() throws {
        try write(#"{"T": [{"id": 1, "s": "294247-01-10T04:00:54.775807Z"}]}"#, to: "x.json")
        try remodel(["import", "--store", "s.db", "x.json"])
        try write(Self.schema.replacingOccurrences(of: "s: string?", with: "s: date?"), to: "Schemas/a.yaml")
        try remodel(["migration", "new", "to-date"])
        try write("steps:\n  - convert: { type: T, property: s, to: date, onError: fail }\n", to: "Migrations/0002-to-date.yaml")
        try refuses(
            ["migrate", "--store", "s.db", "--no-backup"],
            saying: ["0002-to-date.yaml:2:5", "294247-01-10T04:00:54.775807Z", "years -9999 through 9999"])
    }

    func testExportOfAStoredDateEditedBeyondTheRangeDoesNotCrash() throws {
        try write(#"{"T": [{"id": 1}, {"id": 2}]}"#, to: "x.json")
        try remodel(["import", "--store", "s.db", "x.json"])
        let store = folder.appendingPathComponent("s.db").path
        _ = try SQLiteSchema.run("UPDATE T SET \"when\" = -9223372036854775808 WHERE id = 1; UPDATE T SET \"when\" = 9223372036854775807 WHERE id = 2", on: store)
        let export = try remodel(["export", "--store", "s.db"])
        XCTAssertTrue(export.stdout.contains(#""when": "-290308-12-21T19:59:05.224192Z""#), export.stdout)
        XCTAssertTrue(export.stdout.contains(#""when": "294247-01-10T04:00:54.775807Z""#), export.stdout)
    }

    // MARK: - Defaults take the stored form of imported values

    func testADataDefaultIsStoredAsBytesAndExports() throws {
        try write(#"{"T": [{"id": 1}]}"#, to: "x.json")
        try remodel(["import", "--store", "s.db", "x.json"])
        let types = try SQLiteSchema.run("SELECT typeof(blob), dec FROM T", on: folder.appendingPathComponent("s.db").path)
        XCTAssertEqual(types, "blob|1.5\n")
        let export = try remodel(["export", "--store", "s.db"])
        XCTAssertTrue(export.stdout.contains(#""blob": "aGVsbG8=""#), export.stdout)
        XCTAssertTrue(export.stdout.contains(#""dec": "1.5""#), export.stdout)
    }

    func testAnAddedPropertyWithADefaultTakesTheSameStoredValueAsImport() throws {
        try write(#"{"T": [{"id": 1}]}"#, to: "x.json")
        try remodel(["import", "--store", "s.db", "x.json"])
        let added = Self.schema.replacingOccurrences(
            of: "      counts: map<int>",
            with: """
                      counts: map<int>
                      blob2: { type: data, default: "aGVsbG8=" }
                      dec2: { type: decimal128, default: "1.50" }
                      when2: { type: date, default: "2024-03-01T10:30:00+01:00" }
                      f2: { type: float, default: 1.5 }
                """)
        try write(added, to: "Schemas/a.yaml")
        try remodel(["migration", "new", "added"])
        try remodel(["migrate", "--store", "s.db", "--no-backup"])
        let row = try SQLiteSchema.run("SELECT typeof(blob2), hex(blob2) = hex(blob), dec2 = dec, when2, f2 FROM T", on: folder.appendingPathComponent("s.db").path)
        XCTAssertEqual(row, "blob|1|1|1709285400000000|1.5\n")
    }

    // MARK: - Numbers

    func testNaNIsRefusedInsteadOfBecomingNull() throws {
        try importRefuses(#"{"id": 1, "d": "NaN"}"#, saying: ["T[0].d", "\"NaN\" cannot be stored: SQLite stores NaN as NULL"])
        try importRefuses(#"{"id": 1, "od": "NaN"}"#, saying: ["T[0].od", "\"NaN\" cannot be stored", "use null on an optional property"])
    }

    func testNumbersBeyondTheirTypeAreRefused() throws {
        try importRefuses(#"{"id": 1, "f": 1e39}"#, saying: ["T[0].f", "1e+39 is out of range for float", "make the property a double"])
        try importRefuses(#"{"id": 1, "i8": 128}"#, saying: ["T[0].i8", "128 is out of range for int8 (-128...127)"])
        try importRefuses(#"{"id": 1, "i8": 1.0}"#, saying: ["T[0].i8", "write 1, without a decimal point"])
        try importRefuses(#"{"id": 9223372036854775808}"#, saying: ["T[0].id", "out of range for int"])
        try importRefuses(#"{"id": 9007199254740993, "d": 9007199254740993}"#, saying: ["T[0].d", "cannot be stored exactly in a double"])
        try importRefuses(#"{"id": 1, "d": 1\#(String(repeating: "0", count: 400))}"#, saying: ["x.json:1:", "beyond the range of a double"])
        try importRefuses(#"{"id": 01}"#, saying: ["x.json:1:", "invalid number '01'"])
    }

    func testNegativeZeroAndWholeNumbersStillImport() throws {
        try write(#"{"T": [{"id": -0, "i8": -128, "d": 1e308, "f": -3.4e38}]}"#, to: "x.json")
        try remodel(["import", "--store", "s.db", "x.json"])
    }

    func testDecimalTextIsOneRule() throws {
        try importRefuses(#"{"id": 1, "dec": "0x10"}"#, saying: ["T[0].dec", "\"0x10\" is not a decimal number", "such as 12.50"])
        try importRefuses(#"{"id": 1, "dec": "12abc"}"#, saying: ["\"12abc\" is not a decimal number"])
        try importRefuses(#"{"id": 1, "dec": "1234567890123456789012345678901234567890"}"#, saying: ["has 39 significant digits", "at most 38"])
        try write(Self.schema.replacingOccurrences(of: #"default: "1.50""#, with: #"default: "0x10""#), to: "Schemas/a.yaml")
        try refuses(["validate"], saying: ["Schemas/a.yaml:13:", "default '0x10' of", "is not a decimal number"])
    }

    func testConvertReadsOnlyDecimalTextAndKeepsFloatsInRange() throws {
        try write(Self.schema.replacingOccurrences(of: "s: string?", with: "s: string?\n      big: double?"), to: "Schemas/a.yaml")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Migrations"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("s.db"))
        try remodel(["migration", "new", "initial"])
        try remodel(["init", "--store", "s.db", "--version", "1"])
        try write(#"{"T": [{"id": 1, "s": "0x10", "big": 1e39}]}"#, to: "x.json")
        try remodel(["import", "--store", "s.db", "x.json"])
        let next = Self.schema.replacingOccurrences(of: "s: string?", with: "s: double?\n      big: float?")
        try write(next, to: "Schemas/a.yaml")
        try remodel(["migration", "new", "numbers"])
        try write(
            "steps:\n  - convert: { type: T, property: s, to: double, onError: fail }\n  - convert: { type: T, property: big, to: float, onError: null }\n",
            to: "Migrations/0002-numbers.yaml")
        try refuses(["migrate", "--store", "s.db", "--no-backup"], saying: ["step 1 (convert)", "cannot be converted to double", "\"0x10\"", "decimal text"])
        try write(
            "steps:\n  - convert: { type: T, property: s, to: double, onError: null }\n  - convert: { type: T, property: big, to: float, onError: fail }\n",
            to: "Migrations/0002-numbers.yaml")
        try refuses(["migrate", "--store", "s.db", "--no-backup"], saying: ["step 2 (convert)", "cannot be converted to float", "3.4028235e+38"])
    }

    /// `convert` to url reads text by the rule import uses: empty text is no URL in either.
    func testConvertToURLAcceptsWhatImportAccepts() throws {
        try write(#"{"T": [{"id": 1, "s": "https://example.com/a"}, {"id": 2, "s": ""}]}"#, to: "x.json")
        try remodel(["import", "--store", "s.db", "x.json"])
        try write(Self.schema.replacingOccurrences(of: "s: string?", with: "s: url?"), to: "Schemas/a.yaml")
        try remodel(["migration", "new", "links"])
        try write("steps:\n  - convert: { type: T, property: s, to: url, onError: fail }\n", to: "Migrations/0002-links.yaml")
        try refuses(
            ["migrate", "--store", "s.db", "--no-backup"],
            saying: ["step 1 (convert)", "Migrations/0002-links.yaml:2:5", "cannot be converted to url", "T.s: 2 (\"\")", "not empty text", "Nothing was changed"])
        try write("steps:\n  - convert: { type: T, property: s, to: url, onError: null }\n", to: "Migrations/0002-links.yaml")
        try remodel(["migrate", "--store", "s.db", "--no-backup"])
        let exported = try remodel(["export", "--store", "s.db"]).stdout
        XCTAssertTrue(exported.contains(#""s" : "https:\/\/example.com\/a""#) || exported.contains(#""s": "https://example.com/a""#), exported)
        XCTAssertFalse(exported.contains(#""s": """#) || exported.contains(#""s" : """#), "empty text became a url: \(exported)")
    }

    // MARK: - JSON text

    func testADuplicateKeyIsAnErrorAtItsPosition() throws {
        try write("{\"T\": [\n  {\"id\": 1, \"s\": \"a\", \"s\": \"b\"}\n]}", to: "x.json")
        try refuses(["import", "--store", "s.db", "x.json"], saying: ["x.json:2:23: error: duplicate key \"s\"", "first at line 2, column 13"])
        try importRefuses(#"{"id": 1, "place": {"name": "a", "name": "b"}}"#, saying: ["x.json:1:", "duplicate key \"name\""])
        try importRefuses(#"{"id": 1, "counts": {"a": 1, "a": 2}}"#, saying: ["x.json:1:", "duplicate key \"a\""])
        try write(#"{"T": [], "T": []}"#, to: "x.json")
        try refuses(["import", "--store", "s.db", "x.json"], saying: ["x.json:1:11: error: duplicate key \"T\""])
    }

    func testInvalidUTF8IsAnErrorWithItsByteOffset() throws {
        var bytes = Data(#"{"T": [{"id": 1, "s": "a"#.utf8)
        bytes.append(0xFF)
        bytes.append(contentsOf: Array(#""}]}"#.utf8))
        try write(bytes, to: "x.json")
        try refuses(["import", "--store", "s.db", "x.json"], saying: ["x.json:1:25: error: invalid UTF-8 at byte offset 24 (byte 0xFF)", "save the file as UTF-8"])
    }

    func testInvalidUTF8InASchemaIsAnError() throws {
        var bytes = Data("objects:\n  T:\n    primaryKey: id\n    properties:\n      id: int\n      s: { type: string, default: \"a".utf8)
        bytes.append(0xFF)
        bytes.append(contentsOf: Array("\" }\n".utf8))
        try write(bytes, to: "Schemas/a.yaml")
        let output = try remodel(["validate"], expect: 1)
        XCTAssertTrue(output.stderr.contains("Schemas/a.yaml:6:"), output.stderr)
        XCTAssertTrue(output.stderr.contains("not valid UTF-8"), output.stderr)
    }
}
