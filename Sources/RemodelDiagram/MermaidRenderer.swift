import RemodelCore

/// Draws a `Diagram` as a Mermaid class diagram (`classDiagram`), the kind GitHub renders in
/// a ```` ```mermaid ```` block.
///
/// Each node is a class (`<<embedded>>`, `<<enum>>`, `<<projection>>` above the name); links
/// are associations (`-->`) with their multiplicity, embedded objects compositions (`*--`),
/// inverse relationships and enum uses dependencies (`..>`), projections realisations
/// (`..|>`). Mermaid has no colour per member, so in a comparison members and edges say
/// `«added»` or `«removed»` in words, renames and retypes read `old → new`, and whole classes
/// are coloured with `classDef`.
///
/// Text from the schema is written with Mermaid's entity codes (`#60;` for `<`) wherever the
/// class diagram grammar would read it as syntax: braces end a class body, `)` makes a method,
/// `~` a generic, `:` and `;` end a label, a trailing `*` or `$` is a classifier, `%%` a
/// comment, `"` a string.
public enum MermaidRenderer {
    /// The lines a class diagram starts with (after the title): the kind, and the marker.
    static let header = "classDiagram\n%% \(DiagramFormat.marker)\n"

    /// The diagram as Mermaid text, ending with a newline: the title as front matter, the
    /// classes, the relations, then the `classDef` styles a comparison uses.
    public static func render(_ diagram: Diagram) -> String {
        var lines: [String] = []
        if let title = diagram.title {
            // A YAML string; its `#` as an entity code, which Mermaid reads anywhere.
            lines += ["---", "title: " + CanonicalYAML.quoted(title.replacingOccurrences(of: "#", with: "#35;")), "---"]
        }
        lines += header.split(separator: "\n").map(String.init)
        for node in diagram.nodes {
            lines += classLines(node, in: diagram)
        }
        for edge in diagram.edges {
            lines.append("    " + relation(edge, in: diagram))
        }
        // After the classes: Mermaid gives a class the styles of the classDefs that come after it.
        for mark in Diagram.Mark.allCases where mark != .unchanged && diagram.nodes.contains(where: { $0.mark == mark }) {
            lines.append("    classDef \(mark.rawValue) \(style(mark))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `class Person {`, its annotation and members, `}`.
    private static func classLines(_ node: Diagram.Node, in diagram: Diagram) -> [String] {
        var head = "    class " + classID(node)
        if node.title != node.id { head += "[\"" + text(node.title, in: .classLabel) + "\"]" }
        if node.mark != .unchanged { head += ":::" + node.mark.rawValue }
        var annotation = node.kind.stereotype.map { [$0] } ?? []
        if node.mark == .added || node.mark == .removed { annotation.append(node.mark.rawValue) }
        annotation += node.notes
        var body: [String] = []
        if !annotation.isEmpty { body.append("<<" + annotation.map { text($0, in: .member) }.joined(separator: ", ") + ">>") }
        for member in node.members {
            body.append(memberLine(member, in: node))
        }
        guard !body.isEmpty else { return [head] }
        return [head + " {"] + body.map { "        " + $0 } + ["    }"]
    }

    /// `dogs: list~Dog~`, `_id: objectId «PK»`, `sales = Sales and Marketing`.
    private static func memberLine(_ member: Diagram.Member, in node: Diagram.Node) -> String {
        var line = text(member.title, in: .member)
        if let detail = member.detailText {
            line += (member.kind == .enumCase ? " = " : ": ") + text(detail, in: .member)
        }
        var tags = member.tags
        if member.mark != node.mark, member.mark == .added || member.mark == .removed { tags.insert(member.mark.rawValue, at: 0) }
        if !tags.isEmpty { line += " «" + tags.map { text($0, in: .member) }.joined(separator: ", ") + "»" }
        // A leading + - # ~ would be read as the member's visibility.
        if let first = line.unicodeScalars.first, "+-#~".unicodeScalars.contains(first) {
            line = entity(first) + String(line.unicodeScalars.dropFirst())
        }
        return genericAngles(line)
    }

    /// `Person --> "*" Dog : dogs (list)`.
    private static func relation(_ edge: Diagram.Edge, in diagram: Diagram) -> String {
        let arrow =
            switch edge.kind {
            case .link: "-->"
            case .embedding: "*--"
            case .inverse, .enumeration: "..>"
            case .projection: "..|>"
            }
        let from = diagram.node(edge.from).map(classID) ?? edge.from
        let to = diagram.node(edge.to).map(classID) ?? edge.to
        var label = edge.text
        if edge.mark != .unchanged { label += " «\(edge.mark.rawValue)»" }
        let multiplicity = edge.multiplicity.map { " \"\($0)\"" } ?? ""
        return "\(from) \(arrow)\(multiplicity) \(to) : " + text(label, in: .label)
    }

    /// The class's identifier in the diagram's text: the node's own when the grammar reads it
    /// as one word (it starts with a capital letter, so it cannot begin a keyword such as
    /// `note`, `link` or `o`), else in backquotes.
    static func classID(_ node: Diagram.Node) -> String {
        let scalars = node.id.unicodeScalars
        if let first = scalars.first, ("A"..."Z").contains(first) { return node.id }
        return "`" + node.id + "`"
    }

    /// Where text goes, which decides what the grammar would read as syntax there.
    enum Place {
        /// A line of a class body (a member or an annotation): braces end the body, `(` and
        /// `)` make a method, a trailing `*` or `$` a classifier.
        case member
        /// A relation's label, which `;` ends (and `:`, encoded everywhere).
        case label
        /// A class's label, a string in double quotes.
        case classLabel
    }

    /// `text` with every character the class diagram grammar could read as syntax in `place`
    /// written as an entity code (`#123;` for `{`), after control characters are made visible.
    /// Everywhere: `#` (entity codes), `"` (strings), `<`, `>` and `&` (HTML), `%` (comments),
    /// backquotes and backslashes, `~` (generics), braces, and `:` (Mermaid's preprocessing
    /// drops the last `;` of any line with `style…:…#…;` in it, so the only colons left are
    /// the renderer's own `: `).
    static func text(_ text: String, in place: Place) -> String {
        var out = ""
        for scalar in Diagram.visible(text).unicodeScalars {
            if syntax.contains(scalar) || (place == .member && memberSyntax.contains(scalar)) || (place == .label && labelSyntax.contains(scalar)) {
                out += entity(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static let syntax = Set("#\"<>&%`\\~{}:".unicodeScalars)
    private static let memberSyntax = Set("()*$".unicodeScalars)
    private static let labelSyntax = Set(";".unicodeScalars)

    private static func entity(_ scalar: Unicode.Scalar) -> String {
        "#\(scalar.value);"
    }

    /// A member line with exactly one `<…>` pair and no comma (`dogs: list<Dog>`) written
    /// with Mermaid's generic tildes (`list~Dog~`), which read better in the source and draw
    /// the same; any other line keeps its angle brackets as entity codes, since Mermaid pairs
    /// tildes first with last.
    static func genericAngles(_ line: String) -> String {
        let open = "#60;"
        let close = "#62;"
        guard line.components(separatedBy: open).count == 2, line.components(separatedBy: close).count == 2,
            !line.contains(","), let start = line.range(of: open), let end = line.range(of: close), start.upperBound <= end.lowerBound
        else {
            return line
        }
        return line.replacingCharacters(in: end, with: "~").replacingCharacters(in: start, with: "~")
    }

    /// The fill, border and text colours of a class marked `mark`.
    private static func style(_ mark: Diagram.Mark) -> String {
        let colours = DiagramColours.of(mark)
        return "fill:\(colours.fill),stroke:\(colours.line),color:\(colours.text)"
    }
}
