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
        text.hasPrefix(MermaidRenderer.header) || (text.hasPrefix("---\n") && text.contains("\n---\n" + MermaidRenderer.header))
            || text.hasPrefix(DotRenderer.header)
    }
}
