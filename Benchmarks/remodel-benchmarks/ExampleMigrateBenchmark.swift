import CSQLite
import Foundation
import RemodelCore
import RemodelSchema
import RemodelStore

// `remodel-benchmarks migrate-example [--objects N] [--rss-objects N] [--runs N] [--remodel PATH]
//   [--baseline-remodel PATH] [--baseline-history DIR] [--keep-store PATH]`
//
// Builds a v1 store of the example history (Migrations/) with N Person, N Dog and N Note
// (default 1,000,000 each) with set-based SQL, then migrates fresh copies of it to v3, in
// the same run:
//   - with the real `remodel migrate --store COPY --no-backup` process (the release binary
//     next to this one: build it first with the same scratch path), measuring wall time, CPU
//     time and the child's peak RSS (wait4's ru_maxrss, through GNU time: see runChild);
//   - with hand-written SQL run by the `sqlite3` CLI in one transaction, in two variants
//     (Benchmarks/sql/migrate-v1-v3-alter.sql: ALTER TABLE + UPDATE + DROP COLUMN;
//     migrate-v1-v3-rebuild.sql: CREATE / INSERT … SELECT / DROP / RENAME); the faster is the
//     baseline.
// (Against realm-core, on the change Realm's migration example makes: `remodel-benchmarks
// migrate --realm-harness PATH`.)
// `PRAGMA quick_check` of the v1 store is timed on its own too: the integrity check every
// migration runs before it changes anything, part of remodel migrate's time.
// Every result is checked against the first Remodel result with a checksum query. Prints
// medians, the ratio remodel/baseline, and the peak RSS of `remodel migrate` at
// `--rss-objects` (default 100,000) and at N objects.
//
// Pragmas: both sides run at SQLite's defaults on a fresh connection (synchronous = FULL,
// cache_size = -2000) with the journal mode the store file has (WAL, as RemodelStore creates
// it); the engine sets no pragma that changes speed. (A rollback journal measured ~13%
// faster for remodel here, but switching WAL → DELETE → WAL bumps the header's change
// counter, so a failed migration would no longer leave the file byte-identical.) Each copy
// is fsynced before it is migrated, so neither side pays for writing back the copy.
// `--baseline-remodel PATH` also times another `remodel` binary (an older build, say) on the
// same copies in the same run, alternating with this one, and prints new / baseline ratios.
// `--baseline-history DIR`: the folder with the Migrations/ and Schemas/ the baseline runs
// (default: the package's), for a build that cannot read today's migration files (the same
// steps, from `git archive OLD Migrations Schemas`).
// `--keep-store PATH` only writes the generated v1 store to PATH (for profiling) and exits.

func runExampleMigrateBenchmark(_ arguments: [String]) throws {
    func option(_ name: String, _ fallback: Int) -> Int {
        arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? fallback
    }
    func text(_ name: String) -> String? {
        arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }
    let benchmark = try MigrateBenchmark(
        objects: option("--objects", 1_000_000), rssObjects: option("--rss-objects", 100_000), runs: option("--runs", 3), remodel: text("--remodel"),
        baseline: text("--baseline-remodel"), baselineHistory: text("--baseline-history")
    )
    if let path = text("--keep-store") {
        let seconds = try timed { try benchmark.generate(path, count: benchmark.objects) }
        emit(String(format: "generated the v1 store with %d objects per type at %@ in %.1f s", benchmark.objects, path, seconds))
        return
    }
    try benchmark.run()
}

struct MigrateBenchmark {
    let objects: Int
    let rssObjects: Int
    let runs: Int
    let root: String
    let remodel: String
    /// Another remodel binary timed in the same run, for new / old ratios.
    let baseline: String?
    /// The folder holding the baseline's Migrations/ and Schemas/ (`nil`: the package's).
    let baselineHistory: String?
    let sqlite3: String
    let folder: String
    let v1: Schema

    /// `PRAGMA quick_check` of the v1 store alone: the check every migration runs first.
    static let integrity = "quick_check"

    init(objects: Int, rssObjects: Int, runs: Int, remodel: String?, baseline: String? = nil, baselineHistory: String? = nil) throws {
        self.baseline = baseline
        self.baselineHistory = baselineHistory
        if let baseline, !FileManager.default.isExecutableFile(atPath: baseline) {
            throw BenchmarkError(description: "no remodel executable at \(baseline) (--baseline-remodel)")
        }
        self.objects = objects
        self.rssObjects = rssObjects
        self.runs = max(1, runs)
        root = BenchmarkPaths.root
        self.remodel = try BenchmarkPaths.remodel(remodel)
        sqlite3 = BenchmarkPaths.sqlite3
        folder = BenchmarkPaths.folder("remodel-migrate-benchmark")
        v1 = try BenchmarkPaths.firstSchema(migrations: root + "/Migrations", endingAt: 3)
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        emit("migrate benchmark: v1 → v3 of the example store, \(objects) Person + \(objects) Dog + \(objects) Note, median of \(runs) runs")
        emit("remodel: \(remodel)")
        if let baseline { emit("baseline remodel: \(baseline)") }
        emit("sqlite3: \(sqlite3) (library \(String(cString: sqlite3_libversion())))")

        let pristine = folder + "/pristine-\(objects).db"
        let generated = try timed { try generate(pristine, count: objects) }
        emit(String(format: "generated the v1 store in %.1f s (%@)", generated, megabytes(fileSize(pristine))))
        emit("pragmas on a fresh connection to it (both sides): \(try pragmas(of: pristine))")

        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        var scripts: [(name: String, path: String)] = []
        for (variant, file) in [("alter", "migrate-v1-v3-alter"), ("rebuild", "migrate-v1-v3-rebuild")] {
            let text = try String(contentsOfFile: "\(root)/Benchmarks/sql/\(file).sql", encoding: .utf8)
            let path = "\(folder)/\(variant).sql"
            try text.replacingOccurrences(of: "{{now}}", with: String(now)).write(toFile: path, atomically: true, encoding: .utf8)
            scripts.append((variant, path))
        }
        let integrityScript = "\(folder)/\(Self.integrity).sql"
        try "PRAGMA quick_check;\n".write(toFile: integrityScript, atomically: true, encoding: .utf8)
        scripts.append((Self.integrity, integrityScript))

        var remodelTimes: [Double] = []
        var remodelRSS: [Int] = []
        var sqlTimes: [String: [Double]] = [:]
        var cpuTimes: [String: [Double]] = [:]
        var reference: String?
        for runIndex in 0..<runs {
            // Alternate the order, so that neither side always runs on a warmer machine.
            let variants = ["remodel"] + (baseline == nil ? [] : [Self.baselineRun]) + scripts.map(\.name)
            let order = runIndex % 2 == 0 ? variants : variants.reversed()
            for variant in order {
                let copy = "\(folder)/copy.db"
                try prepareCopy(of: pristine, at: copy)
                let result: ChildResult
                if variant == "remodel" {
                    result = try runRemodel(on: copy)
                    remodelTimes.append(result.seconds)
                    remodelRSS.append(result.maxRSSKilobytes)
                } else if variant == Self.baselineRun {
                    result = try runRemodel(on: copy, history: baselineHistory, executable: baseline!)
                    sqlTimes[variant, default: []].append(result.seconds)
                } else {
                    let script = scripts.first { $0.name == variant }!.path
                    result = try runChild(sqlite3, [copy], stdin: script, log: "\(folder)/\(variant).log")
                    sqlTimes[variant, default: []].append(result.seconds)
                }
                // The integrity check changes nothing.
                if variant != Self.integrity {
                    let sum = try checksum(copy)
                    if reference == nil { reference = sum }
                    guard sum == reference else {
                        throw BenchmarkError(description: "\(variant) gives a different store than remodel migrate:\n  remodel: \(reference!)\n  \(variant): \(sum)")
                    }
                }
                cpuTimes[variant, default: []].append(result.cpuSeconds)
                emit(
                    String(
                        format: "  run %d %-8@ %8.2f s wall  %6.2f s CPU  peak RSS %@", runIndex + 1, variant, result.seconds, result.cpuSeconds,
                        megabytes(result.maxRSSKilobytes * 1024)))
                try removeStore(copy)
            }
        }
        emit("checksum of every result (Person; Dog; Person.dogs; Note): \(reference ?? "-")")

        let remodelMedian = median(remodelTimes)
        let integrity = median(sqlTimes.removeValue(forKey: Self.integrity) ?? [])
        let baselineWhole = sqlTimes.removeValue(forKey: Self.baselineRun)
        let baselines = sqlTimes.map { (name: $0.key, median: median($0.value)) }.sorted { $0.median < $1.median }
        for baseline in baselines.reversed() {
            emit(
                String(
                    format: "sqlite3 %@ (hand-written SQL, one transaction): median %.2f s wall, %.2f s CPU", baseline.name, baseline.median, median(cpuTimes[baseline.name] ?? []))
            )
        }
        let best = baselines[0]
        let remodelCPU = median(cpuTimes["remodel"] ?? [])
        emit(String(format: "remodel migrate: median %.2f s wall, %.2f s CPU", remodelMedian, remodelCPU))
        emit(
            String(
                format: "ratio remodel / best hand-written (%@): %.2f wall (bound 1.2), %.2f CPU", best.name, remodelMedian / best.median,
                remodelCPU / median(cpuTimes[best.name] ?? [])))
        emit(
            String(
                format:
                    "integrity check (sqlite3 PRAGMA quick_check of the v1 store, which remodel migrate runs before it changes anything): median %.2f s wall, %.0f%% of remodel migrate's median",
                integrity, 100 * integrity / remodelMedian))
        if let baselineWhole {
            emit(String(format: "baseline remodel migrate: median %.2f s wall, %.2f s CPU", median(baselineWhole), median(cpuTimes[Self.baselineRun] ?? [])))
            emit(
                String(
                    format: "ratio remodel / baseline remodel: %.2f wall, %.2f CPU", remodelMedian / median(baselineWhole), remodelCPU / median(cpuTimes[Self.baselineRun] ?? [])))
        }

        // Peak memory at a tenth (or --rss-objects) of the size.
        var small: [Int] = []
        if rssObjects != objects {
            let smallPristine = folder + "/pristine-\(rssObjects).db"
            try generate(smallPristine, count: rssObjects)
            for _ in 0..<runs {
                let copy = "\(folder)/copy-small.db"
                try prepareCopy(of: smallPristine, at: copy)
                small.append(try runRemodel(on: copy).maxRSSKilobytes)
                try removeStore(copy)
            }
            try removeStore(smallPristine)
        }
        try removeStore(pristine)
        if !small.isEmpty {
            emit("peak RSS of remodel migrate at \(rssObjects) objects per type: max \(megabytes(small.max()! * 1024)) over \(small.count) runs")
        }
        emit("peak RSS of remodel migrate at \(objects) objects per type: max \(megabytes(remodelRSS.max()! * 1024)) over \(remodelRSS.count) runs (bound 50 MB, flat)")
    }

    // MARK: - The v1 store

    /// Creates a v1 store through RemodelStore, then fills it with set-based SQL on one
    /// connection (journal off while filling; WAL again at the end, as RemodelStore leaves it).
    func generate(_ path: String, count: Int) throws {
        try removeStore(path)
        _ = try RemodelStore(path: path, schema: v1, version: 1)
        let db = try SQLiteHandle(path: path)
        try db.exec("PRAGMA journal_mode = DELETE; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144")
        sqlite3_create_function_v2(
            db.pointer, "bench_objectid", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                // 4-byte timestamp, 5 process bytes, 3-byte counter: increasing, like real ObjectIDs.
                let n = UInt64(sqlite3_value_int64(arguments![0]!))
                let seconds = UInt32(1_700_000_000 + n / 1000)
                var bytes: [UInt8] = [UInt8(seconds >> 24), UInt8(truncatingIfNeeded: seconds >> 16), UInt8(truncatingIfNeeded: seconds >> 8), UInt8(truncatingIfNeeded: seconds)]
                bytes += [0x5a, 0x17, 0xc3, 0x9e, 0x42]
                bytes += [UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)]
                remodel_sqlite3_result_blob_transient(context, bytes, 12)
            }, nil, nil, nil)
        try db.exec(Self.generatorSQL(count: count))
        try db.exec("PRAGMA journal_mode = WAL")
    }

    static func generatorSQL(count: Int) -> String {
        func pick(_ words: [String]) -> String {
            let json = "[" + words.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            return "json_extract('\(json.replacingOccurrences(of: "'", with: "''"))', '$[' || (abs(random()) % \(words.count)) || ']')"
        }
        let first = pick(ExampleWords.first)
        let last = pick(ExampleWords.last)
        let units = pick(ExampleWords.units)
        let dogs = pick(ExampleWords.dogs)
        let breeds = pick(ExampleWords.breeds)
        let weights = pick(ExampleWords.weights)
        return """
            BEGIN;
            CREATE TEMP TABLE n (i INTEGER PRIMARY KEY);
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < \(count)) INSERT INTO n SELECT i FROM c;
            INSERT INTO "Person" ("_id", "name", "employeeId", "company", "businessUnit")
            SELECT bench_objectid(i),
              CASE abs(random()) % 10
                WHEN 0 THEN \(first)
                WHEN 1 THEN '  ' || \(first) || '   ' || \(last) || ' '
                WHEN 2 THEN \(first) || ' ' || \(first) || ' ' || \(last)
                WHEN 3 THEN ''
                WHEN 4 THEN \(first) || char(9) || \(last)
                ELSE \(first) || ' ' || \(last)
              END,
              CASE WHEN i % 11 = 0 THEN '' ELSE 'E' || i END,
              CASE WHEN i % 17 = 0 THEN 'Realm' ELSE 'MongoDB' END,
              \(units)
            FROM n;
            INSERT INTO "Dog" ("_id", "name", "breed", "weight") SELECT randomblob(16), \(dogs), \(breeds), \(weights) FROM n;
            INSERT INTO "Note" ("identifier", "content", "lastEdited")
            SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-' || substr(h, 13, 4) || '-' || substr(h, 17, 4) || '-' || substr(h, 21),
              'Note ' || i || ': remember the milk', 1700000000000000 + i * 1000
            FROM (SELECT i, hex(randomblob(16)) AS h FROM n);
            INSERT INTO "Person.dogs" ("owner", "position", "value")
            SELECT p."_id", 0, d."_id" FROM "Person" p JOIN "Dog" d ON d.rowid = p.rowid WHERE p.rowid % 5 <> 0;
            INSERT INTO "Person.dogs" ("owner", "position", "value")
            SELECT p."_id", 1, d."_id" FROM "Person" p JOIN "Dog" d ON d.rowid = (p.rowid * 7919) % \(count) + 1 WHERE p.rowid % 3 = 0;
            DROP TABLE temp.n;
            COMMIT;
            """
    }

    /// Numbers that change when any migrated value does (dates: one shared value).
    func checksum(_ path: String) throws -> String {
        let db = try SQLiteHandle(path: path)
        let key = "(unicode(substr(hex(\"_id\"), -1)) + 31 * unicode(substr(hex(\"_id\"), -2, 1)))"
        return [
            try db.row("SELECT 'v' || (SELECT user_version FROM pragma_user_version)"),
            try db.row(
                """
                SELECT count(*), total(length("firstName")), total(length("lastName")), total(unicode("firstName")), total(unicode("lastName")),
                  total(length("personId")), total(length("company")), total(length("businessUnit")), count(DISTINCT "businessUnit"), count("profileImageUrl"),
                  total((length("firstName") + 3 * length("lastName") + 7 * length("businessUnit") + 11 * length("personId")) * \(key))
                FROM "Person"
                """),
            try db.row(
                """
                SELECT count(*), sum("weight"), sum("weight" = 0), count(DISTINCT typeof("weight")), total(length("name")), total(length("breed")),
                  total(length("favoriteToy")), count("profileImageUrl"), count(DISTINCT "dateLastUpdated"), total("weight" * \(key))
                FROM "Dog"
                """),
            try db.row("SELECT count(*), count(DISTINCT \"owner\"), count(DISTINCT \"value\") FROM \"Person.dogs\""),
            try db.row("SELECT count(*), total(length(\"content\")) FROM \"Note\""),
        ].joined(separator: "; ")
    }

    func pragmas(of path: String) throws -> String {
        let db = try SQLiteHandle(path: path)
        return try ["journal_mode", "synchronous", "cache_size", "page_size"].map { "\($0) = \(try db.row("PRAGMA \($0)"))" }.joined(separator: ", ")
    }

    // MARK: - Processes

    /// The name of the runs of the baseline binary.
    static let baselineRun = "baseline"

    /// `remodel migrate` of the store with the history in `history` (Migrations/ and Schemas/).
    func runRemodel(on store: String, history: String? = nil, executable: String? = nil) throws -> ChildResult {
        let history = history ?? root
        return try runChild(
            executable ?? remodel, ["migrate", "--store", store, "--no-backup", "--migrations", history + "/Migrations", "--schemas", history + "/Schemas"], stdin: nil,
            log: "\(folder)/remodel.log")
    }
}

/// The words both example generators (SQLite's and PostgreSQL's) pick from, so that both
/// stores hold the same kinds of values: names with spaces, old and new business units,
/// weights whole, fractional, signed, empty and words.
enum ExampleWords {
    static let first = [
        "Ada", "Grace", "Linus", "Zoë", "José", "Margaret", "Alan", "Barbara", "Dennis", "Ken", "Bjarne", "Guido", "Anders", "Chris", "Frances", "Edsger", "Niklaus", "Tony",
        "Jean", "Søren",
    ]
    static let last = [
        "Lovelace", "Hopper", "Torvalds", "Ünal", "García", "Hamilton", "Turing", "Liskov", "Ritchie", "Thompson", "Stroustrup", "van Rossum", "Hejlsberg", "Lattner", "Allen",
        "Dijkstra", "Wirth", "Hoare", "Sammet", "O'Neil",
    ]
    static let units = [
        "Eng", "HR", "Docs", "Engineering", "Sales", "Marketing", "Customer Engineering", "Product", "Management", "Finance and Operations", "Knitting", "", "unknown", "eng",
        "Education, Community and Docs",
    ]
    static let dogs = ["Rex", "Fido", "Bella", "Max", "Luna", "Charlie", "Lucy", "Cooper", "Daisy", "Milo", "Bailey", "Sadie"]
    static let breeds = ["mutt", "labrador", "poodle", "beagle", "dachshund", "husky", "corgi", "boxer"]
    static let weights = ["12", "", "n/a", "12.5", " 7 ", "-3", "30", "4", "25", "8", "heavy", "+15"]
}
