import Foundation
import RemodelCore
import RemodelStore
import XCTest

/// The example app's reference output (Note, Person, Dog, BusinessUnitEnum, Profile) compiled
/// and used the way an app uses it.
final class ExampleModelTests: XCTestCase {
    func testDefaultsComeFromTheSchema() {
        let before = Date()
        let note = Note(content: "Hello")
        XCTAssertNotNil(UUID(uuidString: note.identifier), "identifier defaults to a UUID string")
        XCTAssertEqual(note.id, note.identifier)
        XCTAssertGreaterThanOrEqual(note.lastEdited, before)
        XCTAssertNotEqual(Note(content: "").identifier, Note(content: "").identifier, "each note gets a fresh UUID")

        let person = Person()
        XCTAssertEqual(person.company, "MongoDB")
        XCTAssertEqual(person.businessUnit, .engineering)
        XCTAssertEqual(person.firstName, "")
        XCTAssertNil(person.profileImageUrl)
        XCTAssertEqual(person.dogs, [])
        XCTAssertEqual(person.id, person._id)
        XCTAssertEqual(Dog().weight, 0)
    }

    func testEnumRawValuesAreTheSchemas() {
        XCTAssertEqual(BusinessUnitEnum.humanResourcesAndRescruiting.rawValue, "Human Resources and Recruiting")
        XCTAssertEqual(BusinessUnitEnum(rawValue: "Education, Community and Docs"), .educationCommunityAndDocs)
        XCTAssertEqual(BusinessUnitEnum.allCases.count, 9)
    }

    func testJSONRoundTrip() throws {
        let dog = Dog(name: "Rex", breed: "Collie", weight: 31, profileImageUrl: URL(string: "https://example.com/rex.png"))
        let person = Person(firstName: "Ada", lastName: "lovelace", businessUnit: .product, dogs: [dog.id])
        XCTAssertEqual(try Reference.jsonRoundTrip(person), person)
        XCTAssertEqual(try Reference.jsonRoundTrip(dog), dog)
        let note = Note(content: "\"quoted\"\n")
        XCTAssertEqual(try Reference.jsonRoundTrip(note), note)
    }

    func testProjection() {
        let dog = Dog(name: "Rex")
        let person = Person(firstName: "Ada", lastName: "lovelace", personId: "p-1", businessUnit: .sales, dogs: [dog.id])
        let profile = Profile(person)
        XCTAssertEqual(profile.firstName, "Ada")
        XCTAssertEqual(profile.lastNameInitial, "L")
        XCTAssertEqual(profile.personId, "p-1")
        XCTAssertEqual(profile.businessUnit, .sales)
        XCTAssertEqual(profile.dogs, [dog.id])
        XCTAssertNil(Profile(Person()).lastNameInitial)
    }

    func testManifestEmbedsTheSchema() throws {
        try Reference.assertManifest(RemodelSchemaManifest.self, matches: "Example")
    }

    func testStoreRoundTrip() throws {
        let store = try Reference.store(RemodelSchemaManifest.self, test: self)
        let rex = Dog(name: "Rex", weight: 31)
        let fido = Dog(name: "Fido", profileImageUrl: URL(string: "https://example.com/fido.png"))
        let ada = Person(firstName: "Ada", businessUnit: .management, dogs: [rex.id, fido.id])
        let note = Note(content: "Buy treats")
        try store.write { tx in
            try tx.upsert(rex)
            try tx.upsert(fido)
            try tx.upsert(ada)
            try tx.upsert(note)
        }
        XCTAssertEqual(try store.read { try $0.object(Person.self, forKey: ada.id) }, ada)
        XCTAssertEqual(try store.read { try $0.object(Note.self, forKey: note.id) }?.content, note.content)
        XCTAssertEqual(try store.read { try $0.objects(Dog.self, forKeys: ada.dogs) }.map(\.name).sorted(), ["Fido", "Rex"])
        let owners = try store.read { try $0.objects(linkingTo: rex, via: Dog.Inverses.person).fetchAll() }
        XCTAssertEqual(owners.map(\.id), [ada.id])
        let found = try store.read { db in try db.objects(Person.self).filter { $0.businessUnit == .management }.fetchAll() }
        XCTAssertEqual(found.map(\.firstName), ["Ada"])
    }
}
