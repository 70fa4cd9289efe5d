/// One subcommand of `remodel` (`validate`, `generate`, …).
///
/// A command declares its arguments and options; the tool parses the command line against
/// them, renders `--help` from them, and calls `run` with the parsed values. Commands are
/// thin: they read arguments, call a library and print its results. Register a new command
/// by adding one line to `FileCommands.all` (commands on a package's files) or to
/// RemodelCommandLine's `Commands.all` (commands on stores).
package protocol Command: Sendable {
    /// The word that selects the command: `remodel <name>`.
    var name: String { get }
    /// One line for the OVERVIEW section and the tool's list of subcommands.
    var abstract: String { get }
    /// Paragraphs shown after the overview in `--help`; empty for none.
    var discussion: String { get }
    /// Positional arguments, in order.
    var arguments: [ArgumentSpec] { get }
    /// Options and flags (`-h/--help` is added by the tool).
    var options: [OptionSpec] { get }
    /// Nested commands (`remodel migration new`); empty for a leaf command.
    var subcommands: [any Command] { get }

    /// Runs the command and returns the process exit status (see `ExitStatus`). Throw a
    /// `UsageError` for a command line that makes no sense (exit 64); any other error is
    /// printed as `Error: …` and exits 1.
    func run(_ arguments: ParsedArguments) throws -> Int32
}

extension Command {
    package var discussion: String { "" }
    package var arguments: [ArgumentSpec] { [] }
    package var options: [OptionSpec] { [] }
    package var subcommands: [any Command] { [] }

    /// A command with subcommands and nothing to do itself shows its help.
    package func run(_ arguments: ParsedArguments) throws -> Int32 {
        throw UsageError("missing subcommand: expected one of \(subcommands.map { "'\($0.name)'" }.joined(separator: ", "))")
    }
}

/// Process exit statuses, as DESIGN.md fixes them.
package enum ExitStatus {
    /// Everything went well.
    package static let success: Int32 = 0
    /// The input is wrong (invalid schema, drift, failed migration); nothing was changed.
    package static let failure: Int32 = 1
    /// The command line is wrong (`EX_USAGE`).
    package static let usage: Int32 = 64
}
