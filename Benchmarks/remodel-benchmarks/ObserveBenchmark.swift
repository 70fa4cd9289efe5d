import Foundation
import RemodelCore
import RemodelStore

/// `observe [--observers 0,1,100,1000] [--commits N] [--runs N] [--grdb PATH]`: what observing costs.
/// For each count of observations (`store.observe`, a count of one type), the time of N
/// one-object commits to the observed type and to another type, against the same commits with
/// that many of the re-query loops apps write today (`for await _ in store.changes(toType:)`,
/// then a read); the latency from a commit's return to the observed value; and the process's
/// CPU time over 2 s of idling with 100 observations. With `--grdb`, the same figures from
/// GRDB's `ValueObservation` (`Benchmarks/grdb-observe`), run after these.
func runObserveBenchmark(_ arguments: [String]) throws {
    func value(_ name: String) -> String? {
        arguments.firstIndex(of: "--\(name)").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }
    let observerCounts = (value("observers") ?? "0,1,100,1000").split(separator: ",").compactMap { Int($0) }
    let commits = value("commits").flatMap(Int.init) ?? 1_000
    let runs = value("runs").flatMap(Int.init) ?? 3
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-observe-benchmark-\(ProcessInfo.processInfo.processIdentifier)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let schema = Schema(objects: [
        ObjectType(name: "Note", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("text", .scalar(.string))]),
        ObjectType(name: "Tag", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("text", .scalar(.string))]),
    ])
    print("observe benchmark: \(commits) one-object commits, medians of \(runs) runs")
    var next: Int64 = 0
    func commitAll(_ store: RemodelStore, type: String) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<commits {
            next += 1
            try store.write { tx in try tx.insert(["id": .integer(next), "text": .text("item \(next)")], ofType: type) }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }
    for count in observerCounts {
        for (label, observeLoops) in [("observe", false), ("re-query loops", true)] where count > 0 || !observeLoops {
            var written: [Double] = []
            var caughtUp: [Double] = []
            var other: [Double] = []
            for run in 0..<runs {
                next = 0
                let store = try RemodelStore(path: "\(folder)/\(count)-\(label.count)-\(run).db", schema: schema, version: 1)
                let seen = SeenCounts(observers: count)
                var tasks: [Task<Void, Never>] = []
                for observer in 0..<count {
                    if observeLoops {
                        let changes = store.changes(toType: "Note")
                        tasks.append(
                            Task {
                                for await _ in changes { if let notes = try? await store.read({ try $0.count(ofType: "Note") }) { seen.saw(notes, observer: observer) } }
                            })
                    } else {
                        let observation = store.observe { try $0.count(ofType: "Note") }
                        tasks.append(Task { do { for try await notes in observation { seen.saw(notes, observer: observer) } } catch {} })
                    }
                }
                usleep(100_000)
                let start = DispatchTime.now().uptimeNanoseconds
                written.append(try commitAll(store, type: "Note"))
                // The writer returning is not the end: every observer must have seen the last commit.
                while seen.lowest < commits { usleep(100) }
                caughtUp.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
                other.append(try commitAll(store, type: "Tag"))
                for task in tasks { task.cancel() }
            }
            written.sort()
            caughtUp.sort()
            other.sort()
            print(
                String(
                    format: "%5d %@: %d commits to the observed type %.0f ms (%.1f µs each), every observer caught up after %.0f ms; to another type %.0f ms",
                    count, label, commits, written[runs / 2], written[runs / 2] * 1000 / Double(commits), caughtUp[runs / 2], other[runs / 2]))
        }
    }

    // Latency: from the call of a one-object write to its value observed (the write included:
    // measured from its return, the value is usually there already).
    let store = try RemodelStore(path: "\(folder)/latency.db", schema: schema, version: 1)
    let seen = LatencyProbe()
    let observation = store.observe { try $0.count(ofType: "Note") }
    let task = Task { do { for try await count in observation { seen.saw(count) } } catch {} }
    var latencies: [Double] = []
    for index in 1...200 {
        let start = DispatchTime.now().uptimeNanoseconds
        try store.write { tx in try tx.insert(["id": .integer(Int64(index)), "text": .text("n")], ofType: "Note") }
        while seen.last < index { sched_yield() }  // a usleep lasts ~75 µs on Linux: spin
        latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
    }
    task.cancel()
    latencies.sort()
    print(String(format: "latency, write called → value observed: median %.0f µs, 90th percentile %.0f µs (200 commits)", latencies[100], latencies[180]))

    // Idle CPU with 100 observations (the file watched through file events, and looked at once a second).
    let idle = try RemodelStore(path: "\(folder)/idle.db", schema: schema, version: 1)
    let idleTasks = (0..<100).map { _ in
        let observation = idle.observe { try $0.count(ofType: "Note") }
        return Task { _ = try? await observation.reduce(0) { $1 } }
    }
    usleep(200_000)
    let before = cpuSeconds()
    usleep(2_000_000)
    let used = cpuSeconds() - before
    for task in idleTasks { task.cancel() }
    print(String(format: "idle, 100 observations, 2 s: %.1f ms of CPU (%.2f%% of one core)", used * 1000, used / 2 * 100))
    if let grdb = value("grdb") {
        // GRDB's ValueObservation in the same run (Benchmarks/grdb-observe builds it).
        let process = Process()
        process.executableURL = URL(fileURLWithPath: grdb)
        process.arguments = ["--observers", observerCounts.map(String.init).joined(separator: ","), "--commits", "\(commits)", "--runs", "\(runs)"]
        try process.run()
        process.waitUntilExit()
    }
}

/// The newest count each observer saw.
private final class SeenCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int]
    init(observers: Int) { counts = Array(repeating: 0, count: observers) }
    /// The count the slowest observer has seen.
    var lowest: Int { lock.withLock { counts.min() ?? .max } }
    func saw(_ count: Int, observer: Int) { lock.withLock { counts[observer] = max(counts[observer], count) } }
}

/// The newest value an observation delivered.
private final class LatencyProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var last: Int { lock.withLock { value } }
    func saw(_ count: Int) { lock.withLock { value = count } }
}

/// The process's user and system CPU time, in seconds.
private func cpuSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
        getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
}
