import RemodelCheck
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelSchema

/// `remodel diff [FROM] [TO]`: what changed between two schemas.
package struct DiffCommand: Command {
    package let name = "diff"
    package let abstract = "Show what changed between two versions, snapshot files or schema folders, and the plan between versions."
    package let discussion = """
        FROM and TO are each a version of the history (a number: 2), a snapshot or schema file, \
        or a schema folder. TO defaults to the schema folder (--schemas), FROM to the newest \
        version, so 'remodel diff' shows what the next 'remodel migration new' would freeze. Each \
        change is shown with its class (additive, data-dependent, destructive) and whether it \
        breaks the generated Swift API; between two versions (FROM before TO) also the plan \
        'remodel migrate' runs, with its statements. --format json prints the same for tools. \
        Exit status: 0 shown (changes or none; with --exit-code, 1 when there are changes), 1 a \
        schema or the history does not load, 64 usage error.
        """
    package let arguments = [
        ArgumentSpec("FROM", help: "A version number, a schema file or a schema folder. Default: the newest version.", optional: true),
        ArgumentSpec("TO", help: "A version number, a schema file or a schema folder. Default: the schema folder (--schemas).", optional: true),
    ]
    package static let format = OptionSpec.option("format", value: "FORMAT", default: "text", allowed: ["text", "json"], help: "Text for people, or JSON for tools.")
    package static let exitCode = OptionSpec.flag("exit-code", help: "Exit 1 when the two differ (as 'git diff --exit-code').")
    package let options: [OptionSpec] = [CommonOptions.schemas, CommonOptions.migrations, DiffCommand.format, DiffCommand.exitCode]

    package func run(_ arguments: ParsedArguments) throws -> Int32 {
        let operands = SchemaOperands(arguments)
        guard let from = try operands.side(arguments.positional(0), default: .newest),
            let to = try operands.side(arguments.positional(1), default: .schemas)
        else {
            return ExitStatus.failure
        }
        let between = try operands.between(from, to)
        var comparison = SchemaComparison(from: from.label, old: from.schema, to: to.label, new: to.schema, renames: between.renames, plan: between.plan)
        comparison.note = between.note
        Console.write(arguments.value(Self.format) == "json" ? comparison.json : comparison.text)
        return arguments.flag(Self.exitCode) && !comparison.entries.isEmpty ? ExitStatus.failure : ExitStatus.success
    }
}
