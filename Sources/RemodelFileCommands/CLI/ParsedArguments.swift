/// The values of one command line, checked against a command's specs.
package struct ParsedArguments: Sendable {
    /// Positional arguments, in order.
    package var positionals: [String] = []
    /// Option values by long name, in the order given (an option may repeat).
    package var values: [String: [String]] = [:]
    /// Flags that were given, by long name.
    package var flags: Set<String> = []
    /// Defaults of the command's options, used when an option is absent.
    package var defaults: [String: String] = [:]
    /// What the program running the tool adds to it (custom migration steps).
    package var tool = ToolSettings()

    /// The last value given for `--name`, else its default.
    package func value(_ name: String) -> String? {
        values[name]?.last ?? defaults[name]
    }

    /// The value of `option`, else its default.
    package func value(_ option: OptionSpec) -> String? {
        value(option.name)
    }

    /// Every value given for `--name`, in order.
    package func allValues(_ name: String) -> [String] {
        values[name] ?? []
    }

    /// Whether the flag `--name` was given.
    package func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// Whether `option` (a flag) was given.
    package func flag(_ option: OptionSpec) -> Bool {
        flags.contains(option.name)
    }

    /// The positional argument at `index`, if given.
    package func positional(_ index: Int) -> String? {
        positionals.indices.contains(index) ? positionals[index] : nil
    }
}
