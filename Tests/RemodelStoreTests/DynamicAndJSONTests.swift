import Foundation
import RemodelCore
import XCTest

@testable import RemodelStore

final class DynamicAndJSONTests: XCTestCase {
    private func populate(_ store: RemodelStore) throws {
        let rex = TestDog(_id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, weight: 12)
        let ada = TestPerson(
            _id: ObjectID("65a1b2c3d4e5f60718293a4b")!, firstName: "Ada 👩‍💻", company: "", businessUnit: .customerEngineering,
            profileImageUrl: URL(string: "https://example.com/ada.png"), dogs: [rex.id, rex.id])
        try store.write { tx in
            try tx.insert(rex)
            try tx.insert(ada)
            try tx.insert(TestNote(identifier: "n1", content: "line\nbreak \"quoted\" \u{1}", lastEdited: Date(timeIntervalSince1970: 1_700_000_000.000001)))
            try tx.insert(
                Sample(
                    id: Int(Int64.max), flag: true, tiny: -1, large: Int64.min, single: 0.1, double: 1e-300, text: "",
                    bytes: Data(), date: Date(timeIntervalSince1970: -62_135_596_800), amount: Decimal(string: "-0.000001")!,
                    priority: .low, maybeText: nil, address: Address(street: "Rue", since: Date(timeIntervalSince1970: 0.5), photo: Data([0xff])),
                    owner: ada.id, tags: ["x", "", "x"], scores: [-1], attributes: ["k": "v", "": ""], sparse: [nil, 2],
                    addresses: [Address(street: "A")], priorities: [.high], friends: [ada.id]))
            try tx.insert(LogEntry(message: "hello", level: 3))
        }
    }

    func testExportThenImportRoundTripsExactly() throws {
        let folder = TemporaryFolder()
        let original = try makeStore(folder, name: "a.db")
        try populate(original)
        let exported = try original.read { try StoreJSON.export($0) }
        let text = exported.prettyText

        let copy = try makeStore(folder, name: "b.db")
        var parser = JSONParser(text)
        try StoreJSON.importDocument(try parser.parse(), into: copy)
        XCTAssertEqual(try copy.read { try StoreJSON.export($0) }.prettyText, text)
        // And the models read back equal.
        XCTAssertEqual(try copy.read { try $0.objects(Sample.self).fetchAll() }, try original.read { try $0.objects(Sample.self).fetchAll() })
        XCTAssertEqual(try copy.read { try $0.objects(TestPerson.self).fetchAll() }, try original.read { try $0.objects(TestPerson.self).fetchAll() })
        XCTAssertEqual(try copy.read { try $0.objects(TestNote.self).fetchAll() }, try original.read { try $0.objects(TestNote.self).fetchAll() })
    }

    func testExportUsesTheDocumentedJSONForms() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        try populate(store)
        let json = try store.read { try StoreJSON.export($0) }
        let note = json["Note"].flatMap { if case .array(let a) = $0 { a.first } else { nil } }
        XCTAssertEqual(note?["lastEdited"], .string("2023-11-14T22:13:20.000001Z"))
        let person = json["Person"].flatMap { if case .array(let a) = $0 { a.first } else { nil } }
        XCTAssertEqual(person?["_id"], .string("65a1b2c3d4e5f60718293a4b"))
        XCTAssertEqual(person?["businessUnit"], .string("Customer Engineering"))
        XCTAssertEqual(person?["dogs"], .array([.string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")]))
        let sample = json["Sample"].flatMap { if case .array(let a) = $0 { a.first } else { nil } }
        XCTAssertEqual(sample?["bytes"], .string(""))
        XCTAssertEqual(sample?["date"], .string("0001-01-01T00:00:00Z"))
        XCTAssertEqual(sample?["amount"], .string("-0.000001"))
        XCTAssertEqual(sample?["priority"], .integer(1))
        XCTAssertEqual(sample?["maybeText"], .null)
        XCTAssertEqual(sample?["address"], .object([("photo", .string("/w==")), ("since", .string("1970-01-01T00:00:00.500000Z")), ("street", .string("Rue"))]))
        XCTAssertEqual(sample?["attributes"], .object([("", .string("")), ("k", .string("v"))]))
        XCTAssertEqual(sample?["sparse"], .array([.null, .integer(2)]))
    }

    func testImportValidatesEverythingFirstAndNamesTheObjects() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let path = folder.file("store.db")
        try store.checkpoint()
        let document = """
            {
              "Note": [
                { "identifier": "ok", "content": "fine" },
                { "identifier": "bad", "content": 42 },
                { "identifier": "late", "content": "x", "lastEdited": "yesterday" }
              ],
              "Person": [ { "_id": "65a1b2c3d4e5f60718293a4b", "businessUnit": "Sales", "nickname": "x" } ],
              "Dgo": []
            }
            """
        var parser = JSONParser(document)
        let before = fileBytes(path)
        assertStoreError(
            try StoreJSON.importDocument(try parser.parse(), into: store, source: "data.json"),
            contains: [
                "cannot import data.json; nothing was imported",
                "data.json: Note[1].content: expected a string, found an integer",
                "data.json: Note[2].lastEdited: \"yesterday\" is not an ISO 8601 date-time",
                "data.json: Person[0].businessUnit: \"Sales\" is not a raw value of BusinessUnitEnum (one of: Customer Engineering, Engineering)",
                "data.json: Person[0].nickname: Person has no stored property 'nickname'",
                "data.json: 'Dgo' is not an object type of the store's schema; did you mean 'Dog'?",
            ])
        XCTAssertEqual(try store.read { try $0.count(TestNote.self) }, 0)
        XCTAssertEqual(fileBytes(path)[0], before[0])
    }

    func testImportRefusesDanglingLinksAndDuplicateKeys() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        var parser = JSONParser(
            """
            { "Person": [ { "_id": "65a1b2c3d4e5f60718293a4b", "dogs": ["00000000-0000-0000-0000-000000000009"] } ] }
            """)
        assertStoreError(
            try StoreJSON.importDocument(try parser.parse(), into: store),
            contains: [
                "cannot import the data; nothing was imported",
                "the data: Person[0].dogs[0]: links to Dog \"00000000-0000-0000-0000-000000000009\", which is neither in the store nor in the file",
            ])
        XCTAssertEqual(try store.read { try $0.count(TestPerson.self) }, 0)
        var duplicate = JSONParser(
            """
            { "Note": [ { "identifier": "a", "content": "" }, { "identifier": "a", "content": "" } ] }
            """)
        assertStoreError(try StoreJSON.importDocument(try duplicate.parse(), into: store), contains: ["Note[1].identifier: the primary key \"a\" appears twice in Note"])
    }

    func testDynamicObjectsUseDefaults() throws {
        let folder = TemporaryFolder()
        let store = try RemodelStore(path: folder.file("store.db"), schema: TestSchemaManifest.schema, version: 1)
        try store.write { tx in try tx.insert(["content": .text("hi")], ofType: "Note") }
        let note = try XCTUnwrap(try store.read { try $0.dynamicObjects(ofType: "Note").first })
        guard case .text(let identifier) = note["identifier"], UUID(uuidString: identifier) != nil else { return XCTFail("no generated key: \(note)") }
        try store.write { tx in try tx.insert(["_id": ObjectID().storeValue], ofType: "Person") }
        let person = try XCTUnwrap(try store.read { try $0.dynamicObjects(ofType: "Person").first })
        XCTAssertEqual(person["company"], .text("MongoDB"))
        XCTAssertEqual(person["businessUnit"], .text("Engineering"))
        XCTAssertEqual(person["dogs"], .list([]))
        assertStoreError(try store.write { tx in try tx.insert(["nope": .null], ofType: "Note") }, contains: ["'Note' has no property 'nope'"])
        assertStoreError(try store.write { tx in try tx.insert([:], ofType: "Cat") }, contains: ["'Cat' is not an object type"])
    }

    func testADateOnlyDefaultIsStoredAsMidnightUTC() throws {
        let folder = TemporaryFolder()
        let schema = Schema(objects: [
            ObjectType(
                name: "Event", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)),
                    Property("day", .scalar(.date), default: .string("2024-05-01")),
                    Property("noon", .scalar(.date), default: .string("2024-05-01T14:00+02")),
                ])
        ])
        let store = try RemodelStore(path: folder.file("store.db"), schema: schema, version: 1)
        try store.write { tx in try tx.insert(["id": .integer(1)], ofType: "Event") }
        let event = try XCTUnwrap(try store.read { try $0.dynamicObjects(ofType: "Event").first })
        XCTAssertEqual(event["day"], .integer(1_714_521_600_000_000), "2024-05-01T00:00:00Z, as microseconds, not the text")
        XCTAssertEqual(event["noon"], .integer(1_714_521_600_000_000 + 12 * 3_600_000_000))
    }

    func testDateTextForms() {
        let midnight: Int64 = 1_714_521_600_000_000  // 2024-05-01T00:00:00Z
        let hour: Int64 = 3_600_000_000
        let accepted: [(String, Int64)] = [
            ("2024-05-01", midnight),
            ("2024-05-01T12:30Z", midnight + 12 * hour + 30 * 60_000_000),
            ("2024-05-01t12:30z", midnight + 12 * hour + 30 * 60_000_000),
            ("2024-05-01 12:30:15Z", midnight + 12 * hour + 30 * 60_000_000 + 15_000_000),
            ("2024-05-01T12:30:15.5Z", midnight + 12 * hour + 30 * 60_000_000 + 15_500_000),
            ("2024-05-01T00:00:00.123456789Z", midnight + 123_457),
            ("2024-05-01T00:00:00.0000004Z", midnight),
            ("2024-05-01T02:00+02", midnight),
            ("2024-05-01T02:00:00+0200", midnight),
            ("2024-05-01T02:00:00+02:00", midnight),
            ("2024-04-30T23:15:00-00:45", midnight),
            ("2024-02-29", 1_709_164_800_000_000),
            ("2000-02-29", 951_782_400_000_000),
        ]
        for (text, micros) in accepted {
            XCTAssertEqual(StoreDateFormat.microseconds(from: text), micros, text)
        }
        let rejected = [
            "2024-05-01T12:00:00+99:99", "2024-05-01T12:00:00+24:00", "2024-05-01T12:00:00+02:60", "2024-05-01T12:00+2",
            "2023-02-29", "1900-02-29", "2024-04-31", "2024-13-01", "2024-00-10", "2024-05-00", "2024-5-1",
            "2024-05-01T24:00Z", "2024-05-01T12:60Z", "2024-05-01T12:30:60Z", "2024-05-01T12Z", "2024-05-01T12:30",
            "2024-05-01T12:30.5Z", "2024-05-01T12:30:00.Z", "2024-05-01T12:30:00.1234567890Z", "2024-05-01Z", "2024-05-01T",
            "2024-05-01 ", "24-05-01", "", "yesterday",
        ]
        for text in rejected {
            XCTAssertNil(StoreDateFormat.microseconds(from: text), text)
        }
        XCTAssertEqual(StoreDateFormat.string(microseconds: midnight), "2024-05-01T00:00:00Z", "formatting is unchanged")
        XCTAssertEqual(StoreDateFormat.string(microseconds: midnight + 250_000), "2024-05-01T00:00:00.250000Z")
    }

    func testJSONParserAndDates() throws {
        var parser = JSONParser(#"{"a": [1, -2.5e3, "\u00e9\ud83d\ude00\n", true, null, 9223372036854775807]}"#)
        XCTAssertEqual(try parser.parse(), .object([("a", .array([.integer(1), .double(-2500), .string("é😀\n"), .bool(true), .null, .integer(Int64.max)]))]))
        var bad = JSONParser("{\"a\": [1,]}")
        XCTAssertThrowsError(try bad.parse()) { XCTAssertEqual(($0 as? JSONSyntaxError)?.description, "1:10: unexpected character ']'") }
        XCTAssertEqual(StoreDateFormat.microseconds(from: "2024-02-29T23:59:59.9999995+01:00"), StoreDateFormat.microseconds(from: "2024-02-29T23:00:00Z"))
        XCTAssertNil(StoreDateFormat.microseconds(from: "2023-02-29T00:00:00Z"))
        for micros: Int64 in [0, 1, -1, 1_700_000_000_123_456, -62_135_596_800_000_000, 253_402_300_799_999_999] {
            XCTAssertEqual(StoreDateFormat.microseconds(from: StoreDateFormat.string(microseconds: micros)), micros)
        }
    }
}
