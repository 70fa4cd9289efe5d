#if canImport(RemodelExample)
    import Foundation
    import Observation
    import RemodelCore
    import RemodelExample
    import RemodelTestSupport
    @testable import RemodelStore
    import XCTest

    /// `observe`: the value at once, then after each commit that changes what the fetch read,
    /// from this store, another store on the file or another process; nothing for other
    /// tables; equal values once; bursts coalesced; cancellation ends it. `LiveQuery` on top.
    final class ObservationTests: XCTestCase {
        private static func note(_ id: String, _ content: String) -> Note {
            Note(identifier: id, content: content, lastEdited: Date(timeIntervalSince1970: 1_700_000_000))
        }

        func testTheValueAtOnceThenAfterEachCommitThatChangesWhatTheFetchRead() async throws {
            let folder = TemporaryFolder()
            let store = try RemodelExample.openStore(at: folder.file("notes.db"))
            let contents = ObservedValues(store.observe { db in try db.objects(Note.self).fetchAll().map(\.content).sorted() })
            defer { contents.task?.cancel() }
            let first = await contents.wait { $0 == [[]] }
            XCTAssertTrue(first, "\(contents.values)")
            try await store.write { tx in try tx.insert(Self.note("a", "Walk Rex")) }
            let second = await contents.wait { $0.last == ["Walk Rex"] }
            XCTAssertTrue(second, "\(contents.values)")
            // A commit to a table the fetch did not read wakes nothing; the next note does.
            try await store.write { tx in try tx.insert(Dog(name: "Rex")) }
            try await Task.sleep(nanoseconds: 300_000_000)
            XCTAssertEqual(contents.values.count, 2, "\(contents.values)")
            try await store.write { tx in try tx.insert(Self.note("b", "Feed Rex")) }
            let third = await contents.wait { $0.last == ["Feed Rex", "Walk Rex"] }
            XCTAssertTrue(third, "\(contents.values)")
            // A write that leaves the value as it was delivers nothing (an Equatable value).
            try await store.write { tx in try tx.upsert(Self.note("b", "Feed Rex")) }
            try await Task.sleep(nanoseconds: 300_000_000)
            XCTAssertEqual(contents.values.count, 3, "\(contents.values)")
        }

        /// The store's own commits to other tables run no fetch at all: not through the tables
        /// they name, nor through the file's change counter (which counts only others' commits),
        /// whose file events they still raise. Another process's commit to them runs one.
        func testOwnCommitsToOtherTablesRunNoFetch() async throws {
            let folder = TemporaryFolder()
            let path = folder.file("notes.db")
            let store = try RemodelExample.openStore(at: path)
            let fetches = Mutex(0)
            let counts = ObservedValues(
                store.observe { db in
                    fetches.withLock { $0 += 1 }
                    return try db.objects(Note.self).count()
                })
            defer { counts.task?.cancel() }
            _ = await counts.wait { $0 == [0] }
            for index in 1...20 { try await store.write { tx in try tx.insert(Dog(name: "Rex \(index)")) } }
            try await Task.sleep(nanoseconds: 300_000_000)
            XCTAssertEqual(fetches.withLock { $0 }, 1, "own commits to Dog ran the fetch of notes again")

            let sqlite = Process()
            sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            sqlite.arguments = [path, "PRAGMA busy_timeout = 5000; UPDATE \"Dog\" SET \"weight\" = 2;"]
            try sqlite.run()
            sqlite.waitUntilExit()
            let refetched = await counts.wait { _ in fetches.withLock { $0 } == 2 }
            XCTAssertTrue(refetched, "another process's commit, tables unknown, fetches once: \(fetches.withLock { $0 })")
        }

        /// A commit that lands while the first fetch runs (after its snapshot began, before it
        /// said what it read) is not missed: the observation fetches again after it.
        func testACommitDuringTheFirstFetchIsNotMissed() async throws {
            let folder = TemporaryFolder()
            let store = try RemodelExample.openStore(at: folder.file("notes.db"))
            let started = Mutex(false)
            let counts = ObservedValues(
                store.observe { db in
                    let count = try db.objects(Note.self).count()
                    started.withLock { $0 = true }
                    usleep(200_000)
                    return count
                })
            defer { counts.task?.cancel() }
            while !started.withLock({ $0 }) { try await Task.sleep(nanoseconds: 1_000_000) }
            try await store.write { tx in try tx.insert(Self.note("a", "during the first fetch")) }
            let seen = await counts.wait { $0.last == 1 }
            XCTAssertTrue(seen, "\(counts.values)")
        }

        /// Deleting every object of a type (`DELETE FROM` with no condition, which SQLite may
        /// truncate without telling its update hook) is seen, by observations and by `changes`.
        func testDeletingEveryObjectIsSeen() async throws {
            let folder = TemporaryFolder()
            let store = try RemodelExample.openStore(at: folder.file("notes.db"))
            try await store.write { tx in
                try tx.insert(Self.note("a", "Walk Rex"))
                try tx.insert(Self.note("b", "Feed Rex"))
            }
            let counts = ObservedValues(store.observe { db in try db.objects(Note.self).count() })
            defer { counts.task?.cancel() }
            _ = await counts.wait { $0 == [2] }
            let changes = store.changes(to: Note.self)
            let heard = Mutex<[String]>([])
            let listener = Task { for await change in changes { heard.withLock { $0.append(change.typeName) } } }
            defer { listener.cancel() }
            let deleted = try await store.write { tx in try tx.deleteAll(Note.self) }
            XCTAssertEqual(deleted, 2)
            let seen = await counts.wait { $0.last == 0 }
            XCTAssertTrue(seen, "\(counts.values)")
            let deadline = Date().addingTimeInterval(5)
            while heard.withLock({ $0.isEmpty }) && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
            XCTAssertEqual(heard.withLock { $0 }, ["Note"], "changes(to:) heard of the deletion")
            try await store.write { tx in try tx.insert(Self.note("c", "again")) }
            _ = await counts.wait { $0.last == 1 }
            let queried = try await store.write { tx in try tx.objects(Note.self).deleteAll() }
            XCTAssertEqual(queried, 1)
            let seenAgain = await counts.wait { $0.suffix(2) == [1, 0] }
            XCTAssertTrue(seenAgain, "\(counts.values)")
        }

        /// A hundred commits in a burst while a fetch takes 20 ms: the commits that arrive
        /// during a fetch make one fetch after it, and the last value is the last state.
        func testBurstsAreCoalesced() async throws {
            let folder = TemporaryFolder()
            let store = try RemodelExample.openStore(at: folder.file("notes.db"))
            let counts = ObservedValues(
                store.observe { db in
                    let count = try db.objects(Note.self).count()
                    usleep(20_000)
                    return count
                })
            defer { counts.task?.cancel() }
            _ = await counts.wait { $0 == [0] }
            for index in 1...100 { try await store.write { tx in try tx.insert(Self.note("n\(index)", "note \(index)")) } }
            let reached = await counts.wait { $0.last == 100 }
            XCTAssertTrue(reached, "\(counts.values)")
            XCTAssertLessThan(counts.values.count, 30, "\(counts.values)")
            XCTAssertEqual(counts.values, counts.values.sorted(), "values go forward")
        }

        /// Commits of another store on the file, and of another process (sqlite3), are seen.
        func testCommitsOfAnotherStoreAndAnotherProcessAreSeen() async throws {
            let folder = TemporaryFolder()
            let path = folder.file("notes.db")
            let store = try RemodelExample.openStore(at: path)
            let other = try RemodelExample.openStore(at: path)
            let contents = ObservedValues(store.observe { db in try db.objects(Note.self).fetchAll().map(\.content).sorted() })
            defer { contents.task?.cancel() }
            _ = await contents.wait { $0 == [[]] }
            try await other.write { tx in try tx.insert(Self.note("a", "from the other store")) }
            let fromStore = await contents.wait { $0.last == ["from the other store"] }
            XCTAssertTrue(fromStore, "\(contents.values)")

            let sqlite = Process()
            sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            sqlite.arguments = [path, "PRAGMA busy_timeout = 5000; INSERT INTO \"Note\" VALUES ('b', 'from another process', 0);"]
            try sqlite.run()
            sqlite.waitUntilExit()
            XCTAssertEqual(sqlite.terminationStatus, 0)
            let started = Date()
            let fromProcess = await contents.wait { $0.last == ["from another process", "from the other store"] }
            XCTAssertTrue(fromProcess, "\(contents.values)")
            XCTAssertLessThan(Date().timeIntervalSince(started), 0.25, "seen within 250 ms")
        }

        /// Cancelling the consuming task ends the observation: the file is no longer watched.
        func testCancellationEndsTheObservation() async throws {
            let folder = TemporaryFolder()
            let store = try RemodelExample.openStore(at: folder.file("notes.db"))
            let counts = ObservedValues(store.observe { db in try db.objects(Note.self).count() })
            _ = await counts.wait { $0 == [0] }
            XCTAssertEqual(store.commitSubscribers.count, 1)
            XCTAssertEqual(store.hub.watchedStoreCount, 1)
            counts.task?.cancel()
            let ended = await counts.wait { _ in store.commitSubscribers.count == 0 && store.hub.watchedStoreCount == 0 }
            XCTAssertTrue(ended)
            try await store.write { tx in try tx.insert(Self.note("a", "after")) }
            try await Task.sleep(nanoseconds: 200_000_000)
            XCTAssertEqual(counts.values, [0])
        }

        /// One object by key: nil while there is none, each change, nil once deleted; and a
        /// projection of it, delivered only when the projection changes.
        func testOneObjectByKeyAndItsProjection() async throws {
            let folder = TemporaryFolder()
            let store = try RemodelExample.openStore(at: folder.file("people.db"))
            let ada = Person(_id: ObjectID("65a1b2c3d4e5f60718293a4b")!, firstName: "Ada", lastName: "Lovelace")
            let object = ObservedValues(store.observe(Person.self, key: ada.id))
            let profile = ObservedValues(store.observe(Person.self, key: ada.id, as: Profile.init))
            defer {
                object.task?.cancel()
                profile.task?.cancel()
            }
            _ = await object.wait { $0.count == 1 }
            XCTAssertEqual(object.values, [nil])
            try await store.write { tx in try tx.insert(ada) }
            let inserted = await object.wait { $0.last == ada }
            XCTAssertTrue(inserted)
            var renamed = ada
            renamed.company = "Analytical Engines"
            try await store.write { [renamed] tx in try tx.upsert(renamed) }
            let updated = await object.wait { $0.last == renamed }
            XCTAssertTrue(updated)
            try await store.write { [renamed] tx in try tx.delete(renamed) }
            let deleted = await object.wait { $0.count == 4 && $0.last == .some(nil) }
            XCTAssertTrue(deleted, "\(object.values)")
            // The company is not in the profile: three profiles (none, Ada, none), not four.
            let profiles = await profile.wait { $0.count == 3 }
            XCTAssertTrue(profiles, "\(profile.values)")
            XCTAssertEqual(profile.values.map { $0?.firstName }, [nil, "Ada", nil])
        }

        /// What a SwiftUI view does: reads `value` inside `withObservationTracking` and is told
        /// when it changes.
        @MainActor @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
        func testALiveQueryTellsObservationTrackingOfEachNewValue() async throws {
            let folder = TemporaryFolder()
            let store = try RemodelExample.openStore(at: folder.file("notes.db"))
            try await store.write { tx in try tx.insert(Self.note("a", "first")) }
            let query = try LiveQuery(store) { db in try db.objects(Note.self).fetchAll().map(\.content) }
            XCTAssertEqual(query.value, ["first"], "the first value is there at once")
            let changed = expectation(description: "value changed")
            withObservationTracking {
                _ = query.value
            } onChange: {
                changed.fulfill()
            }
            try await store.write { tx in try tx.insert(Self.note("b", "second")) }
            await fulfillment(of: [changed], timeout: 5)
            let deadline = Date().addingTimeInterval(5)
            while query.value.count < 2 && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
            XCTAssertEqual(query.value.sorted(), ["first", "second"])
            XCTAssertNil(query.error)
        }
    }
#endif
