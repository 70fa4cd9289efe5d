/// The values of one command line, checked against a command's specs.
struct ParsedArguments: Sendable {
    /// Positional arguments, in order.
    var positionals: [String] = []
    /// Option values by long name, in the order given (an option may repeat).
    var values: [String: [String]] = [:]
    /// Flags that were given, by long name.
    var flags: Set<String> = []
    /// Defaults of the command's options, used when an option is absent.
    var defaults: [String: String] = [:]
    /// What the program running the tool adds to it (custom migration steps).
    var tool = RemodelTool()

    /// The last value given for `--name`, else its default.
    func value(_ name: String) -> String? {
        values[name]?.last ?? defaults[name]
    }

    /// The value of `option`, else its default.
    func value(_ option: OptionSpec) -> String? {
        value(option.name)
    }

    /// Every value given for `--name`, in order.
    func allValues(_ name: String) -> [String] {
        values[name] ?? []
    }

    /// Whether the flag `--name` was given.
    func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// Whether `option` (a flag) was given.
    func flag(_ option: OptionSpec) -> Bool {
        flags.contains(option.name)
    }

    /// The positional argument at `index`, if given.
    func positional(_ index: Int) -> String? {
        positionals.indices.contains(index) ? positionals[index] : nil
    }
}
