import Dispatch
import Foundation
import RemodelCore

/// Ctrl-C (SIGINT) and `kill` (SIGTERM): the command stops, what it was making and had not
/// put in place is removed (`HalfMadeFiles`), it says so, and the tool exits 130 or 143 as a
/// shell expects. Stores need nothing: an import or migration that has not committed is rolled
/// back by SQLite (or PostgreSQL) when its transaction ends with the process. Shared by
/// `remodel` and the build plugin's `remodel-generate`.
package enum Interruption {
    /// Installs the handlers; once per process.
    package static func install() {
        _ = handlers
    }

    /// The signal sources, kept alive for the life of the process.
    private nonisolated(unsafe) static let handlers: [any DispatchSourceSignal] = [(SIGINT, "SIGINT", Int32(130)), (SIGTERM, "SIGTERM", Int32(143))].map {
        signal, name, status in
        Foundation.signal(signal, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signal, queue: .global(qos: .userInteractive))
        source.setEventHandler {
            let removed = HalfMadeFiles.removeAll()
            Console.writeError(message(signal: name, removed: removed))
            _exit(status)
        }
        source.resume()
        return source
    }

    /// What an interrupted command says on standard error.
    static func message(signal: String, removed: [String]) -> String {
        var text = (Console.errorTakesEscapes ? "\r\u{1B}[K" : "") + "Interrupted by \(signal)."
        if !removed.isEmpty {
            let shown = removed.count > 3 ? removed.prefix(3).joined(separator: ", ") + " and \(removed.count - 3) more" : removed.joined(separator: ", ")
            text += " Removed what was half made: \(shown)."
        }
        return text + " Stores keep their last committed state: an import or migration that had not committed is rolled back.\n"
    }
}
