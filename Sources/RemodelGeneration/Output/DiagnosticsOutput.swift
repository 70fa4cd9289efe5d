import RemodelCore
import RemodelSchema

/// Prints diagnostics the way every command of `remodel` and the build plugin's tool do: text
/// on stderr (`file:line:column: error: …`, coloured on a terminal, then a summary line), JSON
/// and GitHub annotations on stdout where tools read them.
package enum DiagnosticsOutput {
    /// Prints `diagnostics` in `format`; nothing for none in text.
    package static func print(_ diagnostics: [Diagnostic], format: DiagnosticFormat = .text) {
        switch format {
        case .text:
            guard !diagnostics.isEmpty else { return }
            let formatter = DiagnosticFormatter(format: .text, colored: Console.colorsErrors)
            Console.writeError(formatter.string(for: diagnostics))
            Console.writeError(summary(of: diagnostics) + "\n")
        case .json, .github:
            Console.write(DiagnosticFormatter(format: format).string(for: diagnostics))
        }
    }

    /// `2 errors, 1 warning`.
    package static func summary(of diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        var parts: [String] = []
        if errors > 0 { parts.append(errors == 1 ? "1 error" : "\(errors) errors") }
        if warnings > 0 { parts.append(warnings == 1 ? "1 warning" : "\(warnings) warnings") }
        return parts.isEmpty ? "no problems" : parts.joined(separator: ", ")
    }
}
