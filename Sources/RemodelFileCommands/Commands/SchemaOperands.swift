import Foundation
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelSchema

/// The schemas a command names on its command line, as `remodel diff` and `remodel diagram`
/// read them: a version of the history (a number: `2`), a snapshot or schema file, or a
/// schema folder; and, between two versions, the plan that runs from one to the other and
/// the renames it follows. The history (`--migrations`) is loaded once, when an operand
/// needs it.
package final class SchemaOperands {
    /// One schema an operand names, with how messages and titles call it.
    package struct Side {
        /// `version 2`, `'Schemas'`.
        package var label: String
        package var schema: Schema
        /// The version of the history it is, when the operand named one.
        package var version: Int?
    }

    /// What an operand left out stands for.
    package enum Default {
        /// The newest version of the history.
        case newest
        /// The schema folder (`--schemas`).
        case schemas
    }

    /// What is known between two sides: the plan from one version to a later one (when it can
    /// be planned), the renames a comparison follows, and a note when they are only those
    /// the schemas themselves state.
    package struct Between {
        package var plan: MigrationPlan?
        package var renames = SchemaDiff.Renames()
        package var note: String?
    }

    private let arguments: ParsedArguments
    private lazy var loaded = MigrationHistoryLoader.load(migrations: arguments.migrationsPath)

    package init(_ arguments: ParsedArguments) {
        self.arguments = arguments
    }

    /// The schema `operand` names (or `fallback` stands for); `nil` after printing why it does
    /// not load. Throws a `UsageError` for an operand that names nothing.
    package func side(_ operand: String?, default fallback: Default) throws -> Side? {
        let migrations = arguments.migrationsPath
        guard let operand else {
            switch fallback {
            case .newest:
                guard loaded.folderExists, loaded.history != nil || loaded.diagnostics.containsErrors else {
                    throw UsageError("there is no migration history in '\(migrations)' to compare with: pass FROM (a schema file or folder), or --migrations DIR")
                }
                guard let history = history() else { return nil }
                return Side(label: "version \(history.currentVersion)", schema: history.snapshots.last!, version: history.currentVersion)
            case .schemas:
                guard FileManager.default.fileExists(atPath: arguments.schemasPath) else {
                    throw UsageError("there is no schema file or folder at '\(arguments.schemasPath)': run from the package folder, or pass --schemas DIR")
                }
                return try schema(at: arguments.schemasPath)
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
        return try schema(at: operand)
    }

    /// Between two versions, FROM before TO: the plan `remodel migrate` runs and the renames
    /// across it; FROM after TO: the renames of the plan from TO to FROM, seen backwards (a
    /// plan that fails is printed, and the renames are matched by name and `renamedFrom`
    /// only). Between anything else, the note that says renames are matched so.
    package func between(_ from: Side, _ to: Side) throws -> Between {
        var result = Between()
        if let first = from.version, let second = to.version, first != second, let history = loaded.history {
            let (old, new) = (min(first, second), max(first, second))
            do {
                // `$now` as a migration run now would give it, as `migrate --dry-run` shows it.
                let plan = try MigrationPlanner(history: history, customSteps: history.customStepNames, sources: loaded.sources)
                    .plan(from: old, to: new, now: Date())
                if first < second {
                    result.plan = plan
                    result.renames = plan.renamesAcrossVersions
                } else {
                    result.renames = plan.renamesAcrossVersions.reversed
                }
            } catch let error as MigrationPlanningError {
                DiagnosticsOutput.print(error.diagnostics)
                Console.writeError(
                    "Warning: versions \(old) to \(new) cannot be planned (the problems above); the changes are shown without the plan, renames matched by name and renamedFrom only\n"
                )
            }
        }
        if from.version == nil || to.version == nil {
            result.note = "renames are matched by name and renamedFrom only: a schema file or folder has no migration steps to follow"
        }
        return result
    }

    /// The history, or `nil` after printing why it does not load.
    private func history() -> MigrationHistory? {
        guard let history = loaded.history else {
            DiagnosticsOutput.print(loaded.diagnostics)
            if loaded.diagnostics.containsErrors {
                Console.writeError("Error: the migration history in '\(arguments.migrationsPath)' does not load (the problems above); fix it and check with 'remodel validate'\n")
            }
            return nil
        }
        return history
    }

    /// The schema file or folder at `path`; `nil` after printing why it does not load.
    private func schema(at path: String) throws -> Side? {
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError("'\(path)' is neither a version number nor a schema file or folder")
        }
        let result = SchemaLoader.load(path: path)
        guard let schema = result.schema else {
            DiagnosticsOutput.print(result.diagnostics)
            Console.writeError("Error: the schema in '\(path)' does not load (the problems above)\n")
            return nil
        }
        return Side(label: "'\(path)'", schema: schema, version: nil)
    }
}
