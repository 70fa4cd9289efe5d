import Foundation
import RemodelCore
import XCTest

@testable import RemodelStore

final class LinkTests: XCTestCase {
    func testListOfLinksKeepsOrderAndResolves() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let dogs = (1...3).map { TestDog(weight: $0 * 10) }
        let person = TestPerson(firstName: "Ada", dogs: [dogs[2].id, dogs[0].id, dogs[1].id])
        try store.write { tx in
            try tx.insert(person)  // before its dogs: links are checked at commit
            for dog in dogs { try tx.insert(dog) }
        }
        let resolved = try store.read { db in try db.objects(TestDog.self, forKeys: try db.object(TestPerson.self, forKey: person.id)!.dogs) }
        XCTAssertEqual(resolved.map(\.weight), [30, 10, 20])
    }

    func testInverseRelationship() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let rex = TestDog(weight: 5)
        let fido = TestDog(weight: 7)
        let ada = TestPerson(firstName: "Ada", dogs: [rex.id])
        let bob = TestPerson(firstName: "Bob", dogs: [rex.id, fido.id])
        try store.write { tx in
            for dog in [rex, fido] { try tx.insert(dog) }
            for person in [ada, bob] { try tx.insert(person) }
        }
        let owners = try store.read { db in
            try db.objects(linkingTo: rex, via: TestDog.Inverses.person).sorted(by: TestPerson.Columns.firstName).fetchAll().map(\.firstName)
        }
        XCTAssertEqual(owners, ["Ada", "Bob"])
        XCTAssertEqual(try store.read { try $0.objects(linkingTo: fido.id, via: TestDog.Inverses.person).count() }, 1)
    }

    func testDeletingATargetRemovesItFromListsAndSetsAndNullsToOneLinks() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let rex = TestDog(weight: 5)
        let fido = TestDog(weight: 7)
        let ada = TestPerson(firstName: "Ada", dogs: [rex.id, fido.id, rex.id])
        let sample = Sample(id: 1, owner: ada.id, friends: [ada.id])
        try store.write { tx in
            try tx.insert(rex)
            try tx.insert(fido)
            try tx.insert(ada)
            try tx.insert(sample)
        }
        try store.write { tx in try tx.delete(rex) }
        XCTAssertEqual(try store.read { try $0.object(TestPerson.self, forKey: ada.id)?.dogs }, [fido.id])
        try store.write { tx in try tx.delete(ada) }
        let after = try XCTUnwrap(try store.read { try $0.object(Sample.self, forKey: 1) })
        XCTAssertNil(after.owner)
        XCTAssertEqual(after.friends, [])
        // The person's list rows went with it.
        XCTAssertEqual(try rawSQL(folder.file("store.db"), "SELECT count(*) FROM \"Person.dogs\""), [[.integer(0)]])
    }

    func testDeletingAnOwnerDeletesItsCollectionsAndEmbeddedObjects() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        try store.write { tx in
            try tx.insert(Sample(id: 1, address: Address(street: "x"), tags: ["a", "b"], scores: [1], attributes: ["k": "v"], addresses: [Address(street: "y")]))
        }
        try store.write { tx in try tx.delete(Sample.self, key: 1) }
        for table in ["Sample.tags", "Sample.scores", "Sample.attributes", "Sample.addresses"] {
            XCTAssertEqual(try rawSQL(folder.file("store.db"), "SELECT count(*) FROM \"\(table)\""), [[.integer(0)]], table)
        }
    }

    func testDanglingToOneLinkIsRefusedNamingBothEnds() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let missing = ObjectID("aaaaaaaaaaaaaaaaaaaaaaaa")!
        assertStoreError(
            try store.write { tx in try tx.insert(Sample(id: 9, owner: missing)) },
            contains: ["Sample 9 links through 'owner' to Person \"aaaaaaaaaaaaaaaaaaaaaaaa\", which does not exist"])
        XCTAssertEqual(try store.read { try $0.count(Sample.self) }, 0)
    }

    func testDanglingListLinkIsRefusedNamingBothEnds() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let ghost = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
        let person = TestPerson(_id: ObjectID("0123456789abcdef01234567")!, firstName: "Ada", dogs: [ghost])
        assertStoreError(
            try store.write { tx in try tx.insert(person) },
            contains: ["Person \"0123456789abcdef01234567\" links through 'dogs' to Dog \"00000000-0000-0000-0000-000000000001\", which does not exist", "add that Dog"])
        XCTAssertEqual(try store.read { try $0.count(TestPerson.self) }, 0)
    }

    func testUpsertDoesNotCascadeToObjectsLinkingToIt() throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let rex = TestDog(weight: 5)
        let ada = TestPerson(firstName: "Ada", dogs: [rex.id])
        try store.write { tx in
            try tx.insert(rex)
            try tx.insert(ada)
        }
        try store.write { tx in try tx.upsert(TestDog(_id: rex.id, weight: 6)) }
        XCTAssertEqual(try store.read { try $0.object(TestPerson.self, forKey: ada.id)?.dogs }, [rex.id])
        XCTAssertEqual(try store.read { try $0.object(TestDog.self, forKey: rex.id)?.weight }, 6)
    }
}
