/// Every subcommand of `remodel`, in the order `--help` lists them. Add a command by adding
/// one line here and its own file next to this one.
enum Commands {
    static let all: [any Command] = [
        ValidateCommand(),
        CheckCommand(),
        DiffCommand(),
        DiagramCommand(),
        GenerateCommand(),
        MigrationCommand(),
        MigrateCommand(),
        TestCommand(),
        FixtureCommand(),
        InitCommand(),
        ImportCommand(),
        ExportCommand(),
        StatusCommand(),
        JSONSchemaCommand(),
    ]
}
