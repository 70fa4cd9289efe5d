/// Rewrites the declared type of one column in the text of a `CREATE TABLE` statement, leaving
/// every other character as it was: what `sqlite_schema` holds for the column after a retype in
/// place (`TableDefinitionNormalizer.retypeColumn`).
///
/// The text is split with SQLite's lexical rules (quoted identifiers in `"…"`, `` `…` `` and
/// `[…]`, strings in `'…'`, comments), so names and defaults that contain commas, parentheses or
/// keywords are read as the tokens they are. A column's declared type is the run of names (and
/// one parenthesised size, `VARCHAR(10)`) between its name and its first constraint.
package enum DeclaredTypeEditor {
    /// `sql` with `column`'s declared type replaced by `type`; `nil` when the text has no such
    /// column or cannot be read as a table definition.
    package static func replacingType(of column: String, in sql: String, with type: String) -> String? {
        let text = Array(sql.utf8)
        guard let tokens = tokenize(text), let open = tokens.firstIndex(where: { $0.kind == .punctuation(UInt8(ascii: "(")) }) else { return nil }
        // The column definitions and table constraints: top-level items between the parentheses.
        var items: [Range<Int>] = []
        var depth = 0
        var start = open + 1
        var closed = false
        for index in (open + 1)..<tokens.count {
            switch tokens[index].kind {
            case .punctuation(UInt8(ascii: "(")): depth += 1
            case .punctuation(UInt8(ascii: ")")) where depth > 0: depth -= 1
            case .punctuation(UInt8(ascii: ")")):
                items.append(start..<index)
                closed = true
            case .punctuation(UInt8(ascii: ",")) where depth == 0:
                items.append(start..<index)
                start = index + 1
            default: break
            }
            if closed { break }
        }
        guard closed else { return nil }
        for item in items where !item.isEmpty {
            let first = tokens[item.lowerBound]
            guard case .name(let quoted) = first.kind else { continue }
            if !quoted && tableConstraintKeywords.contains(first.uppercased(in: text)) { continue }
            guard first.unquoted(in: text).lowercased() == column.lowercased() else { continue }
            // The declared type: names, then at most one parenthesised size, up to a constraint.
            var end = item.lowerBound + 1
            while end < item.upperBound, case .name(let quoted) = tokens[end].kind, quoted || !columnConstraintKeywords.contains(tokens[end].uppercased(in: text)) {
                end += 1
            }
            if end > item.lowerBound + 1, end < item.upperBound, tokens[end].kind == .punctuation(UInt8(ascii: "(")) {
                guard let close = tokens[end..<item.upperBound].firstIndex(where: { $0.kind == .punctuation(UInt8(ascii: ")")) }) else { return nil }
                end = close + 1
            }
            let typeTokens = (item.lowerBound + 1)..<end
            let replaced: Range<Int>
            let replacement: String
            if typeTokens.isEmpty {
                replaced = first.range.upperBound..<first.range.upperBound
                replacement = " " + type
            } else {
                replaced = tokens[typeTokens.lowerBound].range.lowerBound..<tokens[typeTokens.upperBound - 1].range.upperBound
                replacement = type
            }
            return String(decoding: text[..<replaced.lowerBound], as: UTF8.self) + replacement + String(decoding: text[replaced.upperBound...], as: UTF8.self)
        }
        return nil
    }

    /// Words that start a table constraint rather than a column definition.
    private static let tableConstraintKeywords: Set<String> = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]
    /// Words that end a column's declared type: the start of a column constraint.
    private static let columnConstraintKeywords: Set<String> = [
        "CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE", "REFERENCES", "GENERATED", "AS",
    ]

    private struct Token {
        enum Kind: Equatable {
            /// A bare or quoted name (keywords are bare names).
            case name(quoted: Bool)
            case string
            case number
            case punctuation(UInt8)
        }

        var kind: Kind
        var range: Range<Int>

        func uppercased(in text: [UInt8]) -> String {
            String(decoding: text[range], as: UTF8.self).uppercased()
        }

        /// The name without its quotes, doubled quote characters read as one.
        func unquoted(in text: [UInt8]) -> String {
            guard case .name(true) = kind else { return String(decoding: text[range], as: UTF8.self) }
            let close = text[range.upperBound - 1]
            var bytes: [UInt8] = []
            var index = range.lowerBound + 1
            while index < range.upperBound - 1 {
                bytes.append(text[index])
                index += text[index] == close && close != UInt8(ascii: "]") ? 2 : 1
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The tokens of `text` without whitespace and comments; `nil` for an unterminated quote or
    /// comment.
    private static func tokenize(_ text: [UInt8]) -> [Token]? {
        var tokens: [Token] = []
        var index = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        /// The end of a quoted token opened at `start`, a doubled closing character escaping it.
        func quoted(from start: Int, closing: UInt8) -> Int? {
            var position = start + 1
            while position < text.count {
                if text[position] == closing {
                    if closing != UInt8(ascii: "]"), position + 1 < text.count, text[position + 1] == closing {
                        position += 2
                        continue
                    }
                    return position + 1
                }
                position += 1
            }
            return nil
        }
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0c:
                index += 1
            case UInt8(ascii: "-") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "-"):
                while index < text.count && text[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < text.count && text[index + 1] == UInt8(ascii: "*"):
                var position = index + 2
                while position + 1 < text.count && !(text[position] == UInt8(ascii: "*") && text[position + 1] == UInt8(ascii: "/")) { position += 1 }
                guard position + 1 < text.count else { return nil }
                index = position + 2
            case UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
                let closing = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                guard let end = quoted(from: index, closing: closing) else { return nil }
                tokens.append(Token(kind: .name(quoted: true), range: index..<end))
                index = end
            case UInt8(ascii: "'"):
                guard let end = quoted(from: index, closing: byte) else { return nil }
                tokens.append(Token(kind: .string, range: index..<end))
                index = end
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                var end = index + 1
                while end < text.count && (isNameByte(text[end]) || text[end] == UInt8(ascii: ".")) { end += 1 }
                tokens.append(Token(kind: .number, range: index..<end))
                index = end
            default:
                guard isNameByte(byte) else {
                    tokens.append(Token(kind: .punctuation(byte), range: index..<(index + 1)))
                    index += 1
                    continue
                }
                var end = index + 1
                while end < text.count && isNameByte(text[end]) { end += 1 }
                tokens.append(Token(kind: .name(quoted: false), range: index..<end))
                index = end
            }
        }
        return tokens
    }
}
