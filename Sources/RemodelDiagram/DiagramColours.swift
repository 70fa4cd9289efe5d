/// The colours both renderers draw with, so that a Mermaid and a Graphviz drawing of the same
/// diagram read alike: one per node kind, one set per comparison mark (GitHub's diff colours).
enum DiagramColours {
    /// Fill, line (border or edge) and text colours.
    struct Palette {
        var fill: String
        var line: String
        var text: String
    }

    /// The colours of an element marked `mark`.
    static func of(_ mark: Diagram.Mark) -> Palette {
        switch mark {
        case .unchanged: Palette(fill: "#ffffff", line: "#57606a", text: "#24292f")
        case .added: Palette(fill: "#dafbe1", line: "#1a7f37", text: "#116329")
        case .removed: Palette(fill: "#ffebe9", line: "#cf222e", text: "#a40e26")
        case .changed: Palette(fill: "#fff8c5", line: "#9a6700", text: "#7d4e00")
        }
    }

    /// The fill of a node's header, by its kind.
    static func header(_ kind: Diagram.Node.Kind) -> String {
        switch kind {
        case .object: "#ddf4ff"
        case .embedded: "#e6f6e6"
        case .enumeration: "#fff1e0"
        case .projection: "#f0eefc"
        }
    }

    /// The colour of member details (types, raw values) and tags, quieter than names.
    static let detail = "#57606a"
}
