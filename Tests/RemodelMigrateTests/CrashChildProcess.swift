import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process the crash test starts and may kill: spawned with `posix_spawn` and reaped
/// with `waitpid` by the test itself, so that a kill can never hit a recycled process id
/// (the child stays a zombie until it is reaped).
final class CrashChildProcess {
    let pid: pid_t
    private(set) var exitStatus: Int32?

    /// Starts `executable arguments…` with stdin from /dev/null and stdout and stderr to `log`.
    init(executable: String, arguments: [String], log: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard code == 0 else {
            throw CrashTestError("cannot start \(executable): \(String(cString: strerror(code)))")
        }
        self.pid = pid
    }

    /// Whether the child has ended (reaping it if so).
    var hasExited: Bool {
        if exitStatus != nil { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exitStatus = status
            return true
        }
        return false
    }

    /// Sends SIGKILL (harmless if the child has ended but is not reaped yet) and reaps it.
    /// Returns whether the child was still running when killed.
    @discardableResult
    func kill() -> Bool {
        if hasExited { return false }
        sendSIGKILL(pid)
        wait()
        return !exitedNormally
    }

    /// Waits for the child to end.
    func wait() {
        guard exitStatus == nil else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exitStatus = status
    }

    /// Exited by itself (not by a signal).
    var exitedNormally: Bool {
        guard let status = exitStatus else { return false }
        return status & 0x7f == 0
    }

    /// The exit code, when it exited by itself.
    var exitCode: Int32? {
        guard let status = exitStatus, status & 0x7f == 0 else { return nil }
        return (status >> 8) & 0xff
    }
}

private func sendSIGKILL(_ pid: pid_t) {
    _ = kill(pid, SIGKILL)
}

struct CrashTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
