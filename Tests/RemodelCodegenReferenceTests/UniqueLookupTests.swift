import Foundation
import RemodelCore
import RemodelMigrate
import RemodelPostgres
import RemodelStore
import RemodelTestSupport
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

    /// The same lookups and the same refusal in an app on PostgreSQL.
    func testOnPostgreSQLTheLookupsFindTheSameObjects() throws {
        let server = try PostgresTestServer.shared { XCTSkip($0) }
        let target = try PostgresTarget(server.url(database: try server.makeDatabase()) + "?schema=bookings")
        try PostgresStore.importDocument(
            .object([]), into: target, source: "empty", expectedVersion: nil, recordedSchema: { _ in nil }, create: (UniquesManifest.schema, UniquesManifest.version))
        let store = try PostgresModelStore(at: target, manifest: UniquesManifest.self)
        let night = Date(timeIntervalSince1970: 1_800_000_000)
        try store.write { tx in
            try tx.upsert(Booking(id: 1, code: "A1", room: 12, night: night, guest: "Ada"))
            try tx.upsert(Booking(id: 2, code: "B2", room: 14, night: night))
            try tx.upsert(Booking(id: 3, code: "C3", room: 16, night: night))
        }
        try store.read { tx in
            XCTAssertEqual(try tx.object(Booking.unique(code: "B2"))?.id, 2)
            XCTAssertEqual(try tx.object(Booking.unique(guest: "Ada"))?.id, 1)
            XCTAssertEqual(try tx.object(Booking.unique(room: 16, night: night))?.id, 3)
            XCTAssertNil(try tx.object(Booking.unique(code: "Z9")))
        }
        XCTAssertThrowsError(try store.write { try $0.insert(Booking(id: 4, code: "A1", room: 20, night: night)) }) { error in
            guard case StoreError.notUnique(let type, let properties, let values, let holder) = error else { return XCTFail("\(error)") }
            XCTAssertEqual([type, properties.joined(separator: ","), values, holder], ["Booking", "code", "\"A1\"", "1"])
        }
        XCTAssertEqual(try store.read { try $0.count(Booking.self) }, 3)
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

    /// The manifest embeds the sample trips' history, deduplicate step included: a version 1
    /// store with a trip saved twice opens in the app at version 3 with one trip per name.
    func testTheEmbeddedHistoryDeduplicatesInApp() throws {
        try Reference.assertManifest(TripsManifest.self, matches: "Trips")
        let history = try XCTUnwrap(TripsManifest.history)
        XCTAssertEqual(history.migration(to: 2)?.steps, [.deduplicate(type: "Trip", by: ["name"], keep: .first, orderBy: "start_date")])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-trips-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        let v1 = try RemodelStore(path: path, schema: history.snapshots[0], version: 1)
        let ids = (1...3).map { [UInt8](repeating: UInt8($0), count: 16) }
        try v1.write { tx in
            for (id, start) in zip(ids, [500, 100, 300]) {
                try tx.insert(
                    [
                        "id": .blob(id), "name": .text(start == 300 ? "Kyoto" : "Paris"), "destination": .text("x"), "start_date": .integer(Int64(start)),
                        "end_date": .integer(900), "bucketList": .list([]), "livingAccommodation": .null,
                    ], ofType: "Trip")
            }
        }
        let store = try RemodelStore(path: path, manifest: TripsManifest.self, options: OpenOptions(migrator: Migrator(history: history)))
        let trips = try store.read { try $0.objects(Trip.self).fetchAll() }
        XCTAssertEqual(trips.map(\.name).sorted(), ["Kyoto", "Paris"])
        // The Paris trip that starts first stays.
        XCTAssertEqual(try store.read { try $0.object(Trip.unique(name: "Paris")) }?.id, UUID(uuid: uuid_t(2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2)))
    }
}
