import RemodelCore

/// A change a migration file declares intended, under `accept:`, so that `remodel check`
/// lets it pass: the class of change, what it is about and why, written where reviewers read
/// the migration.
///
/// ```yaml
/// accept:
///   destructive:
///     Person.name: its values move into firstName and lastName (the split step reads them first)
/// ```
public struct ChangeAcceptance: Hashable, Sendable {
    /// The classes of change a migration can accept, as they are written under `accept:`.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Stored data is deleted: a removed type or property, objects no one holds when a
        /// type becomes embedded.
        case destructive
        /// Whether every value survives depends on the data: a narrowing conversion, a
        /// property becoming required, a new primary key.
        case dataDependent = "data-dependent"
        /// The generated Swift API changes incompatibly: code using it must change.
        case breaking
        /// On PostgreSQL, the default mode locks or rewrites a table, or breaks instances of
        /// the previous version (`remodel check --engine postgresql`).
        case locking
    }

    public var kind: Kind
    /// `Type`, `Type.property` or `Enum.case`, as the finding names it.
    public var subject: String
    /// Why the change is intended, for reviewers.
    public var reason: String
    /// Where the subject is written in the migration file.
    public var location: SourceLocation

    public init(kind: Kind, subject: String, reason: String, location: SourceLocation) {
        self.kind = kind
        self.subject = subject
        self.reason = reason
        self.location = location
    }
}
