import RemodelCore
import RemodelSchema

/// Prints diagnostics the way every command does: text on stderr (coloured on a terminal),
/// JSON and GitHub annotations on stdout where tools read them.
enum DiagnosticsOutput {
    static func print(_ diagnostics: [Diagnostic], format: DiagnosticFormat = .text) {
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
    static func summary(of diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        var parts: [String] = []
        if errors > 0 { parts.append(errors == 1 ? "1 error" : "\(errors) errors") }
        if warnings > 0 { parts.append(warnings == 1 ? "1 warning" : "\(warnings) warnings") }
        return parts.isEmpty ? "no problems" : parts.joined(separator: ", ")
    }

    /// Loads the schema at the `--schemas` path and prints its diagnostics; returns the
    /// schema, or throws `ExitError(status: 1)` when it has errors. For commands that need a
    /// valid schema before doing anything else.
    static func loadSchema(_ arguments: ParsedArguments, format: DiagnosticFormat = .text) throws -> Schema {
        let result = SchemaLoader.load(path: arguments.schemasPath)
        print(result.diagnostics, format: format)
        guard let schema = result.schema else { throw ExitError(status: ExitStatus.failure) }
        return schema
    }
}
