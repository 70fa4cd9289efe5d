import Foundation
import XCTest

/// Realm's own migration example (realm-swift `examples/ios/swift/Migration`, schema versions
/// 0 to 5), translated to YAML in `Examples/RealmMigration` (Remodel's versions 1 to 6, every
/// type keyed by a uuid), migrated with the plain `remodel migrate` from the data of Realm's
/// versions 0, 2 and 4 and checked against Realm's `migrationCheck` of version 5.
final class RealmExampleTests: XCTestCase {
    private var folder: URL!
    static let example = "Examples/RealmMigration"

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-realm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    @discardableResult
    private func remodel(_ arguments: [String], expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> CLIRunner.Output {
        let output = try CLIRunner.run(arguments + ["--schemas", Self.example + "/Schemas", "--migrations", Self.example + "/Migrations"])
        XCTAssertEqual(output.status, status, "remodel \(arguments.joined(separator: " "))\nstdout: \(output.stdout)\nstderr: \(output.stderr)", file: file, line: line)
        return output
    }

    /// Realm's versions 0, 2 and 4 are Remodel's 1, 3 and 5.
    func testEachStartingPointMigratesToWhatRealmsMigrationCheckExpects() throws {
        try remodel(["validate"])
        for version in [1, 3, 5] {
            let store = folder.appendingPathComponent("v\(version).db").path
            try remodel(["import", "--store", store, "--version", String(version), Self.example + "/data/v\(version).json"])
            let migrated = try remodel(["migrate", "--store", store, "--no-backup"])
            XCTAssertTrue(migrated.stdout.contains("Migrated '\(store)' from version \(version) to 6"), migrated.stdout)
            try checkRealmExpectations(store, startedAt: version)
        }
    }

    /// `migrationCheck` of Realm's Example_v5.swift, on `remodel export`'s JSON.
    private func checkRealmExpectations(_ store: String, startedAt version: Int) throws {
        let context = "from version \(version)"
        let export = try CLIRunner.run(["export", "--store", store])
        XCTAssertEqual(export.status, 0, export.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let persons = try XCTUnwrap(json["Person"] as? [[String: Any]], context)
        let pets = try XCTUnwrap(json["Pet"] as? [[String: Any]], context)
        XCTAssertNil(json["Address"], "Address is embedded: no table of its own \(context)")
        let petsByKey = Dictionary(pets.compactMap { pet in (pet["_id"] as? String).map { ($0, pet) } }, uniquingKeysWith: { first, _ in first })
        XCTAssertEqual(petsByKey.count, pets.count, "every pet has its own _id \(context)")
        func petsOf(_ person: [String: Any]) -> [[String: Any]] { ((person["pets"] as? [String]) ?? []).compactMap { petsByKey[$0] } }

        // A wrong count is a failure, not a crash of the whole test process.
        guard persons.count == 3 else { return XCTFail("\(persons.count) persons, expected 3 \(context)") }
        XCTAssertEqual(persons[0]["fullName"] as? String, "John Doe", context)
        XCTAssertEqual(persons[0]["age"] as? Int, 42, context)
        let address = try XCTUnwrap(persons[0]["address"] as? [String: Any], "John Doe's address \(context)")
        XCTAssertEqual(address["city"] as? String, "New York", context)
        XCTAssertEqual(address["street"] as? String, "Broadway", context)
        XCTAssertEqual(petsOf(persons[0]).map { $0["name"] as? String }, ["Marley", "Lassie"], context)
        XCTAssertEqual(petsOf(persons[0]).map { $0["kind"] as? Int }, [1, 1], "Pet.Kind.dog \(context)")
        XCTAssertEqual(persons[1]["fullName"] as? String, "Jane Doe", context)
        XCTAssertEqual(persons[1]["age"] as? Int, 43, context)
        XCTAssertTrue(persons[1]["address"] is NSNull, context)
        XCTAssertEqual(petsOf(persons[1]).map { $0["name"] as? String }, ["Toto"], context)
        XCTAssertEqual(petsOf(persons[1]).map { $0["kind"] as? Int }, [1], context)
        XCTAssertEqual(persons[2]["fullName"] as? String, "John Smith", context)
        XCTAssertEqual(persons[2]["age"] as? Int, 44, context)
        XCTAssertTrue(persons[2]["address"] is NSNull, context)
        XCTAssertEqual(pets.count, 4, context)
        XCTAssertTrue(pets.contains { $0["name"] as? String == "Slinkey" && $0["kind"] as? Int == 1 }, context)

        // The migrated store is what a fresh store of version 6 is, and is sound.
        let fresh = folder.appendingPathComponent("fresh-\(version).db").path
        try remodel(["init", "--store", fresh])
        XCTAssertEqual(try SQLiteSchema.tables(of: store), try SQLiteSchema.tables(of: fresh), context)
        XCTAssertEqual(try SQLiteSchema.run("PRAGMA integrity_check; PRAGMA foreign_key_check;", on: store), "ok\n", context)
    }
}
