import Foundation

// `remodel-benchmarks <name> [arguments]`: runs one benchmark, release build only:
//
//     swift run -c release remodel-benchmarks schema
//
// Each benchmark lives in its own file as a function taking its extra arguments. Add one by
// adding a line to `benchmarks` below.

let benchmarks: [(name: String, abstract: String, options: String, run: ([String]) throws -> Void)] = [
    ("schema", "load and validate a generated 1,000-object × 20-property schema", "", runSchemaBenchmark),
    (
        "generate", "remodel generate and validate for the 1,000-object schema (whole process, against cp -r of the output) and the example schema",
        "[objects] [runs] [schemas] [--baseline-remodel PATH]", runGenerateBenchmark
    ),
    (
        "migrate", "the Realm change on N Person + N Dog: remodel migrate vs expert SQL (sqlite3) and realm-core, peak RSS",
        "[--sizes 100000,1000000,5000000] [--runs N] [--realm-harness PATH] [--remodel PATH] [--baseline-remodel PATH]", runMigrateBenchmark
    ),
    (
        "migrate-example", "migrate a 1,000,000 × 3-type store of the example history v1 → v3: remodel migrate vs hand-written SQL, peak RSS",
        "[--objects N] [--rss-objects N] [--runs N] [--remodel PATH] [--baseline-remodel PATH] [--baseline-history DIR] [--keep-store PATH]", runExampleMigrateBenchmark
    ),
    (
        "migrate-postgres", "migrate 1,000,000 × 3 types of the example v1 → v3 on PostgreSQL: remodel migrate vs hand-written SQL run by psql",
        "[--objects N] [--runs N] [--remodel PATH]", runPostgresMigrateBenchmark
    ),
    (
        "migrate-postgres-online", "the same migration on PostgreSQL under a load of keyed reads and updates: the default mode vs --online then --complete (longest wait, p99)",
        "[--objects N] [--connections N] [--runs N] [--remodel PATH]", runPostgresOnlineBenchmark
    ),
    (
        "check", "remodel check (whole process) on 10-, 50- and 200-version histories of the 1,000-object schema",
        "[--versions 10,50,200] [--objects N] [--runs N] [--remodel PATH] [--baseline-remodel PATH] [--baseline-max-versions N] [--squash-to K]", runCheckBenchmark
    ),
    (
        "test", "remodel test (whole process) on a 50-version history of 20 types, and remodel check on it for scale",
        "[--versions N] [--types N] [--runs N] [--remodel PATH]", runTestBenchmark
    ),
    (
        "transfer", "import N Person + N Dog of the example into a new store, migrate it to v3, export it: whole processes, against a baseline build",
        "[--people N] [--runs N] [--remodel PATH] [--baseline-remodel PATH]", runTransferBenchmark
    ),
    (
        "observe", "what observing costs: commits with 0, 1, 100 and 1,000 observations (and as many re-query loops), latency, idle CPU",
        "[--observers 0,1,100,1000] [--commits N] [--runs N]", runObserveBenchmark
    ),
    (
        "value-rules", "split and text → int on 1,000,000 rows: SQLite's registered functions against the same rules spelt inline in SQL",
        "[--rows N] [--runs N]", runValueRulesBenchmark
    ),
    ("embedded", "migrate a 100,000-object store whose embedded type gains a property (in process)", "[--objects N] [--runs N]", runEmbeddedBenchmark),
    (
        "deduplicate", "keep one of each 2 trips sharing a name and move 150,000 links (against deleteObjects of the same trips)", "[--objects N] [--runs N]",
        runDeduplicateBenchmark
    ),
    ("store", "insert 1,000,000 Notes, read 100,000 by key, iterate all: RemodelStore vs the C API", "[--count N] [--reads N] [--runs N]", runStoreBenchmark),
]

/// Runs `body` `iterations` times after one warm-up run and prints the median, minimum and
/// maximum wall-clock time in milliseconds; returns the median.
@discardableResult
func measure(_ label: String, iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()
    var times: [Double] = []
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }
    times.sort()
    let median = times[times.count / 2]
    print(String(format: "%@: median %.1f ms, min %.1f ms, max %.1f ms (%d runs)", label, median, times.first!, times.last!, iterations))
    return median
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, name != "--help", name != "-h",
    let benchmark = benchmarks.first(where: { $0.name == name })
else {
    print("USAGE: remodel-benchmarks <name> [arguments]\n\nBENCHMARKS:")
    let width = benchmarks.map(\.name.count).max()! + 2
    for benchmark in benchmarks {
        print("  " + benchmark.name.padding(toLength: width, withPad: " ", startingAt: 0) + benchmark.abstract)
    }
    exit(arguments.isEmpty || arguments.first == "--help" || arguments.first == "-h" ? 0 : 64)
}
// `remodel-benchmarks migrate --help` says what it does instead of running for minutes.
if arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) {
    print(
        "USAGE: remodel-benchmarks \(benchmark.name) \(benchmark.options)\n\n\(benchmark.abstract)\nOptions are described at the top of its source file in Benchmarks/remodel-benchmarks."
    )
    exit(0)
}
do {
    try benchmark.run(Array(arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
