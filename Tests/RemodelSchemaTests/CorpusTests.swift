import Foundation
import RemodelCore
import RemodelSchema
import XCTest

/// Runs every schema in `Corpus/invalid/`. Each file says which rule it breaks in a comment
/// (`# expect: rule-id`) and marks the exact spot with 👉; the test removes the marker, loads
/// the schema, and expects an error with that rule at that line and column, with a hint.
final class CorpusTests: XCTestCase {
    static let marker = "👉"

    struct Case {
        var name: String
        var rule: String
        var yaml: String
        var line: Int
        var column: Int
    }

    /// Reads a corpus file: the expected rule, the YAML without the marker, and the marker's
    /// 1-based line and column (in characters, as libyaml counts).
    static func parseCase(name: String, text: String) throws -> Case {
        guard let expect = text.split(separator: "\n").first(where: { $0.contains("# expect:") }) else {
            throw CorpusError("\(name): no '# expect: rule-id' line")
        }
        let rule = expect.components(separatedBy: "# expect:")[1].trimmingCharacters(in: .whitespaces)
        guard let range = text.range(of: marker) else { throw CorpusError("\(name): no \(marker) marker") }
        let before = text[..<range.lowerBound]
        let line = before.filter { $0 == "\n" }.count + 1
        let lineStart = before.lastIndex(of: "\n").map { before.index(after: $0) } ?? before.startIndex
        let column = before[lineStart...].unicodeScalars.count + 1
        return Case(name: name, rule: rule, yaml: text.replacingCharacters(in: range, with: ""), line: line, column: column)
    }

    struct CorpusError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func corpus() throws -> [Case] {
        let folder = try XCTUnwrap(Bundle.module.url(forResource: "Corpus", withExtension: nil)).appendingPathComponent("invalid")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        return try files.map { file in
            try parseCase(name: file, text: String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
        }
    }

    func testCorpusHasAtLeastFortyFiveSchemas() throws {
        XCTAssertGreaterThanOrEqual(try Self.corpus().count, 45)
    }

    func testEveryInvalidSchemaReportsItsRuleAtTheMarkedSpot() throws {
        var failures: [String] = []
        for testCase in try Self.corpus() {
            let file = "Corpus/\(testCase.name)"
            let result = loadSchema(yaml: testCase.yaml, file: file)
            let expected = SourceLocation(file: file, line: testCase.line, column: testCase.column)
            let report = DiagnosticFormatter().string(for: result.diagnostics).split(separator: "\n").map { "      " + $0 }.joined(separator: "\n")
            if result.schema != nil {
                failures.append("\(testCase.name): loaded without errors, expected [\(testCase.rule)] at \(expected)")
            } else if let match = result.diagnostics.first(where: { $0.rule == testCase.rule && $0.location == expected }) {
                if match.severity != .error { failures.append("\(testCase.name): [\(testCase.rule)] is a \(match.severity), expected an error") }
                if match.hint?.isEmpty ?? true { failures.append("\(testCase.name): [\(testCase.rule)] has no fix-it hint") }
                if match.message.first?.isUppercase == true { failures.append("\(testCase.name): message should start lower-case: \(match.message)") }
            } else {
                failures.append("\(testCase.name): expected [\(testCase.rule)] at \(expected), got:\n\(report)")
            }
        }
        XCTAssert(failures.isEmpty, "\(failures.count) corpus failure(s):\n" + failures.joined(separator: "\n"))
    }

    func testMarkerPositionsAreComputedFromTheText() throws {
        let parsed = try Self.parseCase(name: "x", text: "# expect: r\na:\n  b: 👉c\n")
        XCTAssertEqual(parsed.rule, "r")
        XCTAssertEqual(parsed.line, 3)
        XCTAssertEqual(parsed.column, 6)
        XCTAssertFalse(parsed.yaml.contains(Self.marker))
    }
}
