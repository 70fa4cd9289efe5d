/// A command line that makes no sense: printed as `Error: …` then the command's usage, exit 64.
struct UsageError: Error, Sendable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

/// A failure a command has already explained on stderr; the tool only exits with `status`.
struct ExitError: Error, Sendable {
    var status: Int32
}
