import CSQLite
import Foundation
import RemodelCore
import RemodelMigrate
import RemodelSchema
import RemodelStore

// What the benchmarks that run other programs and build SQLite stores share: running a child
// process with its wall time, CPU time and peak memory, copying and removing store files, and a
// bare SQLite connection.

/// Prints a line at once, also when stdout is a file (runs take minutes).
func emit(_ line: String) {
    print(line)
    fflush(nil)
}

/// A benchmark that cannot run: what is missing or went wrong.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}

/// Where the benchmarks find the package and the programs they run.
enum BenchmarkPaths {
    /// The package folder (Benchmarks/remodel-benchmarks/this file → the package).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `path`, or the release `remodel` next to this executable; checked to be a program.
    static func remodel(_ path: String?) throws -> String {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let remodel = path ?? executable.deletingLastPathComponent().appendingPathComponent("remodel").path
        guard FileManager.default.isExecutableFile(atPath: remodel) else {
            throw BenchmarkError(
                description: "no remodel executable at \(remodel); build it in the same folder first: swift build -c release [--scratch-path PATH] --product remodel")
        }
        return remodel
    }

    /// The `sqlite3` shell.
    static let sqlite3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "sqlite3"

    /// A temporary folder for one benchmark run of this process.
    static func folder(_ name: String) -> String {
        NSTemporaryDirectory() + "\(name)-\(ProcessInfo.processInfo.processIdentifier)"
    }

    /// The version-1 schema of the history in `migrations`, which must end at `version`.
    static func firstSchema(migrations: String, endingAt version: Int) throws -> Schema {
        let loaded = MigrationHistoryLoader.load(migrations: migrations)
        guard let history = loaded.history, let schema = history.schema(at: 1), history.currentVersion == version else {
            throw BenchmarkError(description: "cannot load the history v1…v\(version) from \(migrations): \(loaded.diagnostics)")
        }
        return schema
    }
}

/// How a child process ran.
struct ChildResult {
    var seconds: Double
    /// User + system CPU time: steadier than wall time on a shared machine.
    var cpuSeconds: Double
    var maxRSSKilobytes: Int
    /// The whole process's wall time, when `seconds` is a figure the program measured itself.
    var processSeconds: Double?
}

/// Runs a program to its end; its wall time, CPU time and peak resident memory.
///
/// The peak comes from wait4's `ru_maxrss`, but Linux starts a child's `ru_maxrss` at the
/// resident size of the process that spawned it (exec records the old address space's
/// peak), and this process holds hundreds of MB after generating a store. So the child is
/// started through GNU time (`/usr/bin/time -f %M`, a ~2 MB process doing fork, exec and
/// wait4) when it exists; otherwise the figure is an upper bound.
func runChild(_ executable: String, _ arguments: [String], stdin: String?, log: String) throws -> ChildResult {
    let gnuTime = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: gnuTime) else {
        return try spawnAndWait(executable, arguments, stdin: stdin, log: log)
    }
    let rssFile = log + ".rss"
    var result = try spawnAndWait(gnuTime, ["-o", rssFile, "-f", "%M", executable] + arguments, stdin: stdin, log: log)
    let text = (try? String(contentsOfFile: rssFile, encoding: .utf8)) ?? ""
    if let line = text.split(separator: "\n").last, let kilobytes = Int(line.trimmingCharacters(in: .whitespaces)) {
        result.maxRSSKilobytes = kilobytes
    }
    return result
}

private func spawnAndWait(_ executable: String, _ arguments: [String], stdin: String?, log: String) throws -> ChildResult {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let code = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard code == 0 else { throw BenchmarkError(description: "cannot start \(executable): \(String(cString: strerror(code)))") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    // WIFEXITED && WEXITSTATUS == 0
    guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        throw BenchmarkError(description: "\(executable) \(arguments.joined(separator: " ")) failed (status \(status)):\n\(output.suffix(2000))")
    }
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return ChildResult(seconds: seconds, cpuSeconds: cpu, maxRSSKilobytes: usage.ru_maxrss)
}

// MARK: - Files

/// Copies the store and flushes the copy to disk, so that the migration does not pay for
/// writing back the copy.
func prepareCopy(of source: String, at copy: String) throws {
    try removeStore(copy)
    try FileManager.default.copyItem(atPath: source, toPath: copy)
    let descriptor = open(copy, O_RDONLY)
    if descriptor >= 0 {
        fsync(descriptor)
        close(descriptor)
    }
}

func removeStore(_ path: String) throws {
    for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: path + suffix) {
        try FileManager.default.removeItem(atPath: path + suffix)
    }
}

func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.intValue ?? 0
}

func megabytes(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_048_576)
}

func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// A bare SQLite connection for the benchmark's own setup and checks.
final class SQLiteHandle {
    let pointer: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let handle else {
            sqlite3_close_v2(handle)
            throw BenchmarkError(description: "cannot open \(path)")
        }
        pointer = handle
    }

    deinit {
        sqlite3_close_v2(pointer)
    }

    func exec(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(pointer, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(pointer))
            sqlite3_free(message)
            throw BenchmarkError(description: "\(text) in: \(sql.prefix(200))")
        }
    }

    /// The first row of a query, its values joined by `|`.
    func row(_ sql: String) throws -> String {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(pointer, sql, -1, &statement, nil) == SQLITE_OK else {
            throw BenchmarkError(description: "\(String(cString: sqlite3_errmsg(pointer))) in: \(sql)")
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { return "" }
        return (0..<sqlite3_column_count(statement)).map { column in
            sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
        }.joined(separator: "|")
    }
}

/// Migrates a fresh copy of `pristine` (at `copy`) with `history`, in process, `runs` times
/// after one warm-up run; returns the sorted times in milliseconds and what `check` reads
/// from the last migrated copy.
func timedMigrations(of pristine: String, copy: String, history: MigrationHistory, runs: Int, check: (Connection) throws -> String) throws -> (times: [Double], check: String) {
    var times: [Double] = []
    var checked = ""
    for run in 0...runs {
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: pristine, toPath: copy)
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try Migrator(history: history).migrate(storeAt: copy)
        if run > 0 { times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000) }
        checked = try check(try Connection(path: copy))
    }
    return (times.sorted(), checked)
}
