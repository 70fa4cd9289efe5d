import Foundation
import RemodelCore
import RemodelPostgres
import RemodelStore
import RemodelTestSupport
import XCTest

/// Unique properties and groups on PostgreSQL: an import that collides is
/// `StoreError.notUnique` naming the properties, the values and the object holding them, and
/// imports nothing.
final class PostgresUniquenessTests: XCTestCase {
    static let schema = Schema(objects: [
        ObjectType(
            name: "Trip", primaryKey: "id",
            properties: [
                Property("id", .scalar(.int)), Property("name", .scalar(.string), unique: true), Property("destination", .scalar(.string)),
                Property("start", .scalar(.int)),
            ],
            uniqueGroups: [["destination", "start"]])
    ])

    private func trips(_ rows: [(Int, String, String, Int)]) -> JSONValue {
        .object([
            (
                "Trip",
                .array(rows.map { .object([("id", .integer(Int64($0.0))), ("name", .string($0.1)), ("destination", .string($0.2)), ("start", .integer(Int64($0.3)))]) })
            )
        ])
    }

    func testCollidingImportsAreNamedAndImportNothing() throws {
        let server = try PostgresTestServer.shared { XCTSkip($0) }
        let database = try server.makeDatabase()
        let target = try PostgresTarget(server.url(database: database) + "?schema=trips")
        try PostgresStore.importDocument(
            trips([(1, "Paris in spring", "Paris", 100), (2, "Rome", "Rome", 100)]), into: target, source: "first.json", expectedVersion: nil,
            recordedSchema: { _ in nil }, create: (Self.schema, 1))
        XCTAssertThrowsError(
            try PostgresStore.importDocument(
                trips([(3, "Lyon", "Lyon", 5), (4, "Paris in spring", "Nice", 200)]), into: target, source: "second.json", expectedVersion: nil,
                recordedSchema: { _ in Self.schema })
        ) { error in
            guard case StoreError.notUnique(let type, let properties, let values, let holder) = error else { return XCTFail("\(error)") }
            XCTAssertEqual([type, properties.joined(separator: ","), values, holder], ["Trip", "name", "\"Paris in spring\"", "1"])
        }
        XCTAssertThrowsError(
            try PostgresStore.importDocument(
                trips([(5, "Roman holiday", "Rome", 100)]), into: target, source: "third.json", expectedVersion: nil, recordedSchema: { _ in Self.schema })
        ) { error in
            guard case StoreError.notUnique(_, let properties, let values, let holder) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(properties, ["destination", "start"])
            XCTAssertEqual(values, "(\"Rome\", 100)")
            XCTAssertEqual(holder, "2")
        }
        XCTAssertEqual(try server.psql("SELECT count(*) FROM trips.\"Trip\"", database: database).trimmingCharacters(in: .whitespacesAndNewlines), "2")
    }
}
