import Foundation
import RemodelCore
import RemodelStore
import RemodelTestSupport
import Testing

@testable import RemodelMigrate

/// `remodel_split_part` and `remodel_parse_integer` (which `split` and text → integer
/// `convert` use for speed) give exactly what their plain-SQL definitions give, on values
/// chosen to break them.
@Suite struct MigrationFunctionsTests {
    static let samples = [
        "", " ", "  ", "Ada", "Ada Lovelace", "  Grace   Brewster Hopper ", "\tZoë\t Ünal\n", "a  b", " a\t b \r", "Ada\tLovelace",
        "x y z w", "José, García", ", ", ",", "a,b,c", "  ,  ", " , a , b , ", "ÜbÜcÜ", "Ü", "a\r\nb", "\u{0B}x y",
        "12", "-3", "+15", " 7 ", "007", "-0", "+", "-", "+-5", "12.5", "n/a", "1e3", " 1 2 ", "12a", "\u{0B}5", "１２", "٣",
        "999999999999999999", "1000000000000000000", "-999999999999999999", "0000000000000000000000012", "9223372036854775807",
        "-128", "-129", "127", "128", "\t\n-42\r",
    ]

    /// The SQL `split` used before `remodel_split_part`: a chain of trim/instr/substr.
    static func sqlSplit(_ operand: String, separator: String, count: Int) -> [String] {
        let whitespace = "' ' || char(9) || char(10) || char(13)"
        let quoted = SQLiteRenderer.text(separator)
        var rest = "trim(coalesce(\(operand), ''), \(whitespace))"
        var parts: [String] = []
        for position in 0..<count {
            if position == count - 1 {
                parts.append(rest)
            } else {
                let found = "instr(\(rest), \(quoted))"
                parts.append("(CASE WHEN \(found) > 0 THEN trim(substr(\(rest), 1, \(found) - 1), \(whitespace)) ELSE \(rest) END)")
                rest = "(CASE WHEN \(found) > 0 THEN trim(substr(\(rest), \(found) + \(separator.count)), \(whitespace)) ELSE '' END)"
            }
        }
        return parts
    }

    /// The SQL text → integer rule used before `remodel_parse_integer`: the converted value,
    /// or NULL when the text is not a whole number in the range.
    static func sqlInteger(_ v: String, range: ClosedRange<Int64>) -> String {
        let trimmed = "trim(\(v), ' ' || char(9) || char(10) || char(13))"
        let digits = "(CASE WHEN substr(\(trimmed), 1, 1) IN ('+', '-') THEN substr(\(trimmed), 2) ELSE \(trimmed) END)"
        let test =
            "\(digits) <> '' AND \(digits) NOT GLOB '*[^0-9]*' AND length(ltrim(\(digits), '0')) <= 18 AND CAST(\(trimmed) AS INTEGER) BETWEEN \(range.lowerBound) AND \(range.upperBound)"
        return "(CASE WHEN \(test) THEN CAST(\(trimmed) AS INTEGER) ELSE NULL END)"
    }

    func connection() throws -> Connection {
        let store = try StoreFixture(schema: ExampleHistory.v1, version: 1)
        let connection = try Connection(path: store.path)
        try MigrationFunctions.register(on: connection.pointer)
        try connection.execute("CREATE TEMP TABLE samples (v TEXT)")
        for sample in Self.samples + [nil] as [String?] {
            try connection.execute("INSERT INTO samples (v) VALUES (?)", [sample.map(StoreValue.text) ?? .null])
        }
        return connection
    }

    @Test func splitPartEqualsItsSQLDefinition() throws {
        let connection = try connection()
        for separator in [" ", ", ", ",", "Ü", "ab"] {
            for count in 1...4 {
                let sql = Self.sqlSplit("v", separator: separator, count: count)
                let functions = (0..<count).map { "\(MigrationFunctions.splitPart)(v, \(SQLiteRenderer.text(separator)), \($0), \(count))" }
                let expected = try connection.query("SELECT \(sql.joined(separator: ", ")) FROM samples ORDER BY rowid")
                let actual = try connection.query("SELECT \(functions.joined(separator: ", ")) FROM samples ORDER BY rowid")
                #expect(actual == expected, "separator \(separator.debugDescription), \(count) parts")
            }
        }
        #expect(try connection.query("SELECT \(MigrationFunctions.splitPart)('  Grace   Brewster Hopper ', ' ', 1, 2)") == [[.text("Brewster Hopper")]])
    }

    @Test func parseIntegerEqualsItsSQLDefinition() throws {
        let connection = try connection()
        for type in [ScalarType.int, .int8, .int16, .int32] {
            let range = try #require(type.integerRange)
            let conversion = try #require(Conversion.between(.scalar(.string), in: ExampleHistory.v1, .scalar(type), in: ExampleHistory.v3, operand: .column("v")))
            let renderer = SQLiteRenderer()
            let test = renderer.expression(conversion.test ?? .integer(1), in: "samples")
            let value = renderer.expression(conversion.value, in: "samples")
            let expected = try connection.query("SELECT v, \(Self.sqlInteger("v", range: range)) FROM samples ORDER BY rowid")
            let actual = try connection.query("SELECT v, CASE WHEN \(test) THEN \(value) ELSE NULL END FROM samples ORDER BY rowid")
            #expect(actual == expected, "\(type)")
            // The single-evaluation form the planner uses for onError: default.
            let fallback = try connection.query(
                "SELECT v, \(renderer.expression(conversion.value(orElse: .integer(-1)), in: "samples")) FROM samples WHERE v IS NOT NULL ORDER BY rowid")
            let expectedFallback = try connection.query("SELECT v, coalesce(\(Self.sqlInteger("v", range: range)), -1) FROM samples WHERE v IS NOT NULL ORDER BY rowid")
            #expect(fallback == expectedFallback, "\(type) with a fallback")
            // The test is never NULL: `NOT (test)` must find every bad value for onError: fail.
            #expect(try connection.query("SELECT count(*) FROM samples WHERE v IS NOT NULL AND (\(test)) IS NULL") == [[.integer(0)]])
        }
    }

    /// `remodel_embedded_get` keeps the last JSON it parsed: values of the same length, the
    /// same value again after another, an empty text and invalid JSON each read as themselves.
    @Test func embeddedGetReadsEachValueAsItselfWhateverItParsedBefore() throws {
        let address = ObjectType(
            name: "Address", isEmbedded: true,
            properties: [
                Property("street", .scalar(.string)), Property("zip", .scalar(.int)), Property("tags", PropertyType(.scalar(.string), collection: .list)),
            ])
        let schema = Schema(objects: [address])
        let connection = try Connection(path: ":memory:", create: true)
        try MigrationFunctions.registerEmbedded(on: connection.pointer, old: schema, new: schema)
        let values = [
            #"{"street":"a","zip":1}"#, #"{"street":"b","zip":2}"#, #"{"street":"a","zip":1}"#, #"{"street":"a","zip":1,"tags":["x"]}"#, "{}", #"{"street":"a","zip":1}"#,
        ]
        try connection.execute("CREATE TEMP TABLE homes (home TEXT)")
        for value in values { try connection.execute("INSERT INTO homes VALUES (?)", [.text(value)]) }
        let get = SQLiteRenderer.name(of: .embeddedGet)
        let rows = try connection.query("SELECT \(get)(home, 'street', 'string'), \(get)(home, 'zip', 'int'), \(get)(home, 'tags', 'list<string>') FROM homes ORDER BY rowid")
        #expect(
            rows == [
                [.text("a"), .integer(1), .text("[]")], [.text("b"), .integer(2), .text("[]")], [.text("a"), .integer(1), .text("[]")],
                [.text("a"), .integer(1), .text(#"["x"]"#)], [.null, .null, .text("[]")], [.text("a"), .integer(1), .text("[]")],
            ])
        for _ in 0..<2 {
            #expect(throws: SQLiteError.self) { try connection.query("SELECT \(get)('{\"street\":', 'street', 'string')") }
        }
        #expect(try connection.query("SELECT \(get)(NULL, 'street', 'string'), \(get)('{\"street\":\"c\"}', 'street', 'string')") == [[.null, .text("c")]])
    }
}
