import Foundation
import RemodelPostgres
import RemodelTestSupport

// `remodel-benchmarks migrate-postgres-online [--objects N] [--connections N] [--runs N] [--remodel PATH]`
//
// The example history v1 → v3 on PostgreSQL, N Person, N Dog and N Note (default 1,000,000
// each, as `migrate-postgres` generates them), migrated by the real `remodel` process while a
// load runs on the migrating tables: `--connections` sessions (default 4), each reading and
// updating objects by key in a loop (a Person's company, a Dog's name, a Note's content: what
// both versions have), as a running app of version 1 does. In the same run, alternately:
//   - the default mode, `remodel migrate --store URL` (one transaction);
//   - `remodel migrate --store URL --online`, then `--complete`.
// Per mode: the migration's time, and over the queries of the load that started while it ran
// their number, the longest one (the longest a query of the app waited), the 99th percentile,
// and failures. The load's updates write each value back unchanged, so that both modes must end
// with the same data: checked with `migrate-postgres`'s checksum over every table.
// For scale, also under the load: the least any backfill in place writes, one `UPDATE` of
// every Person and every Dog row that changes nothing (psql, one transaction per table, the two
// at once as the expand phase runs them), new tuples and index entries only.

func runPostgresOnlineBenchmark(_ arguments: [String]) throws {
    func option(_ name: String, _ fallback: Int) -> Int {
        arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? fallback
    }
    let remodel = try BenchmarkPaths.remodel(arguments.firstIndex(of: "--remodel").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil })
    let objects = option("--objects", 1_000_000)
    let connections = option("--connections", 4)
    let runs = option("--runs", 1)
    let server = try PostgresTestServer.shared(durable: true)
    let folder = BenchmarkPaths.folder("remodel-postgres-online-bench")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let v1 = try BenchmarkPaths.firstSchema(migrations: BenchmarkPaths.root + "/Migrations", endingAt: 3)
    let history = ["--migrations", BenchmarkPaths.root + "/Migrations", "--schemas", BenchmarkPaths.root + "/Schemas"]

    emit("PostgreSQL \(try server.psql("SHOW server_version").trimmingCharacters(in: .whitespacesAndNewlines)), server settings: \(server.settings)")
    let generated = try makeExampleDatabase(server, name: "online_v1", schema: v1, objects: objects)
    emit(String(format: "generated %d Person, Dog and Note at v1 in %.1f s", objects, generated))
    let keys = try LoadKeys(PostgresConnection(PostgresTarget(server.url(database: "online_v1"))))

    var results: [String: [LoadResult]] = [:]
    var reference: String?
    for run in 0..<runs {
        for mode in run % 2 == 0 ? ["default", "online", "update-floor"] : ["update-floor", "online", "default"] {
            let database = "online_run_\(run + 1)_" + mode.replacingOccurrences(of: "-", with: "_")
            try server.psql("CREATE DATABASE \(database) TEMPLATE online_v1")
            try server.psql("CHECKPOINT", database: database)
            sync()
            let url = server.url(database: database)
            let load = try Load(target: PostgresTarget(url), keys: keys, connections: connections)
            Thread.sleep(forTimeInterval: 1)
            let started = Date()
            var phases: [(String, Double)] = []
            if mode == "update-floor" {
                let seconds = timed {
                    DispatchQueue.concurrentPerform(iterations: 2) { index in
                        let (table, column) = index == 0 ? ("Person", "company") : ("Dog", "name")
                        _ = try? server.psql("UPDATE \"\(table)\" SET \"\(column)\" = \"\(column)\"", database: database)
                    }
                }
                phases.append(("UPDATE Person ∥ UPDATE Dog", seconds))
            }
            for (name, extra) in mode == "default" ? [("migrate", [String]())] : mode == "online" ? [("expand", ["--online"]), ("complete", ["--complete"])] : [] {
                let child = try runChild(remodel, ["migrate", "--store", url, "--quiet"] + extra + history, stdin: nil, log: folder + "/\(database)-\(name).log")
                phases.append((name, child.seconds))
            }
            let ended = Date()
            Thread.sleep(forTimeInterval: 1)
            let result = load.stop(from: started, to: ended, phases: phases)
            results[mode, default: []].append(result)
            emit("run \(run + 1) \(mode): \(result.text)")
            guard mode != "update-floor" else {
                try server.psql("DROP DATABASE \(database) WITH (FORCE)")
                continue
            }
            let checksum = try server.psql(postgresChecksumSQL, database: database)
            if let reference, reference != checksum {
                throw BenchmarkError(description: "run \(run + 1): \(mode) gives other data than the first run:\n\(checksum)\nvs\n\(reference)")
            }
            reference = reference ?? checksum
            try server.psql("DROP DATABASE \(database) WITH (FORCE)")
        }
    }
    try server.psql("DROP DATABASE online_v1")
    let defaultTime = median(results["default"]!.map(\.seconds))
    let onlineTime = median(results["online"]!.map(\.seconds))
    for mode in ["default", "online", "update-floor"] {
        let all = results[mode]!
        emit(
            String(
                format: "%@: migration median %.3f s; load: longest query %.3f s, p99 %.1f ms (medians of %d), %d failed", mode, median(all.map(\.seconds)),
                median(all.map(\.longest)), median(all.map(\.p99)) * 1000, all.count, all.reduce(0) { $0 + $1.failures }))
    }
    let floorTime = median(results["update-floor"]!.map(\.seconds))
    emit(
        String(
            format: "online (expand + complete) / default: %.2f; update-floor / default: %.2f; online / update-floor: %.2f", onlineTime / defaultTime, floorTime / defaultTime,
            onlineTime / floorTime))
}

/// Keys of objects the load reads and updates: a sample of each table's.
struct LoadKeys: Sendable {
    var people: [String]
    var dogs: [String]
    var notes: [String]

    init(_ connection: PostgresConnection) throws {
        func sample(_ sql: String) throws -> [String] { try connection.query(sql).rows.compactMap { $0[0] } }
        people = try sample("SELECT encode(\"_id\", 'hex') FROM \"Person\" TABLESAMPLE SYSTEM (1) LIMIT 10000")
        dogs = try sample("SELECT \"_id\"::text FROM \"Dog\" TABLESAMPLE SYSTEM (1) LIMIT 10000")
        notes = try sample("SELECT \"identifier\" FROM \"Note\" TABLESAMPLE SYSTEM (1) LIMIT 10000")
    }
}

/// What the load saw while a migration ran.
struct LoadResult {
    var seconds: Double
    var phases: [(String, Double)]
    var queries: Int
    var longest: Double
    var p99: Double
    var failures: Int
    var firstFailure: String?

    var text: String {
        String(
            format: "%.3f s (%@); %d queries of the load meanwhile: longest %.3f s, p99 %.1f ms, %d failed%@", seconds,
            phases.map { String(format: "%@ %.3f s", $0.0, $0.1) }.joined(separator: ", "), queries, longest, p99 * 1000, failures,
            firstFailure.map { " (first: \($0))" } ?? "")
    }
}

/// Sessions reading and updating objects by key until stopped, each query timed.
final class Load: @unchecked Sendable {
    private struct Query {
        var start: Date
        var seconds: Double
        var error: String?
    }

    private let lock = NSLock()
    private var queries: [Query] = []
    private var running = true
    private let group = DispatchGroup()

    init(target: PostgresTarget, keys: LoadKeys, connections: Int) throws {
        for worker in 0..<connections {
            group.enter()
            Thread.detachNewThread { [self] in
                defer { group.leave() }
                guard let connection = try? PostgresConnection(target) else { return }
                var generator = SystemRandomNumberGenerator()
                var local: [Query] = []
                var count = 0
                while true {
                    if count % 64 == 0 {
                        lock.lock()
                        queries += local
                        let go = running
                        lock.unlock()
                        local = []
                        guard go else { return }
                    }
                    count += 1
                    let (sql, key): (String, String) =
                        switch (count + worker) % 6 {
                        case 0: ("SELECT \"company\" FROM \"Person\" WHERE \"_id\" = decode($1, 'hex')", keys.people.randomElement(using: &generator)!)
                        case 1: ("UPDATE \"Person\" SET \"company\" = \"company\" WHERE \"_id\" = decode($1, 'hex')", keys.people.randomElement(using: &generator)!)
                        case 2: ("SELECT \"name\" FROM \"Dog\" WHERE \"_id\" = $1::uuid", keys.dogs.randomElement(using: &generator)!)
                        case 3: ("UPDATE \"Dog\" SET \"name\" = \"name\" WHERE \"_id\" = $1::uuid", keys.dogs.randomElement(using: &generator)!)
                        case 4: ("SELECT \"content\" FROM \"Note\" WHERE \"identifier\" = $1", keys.notes.randomElement(using: &generator)!)
                        default: ("UPDATE \"Note\" SET \"content\" = \"content\" WHERE \"identifier\" = $1", keys.notes.randomElement(using: &generator)!)
                        }
                    let start = Date()
                    var failure: String?
                    do { _ = try connection.query(sql, [key]) } catch { failure = "\(error)" }
                    local.append(Query(start: start, seconds: Date().timeIntervalSince(start), error: failure))
                }
            }
        }
    }

    /// Stops the sessions; the queries that started between `from` and `to`.
    func stop(from: Date, to: Date, phases: [(String, Double)]) -> LoadResult {
        lock.lock()
        running = false
        lock.unlock()
        group.wait()
        let during = queries.filter { $0.start >= from && $0.start <= to }
        let times = during.map(\.seconds).sorted()
        let failed = during.filter { $0.error != nil }
        return LoadResult(
            seconds: to.timeIntervalSince(from), phases: phases, queries: during.count, longest: times.last ?? 0,
            p99: times.isEmpty ? 0 : times[min(times.count - 1, Int(Double(times.count) * 0.99))], failures: failed.count, firstFailure: failed.first?.error)
    }
}
