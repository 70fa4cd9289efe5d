#if canImport(RemodelExample)
    import Foundation
    import RemodelExample
    @testable import RemodelStore
    import XCTest

    /// `try await store.read { }` and `write { }`: the caller's actor stays free while they run;
    /// a task cancelled before they start writes nothing.
    final class AsyncAccessTests: XCTestCase {
        private func note(_ id: String) -> Note {
            Note(identifier: id, content: "note \(id)", lastEdited: Date(timeIntervalSince1970: 1_700_000_000))
        }

        @MainActor
        func testTheMainActorRunsWhileAWriteAndAReadTakeTheirTime() async throws {
            let folder = TemporaryFolder()
            let store = try RemodelExample.openStore(at: folder.file("notes.db"))
            var ticks = 0
            let ticker = Task { @MainActor in
                while !Task.isCancelled {
                    ticks += 1
                    try? await Task.sleep(nanoseconds: 10_000_000)
                }
            }
            let inserted = note("a")
            try await store.write { tx in
                usleep(300_000)
                try tx.insert(inserted)
            }
            let during = ticks
            XCTAssertGreaterThan(during, 5, "the main actor was blocked by the write")
            let contents = try await store.read { db in
                usleep(200_000)
                return try db.objects(Note.self).fetchAll().map(\.content)
            }
            ticker.cancel()
            XCTAssertEqual(contents, ["note a"])
            XCTAssertGreaterThan(ticks, during + 5, "the main actor was blocked by the read")
        }

        func testACancelledTaskWritesNothing() async throws {
            let folder = TemporaryFolder()
            let store = try RemodelExample.openStore(at: folder.file("notes.db"))
            let task = Task {
                while !Task.isCancelled { await Task.yield() }
                try await store.write { tx in try tx.insert(Note(identifier: "late", content: "too late")) }
            }
            task.cancel()
            do {
                try await task.value
                XCTFail("the write ran")
            } catch is CancellationError {}
            let count = try await store.read { db in try db.objects(Note.self).count() }
            XCTAssertEqual(count, 0)
        }
    }
#endif
