import Foundation
import RemodelCodegen
import RemodelDiagram
import RemodelTestSupport
import Testing

/// Each reference case of `DiagramReferences`, drawn in each format, equals its reviewed file
/// in `References/`; a mismatch fails with a unified diff. The same files are rendered by
/// Graphviz (`GraphvizRenderingTests`) and read against Mermaid's grammar
/// (`MermaidGrammarTests`), so a wrong reference cannot pass unnoticed. Re-record after an
/// intended change with `swift run remodel-record-references` and review
/// `git diff Tests/RemodelDiagramTests/References`.
@Suite struct DiagramReferenceTests {
    static let cases = (try? DiagramReferences.all()) ?? []

    @Test(arguments: cases.map(\.name), DiagramFormat.allCases)
    func diagramEqualsItsReference(name: String, format: DiagramFormat) throws {
        let testCase = try #require(Self.cases.first { $0.name == name })
        let actual = format.render(testCase.diagram)
        let file = DiagramReferences.folder.appendingPathComponent(testCase.fileName(format))
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(
            actual == expected,
            "References/\(testCase.fileName(format)) is out of date; if the change is intended, re-record with `swift run remodel-record-references`:\n\(UnifiedDiff.make(old: expected, new: actual, oldName: "References/\(testCase.fileName(format))", newName: "drawn"))"
        )
    }

    /// Every case has its files and every file a case; the example's versions are all there.
    @Test func everyReferenceHasACase() throws {
        // Loading again here reports why the cases did not load, if they did not.
        let cases = try DiagramReferences.all()
        #expect(cases.map(\.name) == Self.cases.map(\.name))
        #expect(cases.map(\.name).prefix(4) == ["example-v1", "example-v2", "example-v3", "example-diff-1-3"])
        let files = try FileManager.default.contentsOfDirectory(atPath: DiagramReferences.folder.path).sorted()
        #expect(files == cases.flatMap { testCase in DiagramFormat.allCases.map(testCase.fileName) }.sorted())
    }

    /// The same schema drawn twice gives the same text, byte for byte.
    @Test(arguments: cases.map(\.name))
    func drawingIsDeterministic(name: String) throws {
        let again = try #require(try DiagramReferences.all().first { $0.name == name })
        let testCase = try #require(Self.cases.first { $0.name == name })
        #expect(again.diagram == testCase.diagram)
        for format in DiagramFormat.allCases {
            #expect(format.render(again.diagram) == format.render(testCase.diagram))
        }
    }
}
