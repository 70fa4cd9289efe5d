import Foundation
import RemodelCore
import RemodelExample
import RemodelStore
import RemodelTestSupport
import XCTest

@testable import RemodelPostgres

/// `PostgresModelStore.observe` over LISTEN/NOTIFY: the value at once, then after the commits
/// of this store, another store and another process that change a type the fetch read; not
/// after commits to other types; `remodel import`'s commits; cancellation stops listening;
/// the async `read` and `write`; and `localizedStandardContains` in filters.
final class PostgresLiveDataTests: XCTestCase {
    private var server: PostgresTestServer!
    private var database: String!
    private var target: PostgresTarget!

    override func setUpWithError() throws {
        server = try PostgresTestServer.shared { XCTSkip($0) }
        database = try server.makeDatabase()
        target = try PostgresTarget(server.url(database: database) + "?schema=app")
        try PostgresStore.importDocument(
            .object([]), into: target, source: "empty", expectedVersion: nil, recordedSchema: { _ in nil },
            create: (RemodelSchemaManifest.schema, RemodelSchemaManifest.version))
    }

    func testCommitsOfThisStoreAnotherStoreAndAnotherProcessAreSeen() async throws {
        let store = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)
        let other = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)
        let fetches = Mutex(0)
        let contents = ObservedValues(
            store.observe { tx in
                fetches.withLock { $0 += 1 }
                return try tx.objects(Note.self).map(\.content).sorted()
            })
        defer { contents.task?.cancel() }
        let first = await contents.wait { $0 == [[]] }
        XCTAssertTrue(first, "\(contents.values)")
        XCTAssertEqual(store.hub.channel, "remodel_app")

        try await store.write { tx in try tx.insert(Note(identifier: "a", content: "Walk Rex")) }
        let own = await contents.wait { $0.last == ["Walk Rex"] }
        XCTAssertTrue(own, "\(contents.values)")
        try await other.write { tx in try tx.insert(Note(identifier: "b", content: "Feed Rex")) }
        let others = await contents.wait { $0.last == ["Feed Rex", "Walk Rex"] }
        XCTAssertTrue(others, "\(contents.values)")

        // A commit to a type the fetch did not read runs no fetch.
        let before = fetches.withLock { $0 }
        try await other.write { tx in try tx.insert(Dog(name: "Rex")) }
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(fetches.withLock { $0 }, before, "a commit to Dog fetched the notes again")

        // Another process, psql, announcing its write as the documentation says.
        try server.psql("UPDATE app.\"Note\" SET content = 'Walk Rex twice' WHERE identifier = 'a'; SELECT pg_notify('remodel_app', 'Note');", database: database)
        let started = Date()
        let fromProcess = await contents.wait { $0.last == ["Feed Rex", "Walk Rex twice"] }
        XCTAssertTrue(fromProcess, "\(contents.values)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.25, "seen within 250 ms")

        // A delete reaches other types' links: every observation fetches again.
        try await other.write { tx in try tx.delete(Note.self, key: "b") }
        let deleted = await contents.wait { $0.last == ["Walk Rex twice"] }
        XCTAssertTrue(deleted, "\(contents.values)")
    }

    /// One object by key, nil once deleted, and its projection only when that changes.
    func testOneObjectByKeyAndItsProjection() async throws {
        let store = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)
        let ada = Person(_id: ObjectID("65a1b2c3d4e5f60718293a4b")!, firstName: "Ada", lastName: "Lovelace")
        let object = ObservedValues(store.observe(Person.self, key: ada.id))
        let profile = ObservedValues(store.observe(Person.self, key: ada.id, as: Profile.init))
        defer {
            object.task?.cancel()
            profile.task?.cancel()
        }
        _ = await object.wait { $0.count == 1 }
        try await store.write { tx in try tx.insert(ada) }
        let inserted = await object.wait { $0.last == ada }
        XCTAssertTrue(inserted, "\(object.values)")
        var renamed = ada
        renamed.company = "Analytical Engines"
        try await store.write { [renamed] tx in try tx.upsert(renamed) }
        let updated = await object.wait { $0.last == renamed }
        XCTAssertTrue(updated, "\(object.values)")
        try await store.write { tx in _ = try tx.delete(Person.self, key: ada.id) }
        let deleted = await object.wait { $0.count == 4 && $0.last == .some(nil) }
        XCTAssertTrue(deleted, "\(object.values)")
        let profiles = await profile.wait { $0.count == 3 }
        XCTAssertTrue(profiles, "\(profile.values)")
        XCTAssertEqual(profile.values.map { $0?.firstName }, [nil, "Ada", nil])
    }

    /// An import (what `remodel import` runs) is announced: observations fetch again.
    func testAnImportIsSeen() async throws {
        let store = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)
        let count = ObservedValues(store.observe { tx in try tx.count(Note.self) })
        defer { count.task?.cancel() }
        _ = await count.wait { $0 == [0] }
        try PostgresStore.importDocument(
            .object([("Note", .array([.object([("identifier", .string("i")), ("content", .string("imported")), ("lastEdited", .string("2026-01-01T00:00:00Z"))])]))]),
            into: target, source: "notes.json", expectedVersion: nil, recordedSchema: { _ in RemodelSchemaManifest.schema })
        let seen = await count.wait { $0.last == 1 }
        XCTAssertTrue(seen, "\(count.values)")
    }

    /// Cancelling the consuming task ends the observation; the channel is no longer listened to
    /// once no observation is left.
    func testCancellationStopsListening() async throws {
        let store = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)
        let count = ObservedValues(store.observe { tx in try tx.count(Note.self) })
        _ = await count.wait { $0 == [0] }
        XCTAssertEqual(store.commitSubscribers.count, 1)
        XCTAssertTrue(store.hub.isListening)
        let listening = try server.psql("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'", database: database)
        XCTAssertEqual(listening.trimmingCharacters(in: .whitespacesAndNewlines), "1")
        count.task?.cancel()
        let ended = await count.wait { _ in store.commitSubscribers.count == 0 && !store.hub.isListening }
        XCTAssertTrue(ended)
        try await store.write { tx in try tx.insert(Note(identifier: "late", content: "after")) }
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertEqual(count.values, [0])
    }

    /// The async `read` and `write`: a task cancelled before the write starts writes nothing.
    func testAsyncReadAndWrite() async throws {
        let store = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)
        try await store.write { tx in try tx.insert(Note(identifier: "a", content: "Walk Rex")) }
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            try await store.write { tx in try tx.insert(Note(identifier: "b", content: "too late")) }
        }
        task.cancel()
        do {
            try await task.value
            XCTFail("the cancelled write ran")
        } catch is CancellationError {}
        let contents = try await store.read { tx in try tx.objects(Note.self).map(\.content) }
        XCTAssertEqual(contents, ["Walk Rex"])
    }

    /// The texts and queries of SQLite's test (`TextSearchTests`), with Foundation's answers.
    func testLocalizedStandardContainsIgnoresCaseAndDiacriticsAsFoundationDoes() async throws {
        let store = try PostgresModelStore(at: target, manifest: RemodelSchemaManifest.self)
        let texts = [
            "Café au lait", "CAFÉ NOIR", "cafe", "Kaffee", "Crème brûlée", "naïve résumé", "ÅNGSTRÖM units", "ｆｕｌｌ ｗｉｄｔｈ", "plain ascii Text", "",
            "ΣΟΦΊΑ", "Ελληνικά", "ПРИВЕТ мир", "İstanbul", "Straße", "Øresund",
        ]
        try await store.write { tx in
            for (index, text) in texts.enumerated() { try tx.insert(Note(identifier: "n\(index)", content: text, lastEdited: Date(timeIntervalSince1970: 0))) }
        }
        for query in [
            "CAFE", "café", "creme BRULEE", "RESUME", "ångström", "full", "TEXT", "xyz", "e", "σοφια", "ελληνικα", "привет", "%", "_", "STRASSE", "straße", "oresund", "øresund",
        ] {
            let found = try await store.read { tx in
                try tx.objects(Note.self, where: Note.Columns.content.localizedStandardContains(query)).map(\.content).sorted()
            }
            let expected = texts.filter { $0.range(of: query, options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]) != nil }.sorted()
            XCTAssertEqual(found, expected, query)
        }
    }
}
