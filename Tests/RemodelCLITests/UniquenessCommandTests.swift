import Foundation
import RemodelTestSupport
import XCTest

/// `unique` through the command line: validate accepts it and locates mistakes; an import that
/// collides, with the store or within the file, says which object, property, value and holder,
/// and imports nothing.
final class UniquenessCommandTests: CLIFolderTestCase {
    private func writeSchema() throws {
        try write(
            """
            objects:
              Trip:
                primaryKey: id
                unique: [[destination, start]]
                properties:
                  id: int
                  name: { type: string, unique: true }
                  destination: string
                  start: int

            """, to: "Schemas/Trips.yaml")
    }

    func testValidateLocatesAMistake() throws {
        try writeSchema()
        try remodel(["validate"])
        try write("objects:\n  Reading:\n    primaryKey: id\n    properties:\n      id: int\n      value: { type: double, unique: true }\n", to: "Schemas/Trips.yaml")
        let result = try remodel(["validate"], expect: 1)
        XCTAssertTrue(
            result.stderr.contains(
                "Schemas/Trips.yaml:6:38: error: property 'Reading.value' of type 'double' cannot be unique: floating-point values are not compared exactly (0.1 + 0.2 is not 0.3) [unique-unsupported]"
            ), result.stderr)
        XCTAssertTrue(result.stderr.contains("remove 'unique: true'"), result.stderr)
    }

    /// Realm enforces no uniqueness but the primary key: the Realm output refuses `unique`,
    /// located, rather than let the Realm app write what the Remodel store would refuse.
    func testTheRealmOutputRefusesUniqueness() throws {
        try writeSchema()
        let result = try remodel(["generate", "--realm", "--output", path("Generated")], expect: 1)
        XCTAssertTrue(
            result.stderr.contains(
                "Schemas/Trips.yaml:2:3: error: type 'Trip' makes (destination, start) unique together, but Realm enforces no uniqueness other than the primary key [realm-unsupported-unique]"
            ), result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "Schemas/Trips.yaml:7:7: error: property 'Trip.name' is unique, but Realm enforces no uniqueness other than the primary key [realm-unsupported-unique]"),
            result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("Generated")))
    }

    func testCollidingImportsImportNothing() throws {
        try writeSchema()
        let store = path("trips.sqlite")
        try write(#"{"Trip": [{"id": 1, "name": "Paris in spring", "destination": "Paris", "start": 100}]}"#, to: "first.json")
        try remodel(["import", "--store", store, "--quiet", path("first.json")])
        try write(
            #"{"Trip": [{"id": 2, "name": "Lyon", "destination": "Lyon", "start": 5}, {"id": 3, "name": "Paris in spring", "destination": "Nice", "start": 7}]}"#,
            to: "second.json")
        let collision = try remodel(["import", "--store", store, "--quiet", path("second.json")], expect: 1)
        XCTAssertTrue(collision.stderr.contains("cannot import"), collision.stderr)
        XCTAssertTrue(collision.stderr.contains("nothing was imported"), collision.stderr)
        XCTAssertTrue(collision.stderr.contains("Trip[1].name: \"Paris in spring\" is already held by Trip 1 in the store (it is unique)"), collision.stderr)
        try write(
            #"{"Trip": [{"id": 4, "name": "A", "destination": "Rome", "start": 1}, {"id": 5, "name": "B", "destination": "Rome", "start": 1}]}"#, to: "third.json")
        let inFile = try remodel(["import", "--store", store, "--quiet", path("third.json")], expect: 1)
        XCTAssertTrue(
            inFile.stderr.contains("Trip[1].(destination, start): (\"Rome\", 1) is already held by Trip[0] of the file (Trip 4) (together they are unique)"), inFile.stderr)
        // Every collision is named, not only the first.
        try write(
            #"{"Trip": [{"id": 6, "name": "Paris in spring", "destination": "Oslo", "start": 1}, {"id": 7, "name": "Oslo", "destination": "Bern", "start": 3}, "#
                + #"{"id": 8, "name": "Oslo", "destination": "Riga", "start": 4}, {"id": 9, "name": "Lima", "destination": "Paris", "start": 100}]}"#,
            to: "fourth.json")
        let all = try remodel(["import", "--store", store, "--quiet", path("fourth.json")], expect: 1)
        for line in [
            "Trip[0].name: \"Paris in spring\" is already held by Trip 1 in the store", "Trip[2].name: \"Oslo\" is already held by Trip[1] of the file (Trip 7)",
            "Trip[3].(destination, start): (\"Paris\", 100) is already held by Trip 1 in the store",
        ] {
            XCTAssertTrue(all.stderr.contains(line), "missing: \(line)\n\(all.stderr)")
        }
        let exported = try export(store)
        XCTAssertFalse(exported.contains("Lyon"), exported)
        XCTAssertFalse(exported.contains("Rome"), exported)
        XCTAssertTrue(exported.contains("Paris in spring"), exported)
    }
}

/// Adding uniqueness to a type whose stored objects already share values: the migration is a
/// data error naming the objects and the values, and changes nothing; without shared values
/// it makes the unique index.
final class UniquenessMigrationTests: CLIFolderTestCase {
    static let v1 = """
        objects:
          Trip:
            primaryKey: id
            properties:
              id: int
              name: string
              destination: string
              start: int

        """

    static let v2 = """
        objects:
          Trip:
            primaryKey: id
            unique: [[destination, start]]
            properties:
              id: int
              name: { type: string, unique: true }
              destination: string
              start: int

        """

    func testASharedValueStopsTheMigration() throws {
        let data = #"{"Trip": [{"id": 1, "name": "Paris", "destination": "Paris", "start": 1}, {"id": 2, "name": "Paris", "destination": "Rome", "start": 2}]}"#
        let store = try history(v1: Self.v1, data: data, v2: Self.v2)
        try expectRefused(
            store, contains: ["2 Trip objects with a value another object holds too, but 'name' becomes unique in Trip.name: 1 (\"Paris\"), 2 (\"Paris\")", "Schemas/S.yaml:7:7"])
    }

    func testSharedValuesOfAGroupStopTheMigration() throws {
        let data = #"{"Trip": [{"id": 1, "name": "Paris", "destination": "Rome", "start": 2}, {"id": 2, "name": "Rome", "destination": "Rome", "start": 2}]}"#
        let store = try history(v1: Self.v1, data: data, v2: Self.v2)
        try expectRefused(
            store, contains: ["2 Trip objects with values another object holds too, but (destination, start) become unique together in Trip: 1 (Rome, 2), 2 (Rome, 2)"])
    }

    func testWithoutSharedValuesTheIndexesAreMade() throws {
        let data = #"{"Trip": [{"id": 1, "name": "Paris", "destination": "Paris", "start": 1}, {"id": 2, "name": "Rome", "destination": "Rome", "start": 2}]}"#
        let store = try history(v1: Self.v1, data: data, v2: Self.v2)
        let plan = try remodel(["migrate", "--store", store, "--dry-run"])
        XCTAssertTrue(plan.stdout.contains("make Trip.name unique"), plan.stdout)
        XCTAssertTrue(plan.stdout.contains("make Trip's (destination, start) unique"), plan.stdout)
        try remodel(["migrate", "--store", store, "--quiet"])
        let schema = try SQLiteSchema.run(".schema", on: store)
        XCTAssertTrue(schema.contains(#"CREATE UNIQUE INDEX "Trip.name.unique" ON "Trip" ("name")"#), schema)
        XCTAssertTrue(schema.contains(#"CREATE UNIQUE INDEX "Trip.destination.start.unique" ON "Trip" ("destination", "start")"#), schema)
    }
}
