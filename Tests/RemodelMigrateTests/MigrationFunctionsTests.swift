import Foundation
import RemodelCore
import RemodelStore
import RemodelTestSupport
import Testing

@testable import RemodelMigrate

/// `remodel_split_part` and `remodel_parse_integer` (which `split` and text → integer
/// `convert` use for speed) give exactly what their plain-SQL definitions
/// (`InlineValueRules`) give, on values chosen to break them.
@Suite struct MigrationFunctionsTests {
    static let samples = [
        "", " ", "  ", "Ada", "Ada Lovelace", "  Grace   Brewster Hopper ", "\tZoë\t Ünal\n", "a  b", " a\t b \r", "Ada\tLovelace",
        "x y z w", "José, García", ", ", ",", "a,b,c", "  ,  ", " , a , b , ", "ÜbÜcÜ", "Ü", "a\r\nb", "\u{0B}x y",
        "12", "-3", "+15", " 7 ", "007", "-0", "+", "-", "+-5", "12.5", "n/a", "1e3", " 1 2 ", "12a", "\u{0B}5", "１２", "٣",
        "999999999999999999", "1000000000000000000", "-999999999999999999", "0000000000000000000000012", "9223372036854775807",
        "-128", "-129", "127", "128", "\t\n-42\r", "0", "5", "-7", "12345678901234567", "-12345678901234567", "123456789012345678",
        "1234567890123456789", "-9223372036854775808",
    ]

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
                let sql = InlineValueRules.split("v", separator: separator, count: count)
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
            let expected = try connection.query("SELECT v, \(InlineValueRules.integer("v", range: range)) FROM samples ORDER BY rowid")
            let actual = try connection.query("SELECT v, CASE WHEN \(test) THEN \(value) ELSE NULL END FROM samples ORDER BY rowid")
            #expect(actual == expected, "\(type)")
            // The single-evaluation form the planner uses for onError: default.
            let fallback = try connection.query(
                "SELECT v, \(renderer.expression(conversion.value(orElse: .integer(-1)), in: "samples")) FROM samples WHERE v IS NOT NULL ORDER BY rowid")
            let expectedFallback = try connection.query("SELECT v, coalesce(\(InlineValueRules.integer("v", range: range)), -1) FROM samples WHERE v IS NOT NULL ORDER BY rowid")
            #expect(fallback == expectedFallback, "\(type) with a fallback")
            // The inline form with a fast path for canonical numbers, as the value-rules
            // benchmark times it.
            let fastPath = try connection.query("SELECT v, \(InlineValueRules.integerFastPath("v", range: range)) FROM samples ORDER BY rowid")
            #expect(fastPath == expected, "\(type), fast path")
            // A number that is not text goes to the function too (a REAL equals its integer's text).
            let real = try connection.query("SELECT \(InlineValueRules.integerFastPath("v", range: range)) FROM (SELECT 1000.0 AS v)")
            #expect(real == (try connection.query("SELECT \(MigrationFunctions.parseInteger)(v, \(range.lowerBound), \(range.upperBound)) FROM (SELECT 1000.0 AS v)")))
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
