import RemodelCore

/// Prints a `SwiftFile` as source text: four-space indentation, one layout rule for long
/// expressions, no trailing spaces, a final newline. The same tree always prints the same
/// bytes.
public struct SwiftRenderer: Sendable {
    /// Expressions longer than this are broken over several lines.
    public var lineWidth: Int

    public init(lineWidth: Int = 120) {
        self.lineWidth = lineWidth
    }

    /// The source text of `file`.
    public func render(_ file: SwiftFile) -> String {
        var out = Printer()
        for line in file.header {
            out.line(0, line.isEmpty ? "//" : "// " + SwiftLiteral.commentLine(line))
        }
        if let condition = file.condition {
            if !file.header.isEmpty { out.blank() }
            out.line(0, "#if " + condition)
        }
        if !file.imports.isEmpty {
            if !file.header.isEmpty && file.condition == nil { out.blank() }
            for module in file.imports { out.line(0, "import " + escaped(module)) }
        }
        for (index, declaration) in file.declarations.enumerated() {
            let follows = index > 0 ? file.declarations[index - 1] : nil
            if (index > 0 || !file.header.isEmpty || !file.imports.isEmpty) && !(follows.map(isComment) ?? false) { out.blank() }
            render(declaration, depth: 0, into: &out)
        }
        if file.condition != nil {
            out.blank()
            out.line(0, "#endif")
        }
        return out.text
    }

    /// The source text of declarations with no header and no imports, as they appear at
    /// the top level of a file.
    public func render(_ declarations: [SwiftDeclaration]) -> String {
        render(SwiftFile(header: [], imports: [], declarations: declarations))
    }

    // MARK: Declarations

    private func render(_ declaration: SwiftDeclaration, depth: Int, into out: inout Printer) {
        switch declaration {
        case .structure(let type):
            doc(type.doc, depth, &out)
            typeBody(keyword: "struct", access: type.access, name: escaped(type.name), inherits: type.conformances, members: type.members, depth: depth, into: &out)
        case .enumeration(let type):
            doc(type.doc, depth, &out)
            typeBody(keyword: "enum", access: type.access, name: escaped(type.name), inherits: type.inherits, members: type.members, depth: depth, into: &out)
        case .classType(let type):
            doc(type.doc, depth, &out)
            typeBody(
                keyword: type.isFinal ? "final class" : "class", access: type.access, name: escaped(type.name), inherits: type.inherits, members: type.members, depth: depth,
                into: &out)
        case .extensionOf(let ext):
            typeBody(keyword: "extension", access: .internal, name: render(ext.extended), inherits: ext.conformances, members: ext.members, depth: depth, into: &out)
        case .property(let property):
            doc(property.doc, depth, &out)
            var head = property.attribute.map { "@" + flat($0) + " " } ?? ""
            head += modifiers(property.access, isStatic: property.isStatic) + property.binding.rawValue + " "
            head += escaped(property.name)
            if let type = property.type { head += ": " + render(type) }
            if let getter = property.getter {
                if getter.count == 1, case .returnValue(let value) = getter[0] {
                    if let flat = self.flat(value, within: lineWidth - indentWidth(depth) - head.utf8.count - 6) {
                        out.line(depth, head + " { " + flat + " }")
                        return
                    }
                }
                out.line(depth, head + " {")
                statements(getter, depth: depth + 1, into: &out)
                out.line(depth, "}")
            } else if let value = property.value {
                head += " = "
                out.line(depth, head + layout(value, column: indentWidth(depth) + head.utf8.count, depth: depth))
            } else {
                out.line(depth, head)
            }
        case .initializer(let initializer):
            doc(initializer.doc, depth, &out)
            let head = modifiers(initializer.access, isStatic: false) + (initializer.isConvenience ? "convenience " : "") + (initializer.isFailable ? "init?" : "init")
            let tail = (initializer.isThrowing ? " throws" : "") + " {"
            signature(head: head, parameters: initializer.parameters, tail: tail, depth: depth, into: &out)
            statements(initializer.body, depth: depth + 1, into: &out)
            out.line(depth, "}")
        case .function(let function):
            doc(function.doc, depth, &out)
            var head = modifiers(function.access, isStatic: function.isStatic)
            if function.isClassOverride { head += "override class " }
            if function.isMutating { head += "mutating " }
            head += "func " + escaped(function.name)
            var tail = function.isThrowing ? " throws" : ""
            if let result = function.result { tail += " -> " + render(result) }
            tail += " {"
            signature(head: head, parameters: function.parameters, tail: tail, depth: depth, into: &out)
            statements(function.body, depth: depth + 1, into: &out)
            out.line(depth, "}")
        case .typeAlias(let access, let name, let type):
            out.line(depth, modifiers(access, isStatic: false) + "typealias " + escaped(name) + " = " + render(type))
        case .enumCase(let docText, let name, let rawValue):
            doc(docText, depth, &out)
            var text = "case " + escaped(name)
            if let rawValue { text += " = " + flat(rawValue) }
            out.line(depth, text)
        case .mark(let text):
            out.line(depth, "// MARK: - " + SwiftLiteral.commentLine(text))
        case .comment(let lines):
            for line in lines.flatMap(SwiftLiteral.commentLines) {
                out.line(depth, line.isEmpty ? "//" : "// " + line)
            }
        }
    }

    private func typeBody(keyword: String, access: SwiftAccess, name: String, inherits: [SwiftType], members: [SwiftDeclaration], depth: Int, into out: inout Printer) {
        var head = modifiers(access, isStatic: false) + keyword + " " + name
        if !inherits.isEmpty { head += ": " + inherits.map(render).joined(separator: ", ") }
        guard !members.isEmpty else {
            out.line(depth, head + " {}")
            return
        }
        out.line(depth, head + " {")
        var previous: SwiftDeclaration?
        for member in members {
            if let previous, !(isCompact(previous) && isCompact(member)), !isComment(previous) { out.blank() }
            render(member, depth: depth + 1, into: &out)
            previous = member
        }
        out.line(depth, "}")
    }

    /// Members printed without a blank line between them: undocumented cases and stored
    /// properties.
    private func isCompact(_ declaration: SwiftDeclaration) -> Bool {
        switch declaration {
        case .enumCase(let doc, _, _): doc == nil
        case .property(let property): property.doc == nil && property.getter == nil
        case .typeAlias: true
        default: false
        }
    }

    /// A `//` comment belongs to the declaration after it: no blank line between them.
    private func isComment(_ declaration: SwiftDeclaration) -> Bool {
        if case .comment = declaration { return true }
        return false
    }

    private func signature(head: String, parameters: [SwiftParameter], tail: String, depth: Int, into out: inout Printer) {
        let rendered = parameters.map(parameter)
        let oneLine = head + "(" + rendered.joined(separator: ", ") + ")" + tail
        if indentWidth(depth) + oneLine.utf8.count <= lineWidth || parameters.isEmpty {
            out.line(depth, oneLine)
            return
        }
        out.line(depth, head + "(")
        for (index, text) in rendered.enumerated() {
            out.line(depth + 1, text + (index < rendered.count - 1 ? "," : ""))
        }
        out.line(depth, ")" + tail)
    }

    private func parameter(_ parameter: SwiftParameter) -> String {
        let name = escaped(parameter.name)
        var text: String
        switch parameter.label {
        case nil: text = name
        case "_"?: text = "_ " + name
        case let label?: text = label == parameter.name ? name : Self.argumentLabel(label) + " " + name
        }
        text += ": " + (parameter.isInOut ? "inout " : "") + render(parameter.type)
        if let value = parameter.defaultValue { text += " = " + flat(value) }
        return text
    }

    private func modifiers(_ access: SwiftAccess, isStatic: Bool) -> String {
        (access == .internal ? "" : access.rawValue + " ") + (isStatic ? "static " : "")
    }

    private func doc(_ text: String?, _ depth: Int, _ out: inout Printer) {
        guard let text else { return }
        for line in SwiftLiteral.commentLines(text) {
            out.line(depth, line.isEmpty ? "///" : "/// " + line)
        }
    }

    // MARK: Statements

    private func statements(_ statements: [SwiftStatement], depth: Int, into out: inout Printer) {
        for statement in statements { self.statement(statement, depth: depth, into: &out) }
    }

    private func statement(_ statement: SwiftStatement, depth: Int, into out: inout Printer) {
        switch statement {
        case .expression(let value):
            out.begin(depth)
            layout(value, column: indentWidth(depth), depth: depth, into: &out.buffer)
            out.end()
        case .assignment(let target, let value):
            out.begin(depth)
            let start = out.buffer.count
            _ = append(target, to: &out.buffer, limit: .max)
            out.buffer.append(" = ")
            layout(value, column: indentWidth(depth) + out.buffer.count - start, depth: depth, into: &out.buffer)
            out.end()
        case .returnValue(let value):
            out.begin(depth)
            out.buffer.append("return ")
            layout(value, column: indentWidth(depth) + 7, depth: depth, into: &out.buffer)
            out.end()
        case .constant(let name, let type, let value):
            binding("let ", name, type, value, depth: depth, into: &out)
        case .switchOver(let subject, let cases):
            out.line(depth, "switch " + flat(subject) + " {")
            for switchCase in cases {
                if switchCase.patterns.isEmpty {
                    out.line(depth, "default:")
                } else {
                    out.line(depth, "case " + switchCase.patterns.map(flat).joined(separator: ", ") + ":")
                }
                statements(switchCase.body.isEmpty ? [.expression(.token("break"))] : switchCase.body, depth: depth + 1, into: &out)
            }
            out.line(depth, "}")
        case .comment(let text):
            for line in SwiftLiteral.commentLines(text) { out.line(depth, line.isEmpty ? "//" : "// " + line) }
        case .variable(let name, let type, let value):
            binding("var ", name, type, value, depth: depth, into: &out)
        case .ifThen(let condition, let body):
            block("if " + flat(condition), body, depth: depth, into: &out)
        case .guardElse(let condition, let body):
            block("guard " + flat(condition) + " else", body, depth: depth, into: &out)
        case .forIn(let pattern, let sequence, let body):
            block("for " + pattern + " in " + flat(sequence), body, depth: depth, into: &out)
        case .callWithClosure(let callee, let arguments, let parameters, let body):
            var head = flat(callee)
            if !arguments.isEmpty { head += String(flat(.call(.token(""), arguments))) }
            head += parameters.isEmpty ? " {" : " { " + parameters.map(closureParameter).joined(separator: ", ") + " in"
            out.line(depth, head)
            statements(body, depth: depth + 1, into: &out)
            out.line(depth, "}")
        case .returnVoid:
            out.line(depth, "return")
        case .throwError(let value):
            out.begin(depth)
            out.buffer.append("throw ")
            layout(value, column: indentWidth(depth) + 6, depth: depth, into: &out.buffer)
            out.end()
        }
    }

    /// `let name: Type = value` (or `var`), the value laid out after the head.
    private func binding(_ keyword: String, _ name: String, _ type: SwiftType?, _ value: SwiftExpression, depth: Int, into out: inout Printer) {
        out.begin(depth)
        let start = out.buffer.count
        out.buffer.append(keyword)
        out.buffer.append(escaped(name))
        if let type {
            out.buffer.append(": ")
            out.buffer.append(render(type))
        }
        out.buffer.append(" = ")
        layout(value, column: indentWidth(depth) + out.buffer.count - start, depth: depth, into: &out.buffer)
        out.end()
    }

    /// `head { body }`, on one line when the body is one short statement that fits.
    private func block(_ head: String, _ body: [SwiftStatement], depth: Int, into out: inout Printer) {
        if body.count == 1 {
            var inner = Printer(capacity: 128)
            statement(body[0], depth: 0, into: &inner)
            let text = String(inner.text.dropLast())
            if !text.contains("\n"), indentWidth(depth) + head.utf8.count + text.utf8.count + 6 <= lineWidth {
                out.line(depth, head + " { " + text + " }")
                return
            }
        }
        out.line(depth, head + " {")
        statements(body, depth: depth + 1, into: &out)
        out.line(depth, "}")
    }

    // MARK: Types and expressions

    /// The source text of a type.
    public func render(_ type: SwiftType) -> String {
        switch type {
        case .named(let name, let generics):
            escaped(name) + (generics.isEmpty ? "" : "<" + generics.map(render).joined(separator: ", ") + ">")
        case .member(let base, let name): render(base) + "." + escaped(name)
        case .optional(let wrapped): render(wrapped) + "?"
        case .array(let element): "[" + render(element) + "]"
        case .dictionary(let key, let value): "[" + render(key) + ": " + render(value) + "]"
        case .existentialMetatype(let type): "any " + render(type) + ".Type"
        }
    }

    /// The expression on one line.
    public func flat(_ expression: SwiftExpression) -> String {
        var out = SourceBuffer()
        _ = append(expression, to: &out, limit: .max)
        return out.text
    }

    /// The expression on one line if it is at most `limit` UTF-8 bytes long, else `nil`;
    /// stops rendering as soon as it is too long, so that laying out a large expression
    /// stays linear in its size.
    private func flat(_ expression: SwiftExpression, within limit: Int) -> String? {
        var out = SourceBuffer()
        return append(expression, to: &out, limit: limit) ? out.text : nil
    }

    /// Appends the one-line form of `expression`; returns `false` once `out` exceeds `limit`
    /// bytes in all (what it holds already included).
    private func append(_ expression: SwiftExpression, to out: inout SourceBuffer, limit: Int) -> Bool {
        switch expression {
        case .identifier(let name): out.append(escaped(name))
        case .token(let text): out.append(text)
        case .string(let text): out.append(SwiftLiteral.string(text))
        case .member(let base, let name):
            guard append(base, to: &out, limit: limit) else { return false }
            out.append(".")
            out.append(escaped(name))
        case .implicitMember(let name):
            out.append(".")
            out.append(escaped(name))
        case .call(let callee, let arguments):
            guard append(callee, to: &out, limit: limit), append(arguments, in: ("(", ")"), to: &out, limit: limit) else { return false }
        case .array(let elements):
            out.append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(", ") }
                guard append(element, to: &out, limit: limit) else { return false }
            }
            out.append("]")
        case .dictionary(let elements):
            guard !elements.isEmpty else {
                out.append("[:]")
                break
            }
            out.append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(", ") }
                guard append(element.key, to: &out, limit: limit) else { return false }
                out.append(": ")
                guard append(element.value, to: &out, limit: limit) else { return false }
            }
            out.append("]")
        case .forceUnwrap(let value):
            guard append(value, to: &out, limit: limit) else { return false }
            out.append("!")
        case .tryExpression(let value):
            out.append("try ")
            guard append(value, to: &out, limit: limit) else { return false }
        case .forcedTry(let value):
            out.append("try! ")
            guard append(value, to: &out, limit: limit) else { return false }
        case .inOut(let value):
            out.append("&")
            guard append(value, to: &out, limit: limit) else { return false }
        case .binary(let lhs, let op, let rhs):
            guard append(lhs, to: &out, limit: limit) else { return false }
            out.append(" ")
            out.append(op)
            out.append(" ")
            guard append(rhs, to: &out, limit: limit) else { return false }
        case .metatype(let type):
            out.append(render(type))
            out.append(".self")
        case .type(let type): out.append(render(type))
        case .cast(let value, let type, let forced):
            guard append(value, to: &out, limit: limit) else { return false }
            out.append(forced ? " as! " : " as? ")
            out.append(render(type))
        case .subscripted(let base, let arguments):
            guard append(base, to: &out, limit: limit), append(arguments, in: ("[", "]"), to: &out, limit: limit) else { return false }
        case .keyPath(let root, let components):
            out.append("\\")
            out.append(render(root))
            for component in components {
                out.append(".")
                out.append(escaped(component))
            }
        case .closure(let parameters, let body):
            out.append(parameters.isEmpty ? "{ " : "{ " + parameters.map(closureParameter).joined(separator: ", ") + " in ")
            guard append(body, to: &out, limit: limit) else { return false }
            out.append(" }")
        case .optionalChain(let value):
            guard append(value, to: &out, limit: limit) else { return false }
            out.append("?")
        case .parenthesized(let value):
            out.append("(")
            guard append(value, to: &out, limit: limit) else { return false }
            out.append(")")
        }
        return out.count <= limit
    }

    /// Appends `(label: value, …)` (or with other brackets); `false` once `out` exceeds `limit`.
    private func append(_ arguments: [SwiftArgument], in brackets: (String, String), to out: inout SourceBuffer, limit: Int) -> Bool {
        out.append(brackets.0)
        for (index, argument) in arguments.enumerated() {
            if index > 0 { out.append(", ") }
            if let label = argument.label {
                out.append(Self.argumentLabel(label))
                out.append(": ")
            }
            guard append(argument.value, to: &out, limit: limit) else { return false }
        }
        out.append(brackets.1)
        return out.count <= limit
    }

    /// The expression starting at `column`, broken over lines (one argument or element per
    /// line, indented one level deeper than `depth`) when it does not fit.
    private func layout(_ expression: SwiftExpression, column: Int, depth: Int) -> String {
        var out = SourceBuffer()
        layout(expression, column: column, depth: depth, into: &out)
        return out.text
    }

    /// Appends `expression` starting at `column` to `out`, broken over lines (one argument or
    /// element per line, indented one level deeper than `depth`) when it does not fit. Writes
    /// into one buffer, trying the one-line form in place first and cutting it off when it is
    /// too long, so that nested breaks copy no text.
    private func layout(_ expression: SwiftExpression, column: Int, depth: Int, into out: inout SourceBuffer) {
        let start = out.count
        if append(expression, to: &out, limit: start + lineWidth - column) { return }
        out.truncate(to: start)
        let inner = indentation(depth + 1)
        let closing = indentation(depth)
        switch expression {
        case .call(let callee, let arguments) where !arguments.isEmpty:
            _ = append(callee, to: &out, limit: .max)
            out.append("(\n")
            for (index, argument) in arguments.enumerated() {
                if index > 0 { out.append(",\n") }
                out.append(inner)
                var width = inner.utf8.count
                if let label = argument.label {
                    let text = Self.argumentLabel(label)
                    out.append(text)
                    out.append(": ")
                    width += text.utf8.count + 2
                }
                layout(argument.value, column: width, depth: depth + 1, into: &out)
            }
            out.append("\n")
            out.append(closing)
            out.append(")")
        case .array(let elements) where !elements.isEmpty:
            out.append("[\n")
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(",\n") }
                out.append(inner)
                layout(element, column: inner.utf8.count, depth: depth + 1, into: &out)
            }
            out.append("\n")
            out.append(closing)
            out.append("]")
        case .dictionary(let elements) where !elements.isEmpty:
            out.append("[\n")
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(",\n") }
                let keyStart = out.count
                out.append(inner)
                _ = append(element.key, to: &out, limit: .max)
                out.append(": ")
                layout(element.value, column: out.count - keyStart, depth: depth + 1, into: &out)
            }
            out.append("\n")
            out.append(closing)
            out.append("]")
        case .forceUnwrap(let value):
            layout(value, column: column, depth: depth, into: &out)
            out.append("!")
        case .tryExpression(let value):
            out.append("try ")
            layout(value, column: column + 4, depth: depth, into: &out)
        default:
            _ = append(expression, to: &out, limit: .max)
        }
    }

    /// A label in a call: keywords need no backticks there (Swift warns about them), except
    /// `inout` and `_`.
    static func argumentLabel(_ label: String) -> String {
        label == "inout" || label == "_" ? "`\(label)`" : label
    }

    /// A closure's parameter: a name, or `_` for one it ignores.
    private func closureParameter(_ name: String) -> String {
        name == "_" ? name : escaped(name)
    }

    private func indentWidth(_ depth: Int) -> Int { depth * 4 }

    private func indentation(_ depth: Int) -> String {
        depth < Indentation.cached.count ? Indentation.cached[depth] : String(repeating: " ", count: depth * 4)
    }
}

/// Accumulates indented lines.
private struct Printer {
    /// The text so far; a line is written into it directly between `begin` and `end`.
    var buffer: SourceBuffer

    init(capacity: Int = 8192) {
        buffer = SourceBuffer(capacity: capacity)
    }

    var text: String { buffer.text }

    mutating func line(_ depth: Int, _ content: String) {
        // A multi-line expression already carries its own indentation after the first line.
        if !content.isEmpty { begin(depth) }
        buffer.append(content)
        end()
    }

    /// Starts a line at `depth`: its indentation.
    mutating func begin(_ depth: Int) {
        buffer.append(depth < Indentation.cached.count ? Indentation.cached[depth] : String(repeating: " ", count: depth * 4))
    }

    /// Ends the line.
    mutating func end() {
        buffer.appendByte(10)
    }

    mutating func blank() {
        buffer.appendByte(10)
    }
}

/// Source text being built, as UTF-8 bytes: appending copies bytes without the checks and
/// small-string steps of `String`, and a part written on trial can be cut off again.
private struct SourceBuffer {
    private var bytes: [UInt8]

    init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes so far.
    var count: Int { bytes.count }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func appendByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Removes everything after the first `count` bytes.
    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }
}

/// `name`, in backticks when it is a keyword (SwiftNames' two lists, looked up once).
private func escaped(_ name: String) -> String {
    EscapedNames.contains(name) ? "`" + name + "`" : name
}

private enum EscapedNames {
    static let all = SwiftNames.keywords.union(SwiftNames.memberKeywords)

    /// Whether some keyword has this UTF-8 length and first byte, at `length * 256 + byte`:
    /// most names are no keyword by that alone, without hashing them.
    static let candidates: [Bool] = {
        var table = [Bool](repeating: false, count: (maxLength + 1) * 256)
        for keyword in all { table[keyword.utf8.count * 256 + Int(keyword.utf8.first!)] = true }
        return table
    }()

    static let maxLength = all.map(\.utf8.count).max()!

    static func contains(_ name: String) -> Bool {
        let length = name.utf8.count
        guard length <= maxLength, let first = name.utf8.first, candidates[length * 256 + Int(first)] else { return false }
        return all.contains(name)
    }
}

/// Indentation strings for the usual depths, made once.
private enum Indentation {
    static let cached: [String] = (0..<16).map { String(repeating: " ", count: $0 * 4) }
}
