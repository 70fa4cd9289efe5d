import Foundation
import RemodelCore
import RemodelExample
import RemodelMigrate
import RemodelPostgres
import RemodelStore
import RemodelTestSupport
import XCTest

/// The example's generated models (RemodelExample, made by the build plugin) read and written
/// on PostgreSQL through the persistence protocols RemodelStore uses, as a server app does,
/// after migrating at boot with the generated manifest's history.
final class PostgresModelStoreTests: XCTestCase {
    private var server: PostgresTestServer!
    private var target: PostgresTarget!

    override func setUpWithError() throws {
        server = try PostgresTestServer.shared { XCTSkip($0) }
        target = try PostgresTarget(server.url(database: try server.makeDatabase()) + "?schema=app")
    }

    func testAServerMigratesAtBootThenReadsAndWritesTheGeneratedModels() throws {
        // A store left at version 1 by an older release, with one v1 person.
        try PostgresStore.importDocument(
            .object([
                (
                    "Person",
                    .array([
                        .object([
                            ("_id", .string("650000000000000000000001")), ("name", .string("Ada Lovelace")), ("employeeId", .string("E-1")),
                            ("company", .string("MongoDB")), ("businessUnit", .string("Eng")), ("dogs", .array([])),
                        ])
                    ])
                )
            ]),
            into: target, source: "v1", expectedVersion: nil, recordedSchema: { _ in nil }, create: (RemodelSchemaManifest.history!.schema(at: 1)!, 1)
        )
        XCTAssertThrowsError(try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)) { error in
            XCTAssertTrue("\(error)".contains("version 1"), "\(error)")
        }
        let store = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self, migrate: true)
        XCTAssertEqual(try PostgresStore.info(at: target) { _ in nil }.version, RemodelSchemaManifest.version)

        let ada = try XCTUnwrap(try store.read { try $0.objects(Person.self).first })
        XCTAssertEqual([ada.firstName, ada.lastName, ada.personId], ["Ada", "Lovelace", "E-1"])
        XCTAssertEqual(ada.businessUnit, .engineering)

        // Dates are stored to the microsecond, as on SQLite.
        let when = Date(timeIntervalSince1970: 1_800_000_000.25)
        let rex = Dog(name: "Rex", breed: "Collie", weight: 31, dateLastUpdated: when)
        let fido = Dog(name: "Fido", breed: "Mutt", weight: 12, profileImageUrl: URL(string: "https://example.com/fido.png"), dateLastUpdated: when)
        var grace = Person(firstName: "Grace", lastName: "Hopper", businessUnit: .product, dogs: [rex.id, fido.id])
        let note = Note(content: "Buy dog food 🦴")
        try store.write { tx in
            // Links may point at objects added later in the same transaction.
            try tx.insert(grace)
            try tx.insert(rex)
            try tx.insert(fido)
            try tx.insert(note)
        }
        try store.read { db in
            XCTAssertEqual(try db.object(Person.self, forKey: grace.id), grace)
            XCTAssertEqual(try db.object(Dog.self, forKey: fido.id), fido)
            XCTAssertEqual(try db.object(Note.self, forKey: note.id)?.content, "Buy dog food 🦴")
            XCTAssertNil(try db.object(Dog.self, forKey: UUID()))
            XCTAssertEqual(try db.objects(Person.self, where: Person.Columns.businessUnit == .product).map(\.id), [grace.id])
            XCTAssertEqual(try db.objects(Dog.self, where: Dog.Columns.weight > 20).map(\.name), ["Rex"])
            XCTAssertEqual(try db.objects(Dog.self, sortedBy: [Dog.Columns.name.ascending]).map(\.name), ["Fido", "Rex"])
            XCTAssertEqual(try db.objects(Person.self, where: Person.Columns.dogs.contains(fido.id)).map(\.firstName), ["Grace"])
            XCTAssertEqual(try db.objects(Person.self, where: Person.Columns.dogs.isEmpty).map(\.firstName), ["Ada"])
            XCTAssertEqual(try db.count(Person.self, where: Person.Columns.firstName.hasPrefix("Gr") || Person.Columns.lastName.contains("love")), 1)
        }

        // Upsert replaces in place: the list changes, links to the person stay.
        grace.dogs = [fido.id]
        grace.lastName = "Brewster Hopper"
        try store.write { try $0.upsert(grace) }
        XCTAssertEqual(try store.read { try $0.object(Person.self, forKey: grace.id) }, grace)

        // Deleting a dog takes it out of every list, as on SQLite.
        try store.write { tx in
            XCTAssertTrue(try tx.delete(Dog.self, key: fido.id))
            XCTAssertFalse(try tx.delete(Dog.self, key: fido.id))
        }
        XCTAssertEqual(try store.read { try $0.object(Person.self, forKey: grace.id)?.dogs }, [])
        XCTAssertEqual(try store.write { try $0.deleteAll(Dog.self) }, 1)

        // A link to a dog that does not exist fails the transaction, which changes nothing.
        let lonely = Person(firstName: "Linus", dogs: [UUID()])
        XCTAssertThrowsError(try store.write { try $0.insert(lonely) }) { error in
            XCTAssertTrue("\(error)".contains("a link points at an object that does not exist"), "\(error)")
        }
        XCTAssertNil(try store.read { try $0.object(Person.self, forKey: lonely.id) })
        XCTAssertThrowsError(try store.write { try $0.insert(grace) }) { error in
            XCTAssertTrue("\(error)".contains("a Person with primary key "), "\(error)")
        }
    }

    func testAStoreOfAnotherSchemaIsRefused() throws {
        let other = Schema(objects: [ObjectType(name: "Note", primaryKey: "id", properties: [Property("id", PropertyType(.scalar(.string)))])])
        try PostgresStore.create(at: target, schema: other, version: RemodelSchemaManifest.version)
        XCTAssertThrowsError(try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)) { error in
            XCTAssertTrue("\(error)".contains("different schema") || "\(error)".contains("schema hash"), "\(error)")
        }
    }
}
