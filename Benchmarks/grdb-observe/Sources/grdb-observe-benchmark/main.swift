// grdb-observe-benchmark [--observers 0,1,100,1000] [--commits N] [--runs N]
//
// GRDB's ValueObservation measured the way `remodel-benchmarks observe` measures Remodel's
// store observation, so the two can be compared in one run on one machine:
//
//   a. For each count of observers: N one-row commits to the observed table (`note`), then N to
//      another table (`tag`), each timed; and the time from the first commit to `note` until
//      every observer has seen the final count (the commits plus the observers' catch-up).
//      Medians over --runs runs, a fresh database file per run.
//   b. Latency: one observer, 200 commits; after each commit returns, the time until the
//      observer has seen the new count (median and 90th percentile, µs).
//   c. Idle CPU: the process's CPU time while 100 observers idle for 2 s.
//
// Each observer is `ValueObservation.tracking { SELECT COUNT(*) FROM note }` consumed as an async
// sequence (`values(in:)`, GRDB's `.task` scheduler: values are notified on the cooperative thread
// pool) by a detached Task. The database is a file-backed DatabasePool (WAL) in a temporary folder,
// removed at the end.
//
// Output on stdout, one line per measurement (read by `remodel-benchmarks observe --grdb`):
//   grdb observers=<n> observed_ms=<median> other_ms=<median> caught_up_ms=<median>
//   grdb latency median_us=<x> p90_us=<y>
//   grdb idle observers=100 cpu_ms=<x> percent=<y>
// Anything else (versions, warnings) goes to stderr.

import Foundation
import GRDB

// MARK: - Options

struct Options {
    var observerCounts = [0, 1, 100, 1000]
    var commits = 1000
    var runs = 3

    init(_ arguments: [String]) {
        func value(_ name: String) -> String? {
            guard let index = arguments.firstIndex(of: "--\(name)"), arguments.indices.contains(index + 1) else { return nil }
            return arguments[index + 1]
        }
        if let list = value("observers") { observerCounts = list.split(separator: ",").compactMap { Int($0) } }
        if let commits = value("commits").flatMap(Int.init), commits > 0 { self.commits = commits }
        if let runs = value("runs").flatMap(Int.init), runs > 0 { self.runs = runs }
    }
}

// MARK: - Shared state between the observer tasks and the measuring thread

/// What the observers have seen, guarded by a lock.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private var started = 0
    private var caughtUp = 0
    private var latest = 0

    /// The number of observers that delivered their initial value.
    var startedCount: Int { lock.withLock { started } }
    /// The number of observers that have seen the target count.
    var caughtUpCount: Int { lock.withLock { caughtUp } }
    /// The newest count any observer delivered.
    var latestCount: Int { lock.withLock { latest } }

    func observerStarted() { lock.withLock { started += 1 } }
    func observerCaughtUp() { lock.withLock { caughtUp += 1 } }
    func saw(_ count: Int) { lock.withLock { latest = max(latest, count) } }
}

// MARK: - Helpers

/// The observation every observer starts: the number of notes.
func countNotes() -> ValueObservation<ValueReducers.Fetch<Int>> {
    ValueObservation.tracking { db in
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM note")!
    }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func milliseconds(since start: UInt64) -> Double { Double(now() - start) / 1_000_000 }

/// A new DatabasePool (WAL) at `path` with the two tables.
func makePool(_ path: String) throws -> DatabasePool {
    let pool = try DatabasePool(path: path)
    try pool.write { db in
        try db.execute(sql: "CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT)")
        try db.execute(sql: "CREATE TABLE tag(id INTEGER PRIMARY KEY, text TEXT)")
    }
    return pool
}

/// Starts `count` observers of the number of notes, each consumed by a detached task. Each
/// observer reports its initial value, and reports once when it has seen `target` notes.
func startObservers(_ count: Int, in pool: DatabasePool, target: Int, progress: Progress) -> [Task<Void, Never>] {
    (0..<count).map { _ in
        Task.detached {
            var started = false
            var caughtUp = false
            do {
                for try await noteCount in countNotes().values(in: pool) {
                    progress.saw(noteCount)
                    if !started {
                        started = true
                        progress.observerStarted()
                    }
                    if !caughtUp && noteCount >= target {
                        caughtUp = true
                        progress.observerCaughtUp()
                    }
                }
            } catch is CancellationError {
            } catch {
                FileHandle.standardError.write(Data("observer failed: \(error)\n".utf8))
            }
        }
    }
}

/// `commits` one-row commits to `table`, ids from `firstID`; returns the elapsed milliseconds.
func commit(_ commits: Int, to table: String, firstID: Int, in pool: DatabasePool) throws -> Double {
    let sql = "INSERT INTO \(table)(id, text) VALUES (?, ?)"
    let start = now()
    for id in firstID..<(firstID + commits) {
        try pool.write { try $0.execute(sql: sql, arguments: [id, "\(table) \(id)"]) }
    }
    return milliseconds(since: start)
}

/// Waits until `condition` holds, polling every 20 µs.
func wait(until condition: () -> Bool) {
    while !condition() { usleep(20) }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// The process's user plus system CPU time, in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("grdb-observe-benchmark: \(message)\n".utf8))
}

/// Cancels the observer tasks and waits (up to 10 s) until every observation ended, so that the
/// next measurement does not share the machine with them.
func stop(_ tasks: [Task<Void, Never>]) {
    for task in tasks { task.cancel() }
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        for task in tasks { await task.value }
        done.signal()
    }
    if done.wait(timeout: .now() + 10) == .timedOut { warn("observer tasks still running after 10 s") }
}

// MARK: - Measurements

/// a. Commits with `count` observers: (observed_ms, other_ms, caught_up_ms) of one run.
func measureCommits(observers count: Int, commits: Int, path: String) throws -> (Double, Double, Double) {
    let pool = try makePool(path)
    let progress = Progress()
    let tasks = startObservers(count, in: pool, target: commits, progress: progress)
    usleep(100_000)
    let started = progress.startedCount
    if started < count { warn("\(count) observers: only \(started) had delivered their initial value after 100 ms") }

    let start = now()
    let observed = try commit(commits, to: "note", firstID: 1, in: pool)
    wait { progress.caughtUpCount >= count }
    let caughtUp = milliseconds(since: start)
    let other = try commit(commits, to: "tag", firstID: 1, in: pool)

    stop(tasks)
    try pool.close()
    return (observed, other, caughtUp)
}

/// b. Latency from the call of a one-row write to the observer seeing the new count, in µs (200
/// commits): the write included, waited for by spinning (a `usleep` lasts ~75 µs on Linux),
/// as `remodel-benchmarks observe` measures it.
func measureLatency(path: String) throws -> [Double] {
    let pool = try makePool(path)
    let progress = Progress()
    let tasks = startObservers(1, in: pool, target: .max, progress: progress)
    wait { progress.startedCount == 1 }
    var latencies: [Double] = []
    for id in 1...200 {
        let start = now()
        try pool.write { try $0.execute(sql: "INSERT INTO note(id, text) VALUES (?, ?)", arguments: [id, "note \(id)"]) }
        while progress.latestCount < id { sched_yield() }
        latencies.append(Double(now() - start) / 1000)
    }
    stop(tasks)
    try pool.close()
    return latencies.sorted()
}

/// c. CPU time (seconds) of the process over 2 s with 100 idle observers.
func measureIdle(path: String) throws -> Double {
    let pool = try makePool(path)
    let progress = Progress()
    let tasks = startObservers(100, in: pool, target: .max, progress: progress)
    usleep(200_000)
    wait { progress.startedCount == 100 }
    let before = cpuSeconds()
    usleep(2_000_000)
    let used = cpuSeconds() - before
    stop(tasks)
    try pool.close()
    return used
}

func runBenchmarks() throws {
    let options = Options(Array(CommandLine.arguments.dropFirst()))
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("grdb-observe-benchmark-\(ProcessInfo.processInfo.processIdentifier)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }

    do {
        let pool = try DatabasePool(path: "\(folder)/version.sqlite")
        let sqlite = try pool.read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } ?? "?"
        try pool.close()
        warn(
            "SQLite \(sqlite); \(options.commits) one-row commits, medians of \(options.runs) runs; "
                + "ValueObservation.tracking consumed with values(in:) (.task scheduler)")
    }

    for count in options.observerCounts {
        var observed: [Double] = []
        var other: [Double] = []
        var caughtUp: [Double] = []
        for run in 0..<options.runs {
            let (o, t, c) = try measureCommits(observers: count, commits: options.commits, path: "\(folder)/observers-\(count)-run-\(run).sqlite")
            observed.append(o)
            other.append(t)
            caughtUp.append(c)
        }
        print(String(format: "grdb observers=%d observed_ms=%.1f other_ms=%.1f caught_up_ms=%.1f", count, median(observed), median(other), median(caughtUp)))
    }

    let latencies = try measureLatency(path: "\(folder)/latency.sqlite")
    print(String(format: "grdb latency median_us=%.0f p90_us=%.0f", latencies[100], latencies[180]))

    let idle = try measureIdle(path: "\(folder)/idle.sqlite")
    print(String(format: "grdb idle observers=100 cpu_ms=%.1f percent=%.2f", idle * 1000, idle / 2 * 100))
}

do {
    try runBenchmarks()
} catch {
    warn("failed: \(error)")
    exit(1)
}
