/// Turns arbitrary schema text into Swift source text that cannot change the meaning of
/// the code around it.
public enum SwiftLiteral {
    /// A single-line string literal whose value is exactly `text`, whatever it contains:
    /// quotes, backslashes, `\(`, `"""`, newlines, NUL, invisible or bidirectional
    /// characters (those are written as `\u{…}` escapes so that they stay visible).
    public static func string(_ text: String) -> String {
        if isPlainASCII(text) { return "\"" + text + "\"" }
        var out = "\""
        var isFirst = true
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default:
                if needsEscape(scalar) || (isFirst && isCombining(scalar)) {
                    out += unicodeEscape(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            isFirst = false
        }
        return out + "\""
    }

    /// The lines of a `///` doc comment for `text`: split at every kind of line break, with
    /// control and invisible characters shown as `\u{…}` (a comment cannot hold them
    /// safely) and trailing spaces removed. A doc comment made of `///` lines has no
    /// terminator to forge, so `*/` and the like are harmless.
    public static func commentLines(_ text: String) -> [String] {
        // Fast path: printable ASCII and plain newlines only.
        if isPlainCommentText(text) {
            // One line with no trailing space (most doc comments): the text itself.
            if isPlainCommentLine(text) { return [text] }
            // Split the bytes, not the Characters: no grapheme breaking needed for ASCII.
            return text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { bytes in
                var end = bytes.endIndex
                while end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: " ") { end = bytes.index(before: end) }
                return String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
            }
        }
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            if isLineBreak(scalar) {
                lines.append(trimmedTrailingSpaces(String(current)))
                current = String.UnicodeScalarView()
            } else if scalar == "\t" {
                current.append(" ")
            } else if needsEscape(scalar) {
                current.append(contentsOf: unicodeEscape(scalar).unicodeScalars)
            } else {
                current.append(scalar)
            }
        }
        lines.append(trimmedTrailingSpaces(String(current)))
        return lines
    }

    /// One comment line for `text` (line breaks become spaces).
    public static func commentLine(_ text: String) -> String {
        commentLines(text).joined(separator: " ")
    }

    /// Printable ASCII only (no controls, no quote or backslash unless allowed): the fast path
    /// that needs no escaping.
    private static func isPlainASCII(_ text: String, allowingQuotes: Bool = false) -> Bool {
        allBytes(of: text) { byte in
            byte >= 0x20 && byte < 0x7F && (allowingQuotes || (byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")))
        }
    }

    /// Whether `text` is printable ASCII and plain newlines only: its comment lines are its
    /// lines, trailing spaces removed.
    static func isPlainCommentText(_ text: String) -> Bool {
        allBytes(of: text, satisfy: { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A })
    }

    /// Whether `text` is one comment line as it is (`commentLines(text) == [text]`): printable
    /// ASCII with no line break and no trailing space.
    static func isPlainCommentLine(_ text: String) -> Bool {
        text.utf8.last != UInt8(ascii: " ") && allBytes(of: text, satisfy: { $0 >= 0x20 && $0 < 0x7F })
    }

    /// Whether every UTF-8 byte of `text` satisfies `predicate`, read from contiguous storage
    /// (iterating `String.UTF8View` costs several times more per byte).
    private static func allBytes(of text: String, satisfy predicate: (UInt8) -> Bool) -> Bool {
        var text = text
        return text.withUTF8 { $0.allSatisfy(predicate) }
    }

    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Characters written as `\u{…}`: controls, format characters (bidirectional overrides,
    /// zero-width characters, BOM), separators, private-use and unassigned code points.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned, .surrogate:
            return true
        default:
            return false
        }
    }

    private static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: true
        default: false
        }
    }

    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    private static func trimmedTrailingSpaces(_ text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        while let last = scalars.last, last == " " { scalars.removeLast() }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
