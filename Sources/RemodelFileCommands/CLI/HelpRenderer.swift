/// Renders `--help` for a command in the sections swift-argument-parser users know:
/// OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
package struct HelpRenderer {
    /// The command and the commands above it: `[root, migration, new]`.
    package var path: [any Command]

    private static let labelWidth = 26

    package var command: any Command { path.last! }

    /// `remodel migration new`.
    package var commandName: String { path.map(\.name).joined(separator: " ") }

    /// The one-line usage: `remodel validate [--schemas DIR] [--format text|json|github]`.
    package var usage: String {
        var parts = [commandName]
        for option in command.options {
            parts.append(option.usage)
        }
        if !command.subcommands.isEmpty { parts.append("<subcommand>") }
        for argument in command.arguments {
            parts.append(argument.usage)
        }
        return parts.joined(separator: " ")
    }

    package var help: String {
        var out = "OVERVIEW: \(command.abstract)\n"
        if !command.discussion.isEmpty {
            out += "\n" + Self.wrap(command.discussion, width: 80, indent: "") + "\n"
        }
        out += "\nUSAGE: \(usage)\n"
        if !command.arguments.isEmpty {
            out += "\nARGUMENTS:\n"
            for argument in command.arguments {
                out += row(argument.name, argument.help)
            }
        }
        out += "\nOPTIONS:\n"
        for option in command.options {
            var label = option.short.map { "-\($0), " } ?? ""
            label += option.isFlag ? "--\(option.name)" : "--\(option.name) \(option.valueName ?? "VALUE")"
            var text = option.help
            if let allowed = option.allowedValues { text += " (values: \(allowed.joined(separator: ", ")))" }
            if let value = option.defaultValue { text += " (default: \(value))" }
            out += row(label, text)
        }
        out += row("-h, --help", "Show help information.")
        if !command.subcommands.isEmpty {
            out += "\nSUBCOMMANDS:\n"
            for subcommand in command.subcommands {
                out += row(subcommand.name, subcommand.abstract)
            }
            out += "\n  See '\(path.first!.name) help \(path.dropFirst().map { $0.name + " " }.joined())<subcommand>' for detailed help.\n"
        }
        return out
    }

    /// `  label                   help`, wrapping the help under itself when the label is long.
    private func row(_ label: String, _ text: String) -> String {
        let indent = String(repeating: " ", count: Self.labelWidth)
        let start = "  " + label
        let wrapped = Self.wrap(text, width: 80, indent: indent)
        if start.count < Self.labelWidth {
            return start + String(repeating: " ", count: Self.labelWidth - start.count) + wrapped.dropFirst(indent.count) + "\n"
        }
        return start + "\n" + wrapped + "\n"
    }

    /// `text` broken into lines of at most `width` columns (words longer than that stay
    /// whole), each starting with `indent`; newlines in `text` are kept, and so are the
    /// spaces that start a line (an indented example stays indented).
    package static func wrap(_ text: String, width: Int, indent base: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { paragraph in
            let indent = base + paragraph.prefix { $0 == " " }
            var lines: [String] = []
            var current = indent
            for word in paragraph.split(separator: " ") {
                if current.count > indent.count, current.count + 1 + word.count > width {
                    lines.append(current)
                    current = indent
                }
                current += (current.count > indent.count ? " " : "") + word
            }
            lines.append(current)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
