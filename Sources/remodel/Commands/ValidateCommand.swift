import RemodelCore
import RemodelSchema

/// `remodel validate`: loads the schema and reports every problem at once.
struct ValidateCommand: Command {
    let name = "validate"
    let abstract = "Check the schema and report every problem with its file, line and column."
    let discussion = """
        Reads every *.yaml and *.yml file under the schema folder (sorted by path) as one schema, \
        or a single file. Each problem is printed once, as `file:line:column: error: message [rule-id]` \
        followed by a note saying how to fix it. Exit status: 0 the schema is valid (warnings \
        allowed), 1 it has errors, 64 usage error.
        """
    let options: [OptionSpec] = [CommonOptions.schemas, CommonOptions.format]

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let format = arguments.diagnosticFormat
        let result = SchemaLoader.load(path: arguments.schemasPath)
        DiagnosticsOutput.print(result.diagnostics, format: format)
        guard let schema = result.schema else { return ExitStatus.failure }
        if format == .text {
            Console.write("\(arguments.schemasPath): valid (\(Self.counts(schema)) in \(Self.plural(result.files.count, "file")))\n")
        }
        return ExitStatus.success
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
