import Foundation
import RemodelCore
import RemodelSchema
import XCTest

/// Hostile and broken inputs: each must end quickly in a clear diagnostic with a location,
/// never a crash, a hang or unbounded memory.
final class AdversarialInputTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-adversarial-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes `bytes` to a file and loads it through the public API.
    private func load(_ bytes: [UInt8], name: String = "input.yaml") throws -> SchemaLoadResult {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return SchemaLoader.load(path: url.path)
    }

    private func assertError(_ result: SchemaLoadResult, rule: String, file: StaticString = #filePath, line: UInt = #line) -> Diagnostic? {
        XCTAssertNil(result.schema, file: file, line: line)
        let match = result.diagnostics.first { $0.rule == rule }
        XCTAssertNotNil(match, "expected [\(rule)], got \(result.diagnostics.map(\.rule))", file: file, line: line)
        XCTAssertNotNil(match?.location, "[\(rule)] has no location", file: file, line: line)
        XCTAssertNotNil(match?.hint, "[\(rule)] has no hint", file: file, line: line)
        return match
    }

    func testBillionLaughsIsRefusedAtTheAliasThatExceedsTheBudget() throws {
        var yaml = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            yaml += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        let result = loadSchema(yaml: yaml, file: "bomb.yaml")
        let diagnostic = assertError(result, rule: "yaml-alias-limit")
        XCTAssertEqual(diagnostic?.location?.line, 4)
        XCTAssertTrue(diagnostic?.message.contains("aliases expand to more than") ?? false)
    }

    func testSmallAliasesAreExpanded() throws {
        let yaml = """
            objects:
              Person:
                properties:
                  name: &text string
                  nickname: *text
            """
        let result = loadSchema(yaml: yaml, file: "alias.yaml")
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertEqual(result.schema?.objects.first?.properties.map(\.storedType), [.scalar(.string), .scalar(.string)])
    }

    func testTenMegabyteFileIsRefusedWithoutParsing() throws {
        let line = Array("# padding padding padding padding padding padding padding padding padding padding\n".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(10_500_000)
        while bytes.count < 10_000_000 { bytes += line }
        let result = try load(bytes, name: "huge.yaml")
        let diagnostic = assertError(result, rule: "file-too-large")
        XCTAssertEqual(diagnostic?.location?.line, 1)
        XCTAssertTrue(diagnostic?.message.contains("limited to 5 MB") ?? false, diagnostic?.message ?? "")
    }

    func testLargeValidFileUnderTheLimitLoads() throws {
        var yaml = "objects:\n"
        for index in 0..<2_000 {
            yaml += "  Type\(index):\n    properties:\n      name: { type: string, default: \"\(String(repeating: "x", count: 1_000))\" }\n"
        }
        XCTAssertGreaterThan(yaml.utf8.count, 2_000_000)
        let result = loadSchema(yaml: yaml, file: "large.yaml")
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertEqual(result.schema?.objects.count, 2_000)
    }

    func testTenThousandLevelsOfFlowNestingStopAtTheDepthLimit() throws {
        let yaml = "objects: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n"
        let diagnostic = assertError(loadSchema(yaml: yaml, file: "deep.yaml"), rule: "yaml-too-deep")
        XCTAssertEqual(diagnostic?.location?.line, 1)
        XCTAssertEqual(diagnostic?.location?.column, 10 + 63)
    }

    func testTenThousandLevelsOfMappingsStopAtTheDepthLimit() throws {
        let yaml = String(repeating: "{a: ", count: 10_000) + "x" + String(repeating: "}", count: 10_000)
        _ = assertError(loadSchema(yaml: yaml, file: "deep.yaml"), rule: "yaml-too-deep")
    }

    func testBinaryGarbageIsAnEncodingOrSyntaxError() throws {
        var generator = SeededGenerator(seed: 42)
        for round in 0..<20 {
            let bytes = (0..<4_096).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let result = try load(bytes, name: "garbage\(round).yaml")
            XCTAssertNil(result.schema)
            let diagnostic = result.diagnostics.first { $0.severity == .error }
            XCTAssertNotNil(diagnostic?.location, "round \(round): \(result.diagnostics)")
        }
    }

    func testNonUTF8BytesAreReportedWhereTheyAre() throws {
        let bytes = Array("objects:\n  Pe".utf8) + [0xFF, 0xFE] + Array("rson:\n    properties: {}\n".utf8)
        let diagnostic = assertError(try load(bytes), rule: "yaml-encoding")
        XCTAssertEqual(diagnostic?.location?.line, 2)
        XCTAssertEqual(diagnostic?.location?.column, 5)
        XCTAssertTrue(diagnostic?.message.contains("not valid UTF-8") ?? false)
    }

    func testUTF16IsRefused() throws {
        let bytes: [UInt8] = [0xFF, 0xFE] + Array("objects: {}\n".utf8).flatMap { [$0, 0] }
        _ = assertError(try load(bytes), rule: "yaml-encoding")
    }

    func testNULBytesAreReported() throws {
        let bytes = Array("objects:\n  A:\n".utf8) + [0, 0, 0]
        XCTAssertNil(try load(bytes).schema)
    }

    func testEmptyFileWarnsAndTheSchemaIsEmpty() throws {
        let result = try load([])
        XCTAssertEqual(result.diagnostics.map(\.rule).sorted(), ["empty-file", "empty-schema"])
        XCTAssertEqual(result.diagnostics.first { $0.rule == "empty-file" }?.severity, .warning)
        XCTAssertNil(result.schema)
    }

    func testTabsInIndentationAreExplained() throws {
        let yaml = "objects:\n\tPerson:\n\t\tproperties:\n"
        let diagnostic = assertError(loadSchema(yaml: yaml, file: "tabs.yaml"), rule: "yaml-tab")
        XCTAssertEqual(diagnostic?.location?.line, 2)
        XCTAssertTrue(diagnostic?.hint?.contains("spaces") ?? false)
    }

    func testTabsInsideValuesAreFine() throws {
        let yaml = "objects:\n  Person:\n    doc: \"a\\tb\"\n    properties:\n      name: string\n"
        XCTAssertNotNil(loadSchema(yaml: yaml, file: "ok.yaml").schema)
    }

    func testByteOrderMarkAndCRLFLineEndingsAreFine() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("objects:\r\n  Person:\r\n    properties:\r\n      name: strng\r\n".utf8)
        let diagnostic = assertError(try load(bytes), rule: "unknown-type")
        XCTAssertEqual(diagnostic?.location?.line, 4)
        XCTAssertEqual(diagnostic?.location?.column, 13)
    }

    func testUnknownAliasIsASyntaxError() throws {
        _ = assertError(loadSchema(yaml: "objects: *nothing\n", file: "alias.yaml"), rule: "yaml-syntax")
    }

    func testScalarRootIsAStructureError() throws {
        let diagnostic = assertError(loadSchema(yaml: "just a string\n", file: "scalar.yaml"), rule: "invalid-structure")
        XCTAssertEqual(diagnostic?.location, SourceLocation(file: "scalar.yaml", line: 1, column: 1))
    }
}

/// A small deterministic generator (SplitMix64), so that garbage inputs are the same on
/// every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
