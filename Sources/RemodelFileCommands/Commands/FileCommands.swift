/// The subcommands that need only a package's files (schemas, history, generated code), not a
/// store or a server: what `swift package remodel` runs (the `remodel-package` tool), and part
/// of `remodel`.
package enum FileCommands {
    package static let validate: any Command = ValidateCommand()
    package static let check: any Command = CheckCommand()
    package static let diff: any Command = DiffCommand()
    package static let diagram: any Command = DiagramCommand()
    package static let generate: any Command = GenerateCommand()
    package static let migration: any Command = MigrationCommand()
    package static let test: any Command = TestCommand()
    package static let jsonSchema: any Command = JSONSchemaCommand()

    /// In the order `--help` lists them.
    package static let all: [any Command] = [validate, check, diff, diagram, generate, migration, test, jsonSchema]
}
