/// `remodel` itself: the list of subcommands and `--version`.
package struct RootCommand: Command {
    package let name = "remodel"
    package let abstract = "Schema-first object modelling for Swift: validate schemas, generate Swift, migrate stores."
    package let discussion = """
        Object models are written once, as YAML under Schemas/. Exit status: 0 success, 1 the input \
        is wrong (nothing was changed), 64 usage error.
        """
    package let options: [OptionSpec] = [.flag("version", help: "Show the version.")]
    package let subcommands: [any Command]
}
