import Foundation
import RemodelCheck
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelSchema

/// `remodel diff [FROM] [TO]`: what changed between two schemas.
struct DiffCommand: Command {
    let name = "diff"
    let abstract = "Show what changed between two versions, snapshot files or schema folders, and the plan between versions."
    let discussion = """
        FROM and TO are each a version of the history (a number: 2), a snapshot or schema file, \
        or a schema folder. TO defaults to the schema folder (--schemas), FROM to the newest \
        version, so 'remodel diff' shows what the next 'remodel migration new' would freeze. Each \
        change is shown with its class (additive, data-dependent, destructive) and whether it \
        breaks the generated Swift API; between two versions (FROM before TO) also the plan \
        'remodel migrate' runs, with its statements. --format json prints the same for tools. \
        Exit status: 0 shown (changes or none; with --exit-code, 1 when there are changes), 1 a \
        schema or the history does not load, 64 usage error.
        """
    let arguments = [
        ArgumentSpec("FROM", help: "A version number, a schema file or a schema folder. Default: the newest version.", optional: true),
        ArgumentSpec("TO", help: "A version number, a schema file or a schema folder. Default: the schema folder (--schemas).", optional: true),
    ]
    static let format = OptionSpec.option("format", value: "FORMAT", default: "text", allowed: ["text", "json"], help: "Text for people, or JSON for tools.")
    static let exitCode = OptionSpec.flag("exit-code", help: "Exit 1 when the two differ (as 'git diff --exit-code').")
    let options: [OptionSpec] = [CommonOptions.schemas, CommonOptions.migrations, DiffCommand.format, DiffCommand.exitCode]

    /// One side of the comparison.
    private struct Side {
        var label: String
        var schema: Schema
        var version: Int?
    }

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let positionals = arguments.positionals
        let wantsHistory = positionals.count < 2 || positionals.contains { Int($0) != nil }
        let loaded = wantsHistory ? MigrationHistoryLoader.load(migrations: arguments.migrationsPath) : MigrationHistoryLoadResult(history: nil, diagnostics: [])
        guard let from = try side(positionals.first, default: .newest, loaded: loaded, arguments: arguments),
              let to = try side(positionals.count > 1 ? positionals[1] : nil, default: .schemas, loaded: loaded, arguments: arguments) else {
            return ExitStatus.failure
        }
        var plan: MigrationPlan?
        var renames = SchemaDiff.Renames()
        if let history = loaded.history, let old = from.version, let new = to.version, old < new {
            do {
                // `$now` as a migration run now would give it, as `migrate --dry-run` shows it.
                plan = try MigrationPlanner(history: history, customSteps: history.customStepNames, sources: loaded.sources)
                    .plan(from: old, to: new, now: Date())
                renames = SchemaComparison.renames(through: plan!)
            } catch let error as MigrationPlanningError {
                DiagnosticsOutput.print(error.diagnostics)
                Console.writeError("Error: versions \(old) to \(new) cannot be planned (the problems above); the changes are shown without the plan, renames matched by name and renamedFrom only\n")
            }
        }
        var comparison = SchemaComparison(from: from.label, old: from.schema, to: to.label, new: to.schema, renames: renames, plan: plan)
        if from.version == nil || to.version == nil {
            comparison.note = "renames are matched by name and renamedFrom only: a schema file or folder has no migration steps to follow"
        }
        Console.write(arguments.value(Self.format) == "json" ? comparison.json : comparison.text)
        return arguments.flag(Self.exitCode) && !comparison.entries.isEmpty ? ExitStatus.failure : ExitStatus.success
    }

    private enum Default { case newest, schemas }

    /// The schema an operand names; `nil` after printing why it does not load.
    private func side(_ operand: String?, default fallback: Default, loaded: MigrationHistoryLoadResult, arguments: ParsedArguments) throws -> Side? {
        let migrations = arguments.migrationsPath
        func history() -> MigrationHistory? {
            guard let history = loaded.history else {
                DiagnosticsOutput.print(loaded.diagnostics)
                if loaded.diagnostics.containsErrors {
                    Console.writeError("Error: the migration history in '\(migrations)' does not load (the problems above); fix it and check with 'remodel validate'\n")
                }
                return nil
            }
            return history
        }
        guard let operand else {
            switch fallback {
            case .newest:
                guard loaded.folderExists, loaded.history != nil || loaded.diagnostics.containsErrors else {
                    throw UsageError("there is no migration history in '\(migrations)' to compare with: pass FROM (a schema file or folder), or --migrations DIR")
                }
                guard let history = history() else { return nil }
                return Side(label: "version \(history.currentVersion)", schema: history.snapshots.last!, version: history.currentVersion)
            case .schemas:
                return try schema(at: arguments.schemasPath, label: "'\(arguments.schemasPath)'")
            }
        }
        if let version = Int(operand) {
            guard loaded.folderExists else { throw UsageError("'\(operand)' names a version, but there is no migration history in '\(migrations)'; pass --migrations DIR") }
            guard let history = history() else { return nil }
            guard let schema = history.schema(at: version) else {
                throw UsageError("version \(version) does not exist: the history in '\(migrations)' has versions 1 to \(history.currentVersion)")
            }
            return Side(label: "version \(version)", schema: schema, version: version)
        }
        return try schema(at: operand, label: "'\(operand)'")
    }

    private func schema(at path: String, label: String) throws -> Side? {
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError("'\(path)' is neither a version number nor a schema file or folder")
        }
        let result = SchemaLoader.load(path: path)
        guard let schema = result.schema else {
            DiagnosticsOutput.print(result.diagnostics)
            Console.writeError("Error: the schema in '\(path)' does not load (the problems above)\n")
            return nil
        }
        return Side(label: label, schema: schema, version: nil)
    }
}
