import Foundation
import RemodelCore
import XCTest

@testable import RemodelStore

final class WriteReadTests: XCTestCase {
    func testInsertAndReadByKey() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let note = TestNote(identifier: "n1", content: "Hello, wörld 👋", lastEdited: Date(timeIntervalSince1970: 1_700_000_000.123456))
        try store.write { tx in try tx.insert(note) }
        let read = try store.read { db in try db.object(TestNote.self, forKey: "n1") }
        XCTAssertEqual(read, note)
        XCTAssertNil(try store.read { db in try db.object(TestNote.self, forKey: "missing") })
        XCTAssertEqual(try store.read { db in try db.count(TestNote.self) }, 1)
    }

    func testWriteReturnsValueAndRollsBackOnThrow() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let count = try store.write { tx -> Int in
            try tx.insert(TestNote(identifier: "a", content: "a"))
            return try tx.count(TestNote.self)
        }
        XCTAssertEqual(count, 1)
        struct Boom: Error {}
        XCTAssertThrowsError(
            try store.write { tx in
                try tx.insert(TestNote(identifier: "b", content: "b"))
                throw Boom()
            }
        ) { XCTAssertTrue($0 is Boom) }
        XCTAssertEqual(try store.read { try $0.objects(TestNote.self).fetchAll().map(\.identifier) }, ["a"])
    }

    func testInsertDuplicateKeyFailsAndUpsertReplaces() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        try store.write { tx in try tx.insert(TestNote(identifier: "k", content: "one")) }
        assertStoreError(
            try store.write { tx in try tx.insert(TestNote(identifier: "k", content: "two")) },
            contains: ["a Note with primary key \"k\" already exists", "use upsert"])
        try store.write { tx in try tx.upsert(TestNote(identifier: "k", content: "two")) }
        XCTAssertEqual(try store.read { try $0.object(TestNote.self, forKey: "k")?.content }, "two")
        XCTAssertEqual(try store.read { try $0.count(TestNote.self) }, 1)
    }

    func testUpdateRequiresExistingObject() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        assertStoreError(try store.write { tx in try tx.update(TestNote(identifier: "x", content: "")) }, contains: ["no Note with primary key \"x\" exists"])
        try store.write { tx in try tx.insert(TestNote(identifier: "x", content: "old")) }
        try store.write { tx in try tx.update(TestNote(identifier: "x", content: "new")) }
        XCTAssertEqual(try store.read { try $0.object(TestNote.self, forKey: "x")?.content }, "new")
    }

    func testDeleteByValueKeyAndAll() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let notes = (0..<5).map { TestNote(identifier: "n\($0)", content: "\($0)") }
        try store.write { tx in for note in notes { try tx.insert(note) } }
        try store.write { tx in
            XCTAssertTrue(try tx.delete(notes[0]))
            XCTAssertTrue(try tx.delete(TestNote.self, key: "n1"))
            XCTAssertFalse(try tx.delete(TestNote.self, key: "n1"))
        }
        XCTAssertEqual(try store.read { try $0.count(TestNote.self) }, 3)
        XCTAssertEqual(try store.write { try $0.deleteAll(TestNote.self) }, 3)
        XCTAssertEqual(try store.read { try $0.count(TestNote.self) }, 0)
    }

    func testEveryPropertyTypeAndCollectionRoundTrips() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let person = TestPerson(firstName: "Ada")
        let sample = Sample(
            id: 7, flag: true, tiny: -128, small: 32767, medium: -2_147_483_648, large: Int64.max, single: 1.5, double: -0.1,
            text: "tab\t\"quote\" ✓ \0 nul", bytes: Data([0, 1, 2, 255]), date: Date(timeIntervalSince1970: -1.5),
            amount: Decimal(string: "12345678901234567890.123456789")!, objectId: ObjectID("0123456789abcdef01234567")!,
            uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, link: URL(string: "https://example.com/a?b=c#d")!,
            unit: .customerEngineering, priority: .high, maybeInt: 0, maybeText: "", maybeDate: Date(timeIntervalSince1970: 1_600_000_000),
            maybeUUID: UUID(), address: Address(street: "Main St", since: Date(timeIntervalSince1970: 86400.000001), photo: Data([9, 8])),
            owner: person.id, tags: ["b", "a", "b", ""], scores: [3, 1, 2], attributes: ["x": "1", "": "empty key"],
            sparse: [1, nil, 3], addresses: [Address(street: "One"), Address(street: "Two")], priorities: [.low, .high, .low],
            friends: [person.id]
        )
        let empty = Sample(id: 8)
        try store.write { tx in
            try tx.insert(person)
            try tx.insert(sample)
            try tx.insert(empty)
        }
        let (readSample, readEmpty) = try store.read { db in (try db.object(Sample.self, forKey: 7), try db.object(Sample.self, forKey: 8)) }
        XCTAssertEqual(readSample, sample)
        XCTAssertEqual(readEmpty, empty)
        // Upsert replaces collections instead of appending to them.
        var changed = sample
        changed.tags = ["z"]
        changed.scores = []
        changed.attributes = ["y": "2"]
        try store.write { tx in try tx.upsert(changed) }
        XCTAssertEqual(try store.read { try $0.object(Sample.self, forKey: 7) }, changed)
    }

    func testDatesAreStoredToTheMicrosecond() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let date = Date(timeIntervalSince1970: 1_700_000_000.1234567)
        try store.write { tx in try tx.insert(TestNote(identifier: "d", content: "", lastEdited: date)) }
        let stored = try rawSQL(folder.file("store.db"), "SELECT \"lastEdited\" FROM \"Note\"")
        XCTAssertEqual(stored, [[.integer(1_700_000_000_123_457)]])
        let read = try XCTUnwrap(try store.read { try $0.object(TestNote.self, forKey: "d") })
        XCTAssertEqual(read.lastEdited.timeIntervalSince1970, 1_700_000_000.123457, accuracy: 0.000_000_5)
    }

    func testKeylessModel() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        try store.write { tx in
            try tx.insert(LogEntry(message: "a", level: 1))
            try tx.insert(LogEntry(message: "a", level: 1))
            try tx.insert(LogEntry(message: "b", level: 2))
        }
        XCTAssertEqual(try store.read { try $0.objects(LogEntry.self).filter(LogEntry.Columns.message == "a").count() }, 2)
        XCTAssertEqual(try store.write { try $0.objects(LogEntry.self).filter { $0.level == 2 }.deleteAll() }, 1)
        XCTAssertEqual(try store.read { try $0.count(LogEntry.self) }, 2)
    }

    func testUnknownEnumValueOnDiskNamesTypePropertyAndValue() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let person = TestPerson(firstName: "Grace")
        try store.write { tx in try tx.insert(person) }
        _ = try rawSQL(folder.file("store.db"), "UPDATE \"Person\" SET \"businessUnit\" = 'Marketing'")
        assertStoreError(
            try store.read { try $0.object(TestPerson.self, forKey: person.id) },
            contains: ["Person.businessUnit", "\"Marketing\"", "not a raw value of any case of BusinessUnitEnum"])
    }

    func testWriteInReadIsRefused() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        assertStoreError(try store.read { try $0.objects(TestNote.self).deleteAll() }, contains: ["needs a write transaction"])
    }

    func testNestedWriteIsRefusedInsteadOfDeadlocking() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        assertStoreError(try store.write { _ in try store.write { _ in } }, contains: ["inside another write", "use the transaction you already have"])
        try store.write { tx in try tx.insert(TestNote(identifier: "still", content: "works")) }
        XCTAssertEqual(try store.read { try $0.count(TestNote.self) }, 1)
    }
}
