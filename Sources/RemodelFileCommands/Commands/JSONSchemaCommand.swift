import RemodelGeneration
import RemodelSchema

/// `remodel json-schema schema|migration`: the JSON Schema of a kind of file, for editors.
package struct JSONSchemaCommand: Command {
    package let name = "json-schema"
    package let abstract = "Print the JSON Schema of schema files or migration files, for editors and validators."
    package let discussion = """
        Prints a JSON Schema (draft 2020-12) describing every key of \
        \(JSONSchemaDocument.schema.describes), or of \(JSONSchemaDocument.migration.describes): \
        editors that read JSON Schemas (VS Code, vim and others through yaml-language-server) \
        complete keys, types and step kinds from it, show each key's description, and flag \
        unknown keys as you type. The repository ships both as \
        JSONSchema/\(JSONSchemaDocument.schema.fileName) and JSONSchema/\(JSONSchemaDocument.migration.fileName); \
        point an editor at them with a first line \
        '# yaml-language-server: $schema=<path or URL>' or with VS Code's yaml.schemas setting \
        (the manual's "Seeing the schema" shows both). They check the shape of a file; `remodel validate` checks its \
        meaning (names, types, defaults, the history). Exit status: 0 printed, 1 standard output \
        cannot be written (a full disk), 64 usage error.
        """
    package let arguments = [
        ArgumentSpec("KIND", help: "schema (schema files and snapshots) or migration (migration files).", example: "remodel json-schema schema > remodel-schema.schema.json")
    ]

    package func run(_ arguments: ParsedArguments) throws -> Int32 {
        let kind = arguments.positionals.first ?? ""
        guard let document = JSONSchemaDocument(rawValue: kind) else {
            let kinds = JSONSchemaDocument.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")
            throw UsageError("unknown kind of file '\(kind)': expected \(kinds) (snapshots are schema files: 'schema')")
        }
        try Console.writeResult(document.text, intact: "no file was changed")
        return ExitStatus.success
    }
}
