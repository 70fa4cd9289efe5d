import Foundation

/// A `set` step's value: text with `{property}` placeholders; `{{` and `}}` are literal
/// braces.
public struct Template: Hashable, Sendable {
    public enum Part: Hashable, Sendable {
        case text(String)
        case property(String)
    }

    public var parts: [Part]

    /// Why a template does not parse.
    public struct SyntaxError: Error, CustomStringConvertible {
        public var description: String
    }

    public init(parsing source: String) throws {
        var parts: [Part] = []
        var text = ""
        var iterator = Array(source).makeIterator()
        var lookahead: Character? = iterator.next()
        func advance() -> Character? {
            let current = lookahead
            lookahead = iterator.next()
            return current
        }
        while let character = advance() {
            switch character {
            case "{":
                if lookahead == "{" {
                    _ = advance()
                    text.append("{")
                    continue
                }
                var name = ""
                var closed = false
                while let next = advance() {
                    if next == "}" {
                        closed = true
                        break
                    }
                    name.append(next)
                }
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                guard closed, !trimmed.isEmpty else {
                    throw SyntaxError(description: "unclosed or empty placeholder in \"\(source)\": write {property}, or {{ for a literal brace")
                }
                if !text.isEmpty {
                    parts.append(.text(text))
                    text = ""
                }
                parts.append(.property(trimmed))
            case "}":
                if lookahead == "}" { _ = advance() }
                text.append("}")
            default:
                text.append(character)
            }
        }
        if !text.isEmpty { parts.append(.text(text)) }
        self.parts = parts
    }

    /// The properties the template reads.
    public var placeholders: [String] {
        parts.compactMap { if case .property(let name) = $0 { name } else { nil } }
    }

    /// The literal text, when the template has no placeholders.
    public var literalText: String? {
        guard placeholders.isEmpty else { return nil }
        return parts.map { if case .text(let text) = $0 { text } else { "" } }.joined()
    }
}
