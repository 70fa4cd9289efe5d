import RemodelFileCommands

/// Every subcommand of `remodel`, in the order `--help` lists them: those on a package's files
/// (`FileCommands`) and those on stores. Add a command on stores by adding one line here and its
/// own file next to this one.
enum Commands {
    static let all: [any Command] = [
        FileCommands.validate,
        FileCommands.check,
        FileCommands.diff,
        FileCommands.diagram,
        FileCommands.generate,
        FileCommands.migration,
        MigrateCommand(),
        FileCommands.test,
        FixtureCommand(),
        InitCommand(),
        ImportCommand(),
        ExportCommand(),
        StatusCommand(),
        FileCommands.jsonSchema,
    ]
}
