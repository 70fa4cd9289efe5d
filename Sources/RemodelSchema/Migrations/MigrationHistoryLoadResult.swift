import RemodelCore

/// What loading a `Migrations/` folder produced.
public struct MigrationHistoryLoadResult: Sendable {
    /// The history when the folder holds a complete, valid one; `nil` when it has errors, or
    /// when there is no folder (then the schema is version 1 and has no history).
    public var history: MigrationHistory?
    /// Every problem found, sorted by file, line and column.
    public var diagnostics: [Diagnostic]
    /// Where each step is written: `[version: [step index: location]]`, for
    /// `Migrator.stepLocations`, so that planning errors point at the step.
    public var stepLocations: [Int: [Int: SourceLocation]]
    /// The migration file of each version, for `Migrator.migrationFiles`.
    public var files: [Int: String]
    /// The snapshot file of each version.
    public var snapshotFiles: [Int: String]
    /// Whether the migrations folder exists.
    public var folderExists: Bool

    public init(
        history: MigrationHistory?, diagnostics: [Diagnostic], stepLocations: [Int: [Int: SourceLocation]] = [:],
        files: [Int: String] = [:], snapshotFiles: [Int: String] = [:], folderExists: Bool = true
    ) {
        self.history = history
        self.diagnostics = diagnostics
        self.stepLocations = stepLocations
        self.files = files
        self.snapshotFiles = snapshotFiles
        self.folderExists = folderExists
    }

    /// The schema version the folder defines: the newest migration's, 1 without a history.
    public var currentVersion: Int { history?.currentVersion ?? 1 }
}
