import Foundation
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelSchema

extension HistoryInput {
    /// `read(schemasPath:migrationsPath:…)` on the `--schemas` and `--migrations` paths.
    package static func read(_ arguments: ParsedArguments, requireSchema: Bool = false, schemaMayBeAhead: Bool = false) -> HistoryInput {
        read(schemasPath: arguments.schemasPath, migrationsPath: arguments.migrationsPath, requireSchema: requireSchema, schemaMayBeAhead: schemaMayBeAhead)
    }

    /// Loads, checks and prints every diagnostic; `nil` when there are errors (already
    /// printed) or nothing to work with. With `need` (why the command needs the history,
    /// e.g. to create a store from one of its versions), a failure ends with a line saying
    /// what failed, why the command depends on it and which files to fix.
    package static func load(_ arguments: ParsedArguments, need: String? = nil) -> CheckedHistory? {
        let input = read(arguments)
        DiagnosticsOutput.print(input.diagnostics)
        guard !input.hasErrors else {
            if let need { Console.writeError(input.failure(arguments, need: need)) }
            return nil
        }
        guard let history = input.history else {
            Console.writeError(
                "Error: there is no migration history in '\(arguments.migrationsPath)' and no schema in '\(arguments.schemasPath)'; run from the package folder, or pass --migrations DIR and --schemas DIR\n"
            )
            return nil
        }
        return CheckedHistory(input: input, history: history)
    }

    /// The line after the diagnostics of a history that does not load, for a command that
    /// cannot go on without it: what failed, why it matters, and the files to fix (or, for a
    /// schema changed since the newest version, what to run).
    package func failure(_ arguments: ParsedArguments, need: String) -> String {
        let errors = diagnostics.filter { $0.severity == .error }
        if let history, !errors.isEmpty, errors.allSatisfy({ $0.rule == MigrationHistoryLoader.schemaNotSnapshottedRule }) {
            let version = history.currentVersion
            let snapshot = loaded.snapshotFiles[version] ?? MigrationFolder.snapshotPath(in: arguments.migrationsPath, version: version)
            return
                "Error: the schema in '\(arguments.schemasPath)' is not a version of the history in '\(arguments.migrationsPath)': it changed since version \(version) (the newest snapshot, '\(snapshot)'), and \(need). "
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
        let what =
            schema.map { $0.schema == nil } == true
            ? "the schema in '\(arguments.schemasPath)' does not load"
            : "the migration history in '\(arguments.migrationsPath)' does not load"
        return "Error: \(what), and \(need). Fix \(named), check with 'remodel validate', then run it again\n"
    }
}

/// A history that loaded and passed the check, as `HistoryInput.load` returns it: commands
/// that work on stores rely on every part of it.
package struct CheckedHistory {
    package var input: HistoryInput
    package var history: MigrationHistory

    package var sources: HistorySources { input.sources }
    /// The migration file of each version.
    package var files: [Int: String] { input.files }
    /// The snapshot file of each version.
    package var snapshotFiles: [Int: String] { input.loaded.snapshotFiles }
}
