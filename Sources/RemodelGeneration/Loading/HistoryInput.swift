import Foundation
import RemodelCore
import RemodelPlanning
import RemodelSchema

/// The schema and version history a command works with, loaded and checked the same way by
/// every command of `remodel` and by the build plugin's tool: the schema folder, the
/// migrations folder (its chain of files and snapshots), the schema equal to the newest
/// snapshot, and every migration planned (`HistoryCheck`). Without a migrations folder the
/// schema alone is version 1.
package struct HistoryInput {
    /// The schema folder's result; `nil` when the folder does not exist.
    package var schema: SchemaLoadResult?
    /// The migrations folder's result.
    package var loaded: MigrationHistoryLoadResult
    /// The history, when it could be read (also when the check found problems).
    package var history: MigrationHistory?
    /// Where everything is written: migration steps, snapshot declarations, and for the newest
    /// version the schema folder's declarations (the files people edit) when the schema is
    /// that version's.
    package var sources: HistorySources
    /// The problems loading found: the schema files first, then the migrations folder, then
    /// the schema differing from the newest snapshot.
    package var loading: [Diagnostic]
    /// The problems planning every migration found (`HistoryCheck`), when the migrations
    /// folder loaded.
    package var planned: [Diagnostic]

    /// Every problem found, loading first.
    package var diagnostics: [Diagnostic] { loading + planned }
    /// The migration file of each version.
    package var files: [Int: String] { loaded.files }
    /// Whether any problem is an error.
    package var hasErrors: Bool { diagnostics.containsErrors }

    /// Loads and checks the schema at `schemasPath` and the history at `migrationsPath`, both
    /// as the user wrote them (diagnostics name files so). `requireSchema`: a missing schema
    /// folder is an error. `schemaMayBeAhead`: for commands that freeze the schema as a
    /// version (`migration new`, `migration amend`), so that it may store other data than the
    /// newest snapshot: that is no error, and the newest version's declarations stay the
    /// snapshot's unless the schema equals it; nor is the schema alone made version 1 without
    /// a history.
    package static func read(schemasPath: String, migrationsPath: String, requireSchema: Bool = false, schemaMayBeAhead: Bool = false) -> HistoryInput {
        let loaded = MigrationHistoryLoader.load(migrations: migrationsPath)
        var loading: [Diagnostic] = []
        var schema: SchemaLoadResult?
        if requireSchema || FileManager.default.fileExists(atPath: schemasPath) {
            let result = SchemaLoader.load(path: schemasPath)
            loading += result.diagnostics
            schema = result
        }
        loading += loaded.diagnostics
        var history = loaded.history
        var sources = loaded.sources
        if let schema, let current = schema.schema {
            if let existing = history {
                if var problem = MigrationHistoryLoader.checkSnapshotted(
                    schema: current, schemasPath: schemasPath, history: existing, migrationsPath: migrationsPath, source: schema.source)
                {
                    if !schemaMayBeAhead {
                        problem.hint = (problem.hint ?? "") + "; or, if '\(migrationsPath)' belongs to another schema, pass that schema with --schemas DIR"
                        loading.append(problem)
                    }
                } else {
                    sources.schemas[existing.currentVersion] = schema.source
                }
            } else if !schemaMayBeAhead, !loaded.diagnostics.containsErrors {
                history = MigrationHistory(snapshots: [current], migrations: [Migration(version: 1, name: "initial", steps: [], checksum: "")])
            }
        }
        var planned: [Diagnostic] = []
        if let history, !loaded.diagnostics.containsErrors {
            planned = HistoryCheck.diagnostics(of: history, sources: sources)
        }
        return HistoryInput(schema: schema, loaded: loaded, history: history, sources: sources, loading: loading, planned: planned)
    }
}
