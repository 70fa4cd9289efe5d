import Foundation
import XCTest

/// SwiftData's sample trips (WWDC23, "Model your schema with SwiftData") as a Remodel history in
/// `Examples/Trips`: version 1 stored trips twice, version 2 keeps one per name and makes the
/// name unique, version 3 renames the dates. Its data migrates, its history passes the CI gate
/// and `remodel test`, and without the deduplicate step `remodel test` finds the collisions.
final class TripsExampleTests: CLIFolderTestCase {
    static let example = CLIRunner.packageRoot.appendingPathComponent("Examples/Trips").path

    @discardableResult
    private func inExample(_ arguments: [String], expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> CLIRunner.Output {
        try remodel(arguments + ["--schemas", Self.example + "/Schemas", "--migrations", Self.example + "/Migrations"], expect: status, file: file, line: line)
    }

    func testTheSampleDataMigratesToOneTripPerName() throws {
        let store = path("trips.sqlite")
        try inExample(["import", "--store", store, "--version", "1", "--quiet", Self.example + "/data/trips-v1.json"])
        let migrated = try inExample(["migrate", "--store", store])
        XCTAssertTrue(
            migrated.stdout.contains("deduplicate Trip by name, keeping the first by start_date, then by key; links to the others move to the kept one"), migrated.stdout)
        XCTAssertTrue(migrated.stdout.contains("    2 Trip objects deleted as duplicates (step 1 (deduplicate))"), migrated.stdout)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try export(store).utf8)) as? [String: [[String: Any]]])
        // The Paris trip that starts first (28 March) stays; Kyoto is alone.
        XCTAssertEqual(json["Trip"]?.map { $0["id"] as? String }, ["6F1C2A4E-0001-4000-8000-000000000002", "6F1C2A4E-0001-4000-8000-000000000003"])
        XCTAssertEqual(json["Trip"]?.first?["startDate"] as? String, "2026-03-28T09:00:00Z")
        let schema = try SQLiteSchema.run(".schema Trip", on: store)
        XCTAssertTrue(schema.contains(#"CREATE UNIQUE INDEX "Trip.name.unique" ON "Trip" ("name")"#), schema)
    }

    func testTheHistoryPassesTheGateAndItsTests() throws {
        let check = try inExample(["check", "--strict"])
        XCTAssertTrue(check.stdout.hasPrefix("remodel check: passed"), check.stdout + check.stderr)
        let test = try inExample(["test"])
        XCTAssertTrue(test.stdout.hasPrefix("remodel test passed"), test.stdout + test.stderr)
    }

    func testWithoutTheStepRemodelTestFindsTheCollisions() throws {
        let copy = URL(fileURLWithPath: path("Trips"))
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.example), to: copy)
        let file = copy.appendingPathComponent("Migrations/0002-unique-names.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "  - deduplicate: { type: Trip, by: [name], keep: first, orderBy: start_date }\n", with: "  []\n")
            .write(to: file, atomically: true, encoding: .utf8)
        let output = try remodel(["test", "--schemas", copy.path + "/Schemas", "--migrations", copy.path + "/Migrations"], expect: 1)
        XCTAssertTrue(output.stderr.contains("Trip objects with a value another object holds too, but 'name' becomes unique [test-migration]"), output.stderr)
        XCTAssertTrue(output.stderr.contains("remove the duplicates first with a deduplicate step"), output.stderr)
    }
}
