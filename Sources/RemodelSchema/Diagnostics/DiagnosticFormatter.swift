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
        switch format {
        case .text: diagnostics.map(text(for:)).joined()
        case .json: json(for: diagnostics)
        case .github: diagnostics.map(github(for:)).joined()
        }
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
