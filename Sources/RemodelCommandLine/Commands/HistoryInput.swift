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
    /// version the schema folder's declarations (the files people edit).
    var sources: HistorySources
    /// Every problem found, schema files first.
    var diagnostics: [Diagnostic]

    var files: [Int: String] { loaded.files }
    var hasErrors: Bool { diagnostics.containsErrors }

    /// Loads and checks everything. `requireSchema`: a missing schema folder is an error.
    static func read(_ arguments: ParsedArguments, requireSchema: Bool = false) -> HistoryInput {
        let migrationsPath = arguments.migrationsPath
        let schemasPath = arguments.schemasPath
        let loaded = MigrationHistoryLoader.load(migrations: migrationsPath)
        var diagnostics: [Diagnostic] = []
        var schema: SchemaLoadResult?
        if requireSchema || FileManager.default.fileExists(atPath: schemasPath) {
            let result = SchemaLoader.load(path: schemasPath)
            diagnostics += result.diagnostics
            schema = result
        }
        diagnostics += loaded.diagnostics
        var history = loaded.history
        var sources = loaded.sources
        if let current = schema?.schema {
            if let existing = history {
                if var problem = MigrationHistoryLoader.checkSnapshotted(schema: current, schemasPath: schemasPath, history: existing, migrationsPath: migrationsPath) {
                    problem.hint = (problem.hint ?? "") + "; or, if '\(migrationsPath)' belongs to another schema, pass that schema with --schemas DIR"
                    diagnostics.append(problem)
                } else {
                    sources.schemas[existing.currentVersion] = schema!.source
                }
            } else if !loaded.diagnostics.containsErrors {
                history = MigrationHistory(snapshots: [current], migrations: [Migration(version: 1, name: "initial", steps: [], checksum: "")])
            }
        }
        if let history, !loaded.diagnostics.containsErrors {
            diagnostics += HistoryCheck.diagnostics(of: history, sources: sources)
        }
        return HistoryInput(schema: schema, loaded: loaded, history: history, sources: sources, diagnostics: diagnostics)
    }

    /// Loads, checks and prints every diagnostic; `nil` when there are errors (already
    /// printed) or nothing to work with. With `need` (why the command needs the history,
    /// e.g. to create a store from one of its versions), a failure ends with a line saying
    /// what failed, why the command depends on it and which files to fix.
    static func load(_ arguments: ParsedArguments, need: String? = nil) -> HistoryInput? {
        let input = read(arguments)
        DiagnosticsOutput.print(input.diagnostics)
        guard !input.hasErrors else {
            if let need { Console.writeError(input.failure(arguments, need: need)) }
            return nil
        }
        guard input.history != nil else {
            Console.writeError("Error: there is no migration history in '\(arguments.migrationsPath)' and no schema in '\(arguments.schemasPath)'; run from the package folder, or pass --migrations DIR and --schemas DIR\n")
            return nil
        }
        return input
    }

    /// The line after the diagnostics of a history that does not load, for a command that
    /// cannot go on without it: what failed, why it matters, and the files to fix.
    func failure(_ arguments: ParsedArguments, need: String) -> String {
        var files: [String] = []
        for problem in diagnostics where problem.severity == .error {
            guard var file = problem.location?.file else { continue }
            // A snapshot is written by the tool: its version's migration file is what to fix.
            if let version = loaded.snapshotFiles.first(where: { $0.value == file })?.key, let migration = loaded.files[version] { file = migration }
            if !files.contains(file) { files.append(file) }
        }
        let named = files.isEmpty ? "the problems above" : "the problems above in " + DiagnosticsOutput.list(files.map { "'\($0)'" })
        let what = schema.map { $0.schema == nil } == true
            ? "the schema in '\(arguments.schemasPath)' does not load"
            : "the migration history in '\(arguments.migrationsPath)' does not load"
        return "Error: \(what), and \(need). Fix \(named), check with 'remodel validate', then run it again\n"
    }
}
