/// An option (`--schemas DIR`) or flag (`--check`) a command accepts.
package struct OptionSpec: Sendable {
    /// The long name, kebab-case, without dashes: `schemas` for `--schemas`.
    package var name: String
    /// An optional one-letter alias: `o` for `-o`.
    package var short: Character?
    /// The placeholder for the value (`DIR`, `FILE`); `nil` for a flag, which takes none.
    package var valueName: String?
    /// The value used when the option is absent, shown in help.
    package var defaultValue: String?
    /// The only values accepted, when the set is closed (`text`, `json`, `github`).
    package var allowedValues: [String]?
    /// What the option does, one sentence.
    package var help: String
    /// Whether the command cannot run without it (`--store FILE`): usage shows it without
    /// brackets and the parser reports its absence.
    package var isRequired = false

    /// An option that takes a value.
    package static func option(
        _ name: String,
        short: Character? = nil,
        value valueName: String,
        default defaultValue: String? = nil,
        allowed allowedValues: [String]? = nil,
        required isRequired: Bool = false,
        help: String
    ) -> OptionSpec {
        OptionSpec(
            name: name, short: short, valueName: valueName, defaultValue: defaultValue, allowedValues: allowedValues,
            help: help, isRequired: isRequired
        )
    }

    /// A flag: present or absent, no value.
    package static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, defaultValue: nil, allowedValues: nil, help: help)
    }

    package var isFlag: Bool { valueName == nil }

    /// How the option is written in a usage line: `--schemas DIR`, `--format text|json|github`,
    /// in brackets unless it is required.
    package var usage: String {
        isRequired ? bareUsage : "[\(bareUsage)]"
    }

    private var bareUsage: String {
        guard let valueName else { return "--\(name)" }
        if let allowedValues { return "--\(name) \(allowedValues.joined(separator: "|"))" }
        return "--\(name) \(valueName)"
    }
}

/// A positional argument of a command.
package struct ArgumentSpec: Sendable {
    /// The placeholder shown in usage and help: `NAME`, `DATA.json`.
    package var name: String
    package var help: String
    /// Whether the argument may be left out.
    package var isOptional: Bool = false
    /// Whether the argument takes every remaining positional (only the last one may).
    package var isRepeated: Bool = false
    /// A command line that gives it, for the error when it is missing
    /// (`remodel migration new split-person-name`).
    package var example: String?

    package init(_ name: String, help: String, optional isOptional: Bool = false, repeated isRepeated: Bool = false, example: String? = nil) {
        self.name = name
        self.help = help
        self.isOptional = isOptional
        self.isRepeated = isRepeated
        self.example = example
    }

    package var usage: String {
        let text = isRepeated ? "\(name) ..." : name
        return isOptional ? "[\(text)]" : text
    }
}
