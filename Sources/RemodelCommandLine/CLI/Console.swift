import Foundation

/// Where the tool writes: results to stdout, diagnostics and progress to stderr.
enum Console {
    /// Writes `text` to standard output as it is (add the newline yourself).
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `text` to standard error as it is (add the newline yourself).
    static func writeError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Whether standard output is a terminal.
    static var outputIsTerminal: Bool { isatty(FileHandle.standardOutput.fileDescriptor) != 0 }

    /// Whether standard error is a terminal.
    static var errorIsTerminal: Bool { isatty(FileHandle.standardError.fileDescriptor) != 0 }

    /// Whether to colour output written to stderr: only on a terminal, and never when
    /// `NO_COLOR` is set or `TERM` is `dumb`.
    static var colorsErrors: Bool {
        let environment = ProcessInfo.processInfo.environment
        return errorIsTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }
}
