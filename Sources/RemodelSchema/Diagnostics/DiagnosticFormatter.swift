import Foundation
import RemodelCore

/// Renders diagnostics as text, JSON or GitHub annotations. Every command that reports
/// problems in user input prints them through this type, so they all look alike.
public struct DiagnosticFormatter: Sendable {
    public var format: DiagnosticFormat
    /// Whether to colour text output with ANSI escapes (only on a terminal).
    public var colored: Bool

    public init(format: DiagnosticFormat = .text, colored: Bool = false) {
        self.format = format
        self.colored = colored
    }

    /// The whole report for `diagnostics`, ending with a newline unless it is empty (text and
    /// GitHub) or `[]` (JSON).
    public func string(for diagnostics: [Diagnostic]) -> String {
        let shown = diagnostics.map(Self.displayable)
        return switch format {
        case .text: shown.map(text(for:)).joined()
        case .json: json(for: shown)
        case .github: shown.map(github(for:)).joined()
        }
    }

    // MARK: - What input may put in a message

    /// The longest message part shown whole; a longer one (a value quoted from a huge file)
    /// keeps its start and end.
    static let maximumShownLength = 2_000

    /// `diagnostic` as it can be shown: control characters (an escape sequence would drive
    /// the terminal) and Unicode's bidirectional controls (which reorder what is shown) in
    /// file names, messages, hints and notes written as `\u{1B}`, and each part cut to
    /// `maximumShownLength` characters.
    static func displayable(_ diagnostic: Diagnostic) -> Diagnostic {
        var shown = diagnostic
        shown.message = displayable(diagnostic.message)
        shown.hint = diagnostic.hint.map(displayable)
        shown.location = diagnostic.location.map(displayable)
        shown.notes = diagnostic.notes.map { note in
            var note = note
            note.message = displayable(note.message)
            note.location = note.location.map(displayable)
            return note
        }
        return shown
    }

    private static func displayable(_ location: SourceLocation) -> SourceLocation {
        var location = location
        location.file = displayable(location.file)
        return location
    }

    static func displayable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isControl = (value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(value)
            let isBidi = (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F || value == 0x061C
            if isControl || isBidi {
                out += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        guard out.count > maximumShownLength else { return out }
        let head = out.prefix(maximumShownLength * 3 / 4)
        let tail = out.suffix(maximumShownLength / 4)
        return head + " … (\(out.count - head.count - tail.count) characters not shown) … " + tail
    }

    // MARK: - Text

    /// One diagnostic as compiler-style lines: the diagnostic, its hint, then its notes.
    public func text(for diagnostic: Diagnostic) -> String {
        var out = line(diagnostic.location, severity: diagnostic.severity.rawValue, message: diagnostic.message, rule: diagnostic.rule)
        if let hint = diagnostic.hint {
            out += line(diagnostic.location, severity: "note", message: hint, rule: nil)
        }
        for note in diagnostic.notes {
            out += line(note.location, severity: "note", message: note.message, rule: nil)
        }
        return out
    }

    private func line(_ location: SourceLocation?, severity: String, message: String, rule: String?) -> String {
        var out = ""
        if let location { out += paint("\(location): ", "1") }
        // Notes in bold with the terminal's own foreground colour (`1;39`), as swiftc prints
        // them: readable on dark and light themes alike (bold black, `1;30`, vanishes on dark).
        let color =
            switch severity {
            case "error": "1;31"
            case "warning": "1;35"
            default: "1;39"
            }
        out += paint("\(severity):", color) + " "
        out += severity == "note" ? message : paint(message, "1")
        if let rule { out += " [\(rule)]" }
        return out + "\n"
    }

    private func paint(_ text: String, _ code: String) -> String {
        colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    // MARK: - JSON

    private struct JSONNote: Encodable {
        var message: String
        var file: String?
        var line: Int?
        var column: Int?
    }

    private struct JSONDiagnostic: Encodable {
        var severity: String
        var rule: String
        var message: String
        var file: String?
        var line: Int?
        var column: Int?
        var hint: String?
        var notes: [JSONNote]
    }

    private func json(for diagnostics: [Diagnostic]) -> String {
        guard !diagnostics.isEmpty else { return "[]\n" }
        let values = diagnostics.map { diagnostic in
            JSONDiagnostic(
                severity: diagnostic.severity.rawValue,
                rule: diagnostic.rule,
                message: diagnostic.message,
                file: diagnostic.location?.file,
                line: diagnostic.location?.line,
                column: diagnostic.location?.column,
                hint: diagnostic.hint,
                notes: diagnostic.notes.map { JSONNote(message: $0.message, file: $0.location?.file, line: $0.location?.line, column: $0.location?.column) }
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(values) else { return "[]\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // MARK: - GitHub

    /// One diagnostic as a GitHub Actions workflow command; the hint and notes follow the
    /// message on separate lines of the annotation.
    public func github(for diagnostic: Diagnostic) -> String {
        let command =
            switch diagnostic.severity {
            case .error: "error"
            case .warning: "warning"
            case .note: "notice"
            }
        var properties: [String] = []
        if let location = diagnostic.location {
            properties += ["file=\(escapeProperty(location.file))", "line=\(location.line)", "col=\(location.column)"]
        }
        properties.append("title=\(escapeProperty(diagnostic.rule))")
        var message = diagnostic.message
        if let hint = diagnostic.hint { message += "\n" + hint }
        for note in diagnostic.notes {
            message += "\n" + (note.location.map { "\($0): " } ?? "") + note.message
        }
        return "::\(command) \(properties.joined(separator: ","))::\(escapeData(message))\n"
    }

    private func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private func escapeProperty(_ text: String) -> String {
        escapeData(text)
            .replacingOccurrences(of: ":", with: "%3A")
            .replacingOccurrences(of: ",", with: "%2C")
    }
}
