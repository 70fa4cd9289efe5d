import Foundation

/// Keeps the input being run where a signal handler can reach it, and on a crash (a trap,
/// a bad access, an abort) writes it to the crash file before the process dies, so that the
/// mutation driver's finds can be replayed and kept as regression tests.
enum CrashRecorder {
    nonisolated(unsafe) private static var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    nonisolated(unsafe) private static var capacity = 1
    nonisolated(unsafe) private static var count = 0
    nonisolated(unsafe) private static var path: UnsafeMutablePointer<CChar>?

    static func install(path crashPath: String) {
        path = strdup(crashPath)
        for signal in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                // Only async-signal-safe calls: open, write, close, then the default action.
                if let path = CrashRecorder.path {
                    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                    if fd >= 0 {
                        _ = write(fd, CrashRecorder.buffer, CrashRecorder.count)
                        close(fd)
                    }
                }
                Foundation.signal(signal, SIG_DFL)
                raise(signal)
            }
            sigaction(signal, &action, nil)
        }
    }

    /// The input about to run.
    static func current(_ input: [UInt8]) {
        if input.count > capacity {
            buffer.deallocate()
            capacity = input.count * 2
            buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        }
        input.withUnsafeBufferPointer { if let base = $0.baseAddress { buffer.update(from: base, count: input.count) } }
        count = input.count
    }
}
