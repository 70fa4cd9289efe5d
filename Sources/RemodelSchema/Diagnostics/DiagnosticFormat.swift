/// The ways diagnostics can be printed.
public enum DiagnosticFormat: String, Sendable, CaseIterable {
    /// `Schemas/Person.yaml:12:7: error: message [rule-id]`, then `note:` lines: the form
    /// compilers print, which editors and `swift build` understand.
    case text
    /// A JSON array of objects, one per diagnostic, for other tools.
    case json
    /// GitHub Actions workflow commands (`::error file=…,line=…,col=…::…`), which annotate
    /// pull requests.
    case github
}
