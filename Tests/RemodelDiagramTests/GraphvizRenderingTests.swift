import Foundation
import RemodelDiagram
import RemodelTestSupport
import XCTest

/// Graphviz draws every DOT reference file and every DOT diagram of the reference cases
/// (the example at each version and its changes, embedded objects, every collection, text
/// each format could misread, every kind of change): `dot -Tsvg` exits 0 with nothing on
/// stderr (no syntax error, no unknown port, no warning), and the SVG shows every type's name
/// and every member's name and detail exactly, so the escaping round-trips through Graphviz's
/// own parser. Skipped, by name, where Graphviz is not installed (Debian's `graphviz`;
/// `.ci/run` installs it).
final class GraphvizRenderingTests: XCTestCase {
    func testEveryReferenceFileRenders() throws {
        let dot = try Self.dotProgram()
        let files = try FileManager.default.contentsOfDirectory(atPath: DiagramReferences.folder.path).filter { $0.hasSuffix(".dot") }.sorted()
        XCTAssertFalse(files.isEmpty)
        for file in files {
            let text = try String(contentsOf: DiagramReferences.folder.appendingPathComponent(file), encoding: .utf8)
            let svg = try Self.render(text, with: dot, name: file)
            XCTAssertTrue(svg.contains("<svg"), "\(file): no SVG")
        }
    }

    func testEveryDiagramRendersWithEveryNameAndDetail() throws {
        let dot = try Self.dotProgram()
        for testCase in try DiagramReferences.all() {
            let svg = Self.text(of: try Self.render(DotRenderer.render(testCase.diagram), with: dot, name: testCase.name))
            for node in testCase.diagram.nodes {
                XCTAssertTrue(svg.contains(node.title), "\(testCase.name): the SVG does not show \(node.title)")
                for member in node.members {
                    XCTAssertTrue(svg.contains(member.title), "\(testCase.name): the SVG does not show \(node.name).\(member.title)")
                    if let detail = member.detailText {
                        XCTAssertTrue(svg.contains(detail), "\(testCase.name): the SVG does not show \(node.name).\(member.name)'s \(detail)")
                    }
                }
            }
            for edge in testCase.diagram.edges {
                XCTAssertTrue(svg.contains(edge.text), "\(testCase.name): the SVG does not show the edge \(edge.text)")
            }
            if let title = testCase.diagram.title { XCTAssertTrue(svg.contains(title), "\(testCase.name): no title") }
        }
    }

    /// The awkward raw values come out of Graphviz as they went in, each one checked by name
    /// rather than through the model.
    func testAwkwardRawValuesComeBackExactly() throws {
        let dot = try Self.dotProgram()
        let schema = try DiagramReferences.schema("AwkwardText.yaml")
        let svg = Self.text(of: try Self.render(DotRenderer.render(Diagram(schema: schema)), with: dot, name: "awkward"))
        for raw in [
            "<b>bold</b>", "Tom & Jerry", "She said \"hi\"", "{ } {{x}}", "a | b", "#60; and &lt; and #quot;", "<script>alert(1)</script>", "C:\\path\\n", "two\\u{A}lines",
            "café 🐶 日本語", "Optional<Array<Int>>",
        ] {
            XCTAssertTrue(svg.contains(raw), "the SVG does not show \(raw)")
        }
    }

    // MARK: - Running Graphviz

    /// `dot` on the PATH; a skip that names the reason where it is not installed.
    static func dotProgram() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("dot")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw XCTSkip("Graphviz tests skipped: Graphviz's 'dot' is not on the PATH; install Debian's 'graphviz' package to run them")
    }

    /// The SVG `dot -Tsvg` makes of `text`; fails the test when it exits non-zero or says
    /// anything on stderr.
    static func render(_ text: String, with dot: URL, name: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-dot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("diagram.dot")
        let output = folder.appendingPathComponent("diagram.svg")
        let errors = folder.appendingPathComponent("stderr")
        try Data(text.utf8).write(to: input)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = dot
        process.arguments = ["-Tsvg", input.path, "-o", output.path]
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        XCTAssertEqual(process.terminationStatus, 0, "\(name): dot -Tsvg failed: \(stderr)", file: file, line: line)
        XCTAssertEqual(stderr, "", "\(name): dot -Tsvg complained", file: file, line: line)
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }

    /// The text an SVG shows: its elements' text with XML's entities decoded (Graphviz writes
    /// `&amp;`, `&lt;`, `&#45;` and the like), each piece on a line of its own.
    static func text(of svg: String) -> String {
        var pieces: [String] = []
        var rest = Substring(svg)
        while let open = rest.range(of: "<text"), let start = rest[open.upperBound...].firstIndex(of: ">"), let close = rest[start...].range(of: "</text>") {
            pieces.append(decodeXML(String(rest[rest.index(after: start)..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        return pieces.joined(separator: "\n")
    }

    private static func decodeXML(_ text: String) -> String {
        var out = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "&", let end = text[index...].firstIndex(of: ";") {
                let name = text[text.index(after: index)..<end]
                let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
                if let character = named[String(name)] {
                    out += character
                } else if name.hasPrefix("#x"), let value = UInt32(name.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(value) {
                    out.unicodeScalars.append(scalar)
                } else if name.hasPrefix("#"), let value = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(value) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += text[index...end]
                }
                index = text.index(after: end)
            } else {
                out.append(text[index])
                index = text.index(after: index)
            }
        }
        return out
    }
}
