import RemodelCheck
import RemodelCodegen
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelSchema

/// `remodel validate`: loads the schema and reports every problem at once.
package struct ValidateCommand: Command {
    package let name = "validate"
    package let abstract = "Check the schema and its migration history; report every problem with its file, line and column."
    package let discussion = """
        Reads every *.yaml and *.yml file under the schema folder (sorted by path) as one schema, \
        or a single file. When the migrations folder exists, also checks the version history: a \
        complete chain of migration files and snapshots, every step valid against the versions \
        it goes between (each migration is planned, as `remodel migrate` would), and the schema \
        equal to the newest snapshot. A snapshot whose hash Migrations/remodel.sum records is \
        what remodel wrote from a schema it validated: it is read, not validated again (an \
        edited one is validated as any schema file). A draft's question left open in the newest \
        migration file is a warning here (`remodel check` fails on it). With --realm, also \
        checks what `remodel generate --realm` refuses: a schema Realm cannot hold, a step its \
        migration block cannot express. Each problem is printed once, as \
        `file:line:column: error: message [rule-id]` followed by a note saying how to fix it. \
        Exit status: 0 valid (warnings allowed), 1 errors, 64 usage error.
        """
    package static let realm = OptionSpec.flag("realm", help: "Also check that Realm can hold the schema and run every migration step (what `generate --realm` refuses).")
    package let options: [OptionSpec] = [CommonOptions.schemas, CommonOptions.migrations, ValidateCommand.realm, CommonOptions.format]

    package func run(_ arguments: ParsedArguments) throws -> Int32 {
        let format = arguments.diagnosticFormat
        let input = HistoryInput.read(arguments, requireSchema: true)
        var diagnostics = input.diagnostics
        if let history = input.history, !input.hasErrors {
            diagnostics += HistoryCheck.unregisteredCustomSteps(in: history, registered: arguments.tool.registeredStepNames, sources: input.sources)
            // A draft's open question decides whether data is kept: say so (`check` fails on it).
            if let file = input.files[history.currentVersion] {
                diagnostics += ChangeRules.openQuestions(in: history, version: history.currentVersion, file: file).map { question in
                    var warning = question
                    warning.severity = .warning
                    return warning
                }
            }
            // What `generate` and the build plugin would refuse (with --realm, Realm's too).
            if let result = input.schema, let schema = result.schema {
                let generatorInput = GeneratorInput(schema: schema, result: result, schemasPath: arguments.schemasPath, migrations: input.loaded)
                diagnostics += CodeGenerator(options: GeneratorOptions(realm: arguments.flag(Self.realm))).check(generatorInput)
            }
        }
        DiagnosticsOutput.print(diagnostics, format: format)
        guard let result = input.schema, let schema = result.schema, !diagnostics.containsErrors else { return ExitStatus.failure }
        if format == .text {
            Console.write("\(arguments.schemasPath): valid (\(Self.counts(schema)) in \(Self.plural(result.files.count, "file")))\n")
            if let history = input.loaded.history {
                Console.write("\(arguments.migrationsPath): valid (\(Self.plural(history.migrations.count, "version")), current version \(history.currentVersion))\n")
            }
        }
        return ExitStatus.success
    }

    package static func counts(_ schema: Schema) -> String {
        [
            plural(schema.objects.count, "object"),
            plural(schema.enums.count, "enum"),
            plural(schema.projections.count, "projection"),
        ].joined(separator: ", ")
    }

    package static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
