/// A problem found in user input, with where it is, a stable rule ID users can search for,
/// and how to fix it.
public struct Diagnostic: Hashable, Sendable, Error {
    public enum Severity: String, Hashable, Sendable, Comparable {
        case error
        case warning
        case note

        private var rank: Int {
            switch self {
            case .error: 0
            case .warning: 1
            case .note: 2
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A secondary location that explains the diagnostic ("first declared here").
    public struct Note: Hashable, Sendable {
        public var message: String
        public var location: SourceLocation?

        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    public var severity: Severity
    /// The stable, kebab-case identifier of the rule, e.g. `unknown-type`.
    public var rule: String
    /// What is wrong, lower-case, without a trailing period.
    public var message: String
    public var location: SourceLocation?
    /// How to fix it, e.g. "did you mean 'Dog'?".
    public var hint: String?
    public var notes: [Note]
    /// The schema version of a migration history the problem belongs to (the version a
    /// planning problem plans, even when it points at the declaration in the version before);
    /// `nil` when it belongs to none, or the code that found it does not say.
    public var version: Int?

    public init(
        _ severity: Severity,
        rule: String,
        _ message: String,
        at location: SourceLocation?,
        hint: String? = nil,
        notes: [Note] = [],
        version: Int? = nil
    ) {
        self.severity = severity
        self.rule = rule
        self.message = message
        self.location = location
        self.hint = hint
        self.notes = notes
        self.version = version
    }

    public static func error(_ rule: String, _ message: String, at location: SourceLocation?, hint: String? = nil, notes: [Note] = [], version: Int? = nil) -> Diagnostic {
        Diagnostic(.error, rule: rule, message, at: location, hint: hint, notes: notes, version: version)
    }

    public static func warning(_ rule: String, _ message: String, at location: SourceLocation?, hint: String? = nil, notes: [Note] = [], version: Int? = nil) -> Diagnostic {
        Diagnostic(.warning, rule: rule, message, at: location, hint: hint, notes: notes, version: version)
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// Sorted by file, line and column; diagnostics without a location come first.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated().sorted { a, b in
            switch (a.element.location, b.element.location) {
            case (nil, nil): return a.offset < b.offset
            case (nil, _): return true
            case (_, nil): return false
            case (let l?, let r?): return l == r ? a.offset < b.offset : l < r
            }
        }.map(\.element)
    }
}

/// Thrown when input has errors; carries every diagnostic found, not just the first.
public struct DiagnosticsError: Error, Sendable {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }
}
