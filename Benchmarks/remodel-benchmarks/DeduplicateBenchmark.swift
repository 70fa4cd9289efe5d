import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore

// `remodel-benchmarks deduplicate [--objects N] [--runs N]`
//
// Builds a v1 store of N Trip objects (default 200,000) whose names repeat once (trip i and
// trip i + N/2 share a name) and N/4 Person objects, each linking to trips through a to-one
// link, a list of three and a set of two. Migrates fresh copies in this process to a v2 that
// makes Trip.name unique after `deduplicate: { type: Trip, by: [name], orderBy: start }`
// (half the trips go, every link moves to the kept trip), and, as the baseline in the same
// run, to a v2 that deletes the same trips with `deleteObjects` (links cleared, not moved, no
// uniqueness). Prints medians and their ratio.

func runDeduplicateBenchmark(_ arguments: [String]) throws {
    func option(_ name: String, _ fallback: Int) -> Int {
        arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? fallback
    }
    let objects = max(4, option("--objects", 200_000))
    let runs = max(1, option("--runs", 5))
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-deduplicate-benchmark-\(ProcessInfo.processInfo.processIdentifier)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }

    func trip(unique: Bool) -> ObjectType {
        ObjectType(
            name: "Trip", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("name", .scalar(.string), unique: unique), Property("start", .scalar(.int))])
    }
    let person = ObjectType(
        name: "Person", primaryKey: "id",
        properties: [
            Property("id", .scalar(.int)), Property("favorite", PropertyType(.object("Trip"), optional: true)),
            Property("trips", PropertyType(.object("Trip"), collection: .list)), Property("wishes", PropertyType(.object("Trip"), collection: .set)),
        ])
    let v1 = Schema(objects: [trip(unique: false), person])
    func history(_ v2: Schema, _ step: MigrationStep) -> MigrationHistory {
        MigrationHistory(
            snapshots: [v1, v2],
            migrations: [Migration(version: 1, name: "initial", steps: [], checksum: "c1"), Migration(version: 2, name: "change", steps: [step], checksum: "c2")])
    }
    let deduplicate = history(Schema(objects: [trip(unique: true), person]), .deduplicate(type: "Trip", by: ["name"], keep: .first, orderBy: "start"))
    let half = objects / 2
    let baseline = history(v1, .deleteObjects(type: "Trip", where: [MigrationStep.PropertyMatch(property: "id", condition: .greaterThanOrEqual(.int(Int64(half))))]))

    let pristine = folder + "/v1.db"
    _ = try RemodelStore(path: pristine, schema: v1, version: 1)
    do {
        let connection = try Connection(path: pristine)
        try connection.execute(
            """
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(objects - 1))
            INSERT INTO "Trip" ("id", "name", "start") SELECT i, 'trip ' || (i % \(half)), i FROM n;
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(objects / 4 - 1))
            INSERT INTO "Person" ("id", "favorite") SELECT i, (i * 7) % \(objects) FROM n;
            INSERT INTO "Person.trips" ("owner", "position", "value")
              SELECT "id", p, ("id" * 13 + p * 104729) % \(objects) FROM "Person", (SELECT 0 AS p UNION ALL SELECT 1 UNION ALL SELECT 2);
            INSERT OR IGNORE INTO "Person.wishes" ("owner", "value")
              SELECT "id", ("id" + p * \(half)) % \(objects) FROM "Person", (SELECT 0 AS p UNION ALL SELECT 1);
            COMMIT;
            """)
    }
    print("deduplicate: \(objects) Trip (every name twice), \(objects / 4) Person linking to them (a link, a list of 3, a set of 2)")
    let copy = folder + "/copy.db"
    func median(_ history: MigrationHistory) throws -> (median: Double, kept: String) {
        let (times, kept) = try timedMigrations(of: pristine, copy: copy, history: history, runs: runs) { connection in
            try connection.query(
                "SELECT (SELECT count(*) FROM \"Trip\") || ' trips, ' || (SELECT count(\"favorite\") FROM \"Person\") || ' links, ' || (SELECT count(*) FROM \"Person.trips\") || ' list entries, ' || (SELECT count(*) FROM \"Person.wishes\") || ' set entries'"
            ).first.map { $0[0].description } ?? ""
        }
        return (times[times.count / 2], kept)
    }
    let moved = try median(deduplicate)
    let cleared = try median(baseline)
    print(String(format: "deduplicate (links moved, then unique): median %.1f ms → %@", moved.median, moved.kept))
    print(String(format: "deleteObjects, the same trips (links cleared), baseline: median %.1f ms → %@", cleared.median, cleared.kept))
    print(String(format: "deduplicate / deleteObjects: %.2f (%d runs each)", moved.median / cleared.median, runs))
}
