import CSQLite
import Foundation
import RemodelCore
import RemodelSchema
import RemodelStore

// `remodel-benchmarks migrate [--sizes 100000,1000000,5000000] [--runs N] [--realm-harness PATH]
//   [--remodel PATH] [--baseline-remodel PATH]`
//
// The change Realm's own migration example makes, on N Person + N Dog objects (history:
// Benchmarks/realm-change): Person.name split at the first space into firstName/lastName,
// employeeId renamed personId, Dog.weight text → integer (0 when not a whole number). The
// data is the generator of ../shared/anchors/side-by-side.sh and of the realm-core harness's
// `fill`: Person i is named `First<i> Last<i>` (`Mononym<i>` when i % 50 == 49), employeeId
// `E` + 7 digits, businessUnit `BU<i % 20>`; Dog i `Dog<i>`, weight `heavy` when i % 10 == 9
// else i % 90 + 5; random 12- and 16-byte keys.
//
// For each size, in one run, alternating the order from run to run, each on a fresh copy
// flushed to disk first:
//   - `remodel migrate --store COPY --no-backup` (the release binary next to this one), whole
//     process: wall time, CPU time, peak RSS (through GNU time, see `runChild`);
//   - the expert SQL (Benchmarks/sql/realm-change-expert.sql) in the `sqlite3` shell: the
//     removed column's slot reused, Dog.weight declared INTEGER in place, one UPDATE per table;
//   - SQLite's floor (Benchmarks/sql/realm-change-floor.sql), not a migration: every row of both
//     tables rewritten once in place (a value of the same size, changed) and committed, which
//     any migration on SQLite that changes every row must at least do;
//   - SQLite reading every row (Benchmarks/sql/realm-change-read.sql): each row "written" with
//     the value it has, which SQLite turns into no write at all (what issue 29 took for the
//     floor): the cost of the walk alone;
//   - with `--realm-harness PATH` (realm_migrate_bench, built by ../shared/anchors/realm/build.sh),
//     realm-core v14.14.0 migrating the same objects in a Realm file: its Table/Obj walk and
//     its Results/Object accessor path (what realm-swift's enumerateObjects does), timed by the
//     harness around Realm::get_shared_realm (open, migrate, durable commit) and as a process;
//   - with `--baseline-remodel PATH`, another remodel binary (an older build) on the same copies.
// Every SQLite result is checked against remodel's with a checksum query, and the Realm file's
// (the harness's `verify`) against the same counts. Prints medians, the ratios remodel / each
// rival, and remodel's peak RSS per size (it must stay flat).

func runMigrateBenchmark(_ arguments: [String]) throws {
    func text(_ name: String) -> String? {
        arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }
    let sizes = try (text("--sizes") ?? "1000000").split(separator: ",").map { part in
        guard let size = Int(part.replacingOccurrences(of: "_", with: "")), size > 0 else {
            throw BenchmarkError(description: "--sizes takes counts separated by commas, not '\(part)'")
        }
        return size
    }
    let runs = text("--runs").flatMap(Int.init) ?? 5
    let benchmark = try RealmChangeBenchmark(runs: runs, remodel: text("--remodel"), baseline: text("--baseline-remodel"), harness: text("--realm-harness"))
    try benchmark.run(sizes: sizes)
}

struct RealmChangeBenchmark {
    let runs: Int
    let root: String
    let remodel: String
    let baseline: String?
    let harness: String?
    let sqlite3: String
    let folder: String
    let history: String
    let v1: Schema

    /// The names of the variants, as printed.
    static let remodelRun = "remodel"
    static let expert = "expert-sql"
    static let floor = "sqlite-floor"
    static let read = "sqlite-read"
    static let realmObj = "realm-obj"
    static let realmAccessor = "realm-accessor"
    static let baselineRun = "baseline"

    init(runs: Int, remodel: String?, baseline: String?, harness: String?) throws {
        self.runs = max(1, runs)
        root = BenchmarkPaths.root
        history = root + "/Benchmarks/realm-change"
        self.remodel = try BenchmarkPaths.remodel(remodel)
        for (option, path) in [("--baseline-remodel", baseline), ("--realm-harness", harness)] {
            if let path, !FileManager.default.isExecutableFile(atPath: path) {
                throw BenchmarkError(description: "no executable at \(path) (\(option))")
            }
        }
        self.baseline = baseline
        self.harness = harness
        sqlite3 = BenchmarkPaths.sqlite3
        folder = BenchmarkPaths.folder("remodel-realm-change-benchmark")
        v1 = try BenchmarkPaths.firstSchema(migrations: history + "/Migrations", endingAt: 2)
    }

    /// One size's medians, for the summary.
    struct Summary {
        var size: Int
        var medians: [String: Double]
        var cpu: [String: Double]
        var peakRSS: [String: Int]
    }

    func run(sizes: [Int]) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        emit("migrate benchmark: the Realm change (split Person.name, rename employeeId, Dog.weight text → int) on N Person + N Dog, median of \(runs) runs per size")
        emit("remodel: \(remodel)")
        if let baseline { emit("baseline remodel: \(baseline)") }
        emit("sqlite3: \(sqlite3) (library \(String(cString: sqlite3_libversion())))")
        emit("realm-core harness: \(harness ?? "not given (--realm-harness PATH)")")
        var summaries: [Summary] = []
        for size in sizes {
            summaries.append(try run(size: size))
        }
        emit("")
        emit("summary (medians; ratio < 1 means remodel is faster):")
        for summary in summaries {
            let mine = summary.medians[Self.remodelRun]!
            var line = String(format: "  N = %9d: remodel %.3f s, peak RSS %@", summary.size, mine, megabytes(summary.peakRSS[Self.remodelRun]! * 1024))
            for rival in [Self.expert, Self.floor, Self.read, Self.realmObj, Self.realmAccessor, Self.baselineRun] {
                guard let time = summary.medians[rival] else { continue }
                line += String(format: "; / %@ %.2f", rival, mine / time)
            }
            emit(line)
        }
        if let first = summaries.first, let last = summaries.last, last.size != first.size {
            let perObject = summaries.map { $0.medians[Self.remodelRun]! / Double($0.size) * 1e9 }
            emit(
                "remodel per object (Person + Dog pair): " + zip(summaries, perObject).map { String(format: "%d: %.0f ns", $0.size, $1) }.joined(separator: ", ")
                    + String(format: "; peak RSS from %@ to %@", megabytes(first.peakRSS[Self.remodelRun]! * 1024), megabytes(last.peakRSS[Self.remodelRun]! * 1024)))
        }
    }

    private func run(size: Int) throws -> Summary {
        emit("")
        emit("N = \(size)")
        let pristine = "\(folder)/pristine.db"
        let generated = try timed { try generate(pristine, count: size) }
        emit(String(format: "  generated the v1 store in %.1f s (%@)", generated, megabytes(fileSize(pristine))))
        defer { try? removeStore(pristine) }
        let script = "\(folder)/expert.sql"
        let floorScript = root + "/Benchmarks/sql/realm-change-floor.sql"
        let readScript = root + "/Benchmarks/sql/realm-change-read.sql"
        let schemaVersion = try SQLiteHandle(path: pristine).row("PRAGMA schema_version")
        guard let version = Int(schemaVersion) else { throw BenchmarkError(description: "PRAGMA schema_version answered '\(schemaVersion)'") }
        try String(contentsOfFile: root + "/Benchmarks/sql/realm-change-expert.sql", encoding: .utf8)
            .replacingOccurrences(of: "{{schema_version}}", with: String(version + 1)).write(toFile: script, atomically: true, encoding: .utf8)

        let realmFolder = "\(folder)/realm"
        let realmPristine = "\(realmFolder)/pristine.realm"
        if let harness {
            try? FileManager.default.removeItem(atPath: realmFolder)
            try FileManager.default.createDirectory(atPath: realmFolder, withIntermediateDirectories: true)
            let fill = try runChild(harness, ["fill", String(size), realmPristine], stdin: nil, log: "\(folder)/realm-fill.log")
            emit(String(format: "  filled the v1 Realm file in %.1f s (%@)", fill.seconds, megabytes(fileSize(realmPristine))))
        }
        defer { try? FileManager.default.removeItem(atPath: realmFolder) }

        var variants = [Self.remodelRun, Self.expert, Self.floor, Self.read]
        if harness != nil { variants += [Self.realmObj, Self.realmAccessor] }
        if baseline != nil { variants.append(Self.baselineRun) }
        var times: [String: [Double]] = [:]
        var cpu: [String: [Double]] = [:]
        var rss: [String: [Int]] = [:]
        var reference: String?
        var realmCheck: String?
        for runIndex in 0..<runs {
            for variant in runIndex % 2 == 0 ? variants : variants.reversed() {
                let result: ChildResult
                let copy: String
                if variant == Self.realmObj || variant == Self.realmAccessor {
                    copy = "\(realmFolder)/run.realm"
                    try removeRealm(copy)
                    try prepareCopy(of: realmPristine, at: copy)
                    result = try runRealm(on: copy, accessor: variant == Self.realmAccessor)
                    if realmCheck == nil { realmCheck = try verifyRealm(copy) }
                    try removeRealm(copy)
                } else {
                    copy = "\(folder)/run.db"
                    try prepareCopy(of: pristine, at: copy)
                    switch variant {
                    case Self.expert: result = try runChild(sqlite3, [copy], stdin: script, log: "\(folder)/expert.log")
                    case Self.floor: result = try runChild(sqlite3, [copy], stdin: floorScript, log: "\(folder)/floor.log")
                    case Self.read: result = try runChild(sqlite3, [copy], stdin: readScript, log: "\(folder)/read.log")
                    case Self.baselineRun: result = try runRemodel(baseline!, on: copy)
                    default: result = try runRemodel(remodel, on: copy)
                    }
                    // The floor and the read migrate nothing: their store is v1 (with new values).
                    if variant != Self.floor && variant != Self.read {
                        let sum = try checksum(copy)
                        if reference == nil { reference = sum }
                        guard sum == reference else {
                            throw BenchmarkError(description: "\(variant) gives another store than the first run:\n  first: \(reference!)\n  \(variant): \(sum)")
                        }
                    }
                    try removeStore(copy)
                }
                times[variant, default: []].append(result.seconds)
                cpu[variant, default: []].append(result.cpuSeconds)
                rss[variant, default: []].append(result.maxRSSKilobytes)
                let process = result.processSeconds.map { String(format: " (process %.3f s)", $0) } ?? ""
                emit(
                    String(
                        format: "  run %d %@ %7.3f s%@  %6.2f s CPU  peak RSS %@", runIndex + 1, variant.padding(toLength: 15, withPad: " ", startingAt: 0), result.seconds,
                        process, result.cpuSeconds, megabytes(result.maxRSSKilobytes * 1024)))
            }
        }
        emit("  checksum (Person; Dog): \(reference ?? "-")")
        if let realmCheck {
            // The harness's verify recomputes every value from the generator; its weight figures
            // must be the SQLite stores'.
            emit("  realm-core verify: \(realmCheck)")
            let dog = (reference ?? "").split(separator: ";").last.map { $0.trimmingCharacters(in: .whitespaces).split(separator: "|") } ?? []
            guard dog.count >= 3, realmCheck.contains("weight_zero=\(dog[2])"), realmCheck.contains("weight_sum=\(dog[1])") else {
                throw BenchmarkError(description: "the Realm file's weights differ from the SQLite stores' (\(reference ?? "-")): \(realmCheck)")
            }
        }
        var summary = Summary(size: size, medians: [:], cpu: [:], peakRSS: [:])
        for variant in variants {
            summary.medians[variant] = median(times[variant] ?? [])
            summary.cpu[variant] = median(cpu[variant] ?? [])
            summary.peakRSS[variant] = rss[variant]?.max() ?? 0
            emit(
                String(
                    format: "  %@ median %7.3f s wall, %6.2f s CPU, peak RSS max %@", variant.padding(toLength: 15, withPad: " ", startingAt: 0), summary.medians[variant]!,
                    summary.cpu[variant]!, megabytes(summary.peakRSS[variant]! * 1024)))
        }
        let mine = summary.medians[Self.remodelRun]!
        for rival in variants where rival != Self.remodelRun {
            emit(String(format: "  ratio remodel / %@: %.2f", rival, mine / summary.medians[rival]!))
        }
        if let realm = summary.medians[Self.realmObj], let floor = summary.medians[Self.floor] {
            emit(String(format: "  SQLite's floor / realm-obj: %.2f (no migration on SQLite that rewrites every row can be faster than the floor)", floor / realm))
        }
        return summary
    }

    // MARK: - The stores

    /// Creates a v1 store through RemodelStore, then fills it with the side-by-side generator
    /// (journal off while filling; WAL again at the end, as RemodelStore leaves it).
    func generate(_ path: String, count: Int) throws {
        try removeStore(path)
        _ = try RemodelStore(path: path, schema: v1, version: 1)
        let db = try SQLiteHandle(path: path)
        try db.exec("PRAGMA journal_mode = DELETE; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144")
        try db.exec(
            """
            BEGIN;
            WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i + 1 < \(count))
            INSERT INTO "Person" SELECT randomblob(12),
              CASE WHEN i % 50 = 49 THEN 'Mononym' || i ELSE 'First' || i || ' Last' || i END,
              'E' || printf('%07d', i), 'BU' || (i % 20) FROM seq;
            WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i + 1 < \(count))
            INSERT INTO "Dog" SELECT randomblob(16), 'Dog' || i,
              CASE WHEN i % 10 = 9 THEN 'heavy' ELSE CAST((i % 90) + 5 AS TEXT) END FROM seq;
            COMMIT;
            """)
        try db.exec("PRAGMA journal_mode = WAL")
    }

    /// Numbers that change when any migrated value does.
    func checksum(_ path: String) throws -> String {
        let db = try SQLiteHandle(path: path)
        let key = "(unicode(substr(hex(\"_id\"), -1)) + 31 * unicode(substr(hex(\"_id\"), -2, 1)))"
        return [
            try db.row("SELECT 'v' || (SELECT user_version FROM pragma_user_version)"),
            try db.row(
                """
                SELECT count(*), total(length("firstName")), total(length("lastName")), sum("lastName" = ''), total(length("personId")), count(DISTINCT "businessUnit"),
                  total((length("firstName") + 3 * length("lastName") + 11 * length("personId")) * \(key))
                FROM "Person"
                """),
            try db.row("SELECT count(*), sum(\"weight\"), sum(\"weight\" = 0), count(DISTINCT typeof(\"weight\")), total(\"weight\" * \(key)) FROM \"Dog\""),
        ].joined(separator: "; ")
    }

    // MARK: - Processes

    func runRemodel(_ executable: String, on store: String) throws -> ChildResult {
        try runChild(
            executable, ["migrate", "--store", store, "--no-backup", "--migrations", history + "/Migrations", "--schemas", history + "/Schemas"], stdin: nil,
            log: "\(folder)/remodel.log")
    }

    /// The harness's migration: its own timing of the open-migrate-commit as `seconds` (the
    /// stricter figure), the whole process as `processSeconds`.
    func runRealm(on file: String, accessor: Bool) throws -> ChildResult {
        let log = "\(folder)/realm.log"
        var result = try runChild(harness!, ["migrate", file, "--no-verify"] + (accessor ? ["--accessor"] : []), stdin: nil, log: log)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("RESULT migrate") }),
            let seconds = line.split(separator: " ").first(where: { $0.hasPrefix("seconds=") }).flatMap({ Double($0.dropFirst("seconds=".count)) })
        else {
            throw BenchmarkError(description: "the realm-core harness printed no RESULT line:\n\(output.suffix(2000))")
        }
        result.processSeconds = result.seconds
        result.seconds = seconds
        return result
    }

    /// The harness's `verify` line of a migrated Realm file.
    func verifyRealm(_ file: String) throws -> String {
        let log = "\(folder)/realm-verify.log"
        _ = try runChild(harness!, ["verify", file], stdin: nil, log: log)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("verify: OK") }) else {
            throw BenchmarkError(description: "the migrated Realm file does not verify:\n\(output.suffix(2000))")
        }
        return String(line)
    }

    func removeRealm(_ path: String) throws {
        for suffix in ["", ".lock", ".note", ".management"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}
