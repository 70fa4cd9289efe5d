import Foundation

/// Files a process is making that are not in place yet — a store being created, a backup
/// being copied, a generated file staged — so that an interrupted command (Ctrl-C, `kill`)
/// leaves none of them behind, and a later run removes those a dead process left.
///
/// Each is named with the process's id (`.store.db.remodel-creating-PID-N`,
/// `store.db.v1-backup-….partial-PID`, `.Dog.swift.remodel-PID-N.tmp`), which is how a later
/// run recognises the leftovers of a process that no longer runs.
public enum HalfMadeFiles {
    /// A registered file; `finished` unregisters it.
    public struct Token: Hashable, Sendable {
        let id: Int
    }

    /// What SQLite keeps beside a database file.
    public static let databaseSiblings = ["", "-wal", "-shm", "-journal"]

    /// Registers `path` (with each of `suffixes` appended: a database's `-wal` and the like)
    /// as half made, described as `what` ("the new store 'notes.db'").
    public static func started(_ path: String, suffixes: [String] = [""], what: String) -> Token {
        registry.add(Entry(paths: suffixes.map { path + $0 }, what: what))
    }

    /// The file is in place or gone: no longer half made.
    public static func finished(_ token: Token) {
        registry.remove(token)
    }

    /// Returns at once, unless the registered files are being removed (the process was
    /// interrupted): then it never returns. A maker of files inside a registered folder, which
    /// are not registered one by one, calls it before making each, so that none is made after
    /// the folder was removed.
    public static func proceed() {
        registry.lock.lock()
        registry.lock.unlock()
    }

    /// Runs `body` (putting files in place) with interruption held off until it ends, so
    /// that a set of files is put in place all or none.
    public static func uninterrupted<T>(_ body: () throws -> T) rethrows -> T {
        try registry.lock.withLock(body)
    }

    /// Removes every registered file and returns what they were, for a process that ends
    /// right after: waits for an `uninterrupted` body to finish, then keeps the registry locked
    /// for good, so that no file is registered (nor, as files are registered before they are
    /// made, made) any more. A file registered just before may be made while this runs: the
    /// files are removed a second time, a moment later.
    public static func removeAll() -> [String] {
        registry.lock.lock()
        let entries = registry.entries.sorted { $0.key < $1.key }.map(\.value)
        for pass in 0..<2 {
            if pass > 0 { usleep(30_000) }
            for entry in entries {
                for path in entry.paths { remove(path) }
            }
        }
        return entries.map(\.what)
    }

    /// Removes, in `folder`, the files whose names `pattern` recognises as made by a process
    /// that no longer runs: `pattern` returns the process id in a name, or `nil` for a name
    /// that is not such a file. Returns the names removed.
    @discardableResult
    public static func removeLeftovers(in folder: String, pattern: (String) -> pid_t?) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let pid = pattern(name), pid != getpid(), !isRunning(pid) else { continue }
            if remove(FilePaths.join(folder, name)) { removed.append(name) }
        }
        return removed
    }

    /// Removes a file, or a folder with everything in it (a test's scratch folder).
    @discardableResult
    private static func remove(_ path: String) -> Bool {
        if unlink(path) == 0 { return true }
        guard errno == EISDIR || errno == EPERM else { return false }
        return (try? FileManager.default.removeItem(atPath: path)) != nil
    }

    /// The process id written after `marker` in `name` (digits up to the next `-`, `.` or the
    /// end), when `name` contains it.
    public static func processID(in name: String, after marker: String) -> pid_t? {
        guard let range = name.range(of: marker) else { return nil }
        let digits = name[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : pid_t(digits)
    }

    private static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    private struct Entry {
        var paths: [String]
        var what: String
    }

    /// The registered files, under a lock (a signal's handler reads them on another thread).
    private final class Registry: @unchecked Sendable {
        let lock = NSRecursiveLock()
        var entries: [Int: Entry] = [:]
        var next = 0

        func add(_ entry: Entry) -> Token {
            lock.withLock {
                next += 1
                entries[next] = entry
                return Token(id: next)
            }
        }

        func remove(_ token: Token) {
            lock.withLock { _ = entries.removeValue(forKey: token.id) }
        }
    }

    private static let registry = Registry()
}
