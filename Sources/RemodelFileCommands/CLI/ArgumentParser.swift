import RemodelCore

/// Parses a command's arguments against its specs: long options (`--x value`, `--x=value`),
/// declared one-letter aliases (`-o value`), flags, positionals, and `--` (everything after
/// it is positional). Help requests are handled by the caller before parsing.
package struct ArgumentParser {
    package var command: any Command

    package func parse(_ words: [String]) throws -> ParsedArguments {
        var result = ParsedArguments()
        for option in command.options {
            if let value = option.defaultValue { result.defaults[option.name] = value }
        }
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || word == "-" || !word.hasPrefix("-") {
                result.positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            let (option, inlineValue) = try lookUp(word)
            if option.isFlag {
                if inlineValue != nil { throw UsageError("the flag '--\(option.name)' takes no value") }
                result.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < words.count, !isOptionLike(words[index]) {
                value = words[index]
                index += 1
            } else {
                throw UsageError("missing value for '--\(option.name) \(option.valueName ?? "VALUE")'")
            }
            if let allowed = option.allowedValues, !allowed.contains(value) {
                throw UsageError("invalid value '\(value)' for '--\(option.name)': expected \(Self.list(allowed))")
            }
            result.values[option.name, default: []].append(value)
        }
        for option in command.options where option.isRequired && result.values[option.name] == nil {
            throw UsageError("missing '--\(option.name) \(option.valueName ?? "VALUE")'")
        }
        try check(result.positionals)
        return result
    }

    /// Whether `words` ask for help: `-h` or `--help` before `--`, and not where an option's
    /// value goes (`check --base -h` is a missing value, not a request for help).
    package func asksForHelp(_ words: [String]) -> Bool {
        var index = 0
        while index < words.count, words[index] != "--" {
            let word = words[index]
            index += 1
            if word == "-h" || word == "--help" { return true }
            guard word.hasPrefix("-"), let (option, inline) = try? lookUp(word), !option.isFlag, inline == nil else { continue }
            index += 1  // its value, whatever it looks like
        }
        return false
    }

    /// The option a word names, and the value written after `=`, if any.
    private func lookUp(_ word: String) throws -> (OptionSpec, String?) {
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            let name = body.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let value = body.contains("=") ? String(body[body.index(after: body.firstIndex(of: "=")!)...]) : nil
            if let option = command.options.first(where: { $0.name == name }) { return (option, value) }
            var message = "unknown option '--\(name)'"
            if let suggestion = Suggestion.closest(to: String(name), in: command.options.map(\.name)) {
                message += "; did you mean '--\(suggestion)'?"
            }
            throw UsageError(message)
        }
        let letter = word.dropFirst()
        if letter.count == 1, let option = command.options.first(where: { $0.short == letter.first }) {
            return (option, nil)
        }
        throw UsageError("unknown option '\(word)'")
    }

    private func isOptionLike(_ word: String) -> Bool {
        word.hasPrefix("-") && word != "-" && Double(word) == nil
    }

    private func check(_ positionals: [String]) throws {
        let specs = command.arguments
        let required = specs.filter { !$0.isOptional }.count
        if positionals.count < required {
            let missing = specs.filter { !$0.isOptional }[positionals.count]
            throw UsageError("missing argument '\(missing.name)'" + (missing.example.map { ", e.g. '\($0)'" } ?? ""))
        }
        if specs.last?.isRepeated != true, positionals.count > specs.count {
            throw UsageError("unexpected argument '\(positionals[specs.count])'")
        }
    }

    /// `a, b or c`.
    package static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}
