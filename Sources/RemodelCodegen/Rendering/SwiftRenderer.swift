import RemodelCore

/// Prints a `SwiftFile` as source text: four-space indentation, one layout rule for long
/// expressions, no trailing spaces, a final newline. The same tree always prints the same
/// bytes.
public struct SwiftRenderer: Sendable {
    /// Expressions longer than this are broken over several lines.
    public var lineWidth: Int
    private let escapedNames = EscapedNames.shared

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
            // Written into the line as it goes: `@attribute modifiers let name: Type`, then the
            // getter or the value.
            out.begin(depth)
            let start = out.buffer.count
            if let attribute = property.attribute {
                out.buffer.appendByte(UInt8(ascii: "@"))
                _ = append(attribute, to: &out.buffer, limit: .max)
                out.buffer.appendByte(UInt8(ascii: " "))
            }
            out.buffer.append(modifiers(property.access, isStatic: property.isStatic))
            out.buffer.append(property.binding.rawValue)
            out.buffer.appendByte(UInt8(ascii: " "))
            out.buffer.append(escaped(property.name))
            if let type = property.type {
                out.buffer.append(": ")
                append(type, to: &out.buffer)
            }
            let headWidth = out.buffer.count - start
            if let getter = property.getter {
                if getter.count == 1, case .returnValue(let value) = getter[0] {
                    // `{ value }` on the same line when it fits.
                    let mark = out.buffer.count
                    out.buffer.append(" { ")
                    if append(value, to: &out.buffer, limit: out.buffer.count + lineWidth - indentWidth(depth) - headWidth - 6) {
                        out.buffer.append(" }")
                        out.end()
                        return
                    }
                    out.buffer.truncate(to: mark)
                }
                out.buffer.append(" {")
                out.end()
                statements(getter, depth: depth + 1, into: &out)
                out.line(depth, "}")
            } else if let value = property.value {
                out.buffer.append(" = ")
                layout(value, column: indentWidth(depth) + headWidth + 3, depth: depth, into: &out.buffer)
                out.end()
            } else {
                out.end()
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
            for text in lines { comment(text, marker: "//", depth: depth, into: &out) }
        }
    }

    private func typeBody(keyword: String, access: SwiftAccess, name: String, inherits: [SwiftType], members: [SwiftDeclaration], depth: Int, into out: inout Printer) {
        out.begin(depth)
        out.buffer.append(modifiers(access, isStatic: false))
        out.buffer.append(keyword)
        out.buffer.appendByte(UInt8(ascii: " "))
        out.buffer.append(name)
        for (index, type) in inherits.enumerated() {
            out.buffer.append(index == 0 ? ": " : ", ")
            append(type, to: &out.buffer)
        }
        guard !members.isEmpty else {
            out.buffer.append(" {}")
            out.end()
            return
        }
        out.buffer.append(" {")
        out.end()
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
        // The parameters, written once into a scratch buffer, each one's end noted.
        var rendered = SourceBuffer(capacity: 64 * parameters.count)
        var ends: [Int] = []
        ends.reserveCapacity(parameters.count)
        for parameter in parameters {
            self.parameter(parameter, into: &rendered)
            ends.append(rendered.count)
        }
        // The one-line form's width, without writing it out.
        let width = head.utf8.count + rendered.count + 2 * parameters.count + tail.utf8.count
        out.begin(depth)
        out.buffer.append(head)
        out.buffer.appendByte(UInt8(ascii: "("))
        if indentWidth(depth) + width <= lineWidth || parameters.isEmpty {
            var start = 0
            for (index, end) in ends.enumerated() {
                if index > 0 { out.buffer.append(", ") }
                out.buffer.append(rendered, from: start, to: end)
                start = end
            }
            out.buffer.appendByte(UInt8(ascii: ")"))
            out.buffer.append(tail)
            out.end()
            return
        }
        out.end()
        var start = 0
        for (index, end) in ends.enumerated() {
            out.begin(depth + 1)
            out.buffer.append(rendered, from: start, to: end)
            if index < ends.count - 1 { out.buffer.appendByte(UInt8(ascii: ",")) }
            out.end()
            start = end
        }
        out.begin(depth)
        out.buffer.appendByte(UInt8(ascii: ")"))
        out.buffer.append(tail)
        out.end()
    }

    /// Appends `label name: Type = default`.
    private func parameter(_ parameter: SwiftParameter, into out: inout SourceBuffer) {
        switch parameter.label {
        case nil: break
        case "_"?: out.append("_ ")
        case let label? where label == parameter.name: break
        case let label?:
            out.append(Self.argumentLabel(label))
            out.appendByte(UInt8(ascii: " "))
        }
        out.append(escaped(parameter.name))
        out.append(parameter.isInOut ? ": inout " : ": ")
        append(parameter.type, to: &out)
        if let value = parameter.defaultValue {
            out.append(" = ")
            _ = append(value, to: &out, limit: .max)
        }
    }

    private func modifiers(_ access: SwiftAccess, isStatic: Bool) -> String {
        (access == .internal ? "" : access.rawValue + " ") + (isStatic ? "static " : "")
    }

    private func doc(_ text: String?, _ depth: Int, _ out: inout Printer) {
        guard let text else { return }
        comment(text, marker: "///", depth: depth, into: &out)
    }

    /// `text` as comment lines after `marker` (`//` or `///`), as `SwiftLiteral.commentLines`
    /// splits it.
    private func comment(_ text: String, marker: String, depth: Int, into out: inout Printer) {
        // Printable ASCII (almost every comment): its lines go into the buffer without a string each.
        if SwiftLiteral.isPlainCommentText(text) {
            out.commentLines(text, depth: depth, marker: marker)
            return
        }
        for line in SwiftLiteral.commentLines(text) {
            out.line(depth, line.isEmpty ? marker : marker + " " + line)
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
            comment(text, marker: "//", depth: depth, into: &out)
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
            append(type, to: &out.buffer)
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
        var out = SourceBuffer(capacity: 32)
        append(type, to: &out)
        return out.text
    }

    /// Appends the source text of `type`.
    private func append(_ type: SwiftType, to out: inout SourceBuffer) {
        switch type {
        case .named(let name, let generics):
            out.append(escaped(name))
            guard !generics.isEmpty else { return }
            out.appendByte(UInt8(ascii: "<"))
            for (index, generic) in generics.enumerated() {
                if index > 0 { out.append(", ") }
                append(generic, to: &out)
            }
            out.appendByte(UInt8(ascii: ">"))
        case .member(let base, let name):
            append(base, to: &out)
            out.appendByte(UInt8(ascii: "."))
            out.append(escaped(name))
        case .optional(let wrapped):
            append(wrapped, to: &out)
            out.appendByte(UInt8(ascii: "?"))
        case .array(let element):
            out.appendByte(UInt8(ascii: "["))
            append(element, to: &out)
            out.appendByte(UInt8(ascii: "]"))
        case .dictionary(let key, let value):
            out.appendByte(UInt8(ascii: "["))
            append(key, to: &out)
            out.append(": ")
            append(value, to: &out)
            out.appendByte(UInt8(ascii: "]"))
        case .existentialMetatype(let type):
            out.append("any ")
            append(type, to: &out)
            out.append(".Type")
        }
    }

    /// The expression on one line.
    public func flat(_ expression: SwiftExpression) -> String {
        var out = SourceBuffer()
        _ = append(expression, to: &out, limit: .max)
        return out.text
    }

    /// Appends the one-line form of `expression`; returns `false` once `out` exceeds `limit`
    /// bytes in all (what it holds already included), having stopped there, so that trying
    /// the one-line form of a large expression stays linear in its size.
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
            append(type, to: &out)
            out.append(".self")
        case .type(let type): append(type, to: &out)
        case .cast(let value, let type, let forced):
            guard append(value, to: &out, limit: limit) else { return false }
            out.append(forced ? " as! " : " as? ")
            append(type, to: &out)
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

    /// `name`, in backticks when it is a keyword.
    private func escaped(_ name: String) -> String {
        escapedNames.contains(name) ? "`" + name + "`" : name
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
        buffer.appendSpaces(depth * 4)
    }

    /// Ends the line.
    mutating func end() {
        buffer.appendByte(10)
    }

    mutating func blank() {
        buffer.appendByte(10)
    }

    /// The lines of `text` (printable ASCII and newlines: `SwiftLiteral.isPlainCommentText`),
    /// each at `depth` after `marker` and a space, trailing spaces removed, as
    /// `SwiftLiteral.commentLines` splits them; an empty line is the marker alone.
    mutating func commentLines(_ text: String, depth: Int, marker: String) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                var lineEnd = start
                while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
                var trimmed = lineEnd
                while trimmed > start, bytes[trimmed - 1] == UInt8(ascii: " ") { trimmed -= 1 }
                begin(depth)
                buffer.append(marker)
                if trimmed > start {
                    buffer.appendByte(UInt8(ascii: " "))
                    buffer.append(UnsafeBufferPointer(rebasing: bytes[start..<trimmed]))
                }
                end()
                start = lineEnd + 1
            }
        }
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

    mutating func appendSpaces(_ count: Int) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    mutating func append(_ part: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: part)
    }

    /// Appends bytes `start..<end` of `other`.
    mutating func append(_ other: SourceBuffer, from start: Int, to end: Int) {
        bytes.append(contentsOf: other.bytes[start..<end])
    }

    /// Removes everything after the first `count` bytes.
    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }
}

/// The names written in backticks: SwiftNames' two keyword lists, with a table that rules
/// most names out by their length and first byte alone. Built once; a renderer keeps a
/// reference, so that looking a name up reads no global (each global read checks that it
/// was initialised).
private final class EscapedNames: Sendable {
    static let shared = EscapedNames()

    let all = SwiftNames.keywords.union(SwiftNames.memberKeywords)
    let maxLength: Int
    /// Whether some keyword has this UTF-8 length and first byte, at `length * 256 + byte`.
    let candidates: [Bool]

    private init() {
        maxLength = all.map(\.utf8.count).max()!
        var table = [Bool](repeating: false, count: (maxLength + 1) * 256)
        for keyword in all { table[keyword.utf8.count * 256 + Int(keyword.utf8.first!)] = true }
        candidates = table
    }

    func contains(_ name: String) -> Bool {
        let length = name.utf8.count
        guard length <= maxLength, let first = name.utf8.first, candidates[length * 256 + Int(first)] else { return false }
        return all.contains(name)
    }
}

/// Indentation strings for the usual depths, made once.
private enum Indentation {
    static let cached: [String] = (0..<16).map { String(repeating: " ", count: $0 * 4) }
}
