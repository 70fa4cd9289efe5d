import RemodelCore

/// Collects the diagnostics of one load, so that every stage can report all the problems it
/// finds and carry on.
package final class DiagnosticLog {
    package private(set) var diagnostics: [Diagnostic] = []

    package init() {}

    package func add(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    package func add(contentsOf diagnostics: [Diagnostic]) {
        self.diagnostics += diagnostics
    }

    package func error(_ rule: String, _ message: String, at location: SourceLocation?, hint: String? = nil, notes: [Diagnostic.Note] = []) {
        diagnostics.append(.error(rule, message, at: location, hint: hint, notes: notes))
    }

    package func warning(_ rule: String, _ message: String, at location: SourceLocation?, hint: String? = nil, notes: [Diagnostic.Note] = []) {
        diagnostics.append(.warning(rule, message, at: location, hint: hint, notes: notes))
    }

    package var hasErrors: Bool { diagnostics.containsErrors }
}
