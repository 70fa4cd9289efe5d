import RemodelCore
import RemodelMigrate
import RemodelSchema

/// `remodel validate`: loads the schema and reports every problem at once.
struct ValidateCommand: Command {
    let name = "validate"
    let abstract = "Check the schema and its migration history; report every problem with its file, line and column."
    let discussion = """
        Reads every *.yaml and *.yml file under the schema folder (sorted by path) as one schema, \
        or a single file. When the migrations folder exists, also checks the version history: a \
        complete chain of migration files and snapshots, every step valid against the versions \
        it goes between (each migration is planned, as `remodel migrate` would), and the schema \
        equal to the newest snapshot. Each problem is printed once, as \
        `file:line:column: error: message [rule-id]` followed by a note saying how to fix it. \
        Exit status: 0 valid (warnings allowed), 1 errors, 64 usage error.
        """
    let options: [OptionSpec] = [CommonOptions.schemas, CommonOptions.migrations, CommonOptions.format]

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let format = arguments.diagnosticFormat
        let result = SchemaLoader.load(path: arguments.schemasPath)
        var diagnostics = result.diagnostics
        let history = Self.checkHistory(arguments, schema: result.schema, diagnostics: &diagnostics)
        DiagnosticsOutput.print(diagnostics, format: format)
        guard let schema = result.schema, !diagnostics.containsErrors else { return ExitStatus.failure }
        if format == .text {
            Console.write("\(arguments.schemasPath): valid (\(Self.counts(schema)) in \(Self.plural(result.files.count, "file")))\n")
            if let history {
                Console.write("\(arguments.migrationsPath): valid (\(Self.plural(history.migrations.count, "version")), current version \(history.currentVersion))\n")
            }
        }
        return ExitStatus.success
    }

    /// Loads the migration history, if there is one, and plans every migration in it.
    static func checkHistory(_ arguments: ParsedArguments, schema: Schema?, diagnostics: inout [Diagnostic]) -> MigrationHistory? {
        let loaded = MigrationHistoryLoader.load(migrations: arguments.migrationsPath)
        diagnostics += loaded.diagnostics
        guard let history = loaded.history, !loaded.diagnostics.containsErrors else { return nil }
        if let schema, let problem = MigrationHistoryLoader.checkSnapshotted(
            schema: schema, schemasPath: arguments.schemasPath, history: history, migrationsPath: arguments.migrationsPath
        ) {
            diagnostics.append(problem)
        }
        // Custom steps are closures an app registers; here they only need to exist by name.
        let customNames = history.migrations.flatMap(\.steps).compactMap { step -> String? in
            if case .custom(let name, _) = step { name } else { nil }
        }
        let planner = MigrationPlanner(
            history: history, customSteps: Set(customNames),
            stepLocations: loaded.stepLocations, migrationFiles: loaded.files
        )
        do {
            _ = try planner.plan(from: 1)
        } catch let error as MigrationPlanningError {
            diagnostics += error.diagnostics
        } catch {
            diagnostics.append(.error("migration-invalid", "\(error)", at: nil))
        }
        return history
    }

    static func counts(_ schema: Schema) -> String {
        [
            plural(schema.objects.count, "object"),
            plural(schema.enums.count, "enum"),
            plural(schema.projections.count, "projection"),
        ].joined(separator: ", ")
    }

    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
