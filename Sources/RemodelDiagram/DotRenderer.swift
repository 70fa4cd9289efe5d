/// Draws a `Diagram` in Graphviz's DOT language, for `dot -Tsvg` or `dot -Tpng`.
///
/// Each node is a table (an HTML-like label): a header with the name, under it one row per
/// member with its type and tags (`PK`, `indexed`). Edges start at the row of the member they
/// come from: links solid with an arrow, embedded objects with a filled diamond at the owner,
/// inverse relationships dashed, enum uses dotted, projections dashed with a hollow arrow;
/// the multiplicity is written at the far end. An embedded type owned by one object type is
/// drawn in a dashed box with it. In a comparison, rows, nodes and edges are coloured (green
/// added, red and struck through removed, amber changed) and marked `+`, `−`, `~`, and the
/// title carries a legend.
///
/// All text from the schema goes into HTML-like labels with `&`, `<`, `>` and `"` written as
/// entities; identifiers are quoted.
public enum DotRenderer {
    /// The lines a drawing starts with: the marker, and the graph.
    static let header = "// \(DiagramFormat.marker)\ndigraph schema {\n"

    /// The diagram as a DOT `digraph`, ending with a newline: graph defaults and the title, the
    /// boxes grouping embedded types, the nodes, then the edges.
    public static func render(_ diagram: Diagram) -> String {
        var out = header
        out += "    graph [rankdir=LR, fontname=\"Helvetica\", fontsize=12, nodesep=0.35, ranksep=0.9, pad=0.25, bgcolor=\"white\""
        if let title = diagram.title { out += ", labelloc=t, labeljust=l, label=<\(titleLabel(title, legend: diagram.isComparison))>" }
        out += "]\n"
        out += "    node [shape=plain, fontname=\"Helvetica\", fontsize=10]\n"
        out +=
            "    edge [fontname=\"Helvetica\", fontsize=9, labelfontsize=10, labeldistance=1.8, arrowsize=0.7, color=\"\(DiagramColours.of(.unchanged).line)\", fontcolor=\"\(DiagramColours.detail)\"]\n"
        // Embedded types owned by one object type, in a box with it.
        let groups = diagram.nodes.compactMap(\.group).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for (index, owner) in groups.enumerated() {
            let members = [owner] + diagram.nodes.filter { $0.group == owner }.map(\.id)
            out += "    subgraph cluster_\(index + 1) { style=\"dashed,rounded\"; color=\"#8c959f\"; label=\"\"; \(members.map(quoted).joined(separator: "; ")) }\n"
        }
        for node in diagram.nodes {
            out += "    \(quoted(node.id)) [label=<\n" + table(node, comparison: diagram.isComparison) + "    >]\n"
        }
        for edge in diagram.edges {
            out += "    " + edgeLine(edge) + "\n"
        }
        return out + "}\n"
    }

    /// The node's table: a header with the name, then a row per member.
    private static func table(_ node: Diagram.Node, comparison: Bool) -> String {
        let palette = DiagramColours.of(node.mark)
        let hasDetail = node.members.contains { $0.detailText != nil }
        let hasTags = node.members.contains { !$0.tags.isEmpty }
        let columns = 1 + (hasDetail ? 1 : 0) + (hasTags ? 1 : 0)
        var heading = ""
        if let stereotype = node.kind.stereotype {
            heading += "<FONT POINT-SIZE=\"8\"><I>«\(stereotype)»</I></FONT><BR/>"
        }
        heading += "<B>" + struck(marked(html(node.title), node.mark), node.mark) + "</B>"
        for note in node.notes {
            heading += "<BR/><FONT POINT-SIZE=\"8\">\(html(note))</FONT>"
        }
        let headerFill = node.mark == .unchanged ? DiagramColours.header(node.kind) : palette.fill
        let border = node.kind == .embedded ? " STYLE=\"ROUNDED\"" : ""
        var rows = "      <TABLE BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\"\(border) COLOR=\"\(palette.line)\" BGCOLOR=\"#ffffff\">\n"
        rows += "        <TR><TD COLSPAN=\"\(columns)\" BGCOLOR=\"\(headerFill)\" CELLPADDING=\"5\"><FONT COLOR=\"\(palette.text)\">\(heading)</FONT></TD></TR>\n"
        for member in node.members {
            let colours = DiagramColours.of(member.mark)
            let fill = member.mark == .unchanged ? "" : " BGCOLOR=\"\(colours.fill)\""
            var name = html(member.title)
            if member.isPrimaryKey { name = "<U>\(name)</U>" }
            if comparison { name = marked(name, member.mark) }
            var cells = [font(struck(name, member.mark), colour: colours.text)]
            if hasDetail {
                cells.append(font(member.detailText.map { struck(html($0), member.mark) } ?? "", colour: member.mark == .unchanged ? DiagramColours.detail : colours.text))
            }
            if hasTags {
                cells.append(font(html(member.tags.joined(separator: ", ")), colour: DiagramColours.detail, size: 8))
            }
            // Edges start at the row: at its last cell, or (an inverse relationship, which
            // points back at the type that links here, usually drawn before) at its first.
            rows +=
                "        <TR>"
                + cells.enumerated().map { index, content in
                    let port = index == cells.count - 1 ? " PORT=\(quoted(member.id))" : index == 0 ? " PORT=\(quoted(member.id + backPort))" : ""
                    return "<TD ALIGN=\"LEFT\"\(fill)\(port)>\(content)</TD>"
                }.joined() + "</TR>\n"
        }
        return rows + "      </TABLE>\n"
    }

    /// The suffix of the port at a row's first cell (member identifiers hold no `-`). A node with
    /// an inverse relationship always has a second column (its detail) for the other port.
    private static let backPort = "-back"

    /// `"Person":"dogs" -> "Dog" [...]`.
    private static func edgeLine(_ edge: Diagram.Edge) -> String {
        var attributes: [String] = []
        switch edge.kind {
        case .link: attributes.append("arrowhead=vee")
        case .embedding: attributes += ["dir=both", "arrowtail=diamond", "arrowhead=none"]
        case .inverse: attributes += ["style=dashed", "arrowhead=vee"]
        case .enumeration: attributes += ["style=dotted", "arrowhead=vee"]
        case .projection: attributes += ["style=dashed", "arrowhead=onormal"]
        }
        var label = html(edge.text)
        if edge.mark != .unchanged {
            let palette = DiagramColours.of(edge.mark)
            label = marked(label, edge.mark)
            attributes += ["color=\"\(palette.line)\"", "fontcolor=\"\(palette.text)\"", "penwidth=1.6"]
            if edge.mark == .removed { attributes.append("style=dashed") }
        }
        attributes.insert("label=<\(label)>", at: 0)
        if let multiplicity = edge.multiplicity { attributes.insert("headlabel=<\(html(multiplicity))>", at: 1) }
        let from = quoted(edge.from) + (edge.member.map { ":" + quoted(edge.kind == .inverse ? $0 + backPort : $0) } ?? "")
        let to = quoted(edge.to) + (edge.toMember.map { ":" + quoted($0) } ?? "")
        return "\(from) -> \(to) [\(attributes.joined(separator: ", "))]"
    }

    /// The title line, and in a comparison the legend of its marks in their colours.
    private static func titleLabel(_ title: String, legend: Bool) -> String {
        var rows = "<TR><TD ALIGN=\"LEFT\"><B>\(html(title))</B></TD></TR>"
        if legend {
            let marks: [(Diagram.Mark, String)] = [(.added, "added"), (.removed, "removed"), (.changed, "renamed, retyped or changed")]
            rows +=
                "<TR><TD ALIGN=\"LEFT\">"
                + marks.map { mark, words in
                    font("\(mark.symbol ?? "") \(words)", colour: DiagramColours.of(mark).text, size: 10)
                }.joined(separator: "    ") + "</TD></TR>"
        }
        return "<TABLE BORDER=\"0\" CELLPADDING=\"2\" CELLSPACING=\"0\">\(rows)</TABLE>"
    }

    /// `content` in a FONT element of that colour and size; nothing for no content (Graphviz
    /// refuses an empty element).
    private static func font(_ content: String, colour: String, size: Int? = nil) -> String {
        guard !content.isEmpty else { return "" }
        return "<FONT\(size.map { " POINT-SIZE=\"\($0)\"" } ?? "") COLOR=\"\(colour)\">\(content)</FONT>"
    }

    /// `text` after its mark's symbol (`+ dogs`).
    private static func marked(_ text: String, _ mark: Diagram.Mark) -> String {
        mark.symbol.map { "\($0) \(text)" } ?? text
    }

    /// `text` struck through when it was removed.
    private static func struck(_ text: String, _ mark: Diagram.Mark) -> String {
        mark == .removed ? "<S>\(text)</S>" : text
    }

    /// A DOT identifier in double quotes (diagram identifiers hold only ASCII letters, digits
    /// and `_`, so nothing in them needs escaping).
    static func quoted(_ id: String) -> String {
        "\"" + id + "\""
    }

    /// Text for an HTML-like label: `&`, `<`, `>` and `"` as entities, and characters XML
    /// cannot hold (controls) as `\u{…}`.
    static func html(_ text: String) -> String {
        var out = ""
        for scalar in Diagram.visible(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
