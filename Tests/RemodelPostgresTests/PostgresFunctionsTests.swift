import Foundation
import RemodelCore
import RemodelLayout
import RemodelPostgres
import RemodelTestSupport
import XCTest

/// Remodel's SQL functions on PostgreSQL give, input for input, what the Swift rules their
/// SQLite twins call give (`StepText`, `DecimalText`, `UUID(uuidString:)`, `ObjectID`), on
/// the edge cases of each rule.
final class PostgresFunctionsTests: XCTestCase {
    private var connection: PostgresConnection!

    override func setUpWithError() throws {
        let server = try PostgresTestServer.shared { XCTSkip($0) }
        connection = try PostgresConnection(url: server.url(database: try server.makeDatabase()))
        for definition in PostgresFunctions.definitions { try connection.execute(definition) }
    }

    private func call(_ sql: String, _ parameters: [String?]) throws -> String? {
        try connection.scalar(sql, parameters)
    }

    func testSplitPartFollowsStepText() throws {
        let texts = ["  Grace   Brewster Hopper ", "Cher", "", "a,b,c", " a , b ,", "\tx\n", "é ü ñ", "a  b", "::a::b::", "abc", "x\u{301}y\u{301}z"]
        for text in texts {
            for separator in [" ", ",", "", "::", "y\u{301}"] {
                for count in 1...3 {
                    for index in 0..<count {
                        let expected = StepText.splitPart(of: text, separator: separator, index: index, count: count)
                        let found = try call("SELECT pg_temp.remodel_split_part($1, $2, $3, $4)", [text, separator, String(index), String(count)])
                        XCTAssertEqual(found, expected, "split \(text.debugDescription) at \(separator.debugDescription), part \(index) of \(count)")
                        // The same rule written out in the statement, as plans use it.
                        let inline = try call(
                            "SELECT " + PostgresPlanRenderer.splitPart("t", separator: separator, part: index, parts: count) + " FROM (SELECT $1::text AS t) AS input", [text])
                        XCTAssertEqual(inline, expected, "inline: split \(text.debugDescription) at \(separator.debugDescription), part \(index) of \(count)")
                    }
                }
            }
        }
        XCTAssertEqual(try call("SELECT pg_temp.remodel_split_part(NULL, ' ', 0, 2)", []), "", "null reads as empty text")
    }

    func testParseIntegerFollowsStepText() throws {
        let texts = [
            "7", " +007 ", "-0", "-000", "0000000000000000000001", "1234567890123456789", "+", "-", "", "12.5", "999999999999999999", "-999999999999999999", "1000000000000000000",
            "0000000000000000000001",
            "٣", "1e3", " \t42\r\n", "4 2", "--1", "+-1", "300",
        ]
        for text in texts {
            for (low, high) in [(Int64.min, Int64.max), (Int64(-128), Int64(127))] {
                let expected = StepText.integer(in: text).flatMap { $0 >= low && $0 <= high ? String($0) : nil }
                XCTAssertEqual(
                    try call("SELECT pg_temp.remodel_parse_integer($1, $2, $3)", [text, String(low), String(high)]), expected, "\(text.debugDescription) in \(low)...\(high)")
                XCTAssertEqual(
                    try call("SELECT " + PostgresPlanRenderer.parseInteger("t", low: low, high: high) + " FROM (SELECT $1::text AS t) AS input", [text]), expected,
                    "inline: \(text.debugDescription) in \(low)...\(high)")
            }
        }
        XCTAssertNil(try call("SELECT pg_temp.remodel_parse_integer(NULL, 0, 1)", []))
    }

    func testParseRealFollowsDecimalText() throws {
        let texts = [
            "1.5", "-2e10", ".5", "5.", "1e400", "-1e400", "1e-400", "0x10", "NaN", "inf", "1e", "+.5e-3", "00012.50", "123456789012345678901234567890",
            "3.4028235e38", "3.5e38", "-0", "0.1", "2.2250738585072014e-308", "4.9e-324", "2e-310", "e5", ".",
            "1e999999", "-1e-999999", "0.\(String(repeating: "0", count: 400))1",
        ]
        for text in texts {
            for limit in [Double.greatestFiniteMagnitude, Double(Float.greatestFiniteMagnitude)] {
                var expected: Double?
                if DecimalText.isWellFormed(text), let number = Double(text), abs(number) <= limit { expected = number }
                let found = try call("SELECT pg_temp.remodel_parse_real($1, $2)::text", [text, "\(limit)"]).flatMap(Double.init)
                XCTAssertEqual(found, expected, "\(text.debugDescription) within \(limit)")
            }
        }
    }

    func testUUIDAndObjectIDTextFollowTheirParsers() throws {
        for text in [
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "E621E1F8C36C495A93FC0C247A3E6E5F", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}", "",
            "E621E1F8-C36C-495A-93FC-0C247A3E6E5",
        ] {
            let expected = UUID(uuidString: text).map { withUnsafeBytes(of: $0.uuid) { "\\x" + $0.map { String(format: "%02x", $0) }.joined() } }
            XCTAssertEqual(try call("SELECT pg_temp.remodel_parse_uuid($1)::text", [text]), expected, text)
            if let expected {
                XCTAssertEqual(try call("SELECT pg_temp.remodel_format_uuid($1::bytea)", [expected]), UUID(uuidString: text)!.uuidString)
            }
        }
        XCTAssertNil(try call("SELECT pg_temp.remodel_format_uuid('\\x0102'::bytea)", []))
        for text in ["65a1b2c3d4e5f60718293a4b", "65A1B2C3D4E5F60718293A4B", "65a1b2c3d4e5f60718293a4", "65a1b2c3d4e5f60718293a4bc", "zza1b2c3d4e5f60718293a4b"] {
            let expected = ObjectID(text).map { "\\x" + $0.byteArray.map { String(format: "%02x", $0) }.joined() }
            XCTAssertEqual(try call("SELECT pg_temp.remodel_parse_objectid($1)::text", [text]), expected, text)
        }
        XCTAssertEqual(try call("SELECT length(pg_temp.remodel_objectid())", []), "12")
    }

    func testIsUTF8RefusesWhatTextCannotHold() throws {
        for (bytes, expected) in [([0x61, 0x62], true), ([0xC3, 0xA9], true), ([0xC3], false), ([0xFF, 0xFE], false), ([0x61, 0x00, 0x62], false), ([], true)] as [([UInt8], Bool)]
        {
            let hex = "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
            XCTAssertEqual(try call("SELECT pg_temp.remodel_is_utf8($1::bytea)::text", [hex]), expected ? "true" : "false", hex)
            XCTAssertEqual(String(bytes: bytes, encoding: .utf8) != nil && !bytes.contains(0), expected, "the Swift rule for \(hex)")
        }
    }

    func testTimestampsRoundTripTheirMicroseconds() throws {
        for micros: Int64 in [0, 1, -1, 1_800_000_000_123_456, -62_135_596_800_000_000, 253_402_300_799_999_999, -999_999, 1_000_001] {
            XCTAssertEqual(try call("SELECT pg_temp.remodel_micros(pg_temp.remodel_timestamp($1))", [String(micros)]), String(micros))
            XCTAssertEqual(try call("SELECT pg_temp.remodel_timestamp($1) = $2::timestamptz", [String(micros), StoreDateFormat.string(microseconds: micros)]), "t", "\(micros)")
        }
    }
}
