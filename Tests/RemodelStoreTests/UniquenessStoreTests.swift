import Foundation
import RemodelCore
import XCTest

@testable import RemodelStore

/// Unique properties and groups in a store: a write that collides is `StoreError.notUnique`,
/// naming the type, the properties, the values and the key of the object holding them, and
/// writes nothing; nulls never collide; the primary key stays `duplicateKey`.
final class UniquenessStoreTests: XCTestCase {
    static let schema = Schema(objects: [
        ObjectType(
            name: "Trip", primaryKey: "id",
            properties: [
                Property("id", .scalar(.int)), Property("name", .scalar(.string), unique: true), Property("destination", .scalar(.string)),
                Property("start", .scalar(.int)), Property("badge", .scalar(.string, optional: true), unique: true),
            ],
            uniqueGroups: [["destination", "start"]], indexes: [["start", "name"]])
    ])

    private func trip(_ id: Int64, _ name: String, _ destination: String, _ start: Int64, badge: String? = nil) -> [String: StoreValue] {
        ["id": .integer(id), "name": .text(name), "destination": .text(destination), "start": .integer(start), "badge": badge.map { .text($0) } ?? .null]
    }

    func testCollisionsAreNamedAndWriteNothing() throws {
        let folder = TemporaryFolder()
        let store = try RemodelStore(path: folder.file("trips.db"), schema: Self.schema, version: 1)
        try store.write { tx in
            try tx.insert(trip(1, "Paris in spring", "Paris", 100), ofType: "Trip")
            try tx.insert(trip(2, "Rome", "Rome", 100), ofType: "Trip")
        }
        XCTAssertThrowsError(
            try store.write { tx in
                try tx.insert(trip(3, "Lyon", "Lyon", 5), ofType: "Trip")
                try tx.insert(trip(4, "Paris in spring", "Nice", 200), ofType: "Trip")
            }
        ) { error in
            guard case StoreError.notUnique(let type, let properties, let values, let holder) = error else { return XCTFail("\(error)") }
            XCTAssertEqual([type, properties.joined(separator: ","), values, holder], ["Trip", "name", "\"Paris in spring\"", "1"])
            XCTAssertEqual(
                "\(error)",
                "Trip.name \"Paris in spring\" is already held by the Trip with primary key 1 (each Trip's name is unique); change one of them, or update that Trip instead; nothing was written"
            )
        }
        XCTAssertThrowsError(try store.write { tx in try tx.insert(trip(5, "Roman holiday", "Rome", 100), ofType: "Trip") }) { error in
            guard case StoreError.notUnique(_, let properties, let values, let holder) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(properties, ["destination", "start"])
            XCTAssertEqual(values, "(\"Rome\", 100)")
            XCTAssertEqual(holder, "2")
        }
        XCTAssertThrowsError(try store.write { tx in try tx.insert(trip(1, "Other", "Other", 1), ofType: "Trip") }) { error in
            guard case StoreError.duplicateKey = error else { return XCTFail("the primary key stays duplicateKey: \(error)") }
        }
        // Nothing of the failed transactions was written; nulls never collide.
        let count = try store.read { db in try db.count(ofType: "Trip") }
        XCTAssertEqual(count, 2)
        try store.write { tx in
            try tx.insert(trip(6, "A", "A", 1), ofType: "Trip")
            try tx.insert(trip(7, "B", "B", 1), ofType: "Trip")
        }
        XCTAssertEqual(try store.read { db in try db.count(ofType: "Trip") }, 4)
    }

    func testTheIndexesAreInTheStore() throws {
        let folder = TemporaryFolder()
        _ = try RemodelStore(path: folder.file("trips.db"), schema: Self.schema, version: 1)
        let indexes = try rawSQL(folder.file("trips.db"), "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        XCTAssertEqual(
            indexes.map { "\($0[0])" },
            ["\"Trip.badge.unique\"", "\"Trip.destination.start.unique\"", "\"Trip.name.unique\"", "\"Trip.start.name.index\""].map { $0 })
    }
}
