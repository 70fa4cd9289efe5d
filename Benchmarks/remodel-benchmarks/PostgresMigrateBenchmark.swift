import Foundation
import RemodelCore
import RemodelPostgres
import RemodelStore
import RemodelTestSupport

// `remodel-benchmarks migrate-postgres [--objects N] [--runs N] [--remodel PATH]`
//
// The example history v1 → v3 (Migrations/) on PostgreSQL, N Person, N Dog and N Note
// (default 1,000,000 each, a Person.dogs entry for 4 of 5 people and a second for 1 in 3),
// in the same run:
//   - the real `remodel migrate --store URL` process (the release binary next to this one);
//   - hand-written SQL run by `psql` in one transaction (Benchmarks/sql/postgres-migrate-v1-v3.sql:
//     one ALTER TABLE per table, what an expert writes), the baseline.
// Both run on a throwaway server this benchmark starts (PostgresTestServer, Unix socket) with
// PostgreSQL's durable defaults (fsync, synchronous commit, full-page writes) and
// shared_buffers = 1GB, max_wal_size = 8GB. The v1 data are generated once into a template
// database; each run migrates its own copy (CREATE DATABASE … TEMPLATE), after a CHECKPOINT
// and a sync(2), so neither side pays for writing back the copy or the other's work. One
// warm-up pair is run first and not counted (the first runs of a fresh server are slower on
// both sides). Runs alternate which side goes first. Every result is checked against the
// first one with a checksum query over every table (all columns but Dog.dateLastUpdated, the
// migration time). Prints medians, remodel / psql of the medians, and the median of each
// pair's ratio (the two runs of a pair are next to each other in time).

func runPostgresMigrateBenchmark(_ arguments: [String]) throws {
    func option(_ name: String, _ fallback: Int) -> Int {
        arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? fallback
    }
    let remodel = try BenchmarkPaths.remodel(arguments.firstIndex(of: "--remodel").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil })
    let objects = option("--objects", 1_000_000)
    let runs = option("--runs", 5)
    let server = try PostgresTestServer.shared(durable: true)
    let psql = server.binaryFolder + "/psql"
    let folder = BenchmarkPaths.folder("remodel-postgres-bench")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let expert = BenchmarkPaths.root + "/Benchmarks/sql/postgres-migrate-v1-v3.sql"
    let v1 = try BenchmarkPaths.firstSchema(migrations: BenchmarkPaths.root + "/Migrations", endingAt: 3)

    emit("PostgreSQL \(try server.psql("SHOW server_version").trimmingCharacters(in: .whitespacesAndNewlines)), server settings: \(server.settings)")
    let generated = try makeExampleDatabase(server, name: "bench_v1", schema: v1, objects: objects)
    emit(String(format: "generated %d Person, Dog and Note at v1 in %.1f s", objects, generated))

    var times: [String: [Double]] = ["remodel": [], "psql": []]
    var reference: String?
    for run in -1..<runs {
        let order = run % 2 == 0 ? ["remodel", "psql"] : ["psql", "remodel"]
        for side in order {
            let database = "bench_run_\(run + 1)_\(side)"
            try server.psql("CREATE DATABASE \(database) TEMPLATE bench_v1")
            try server.psql("CHECKPOINT", database: database)
            sync()
            let url = server.url(database: database)
            let log = folder + "/\(database).log"
            let result =
                side == "remodel"
                ? try runChild(
                    remodel, ["migrate", "--store", url, "--migrations", BenchmarkPaths.root + "/Migrations", "--schemas", BenchmarkPaths.root + "/Schemas"], stdin: nil, log: log)
                : try runChild(
                    psql,
                    [
                        "-X", "-q", "-v", "ON_ERROR_STOP=1", "-v", "now=\(StoreDateFormat.string(from: Date()))", "-h", server.socketFolder, "-p", String(server.port), "-U",
                        server.superuser, "-d", database, "-f", expert,
                    ], stdin: nil, log: log)
            if run >= 0 { times[side]!.append(result.seconds) }
            let checksum = try server.psql(postgresChecksumSQL, database: database)
            if let reference, reference != checksum {
                throw BenchmarkError(description: "run \(run): \(side) gives other data than the first run:\n\(checksum)\nvs\n\(reference)")
            }
            reference = reference ?? checksum
            emit(
                String(
                    format: "%@ %@: %.3f s (cpu %.3f s, peak RSS %@)", run < 0 ? "warm-up" : "run \(run + 1)", side, result.seconds, result.cpuSeconds,
                    megabytes(result.maxRSSKilobytes * 1024)))
            try server.psql("DROP DATABASE \(database)")
        }
    }
    try server.psql("DROP DATABASE bench_v1")
    let remodelMedian = median(times["remodel"]!)
    let psqlMedian = median(times["psql"]!)
    emit(String(format: "remodel migrate (PostgreSQL): median %.3f s of %d", remodelMedian, runs))
    emit(String(format: "hand-written SQL (psql):      median %.3f s of %d", psqlMedian, runs))
    emit(
        String(
            format: "remodel / psql: %.2f (medians); pairs: %@, median %.2f", remodelMedian / psqlMedian,
            zip(times["remodel"]!, times["psql"]!).map { String(format: "%.2f", $0 / $1) }.joined(separator: " "),
            median(zip(times["remodel"]!, times["psql"]!).map { $0 / $1 })))
}

/// Creates the database `name` holding a v1 store of the example with `objects` of each type
/// (`postgresGeneratorSQL`), vacuumed and frozen; returns the seconds it took.
func makeExampleDatabase(_ server: PostgresTestServer, name: String, schema v1: Schema, objects: Int) throws -> Double {
    try timed {
        try server.psql("CREATE DATABASE \(name)")
        let target = try PostgresTarget(server.url(database: name))
        try PostgresStore.create(at: target, schema: v1, version: 1)
        let connection = try PostgresConnection(target)
        try connection.execute(postgresGeneratorSQL(count: objects))
        for table in ["Person", "Dog", "Note", "Person.dogs"] { try connection.execute("VACUUM (FREEZE, ANALYZE) \"\(table)\"") }
    }
}

/// Fills a v1 store of the example with `count` objects per type, as `migrate-example` does
/// on SQLite: names with extra spaces, tabs and no last name; business units old and new;
/// weights whole, fractional, signed, empty and words.
func postgresGeneratorSQL(count: Int) -> String {
    func pick(_ words: [String]) -> String {
        "(ARRAY[" + words.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ", ") + "])[1 + floor(random() * \(words.count))::int]"
    }
    let first = pick(ExampleWords.first)
    let last = pick(ExampleWords.last)
    let units = pick(ExampleWords.units)
    let dogs = pick(ExampleWords.dogs)
    let breeds = pick(ExampleWords.breeds)
    let weights = pick(ExampleWords.weights)
    return """
        BEGIN;
        INSERT INTO "Person" ("__remodel_rowid", "_id", "name", "employeeId", "company", "businessUnit")
        SELECT i, decode(lpad(to_hex(1700000000 + i / 1000), 8, '0') || '5a17c39e42' || lpad(to_hex(i), 6, '0'), 'hex'),
          CASE floor(random() * 10)::int
            WHEN 0 THEN \(first)
            WHEN 1 THEN '  ' || \(first) || '   ' || \(last) || ' '
            WHEN 2 THEN \(first) || ' ' || \(first) || ' ' || \(last)
            WHEN 3 THEN ''
            WHEN 4 THEN \(first) || chr(9) || \(last)
            ELSE \(first) || ' ' || \(last)
          END,
          CASE WHEN i % 11 = 0 THEN '' ELSE 'E' || i END,
          CASE WHEN i % 17 = 0 THEN 'Realm' ELSE 'MongoDB' END,
          \(units)
        FROM generate_series(1, \(count)) AS i;
        INSERT INTO "Dog" ("__remodel_rowid", "_id", "name", "breed", "weight") SELECT i, gen_random_uuid(), \(dogs), \(breeds), \(weights) FROM generate_series(1, \(count)) AS i;
        INSERT INTO "Note" ("__remodel_rowid", "identifier", "content", "lastEdited")
        SELECT i, upper(gen_random_uuid()::text), 'Note ' || i || ': remember the milk', 'epoch'::timestamptz + (1700000000000000 + i * 1000) * interval '1 microsecond'
        FROM generate_series(1, \(count)) AS i;
        INSERT INTO "Person.dogs" ("owner", "position", "value")
        SELECT p."_id", 0, d."_id" FROM "Person" p JOIN "Dog" d ON d."__remodel_rowid" = p."__remodel_rowid" WHERE p."__remodel_rowid" % 5 <> 0;
        INSERT INTO "Person.dogs" ("owner", "position", "value")
        SELECT p."_id", 1, d."_id" FROM "Person" p JOIN "Dog" d ON d."__remodel_rowid" = (p."__remodel_rowid" * 7919) % \(count) + 1 WHERE p."__remodel_rowid" % 3 = 0;
        SELECT setval(pg_get_serial_sequence('"Person"', '__remodel_rowid'), \(count)), setval(pg_get_serial_sequence('"Dog"', '__remodel_rowid'), \(count)),
          setval(pg_get_serial_sequence('"Note"', '__remodel_rowid'), \(count));
        COMMIT;
        """
}

/// One line per table: the md5 of its rows in key order, every column but the migration time.
let postgresChecksumSQL = """
    SELECT line FROM (SELECT 'Person ' || md5(string_agg(concat_ws(',', encode("_id", 'hex'), "firstName", "lastName", "personId", "company", "businessUnit", coalesce("profileImageUrl", '-')), '|' ORDER BY "_id")) FROM "Person"
    UNION ALL SELECT 'Dog ' || md5(string_agg(concat_ws(',', "_id"::text, "name", "breed", "weight"::text, "favoriteToy", coalesce("profileImageUrl", '-')), '|' ORDER BY "_id")) FROM "Dog"
    UNION ALL SELECT 'Note ' || md5(string_agg(concat_ws(',', "identifier", "content", "lastEdited"::text), '|' ORDER BY "identifier")) FROM "Note"
    UNION ALL SELECT 'Person.dogs ' || md5(string_agg(concat_ws(',', encode("owner", 'hex'), "position"::text, "value"::text), '|' ORDER BY "owner", "position")) FROM "Person.dogs"
    UNION ALL SELECT 'version ' || "value" FROM "_remodel_metadata" WHERE "key" = 'schemaVersion') AS lines (line) ORDER BY line
    """
