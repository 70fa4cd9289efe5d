/// `remodel` itself: the list of subcommands and `--version`.
struct RootCommand: Command {
    let name = "remodel"
    let abstract = "Schema-first object modelling for Swift: validate schemas, generate Swift, migrate stores."
    let discussion = """
        Object models are written once, as YAML under Schemas/. Exit status: 0 success, 1 the input \
        is wrong (nothing was changed), 64 usage error.
        """
    let options: [OptionSpec] = [.flag("version", help: "Show the version.")]
    var subcommands: [any Command] { Commands.all }
}
