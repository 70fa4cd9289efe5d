import Foundation
import RemodelMigrate
import RemodelStore

// `remodel-benchmarks value-rules [--rows N] [--runs N]`
//
// Why SQLite's migration plan calls Swift functions for `split` and text → integer `convert`
// where PostgreSQL's spells them inline: the two spellings of each rule timed on the same
// rows in one run. The rows are the migrate benchmark's (Person names `First<i> Last<i>`,
// every 50th a single word; Dog weights, every 10th `heavy`) in an in-memory table, so
// the figures are the rule's own cost per row, without the writes a migration adds (which
// are the same whichever spelling computes the value).
//
// For each rule: the registered function (`remodel_split_part`, `remodel_parse_integer`, what
// the plan runs), its exact inline form (`InlineValueRules`, what PostgreSQL's plan spells),
// for integers the inline form with a fast path for canonical numbers, and the bare built-ins
// that give the right values on these rows only (not exact: no trimming, no sign or range
// rules), a lower bound for any inline form. Every exact form is checked against the
// function on every row before it is timed.

func runValueRulesBenchmark(_ arguments: [String]) throws {
    func number(_ name: String, _ fallback: Int) -> Int {
        arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1].replacingOccurrences(of: "_", with: "")) : nil } ?? fallback
    }
    let rows = max(1, number("--rows", 1_000_000))
    let runs = max(1, number("--runs", 5))
    let connection = try Connection(path: ":memory:", create: true)
    try MigrationFunctions.register(on: connection.pointer)
    try connection.execute("CREATE TABLE t (name TEXT NOT NULL, weight TEXT NOT NULL)")
    try connection.execute(
        """
        WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i + 1 < \(rows))
        INSERT INTO t SELECT CASE WHEN i % 50 = 49 THEN 'Mononym' || i ELSE 'First' || i || ' Last' || i END,
          CASE WHEN i % 10 = 9 THEN 'heavy' ELSE CAST((i % 90) + 5 AS TEXT) END FROM seq
        """)
    emit("value rules: \(rows) rows in memory, median of \(runs) runs; each query reads every row once")

    let split = SQLiteRenderer.name(of: .splitPart)
    let parse = SQLiteRenderer.name(of: .parseInteger)
    let range = Int64.min...Int64.max
    let inlineSplit = InlineValueRules.split("name", separator: " ", count: 2)
    let cases: [(rule: String, variants: [(name: String, exact: Bool, expressions: [String])])] = [
        (
            "split name at ' ' into 2 parts",
            [
                ("function (SQLite's plan)", true, ["\(split)(name, ' ', 0, 2)", "\(split)(name, ' ', 1, 2)"]),
                ("inline, exact", true, inlineSplit),
                (
                    "bare built-ins, not exact", false,
                    [
                        "CASE WHEN instr(name, ' ') > 0 THEN substr(name, 1, instr(name, ' ') - 1) ELSE name END",
                        "CASE WHEN instr(name, ' ') > 0 THEN substr(name, instr(name, ' ') + 1) ELSE '' END",
                    ]
                ),
            ]
        ),
        (
            "weight text → int, 0 when not a number",
            [
                ("function (SQLite's plan)", true, ["coalesce(\(parse)(weight, \(range.lowerBound), \(range.upperBound)), 0)"]),
                ("inline, exact", true, ["coalesce(\(InlineValueRules.integer("weight", range: range)), 0)"]),
                ("inline with a fast path", true, ["coalesce(\(InlineValueRules.integerFastPath("weight", range: range)), 0)"]),
                ("bare CAST, not exact", false, ["CAST(weight AS INTEGER)"]),
            ]
        ),
    ]
    for (rule, variants) in cases {
        emit("")
        emit(rule)
        let reference = variants[0].expressions
        for variant in variants.dropFirst() where variant.exact {
            let differing = zip(reference, variant.expressions).map { "(\($0)) IS NOT (\($1))" }.joined(separator: " OR ")
            guard case .integer(0) = try connection.scalar("SELECT count(*) FROM t WHERE \(differing)") else {
                throw BenchmarkError(description: "\(variant.name) differs from the function on some rows")
            }
        }
        var times: [String: [Double]] = [:]
        for run in 0..<runs {
            for variant in run % 2 == 0 ? variants : variants.reversed() {
                let sums = variant.expressions.map { "total(length(\($0)))" }.joined(separator: ", ")
                times[variant.name, default: []].append(try timed { _ = try connection.query("SELECT \(sums) FROM t") })
            }
        }
        let base = median(times[variants[0].name]!)
        for variant in variants {
            let time = median(times[variant.name]!)
            emit(
                String(
                    format: "  %@ %7.1f ms  %5.0f ns per row  %.2f × the function", variant.name.padding(toLength: 28, withPad: " ", startingAt: 0), time * 1000,
                    time / Double(rows) * 1e9, time / base))
        }
    }
}
