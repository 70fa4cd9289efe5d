import Foundation
import RemodelCore

/// Where the tool writes: results to stdout, diagnostics and progress to stderr.
enum Console {
    /// Writes `text` to standard output as it is (add the newline yourself). A failed write
    /// (a full disk) is ignored: for results that must arrive, use `writeResult`.
    static func write(_ text: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    }

    /// Writes `text` to standard output, or throws `OutputStreamError` saying why it could
    /// not (standard output redirected to a full disk, a file size limit) and what is
    /// `intact`.
    static func writeResult(_ text: String, intact: String) throws {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
        } catch {
            throw OutputStreamError(fault: StorageFault(of: error), reason: (error as NSError).localizedDescription, intact: intact)
        }
    }

    /// Writes `text` to standard error as it is (add the newline yourself).
    static func writeError(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
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

/// Standard output could not be written; what was written of it is incomplete.
struct OutputStreamError: Error, CustomStringConvertible {
    var fault: StorageFault?
    var reason: String
    /// What is intact, e.g. "the store is unchanged".
    var intact: String

    var description: String {
        let intact = "the output written so far is incomplete; \(self.intact)"
        if let fault { return fault.message(cannot: "write to standard output", intact: intact) }
        return "cannot write to standard output: \(reason); \(intact)"
    }
}
