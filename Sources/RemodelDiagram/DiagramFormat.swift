/// The languages a diagram is written in: what `remodel diagram --format` chooses.
public enum DiagramFormat: String, Hashable, Sendable, CaseIterable {
    /// A Mermaid class diagram, which GitHub renders in Markdown (`MermaidRenderer`).
    case mermaid
    /// Graphviz's DOT, for `dot -Tsvg` or `-Tpng` (`DotRenderer`).
    case dot

    /// The diagram's text in this language.
    public func render(_ diagram: Diagram) -> String {
        switch self {
        case .mermaid: MermaidRenderer.render(diagram)
        case .dot: DotRenderer.render(diagram)
        }
    }

    /// The usual file extension: `mmd`, `dot`.
    public var fileExtension: String {
        switch self {
        case .mermaid: "mmd"
        case .dot: "dot"
        }
    }

    /// Whether `text` is a diagram these renderers write, in either language (a Mermaid class
    /// diagram, with or without a title, or the `schema` digraph): what a tool may replace
    /// without asking.
    public static func isDiagram(_ text: String) -> Bool {
        if text.hasPrefix(MermaidRenderer.header) || text.hasPrefix(DotRenderer.header) { return true }
        // A titled Mermaid diagram: the title's front matter, three lines, then the header.
        let lines = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
        return lines.count == 4 && lines[0] == "---" && lines[1].hasPrefix("title: ") && lines[2] == "---" && (lines[3] + "\n").hasPrefix(MermaidRenderer.header)
    }
}
