import Foundation
import RemodelCore
import RemodelSchema

/// The migration history a store command works with: `--migrations` loaded and checked
/// against `--schemas` (which must be its newest snapshot). Without a migrations folder the
/// schema alone is version 1.
struct HistoryInput {
    var history: MigrationHistory
    var stepLocations: [Int: [Int: SourceLocation]]
    var files: [Int: String]

    /// Loads and checks the history, printing every diagnostic; `nil` when it has errors.
    static func load(_ arguments: ParsedArguments) -> HistoryInput? {
        let migrationsPath = arguments.migrationsPath
        let schemasPath = arguments.schemasPath
        let loaded = MigrationHistoryLoader.load(migrations: migrationsPath)
        DiagnosticsOutput.print(loaded.diagnostics)
        if loaded.diagnostics.containsErrors { return nil }
        var history = loaded.history
        if FileManager.default.fileExists(atPath: schemasPath) {
            let schema = SchemaLoader.load(path: schemasPath)
            DiagnosticsOutput.print(schema.diagnostics)
            guard let current = schema.schema else { return nil }
            if let history {
                if var problem = MigrationHistoryLoader.checkSnapshotted(schema: current, schemasPath: schemasPath, history: history, migrationsPath: migrationsPath) {
                    problem.hint = (problem.hint ?? "") + "; or, if '\(migrationsPath)' belongs to another schema, pass that schema with --schemas DIR"
                    DiagnosticsOutput.print([problem])
                    return nil
                }
            } else {
                history = MigrationHistory(snapshots: [current], migrations: [Migration(version: 1, name: "initial", steps: [], checksum: "")])
            }
        }
        guard let history else {
            Console.writeError("Error: there is no migration history in '\(migrationsPath)' and no schema in '\(schemasPath)'; run from the package folder, or pass --migrations DIR and --schemas DIR\n")
            return nil
        }
        return HistoryInput(history: history, stepLocations: loaded.stepLocations, files: loaded.files)
    }
}
