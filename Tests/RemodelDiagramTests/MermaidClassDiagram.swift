import Foundation
import RemodelDiagram

/// A reader of the Mermaid class diagrams `MermaidRenderer` writes, written from Mermaid's own
/// grammar (`packages/mermaid/src/diagrams/class/parser/classDiagram.jison`, and what `classDb`
/// and `ClassMember` do with a member's text), independent of the renderer. Mermaid cannot run
/// here (it needs a browser), so this is what checks the text it would read: every problem
/// the grammar would have, and what the text decodes to.
struct MermaidClassDiagram {
    struct Class {
        var id: String
        /// The label (`class Dog["Doggo → Dog"]`), decoded; the id when there is none.
        var title: String
        var cssClass: String?
        /// `<<…>>` lines, decoded.
        var annotations: [String]
        /// Member lines as Mermaid shows them: entity codes decoded, a `~…~` pair as `<…>`.
        var members: [String]
    }

    struct Relation {
        var from: String
        var arrow: String
        var multiplicity: String?
        var to: String
        /// Decoded.
        var label: String
    }

    var title: String?
    var classes: [Class] = []
    var relations: [Relation] = []
    var classDefs: [String] = []
    /// What the grammar would refuse or misread, one line each.
    var problems: [String] = []

    /// A class identifier: one word the lexer reads as such (starting with a capital letter, so
    /// that no keyword rule such as `note`, `link`, `click`, `o` or `_self` matches first), or
    /// any text in backquotes.
    private static let classID = #"(?:[A-Z][A-Za-z0-9_]*|`[^`]+`)"#
    private static let classLine = try! NSRegularExpression(pattern: #"^    class (\#(classID))(?:\["([^"]*)"\])?(?::::([A-Za-z]+))?( \{)?$"#)
    private static let relationLine = try! NSRegularExpression(pattern: #"^    (\#(classID)) (-->|\*--|\.\.>|\.\.\|>)(?: "([^"]*)")? (\#(classID)) : ([^:;\n]+)$"#)
    private static let classDefLine = try! NSRegularExpression(pattern: #"^    classDef ([A-Za-z]+) [a-z]+:#[0-9a-f]{6}(?:,[a-z-]+:#[0-9a-f]{6})*$"#)
    private static let entity = try! NSRegularExpression(pattern: #"#([0-9]+);"#)

    init(_ text: String) {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() } else { problems.append("the text does not end with a newline") }
        if lines.first == "---" {
            guard let end = lines.dropFirst().firstIndex(of: "---") else {
                problems.append("front matter without its closing '---'")
                return
            }
            for line in lines[1..<end] {
                if line.hasPrefix("title: \""), line.hasSuffix("\"") {
                    title = Self.decodeYAML(String(line.dropFirst(8).dropLast()))
                } else {
                    problems.append("unexpected front matter line: \(line)")
                }
            }
            lines.removeSubrange(0...end)
        }
        guard lines.first == "classDiagram" else {
            problems.append("the diagram does not start with 'classDiagram'")
            return
        }
        var index = 1
        while index < lines.count {
            let line = lines[index]
            index += 1
            if line.range(of: #"direction\s+(TB|BT|RL|LR)"#, options: .regularExpression) != nil {
                problems.append("'direction …' outside a direction statement is read as one: \(line)")
            }
            // The one comment is the marker, right after the header; any other is text that
            // Mermaid would drop.
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("%%") {
                if !(index == 2 && line == "%% \(DiagramFormat.marker)") { problems.append("a comment line: \(line)") }
                continue
            }
            if let match = Self.match(Self.classDefLine, line) {
                classDefs.append(match[1]!)
            } else if let match = Self.match(Self.classLine, line) {
                let id = match[1]!
                var theClass = Class(
                    id: Self.bare(id), title: match[2].map { Self.checkedLabel($0, in: line, problems: &problems) } ?? Self.bare(id), cssClass: match[3], annotations: [],
                    members: [])
                if match[4] != nil {
                    while index < lines.count, lines[index] != "    }" {
                        readMember(lines[index], into: &theClass)
                        index += 1
                    }
                    if index == lines.count { problems.append("class \(id) has no closing brace") }
                    index += 1
                }
                classes.append(theClass)
            } else if let match = Self.match(Self.relationLine, line) {
                let label = match[5]!
                Self.checkText(label, in: line, problems: &problems)
                relations.append(Relation(from: Self.bare(match[1]!), arrow: match[2]!, multiplicity: match[3], to: Self.bare(match[4]!), label: Self.decode(label)))
            } else {
                problems.append("a line the grammar does not read: \(line)")
            }
        }
        let ids = classes.map(\.id)
        for id in Set(ids) where ids.filter({ $0 == id }).count > 1 { problems.append("class \(id) declared twice") }
        for relation in relations {
            for end in [relation.from, relation.to] where !ids.contains(end) {
                problems.append("a relation names \(end), which is not declared")
            }
        }
        for cssClass in Set(classes.compactMap(\.cssClass)) where !classDefs.contains(cssClass) {
            problems.append("class style '\(cssClass)' is not defined by a classDef")
        }
    }

    /// A line of a class body: an annotation, or a member as `ClassMember` reads it.
    private mutating func readMember(_ line: String, into theClass: inout Class) {
        guard line.hasPrefix("        ") else {
            problems.append("a member line not indented as the others: \(line)")
            return
        }
        let member = String(line.dropFirst(8))
        // The lexer ends the body at a brace; `"` at its start begins a string.
        if member.contains("{") || member.contains("}") || member.hasPrefix("\"") { problems.append("a brace or quote in a member: \(line)") }
        Self.checkText(member, in: line, problems: &problems)
        if member.hasPrefix("<<") {
            guard member.hasSuffix(">>") else {
                problems.append("an annotation that does not end with '>>': \(line)")
                return
            }
            theClass.annotations.append(Self.decode(String(member.dropFirst(2).dropLast(2))))
            return
        }
        // `classDb.addMember`: a `)` makes a method; `ClassMember`: a first + - # ~ is the
        // visibility, a last * or $ the classifier.
        if member.contains(")") || member.contains("(") { problems.append("parentheses make a method: \(line)") }
        if let first = member.first, "+-#~".contains(first) { problems.append("a first character read as visibility: \(line)") }
        if let last = member.last, "*$".contains(last) { problems.append("a last character read as a classifier: \(line)") }
        if member.contains("<") || member.contains(">") { problems.append("raw angle brackets, which HTML sanitising removes: \(line)") }
        let tildes = member.filter { $0 == "~" }.count
        var shown = member
        if tildes == 2, !member.contains(",") {
            // `parseGenericTypes`: the first tilde opens, the last closes.
            let first = shown.firstIndex(of: "~")!
            shown.replaceSubrange(first...first, with: "<")
            let last = shown.lastIndex(of: "~")!
            shown.replaceSubrange(last...last, with: ">")
        } else if tildes != 0 {
            problems.append("tildes Mermaid would pair wrongly: \(line)")
        }
        theClass.members.append(Self.decode(shown))
    }

    /// What any text must avoid outside of entity codes: HTML (`<`, `>`, `&`), a `#` that is
    /// not an entity code, comments, backquotes and backslashes.
    private static func checkText(_ text: String, in line: String, problems: inout [String]) {
        let withoutEntities = entity.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
        for character in ["&", "#", "%", "`", "\\", "\""] where withoutEntities.contains(character) {
            problems.append("'\(character)' outside an entity code: \(line)")
        }
        // Mermaid's preprocessing drops the last `;` of a line like `style…:…#…;` (or `classDef…`).
        if line.range(of: #"(style|classDef).*:\S*#.*;"#, options: .regularExpression) != nil, !line.hasPrefix("    classDef ") {
            problems.append("a line Mermaid's preprocessing would cut short: \(line)")
        }
        if withoutEntities.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            problems.append("a control character: \(line)")
        }
    }

    private static func checkedLabel(_ label: String, in line: String, problems: inout [String]) -> String {
        checkText(label, in: line, problems: &problems)
        if label.contains("<") || label.contains(">") { problems.append("raw angle brackets in a class label: \(line)") }
        return decode(label)
    }

    /// `text` with its entity codes (`#60;`) as the characters they stand for.
    static func decode(_ text: String) -> String {
        var out = ""
        let string = text as NSString
        var position = 0
        for match in entity.matches(in: text, range: NSRange(location: 0, length: string.length)) {
            out += string.substring(with: NSRange(location: position, length: match.range.location - position))
            let number = UInt32(string.substring(with: match.range(at: 1)))!
            out.unicodeScalars.append(Unicode.Scalar(number)!)
            position = match.range.location + match.range.length
        }
        return out + string.substring(from: position)
    }

    private static func decodeYAML(_ text: String) -> String {
        decode(text.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\"))
    }

    private static func bare(_ id: String) -> String {
        id.hasPrefix("`") ? String(id.dropFirst().dropLast()) : id
    }

    private static func match(_ expression: NSRegularExpression, _ line: String) -> [String?]? {
        guard let match = expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { return nil }
        return (0..<match.numberOfRanges).map { Range(match.range(at: $0), in: line).map { String(line[$0]) } }
    }
}
