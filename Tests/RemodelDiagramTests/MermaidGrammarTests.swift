import Foundation
import RemodelDiagram
import RemodelTestSupport
import Testing

/// Every Mermaid diagram, the reference files and the reference cases drawn now, reads as
/// Mermaid's class diagram grammar reads it (`MermaidClassDiagram`): nothing it would refuse
/// or misread, each class declared once, each relation between declared classes, and what the
/// text decodes to is exactly what the diagram holds: every name, type, raw value and label.
@Suite struct MermaidGrammarTests {
    static let cases = (try? DiagramReferences.all()) ?? []

    @Test func everyReferenceFileReads() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: DiagramReferences.folder.path).filter { $0.hasSuffix(".mmd") }.sorted()
        #expect(!files.isEmpty)
        for file in files {
            let read = MermaidClassDiagram(try String(contentsOf: DiagramReferences.folder.appendingPathComponent(file), encoding: .utf8))
            #expect(read.problems.isEmpty, "\(file): \(read.problems.joined(separator: "\n"))")
            #expect(!read.classes.isEmpty, "\(file)")
        }
    }

    @Test(arguments: cases.map(\.name))
    func diagramReadsBackAsDrawn(name: String) throws {
        let diagram = try #require(Self.cases.first { $0.name == name }).diagram
        let read = MermaidClassDiagram(MermaidRenderer.render(diagram))
        #expect(read.problems.isEmpty, "\(read.problems.joined(separator: "\n"))")
        #expect(read.title == diagram.title)
        #expect(read.classes.count == diagram.nodes.count)
        for (node, drawn) in zip(diagram.nodes, read.classes) {
            #expect(drawn.title == node.title)
            #expect(drawn.members.count == node.members.count, "\(node.name)")
            for (member, line) in zip(node.members, drawn.members) {
                #expect(line.hasPrefix(member.title), "\(node.name): '\(line)' does not start with \(member.title)")
                if let detail = member.detailText {
                    #expect(line.contains(detail), "\(node.name): '\(line)' does not show \(detail)")
                }
            }
            if let stereotype = node.kind.stereotype {
                #expect(drawn.annotations.first?.hasPrefix(stereotype) == true, "\(node.name): \(drawn.annotations)")
            }
            #expect((drawn.cssClass != nil) == (node.mark != .unchanged), "\(node.name)")
        }
        #expect(read.relations.count == diagram.edges.count)
        for (edge, relation) in zip(diagram.edges, read.relations) {
            #expect(relation.label.hasPrefix(edge.text), "'\(relation.label)' is not \(edge.text)")
            #expect(relation.multiplicity == edge.multiplicity)
        }
    }

    /// The awkward raw values decode to exactly what the YAML says, checked by name.
    @Test func awkwardRawValuesComeBackExactly() throws {
        let read = MermaidClassDiagram(MermaidRenderer.render(Diagram(schema: try DiagramReferences.schema("AwkwardText.yaml"))))
        #expect(read.problems.isEmpty, "\(read.problems.joined(separator: "\n"))")
        let members = try #require(read.classes.first { $0.id == "Awkward" }).members
        let expected = [
            "angle = <b>bold</b>", "ampersand = Tom & Jerry", "quote = She said \"hi\"", "braces = { } {{x}}", "pipe = a | b",
            "entity = #60; and &lt; and #quot;", "comment = %% not a comment", "parens = f(x)", "star = ends with *", "dollar = costs $",
            "plus = +1", "minus = -1", "tilde = ~x~ and ~y", "colon = a: b; c", "brackets = [*] [x]", "backslash = C:\\path\\n",
            "backquote = `code`", "newline = two\\u{A}lines", "tab = a\\u{9}b", "unicode = café 🐶 日本語", "direction = direction LR",
            "generics = list<Dog> and map<int?>", "html = <script>alert(1)</script>",
        ]
        #expect(members == expected)
        let view = try #require(read.classes.first { $0.id == "HolderView" }).members
        #expect(view.contains("generic: Optional<Array<Int>> «from numbers.first»"), "\(view)")
        #expect(view.contains("table: [String: Int] «from numbers.count»"), "\(view)")
    }

    /// The reader itself finds what Mermaid would refuse, so that its silence means something.
    @Test func theReaderFindsProblems() {
        let broken = """
            classDiagram
                class Dog {
                    name: a { b
                    f(x)
                    -hidden
                    ends with*
                    list~a~ and ~b~
                    <b>raw</b>
                    style: a:b#60;
                }
                class Dog
                class lowercase
                Dog --> Cat : owner
                Dog --> Dog : a: b
                Dog --> Dog : Tom & Jerry
                style Dog fill:#fff

            """
        let problems = MermaidClassDiagram(broken).problems.joined(separator: "\n")
        for expected in [
            "a brace or quote in a member", "parentheses make a method", "read as visibility", "read as a classifier",
            "tildes Mermaid would pair wrongly", "raw angle brackets", "class Dog declared twice", "a line the grammar does not read:     class lowercase",
            "names Cat, which is not declared", "a line the grammar does not read:     Dog --> Dog : a: b", "'&' outside an entity code",
            "a line the grammar does not read:     style Dog", "would cut short:         style: a:b#60;",
        ] {
            #expect(problems.contains(expected), "not found: \(expected)\nin: \(problems)")
        }
    }
}
