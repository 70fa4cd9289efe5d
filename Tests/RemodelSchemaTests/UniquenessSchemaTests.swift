import Foundation
import RemodelCore
import RemodelSchema
import XCTest

/// `unique: true` on a property, `unique: [[a, b]]` and `indexes: [[a, b]]` on an object: read,
/// kept in the canonical text (and so in the storage hash) only where written, and read back
/// from a snapshot.
final class UniquenessSchemaTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-unique-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func load(_ text: String) throws -> SchemaLoadResult {
        let url = folder.appendingPathComponent("Trips.yaml")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return SchemaLoader.load(path: folder.path)
    }

    static let trips = """
        objects:
          Trip:
            primaryKey: id
            unique: [[destination, startDate]]
            indexes: [[startDate, name]]
            properties:
              id: uuid
              name: { type: string, unique: true }
              destination: string
              startDate: date
              guide: Guide?
          Guide:
            primaryKey: id
            properties:
              id: uuid
              badge: { type: int?, unique: true }
        """

    func testUniquenessAndIndexesAreRead() throws {
        let result = try load(Self.trips)
        XCTAssertEqual(result.diagnostics, [])
        let trip = try XCTUnwrap(result.schema?.objectType(named: "Trip"))
        XCTAssertEqual(trip.uniqueGroups, [["destination", "startDate"]])
        XCTAssertEqual(trip.indexes, [["startDate", "name"]])
        XCTAssertEqual(trip.property(named: "name")?.isUnique, true)
        XCTAssertEqual(trip.property(named: "destination")?.isUnique, false)
        XCTAssertEqual(result.schema?.objectType(named: "Guide")?.property(named: "badge")?.isUnique, true, "optional values may be unique: null never collides")
    }

    func testTheCanonicalTextKeepsThemOnlyWhereWritten() throws {
        let schema = try XCTUnwrap(try load(Self.trips).schema)
        let text = CanonicalYAML.text(of: schema)
        XCTAssertTrue(text.contains("    unique: [[destination, startDate]]\n"), text)
        XCTAssertTrue(text.contains("    indexes: [[startDate, name]]\n"), text)
        XCTAssertTrue(text.contains("        unique: true\n"), text)
        // Uniqueness changes what a store holds: the storage hash changes with it.
        var without = schema
        without.objects[0].uniqueGroups = []
        XCTAssertNotEqual(without.storageHash, schema.storageHash)
        // A schema without them is written as before (its hash, stores' hashes, unchanged).
        let plain = try XCTUnwrap(try load("objects:\n  Note:\n    primaryKey: id\n    properties:\n      id: uuid\n      text: string\n").schema)
        XCTAssertFalse(CanonicalYAML.text(of: plain).contains("unique"))
        XCTAssertFalse(CanonicalYAML.text(of: plain).contains("indexes"))
    }

    func testTheCanonicalTextLoadsBackToTheSameSchema() throws {
        let schema = try XCTUnwrap(try load(Self.trips).schema)
        let again = try XCTUnwrap(try load(CanonicalYAML.text(of: schema)).schema)
        XCTAssertEqual(again.storageRelevant, schema.storageRelevant)
    }

    func testEveryProblemIsLocated() throws {
        let result = try load(
            """
            objects:
              Trip:
                primaryKey: id
                unique: [[name, nmae], [cost], [stops], [name, name]]
                indexes: [[cost]]
                properties:
                  id: uuid
                  name: string
                  cost: double
                  stops: list<string>
            """)
        XCTAssertNil(result.schema)
        XCTAssertEqual(
            result.diagnostics.map { "\($0.rule) \($0.location!.line):\($0.location!.column)" },
            ["unknown-property 4:21", "unique-unsupported 4:29", "unique-unsupported 4:37", "group-repeats-property 4:52", "index-unsupported 5:16"])
        XCTAssertEqual(result.diagnostics.first?.hint, "did you mean 'name'?")
    }

    /// Uniqueness that says nothing new is a warning, located: the primary key marked unique, a
    /// group holding a property unique by itself, a group listed again in another order (an
    /// index in another order is another index).
    func testRedundantUniquenessIsAWarning() throws {
        let result = try load(
            """
            objects:
              Room:
                primaryKey: id
                unique: [[floor, number], [number, floor], [code, floor], [code]]
                indexes: [[floor, number], [number, floor]]
                properties:
                  id: { type: int, unique: true }
                  code: { type: string, unique: true }
                  floor: int
                  number: int
            """)
        XCTAssertNotNil(result.schema)
        XCTAssertEqual(
            result.diagnostics.map { "\($0.severity) \($0.rule) \($0.location!.line):\($0.location!.column)" },
            ["warning unique-redundant 4:32", "warning unique-redundant 4:49", "warning unique-redundant 4:64", "warning unique-redundant 7:32"])
        XCTAssertEqual(
            result.diagnostics.map(\.message),
            [
                "'unique' of object 'Room' lists the group (number, floor) twice",
                "'unique' of object 'Room' groups 'code', which is unique by itself, so the group (code, floor) adds nothing",
                "'unique' of object 'Room' groups 'code', which is unique by itself, so the group (code) adds nothing",
                "property 'Room.id' is the primary key, which is unique already",
            ])
        XCTAssertEqual(result.schema?.objectType(named: "Room")?.indexes, [["floor", "number"], ["number", "floor"]])
        // The group of 'code' alone is the unique index 'code' has already: kept once.
        XCTAssertEqual(result.schema?.objectType(named: "Room")?.uniqueGroups, [["floor", "number"], ["code", "floor"]])
    }
}
