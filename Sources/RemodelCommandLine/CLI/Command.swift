/// One subcommand of `remodel` (`validate`, `generate`, …).
///
/// A command declares its arguments and options; the tool parses the command line against
/// them, renders `--help` from them, and calls `run` with the parsed values. Commands are
/// thin: they read arguments, call a library and print its results. Register a new command
/// by adding one line to `Commands.all`.
protocol Command: Sendable {
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
    var discussion: String { "" }
    var arguments: [ArgumentSpec] { [] }
    var options: [OptionSpec] { [] }
    var subcommands: [any Command] { [] }

    /// A command with subcommands and nothing to do itself shows its help.
    func run(_ arguments: ParsedArguments) throws -> Int32 {
        throw UsageError("missing subcommand: expected one of \(subcommands.map { "'\($0.name)'" }.joined(separator: ", "))")
    }
}

/// Process exit statuses, as DESIGN.md fixes them.
enum ExitStatus {
    /// Everything went well.
    static let success: Int32 = 0
    /// The input is wrong (invalid schema, drift, failed migration); nothing was changed.
    static let failure: Int32 = 1
    /// The command line is wrong (`EX_USAGE`).
    static let usage: Int32 = 64
}
