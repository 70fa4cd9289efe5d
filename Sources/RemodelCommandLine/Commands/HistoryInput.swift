import Foundation
import RemodelCore
import RemodelMigrate
import RemodelSchema

/// The schema and version history a command works with, loaded and checked the same way by
/// every command: the schema folder, the migrations folder (its chain of files and
/// snapshots), the schema equal to the newest snapshot, and every migration planned
/// (`HistoryCheck`). Without a migrations folder the schema alone is version 1.
struct HistoryInput {
    /// The schema folder's result; `nil` when the folder does not exist.
    var schema: SchemaLoadResult?
    var loaded: MigrationHistoryLoadResult
    /// The history, when it could be read (also when the check found problems).
    var history: MigrationHistory?
    /// Where everything is written: migration steps, snapshot declarations, and for the newest
    /// version the schema folder's declarations (the files people edit) when the schema is
    /// that version's.
    var sources: HistorySources
    /// The problems loading found: the schema files first, then the migrations folder, then
    /// the schema differing from the newest snapshot.
    var loading: [Diagnostic]
    /// The problems planning every migration found (`HistoryCheck`), when the migrations
    /// folder loaded.
    var planned: [Diagnostic]

    /// Every problem found, loading first.
    var diagnostics: [Diagnostic] { loading + planned }
    var files: [Int: String] { loaded.files }
    var hasErrors: Bool { diagnostics.containsErrors }

    /// Loads and checks everything. `requireSchema`: a missing schema folder is an error.
    /// `schemaMayBeAhead`: for commands that freeze the schema as a version (`migration new`,
    /// `migration amend`), so that it may store other data than the newest snapshot: that is
    /// no error, and the newest version's declarations stay the snapshot's unless the schema
    /// equals it; nor is the schema alone made version 1 without a history.
    static func read(_ arguments: ParsedArguments, requireSchema: Bool = false, schemaMayBeAhead: Bool = false) -> HistoryInput {
        let migrationsPath = arguments.migrationsPath
        let schemasPath = arguments.schemasPath
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
                if var problem = MigrationHistoryLoader.checkSnapshotted(schema: current, schemasPath: schemasPath, history: existing, migrationsPath: migrationsPath, source: schema.source) {
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

    /// Loads, checks and prints every diagnostic; `nil` when there are errors (already
    /// printed) or nothing to work with. With `need` (why the command needs the history,
    /// e.g. to create a store from one of its versions), a failure ends with a line saying
    /// what failed, why the command depends on it and which files to fix.
    static func load(_ arguments: ParsedArguments, need: String? = nil) -> CheckedHistory? {
        let input = read(arguments)
        DiagnosticsOutput.print(input.diagnostics)
        guard !input.hasErrors else {
            if let need { Console.writeError(input.failure(arguments, need: need)) }
            return nil
        }
        guard let history = input.history else {
            Console.writeError("Error: there is no migration history in '\(arguments.migrationsPath)' and no schema in '\(arguments.schemasPath)'; run from the package folder, or pass --migrations DIR and --schemas DIR\n")
            return nil
        }
        return CheckedHistory(input: input, history: history)
    }

    /// The line after the diagnostics of a history that does not load, for a command that
    /// cannot go on without it: what failed, why it matters, and the files to fix (or, for a
    /// schema changed since the newest version, what to run).
    func failure(_ arguments: ParsedArguments, need: String) -> String {
        let errors = diagnostics.filter { $0.severity == .error }
        if let history, !errors.isEmpty, errors.allSatisfy({ $0.rule == MigrationHistoryLoader.schemaNotSnapshottedRule }) {
            let version = history.currentVersion
            let snapshot = loaded.snapshotFiles[version] ?? MigrationFolder.snapshotPath(in: arguments.migrationsPath, version: version)
            return "Error: the schema in '\(arguments.schemasPath)' is not a version of the history in '\(arguments.migrationsPath)': it changed since version \(version) (the newest snapshot, '\(snapshot)'), and \(need). "
                + "Run '\(arguments.command("migration new NAME"))' to freeze it as version \(version + 1) "
                + "(or '\(arguments.command("migration amend"))' to freeze version \(version) again, if no store has applied it yet), then run it again\n"
        }
        var files: [String] = []
        for problem in errors {
            guard var file = problem.location?.file else { continue }
            // A snapshot is written by the tool: its version's migration file is what to fix.
            if let version = loaded.snapshotFiles.first(where: { $0.value == file })?.key, let migration = loaded.files[version] { file = migration }
            if !files.contains(file) { files.append(file) }
        }
        let named = files.isEmpty ? "the problems above" : "the problems above in " + MessageText.list(files.map { "'\($0)'" })
        let what = schema.map { $0.schema == nil } == true
            ? "the schema in '\(arguments.schemasPath)' does not load"
            : "the migration history in '\(arguments.migrationsPath)' does not load"
        return "Error: \(what), and \(need). Fix \(named), check with 'remodel validate', then run it again\n"
    }
}

/// A history that loaded and passed the check, as `HistoryInput.load` returns it: commands
/// that work on stores rely on every part of it.
struct CheckedHistory {
    var input: HistoryInput
    var history: MigrationHistory

    var sources: HistorySources { input.sources }
    /// The migration file of each version.
    var files: [Int: String] { input.files }
    /// The snapshot file of each version.
    var snapshotFiles: [Int: String] { input.loaded.snapshotFiles }
}
