import RemodelCore

/// A migration that cannot be planned: a step that does not fit its schemas, a change that
/// needs a step, a missing version. Carries every problem found, with the migration file
/// (and line, when known) of each.
public struct MigrationPlanningError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String {
        diagnostics.map { diagnostic in
            var text = (diagnostic.location.map { "\($0): " } ?? "") + "error: \(diagnostic.message) [\(diagnostic.rule)]"
            if let hint = diagnostic.hint { text += "\n  hint: \(hint)" }
            return text
        }.joined(separator: "\n")
    }
}
