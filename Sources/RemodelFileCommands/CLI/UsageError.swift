/// A command line that makes no sense: printed as `Error: …` then the command's usage, exit 64.
package struct UsageError: Error, Sendable {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }
}

/// A failure a command has already explained on stderr; the tool only exits with `status`.
package struct ExitError: Error, Sendable {
    package var status: Int32
}
