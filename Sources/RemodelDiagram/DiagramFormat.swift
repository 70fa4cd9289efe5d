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

    /// The format a file's extension names (`model.dot`, `model.gv`; `model.mmd`), if any.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "dot", "gv": self = .dot
        case "mmd", "mermaid": self = .mermaid
        default: return nil
        }
    }

    /// The usual file extension: `mmd`, `dot`.
    public var fileExtension: String {
        switch self {
        case .mermaid: "mmd"
        case .dot: "dot"
        }
    }

    /// The comment each drawing carries (`%%` in Mermaid, `//` in DOT): it says how the file
    /// came about, and lets `--output` tell a drawing it may replace from a hand-written one.
    public static let marker = "Drawn by remodel diagram: draw it again rather than edit it."

    /// Whether `text` is a drawing these renderers wrote, in either language (a Mermaid class
    /// diagram, with or without a title, or the `schema` digraph, each with the `marker`):
    /// what a tool may replace without asking. A hand-written diagram is not one.
    public static func isDiagram(_ text: String) -> Bool {
        if text.hasPrefix(DotRenderer.header) { return true }
        var lines = text.split(separator: "\n", maxSplits: 5, omittingEmptySubsequences: false)
        // A title: its front matter, three lines, first.
        if lines.count > 3, lines[0] == "---", lines[1].hasPrefix("title: "), lines[2] == "---" { lines.removeFirst(3) }
        return lines.count > 2 && (lines[0] + "\n" + lines[1] + "\n") == MermaidRenderer.header
    }
}
