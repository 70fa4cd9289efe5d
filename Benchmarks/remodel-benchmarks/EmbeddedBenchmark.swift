import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore

// `remodel-benchmarks embedded [--objects N] [--runs N]`
//
// Builds a v1 store of N Person objects (default 100,000), each with an embedded `home`
// Address (street, city, zip, floor) and one Address in the list `offices`, then migrates
// fresh copies of it in this process to v2, where Address gains `country: string = "NL"`:
// every embedded value is read property by property from its JSON and written again
// (`remodel_embedded_get` / `remodel_embedded_json`). Prints the median time and a checksum
// of the migrated JSON, so that runs of two builds can be compared.

func runEmbeddedBenchmark(_ arguments: [String]) throws {
    func option(_ name: String, _ fallback: Int) -> Int {
        arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? fallback
    }
    let objects = option("--objects", 100_000)
    let runs = option("--runs", 5)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-embedded-benchmark-\(ProcessInfo.processInfo.processIdentifier)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }

    func address(_ country: Bool) -> ObjectType {
        ObjectType(
            name: "Address", isEmbedded: true,
            properties: [
                Property("street", .scalar(.string)), Property("city", .scalar(.string)), Property("zip", .scalar(.int)),
                Property("floor", PropertyType(.scalar(.int), optional: true)),
            ] + (country ? [Property("country", .scalar(.string), default: .string("NL"))] : []))
    }
    let person = ObjectType(
        name: "Person", primaryKey: "id",
        properties: [
            Property("id", .scalar(.int)), Property("name", .scalar(.string)),
            Property("home", PropertyType(.object("Address"), optional: true)),
            Property("offices", PropertyType(.object("Address"), collection: .list)),
        ])
    let v1 = Schema(objects: [person, address(false)])
    let v2 = Schema(objects: [person, address(true)])
    let history = MigrationHistory(
        snapshots: [v1, v2],
        migrations: [
            Migration(version: 1, name: "initial", steps: [], checksum: "c1"),
            Migration(version: 2, name: "address-country", steps: [], checksum: "c2"),
        ])

    let pristine = folder + "/v1.db"
    _ = try RemodelStore(path: pristine, schema: v1, version: 1)
    do {
        let connection = try Connection(path: pristine)
        try connection.execute(
            """
            BEGIN;
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(objects))
            INSERT INTO "Person" ("id", "name", "home")
              SELECT i, 'Person ' || i, json_object('street', 'Main Street ' || i, 'city', 'Amsterdam', 'zip', 1000 + i % 9000, 'floor', i % 7) FROM n;
            INSERT INTO "Person.offices" ("owner", "position", "value")
              SELECT "id", 0, json_object('street', 'Office Lane ' || "id", 'city', 'Utrecht', 'zip', 3500 + "id" % 100) FROM "Person";
            COMMIT;
            """)
    }
    print("embedded: \(objects) Person, each with an embedded home and one office; Address gains 'country'")
    let copy = folder + "/copy.db"
    let (times, checksum) = try timedMigrations(of: pristine, copy: copy, history: history, runs: runs) { connection in
        let homes = try connection.query(
            "SELECT \"home\" || '|' || (SELECT group_concat(\"value\", '|') FROM \"Person.offices\" WHERE \"owner\" = \"id\") FROM \"Person\" ORDER BY \"id\"")
        return SHA256.hexDigest(of: Array(homes.map { $0[0].description }.joined(separator: "\n").utf8))
    }
    print(String(format: "migrate v1 → v2: median %.1f ms, min %.1f ms, max %.1f ms (%d runs)", times[times.count / 2], times.first!, times.last!, runs))
    let sample = try Connection(path: copy).query("SELECT \"home\" FROM \"Person\" WHERE \"id\" = 1").first?.first?.description ?? ""
    print("checksum of the migrated addresses: \(checksum.prefix(16)); Person 1's home: \(sample)")
}
