import RemodelCore

/// What loading a `Migrations/` folder produced.
public struct MigrationHistoryLoadResult: Sendable {
    /// The history when the folder holds a complete, valid one; `nil` when it has errors, or
    /// when there is no folder (then the schema is version 1 and has no history).
    public var history: MigrationHistory?
    /// Every problem found, sorted by file, line and column.
    public var diagnostics: [Diagnostic]
    /// Where every migration step and every snapshot declaration is written, for
    /// `Migrator.sources`, so that planning errors point at the step or schema line.
    public var sources: HistorySources
    /// The migration file of each version.
    public var files: [Int: String]
    /// The snapshot file of each version.
    public var snapshotFiles: [Int: String]
    /// Whether the migrations folder exists.
    public var folderExists: Bool
    /// The changes each version's migration file accepts (`accept:`), for `remodel check`.
    public var acceptances: [Int: [ChangeAcceptance]]
    /// The SHA-256 of each migration file and snapshot as read (by path), so that checking
    /// remodel.sum need not read them again.
    public var fileHashes: [String: String]
    /// In a history `remodel migration squash` folded: the first version its baseline folds.
    public var squashedFrom: Int?

    public init(
        history: MigrationHistory?, diagnostics: [Diagnostic], sources: HistorySources = HistorySources(),
        files: [Int: String] = [:], snapshotFiles: [Int: String] = [:], folderExists: Bool = true,
        acceptances: [Int: [ChangeAcceptance]] = [:], fileHashes: [String: String] = [:]
    ) {
        self.acceptances = acceptances
        self.fileHashes = fileHashes
        self.history = history
        self.diagnostics = diagnostics
        self.sources = sources
        self.files = files
        self.snapshotFiles = snapshotFiles
        self.folderExists = folderExists
    }

    /// The schema version the folder defines: the newest migration's, 1 without a history.
    public var currentVersion: Int { history?.currentVersion ?? 1 }
}
