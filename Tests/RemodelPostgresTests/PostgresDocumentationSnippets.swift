import Foundation
import RemodelExample
import RemodelPostgres
import RemodelStore
import RemodelTestSupport
import XCTest

/// The code of the manual's "PostgreSQL" (Docs/Guides.docc/PostgreSQL.md), as a server app on
/// the example schema writes it; `DocumentationTests` finds the article's Swift block here, and
/// the test below runs it against a throwaway server.
enum PostgresArticleSnippets {
    /// Boots (migrating the store) and handles one request; returns the notes it found.
    static func bootAndHandle(environment: [String: String], person: Person, rex: Dog) throws -> [Note] {
        // At boot (a Vapor app's configure(_:), say), before serving requests:
        let url = environment["DATABASE_URL"] ?? "postgresql://app@localhost/notes?schema=notes"
        let store = try PostgresModelStore(at: PostgresTarget(url), manifest: RemodelSchemaManifest.self, migrate: true)

        // In a handler:
        try store.write { tx in
            try tx.insert(Note(content: "Buy dog food"))
            try tx.upsert(person)  // replaced in place; links to it stay
            try tx.delete(Dog.self, key: rex.id)  // leaves every list it was in
        }
        let notes = try store.read { db in
            try db.objects(Note.self, where: Note.Columns.content.contains("dog"), sortedBy: [Note.Columns.lastEdited.descending])
        }
        return notes
    }
}

final class PostgresDocumentationTests: XCTestCase {
    func testThePostgreSQLArticlesCodeBootsAndServes() throws {
        let server = try PostgresTestServer.shared { XCTSkip($0) }
        let url = server.url(database: try server.makeDatabase()) + "?schema=notes"
        let rex = Dog(name: "Rex")
        let ada = Person(firstName: "Ada", dogs: [rex.id])
        // A store made at version 1 (as `remodel init --version 1` does), then the current app's objects.
        let history = try XCTUnwrap(RemodelSchemaManifest.history)
        _ = try PostgresStore.create(at: PostgresTarget(url), schema: try XCTUnwrap(history.schema(at: 1)), version: 1)
        do {
            let store = try PostgresModelStore(at: PostgresTarget(url), manifest: RemodelSchemaManifest.self, migrate: true)
            try store.write { tx in
                try tx.insert(rex)
                try tx.insert(ada)
            }
        }
        var renamed = ada
        renamed.lastName = "Lovelace"
        let notes = try PostgresArticleSnippets.bootAndHandle(environment: ["DATABASE_URL": url], person: renamed, rex: rex)
        XCTAssertEqual(notes.map(\.content), ["Buy dog food"])
        let store = try PostgresModelStore(at: PostgresTarget(url), manifest: RemodelSchemaManifest.self)
        let person = try XCTUnwrap(try store.read { try $0.objects(Person.self).first })
        XCTAssertEqual(person.lastName, "Lovelace", "the upsert replaced the person in place")
        XCTAssertEqual(person.dogs, [], "the deleted dog left the person's list")
    }
}
