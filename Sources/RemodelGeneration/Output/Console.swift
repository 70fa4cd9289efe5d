import Foundation
import RemodelCore

/// Where the tools write: results to stdout, diagnostics and progress to stderr. Shared by
/// `remodel` and the build plugin's `remodel-generate`.
package enum Console {
    /// Writes `text` to standard output as it is (add the newline yourself). A failed write
    /// (a full disk, a closed descriptor) is remembered, for `outputFailure`: the command goes
    /// on with its work, and the tool exits 1 saying its output is incomplete. For results that
    /// must arrive before anything else happens, use `writeResult`.
    package static func write(_ text: String) {
        if outputWasClosed.value {
            failures.record(OutputStreamError(fault: nil, reason: "it was closed when the tool started", intact: ""))
            return
        }
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
        } catch {
            failures.record(OutputStreamError(fault: StorageFault(of: error), reason: reason(ofWriteError: error), intact: ""))
        }
    }

    /// Gives standard input, output and error that were closed when the process started
    /// (`remodel … >&-`) `/dev/null`, so that no file the tool opens (a store) takes their
    /// number and receives its output; a closed standard output is then reported as a failed
    /// write. Call first.
    package static func guardStandardDescriptors() {
        for descriptor: Int32 in [0, 1, 2] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if descriptor == 1, opened == 1 { outputWasClosed.value = true }
        }
    }

    private static let outputWasClosed = Flag()

    /// A flag set once, read from any thread.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = false

        var value: Bool {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    /// The first write to standard output that failed, if any.
    package static var outputFailure: OutputStreamError? { failures.first }

    private static let failures = FirstFailure()

    /// The first failed write, kept across threads.
    private final class FirstFailure: @unchecked Sendable {
        private let lock = NSLock()
        private var failure: OutputStreamError?

        func record(_ error: OutputStreamError) {
            lock.withLock { if failure == nil { failure = error } }
        }

        var first: OutputStreamError? { lock.withLock { failure } }
    }

    /// Writes `text` to standard output, or throws `OutputStreamError` saying why it could
    /// not (standard output redirected to a full disk, a file size limit) and what is
    /// `intact`.
    package static func writeResult(_ text: String, intact: String) throws {
        if outputWasClosed.value { throw OutputStreamError(fault: nil, reason: "it was closed when the tool started", intact: intact) }
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
        } catch {
            throw OutputStreamError(fault: StorageFault(of: error), reason: reason(ofWriteError: error), intact: intact)
        }
    }

    /// Why writing to standard output failed, in words: the system's reason when Foundation
    /// wraps one (a closed descriptor is "Bad file descriptor", not "NSCocoaErrorDomain error 512").
    static func reason(ofWriteError error: any Error) -> String {
        let failure = error as NSError
        for candidate in [failure, failure.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code)))
        }
        if failure.domain == NSCocoaErrorDomain, failure.code == NSFileWriteUnknownError {
            return "it is closed or refuses writes"
        }
        return failure.localizedDescription
    }

    /// Writes `text` to standard error as it is (add the newline yourself).
    package static func writeError(_ text: String) {
        try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
    }

    /// Whether standard output is a terminal.
    package static var outputIsTerminal: Bool { isatty(FileHandle.standardOutput.fileDescriptor) != 0 }

    /// Whether standard error is a terminal.
    package static var errorIsTerminal: Bool { isatty(FileHandle.standardError.fileDescriptor) != 0 }

    /// Whether stderr is a terminal that understands escape codes (not `TERM=dumb`): where a
    /// progress line can be rewritten in place.
    package static var errorTakesEscapes: Bool {
        errorIsTerminal && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Whether to colour output written to stderr: only on a terminal that takes escape
    /// codes, and never when `NO_COLOR` is set.
    package static var colorsErrors: Bool {
        errorTakesEscapes && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// What the tools print after `Error: ` for a failure no diagnostic explains (a folder
    /// that cannot be written): the error's `errorDescription`, else its description.
    package static func message(for error: any Error) -> String {
        if let description = (error as? any LocalizedError)?.errorDescription { return description }
        return "\(error)"
    }
}

/// Standard output could not be written; what was written of it is incomplete.
package struct OutputStreamError: Error, CustomStringConvertible {
    package var fault: StorageFault?
    package var reason: String
    /// What is intact, e.g. "the store is unchanged".
    package var intact: String

    package var description: String {
        let intact = "the output written so far is incomplete; \(self.intact)"
        if let fault { return fault.message(cannot: "write to standard output", intact: intact) }
        return "cannot write to standard output: \(reason); \(intact)"
    }
}
