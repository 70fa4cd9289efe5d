import Foundation
import RemodelCore
import RemodelStore
import XCTest

/// The generated lookups by unique properties and groups, compiled: each finds its one object,
/// nothing for a value no object holds; a write that collides is refused, and nulls never
/// collide. Also SwiftData's sample trips (`Examples/Trips`), at their last version.
final class UniqueLookupTests: XCTestCase {
    func testEachUniquePropertyAndGroupFindsItsObject() throws {
        try Reference.assertManifest(UniquesManifest.self, matches: "Uniques")
        let store = try Reference.store(UniquesManifest.self, test: self)
        let night = Date(timeIntervalSince1970: 1_800_000_000)
        let next = night.addingTimeInterval(86_400)
        try store.write { db in
            try db.upsert(Booking(id: 1, code: "A1", room: 12, night: night, guest: "Ada"))
            try db.upsert(Booking(id: 2, code: "B2", room: 12, night: next))
            try db.upsert(Booking(id: 3, code: "C3", room: 14, night: night))
        }
        try store.read { db in
            XCTAssertEqual(try db.object(Booking.unique(code: "B2"))?.id, 2)
            XCTAssertEqual(try db.object(Booking.unique(guest: "Ada"))?.id, 1)
            XCTAssertEqual(try db.object(Booking.unique(room: 12, night: next))?.id, 2)
            XCTAssertEqual(try db.object(Booking.unique(room: 14, night: night))?.id, 3)
            XCTAssertNil(try db.object(Booking.unique(room: 14, night: next)))
            XCTAssertNil(try db.object(Booking.unique(code: "Z9")))
        }
        XCTAssertThrowsError(try store.write { try $0.upsert(Booking(id: 4, code: "D4", room: 12, night: next)) }) { error in
            guard case StoreError.notUnique(let type, let properties, _, let holder) = error else { return XCTFail("\(error)") }
            XCTAssertEqual([type, properties.joined(separator: ","), holder], ["Booking", "room,night", "2"])
        }
        XCTAssertEqual(try store.read { try $0.objects(Booking.self).count() }, 3)
    }

    func testTheSampleTripsAreFoundByName() throws {
        let store = try Reference.store(TripsManifest.self, test: self)
        let start = Date(timeIntervalSince1970: 1_775_000_000)
        let paris = Trip(id: UUID(), name: "Paris in spring", destination: "Paris", startDate: start, endDate: start.addingTimeInterval(7 * 86_400))
        try store.write { try $0.upsert(paris) }
        XCTAssertEqual(try store.read { try $0.object(Trip.unique(name: "Paris in spring")) }, paris)
        var again = paris
        again.id = UUID()
        XCTAssertThrowsError(try store.write { try $0.upsert(again) }) { error in
            XCTAssertEqual(
                "\(error)",
                "Trip.name \"Paris in spring\" is already held by the Trip with primary key \"\(paris.id.uuidString)\" (each Trip's name is unique); change one of them, or update that Trip instead; nothing was written"
            )
        }
    }
}
