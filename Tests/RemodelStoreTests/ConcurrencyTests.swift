import Foundation
import RemodelCore
import XCTest

@testable import RemodelStore

final class ConcurrencyTests: XCTestCase {
    func testChangeNotificationsArriveAfterCommitPerType() async throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        let people = store.changes(to: TestPerson.self)
        let dogs = store.changes(to: TestDog.self)
        var peopleIterator = people.makeAsyncIterator()
        var dogIterator = dogs.makeAsyncIterator()

        let rex = TestDog(weight: 1)
        try await store.write { tx in try tx.insert(rex) }
        let firstDogChange = await dogIterator.next()
        XCTAssertEqual(firstDogChange?.typeName, "Dog")

        // A rolled-back write notifies nobody; the next commit does.
        struct Abort: Error {}
        do {
            try await store.write { tx in
                try tx.insert(TestPerson(firstName: "Nobody"))
                throw Abort()
            }
            XCTFail("the write did not throw")
        } catch is Abort {}
        try await store.write { tx in try tx.insert(TestPerson(firstName: "Ada", dogs: [rex.id])) }
        let personChange = await peopleIterator.next()
        XCTAssertEqual(personChange?.typeName, "Person")

        // Deleting the dog cascades into Person.dogs: both types hear about it.
        try await store.write { tx in try tx.delete(rex) }
        let dogDeleted = await dogIterator.next()
        let personCascaded = await peopleIterator.next()
        XCTAssertEqual(dogDeleted?.typeName, "Dog")
        XCTAssertEqual(personCascaded?.typeName, "Person")
        XCTAssertGreaterThan(personCascaded!.commit, personChange!.commit)
    }

    func testConcurrentReadersAndWriters() async throws {
        let folder = TemporaryFolder()
        let store = try makeStore(folder)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for batch in 0..<25 {
                        try await store.write { tx in
                            for item in 0..<4 { try tx.insert(TestNote(identifier: "w\(writer)-b\(batch)-i\(item)", content: "x")) }
                        }
                    }
                }
            }
            for _ in 0..<6 {
                group.addTask {
                    var last = 0
                    for _ in 0..<50 {
                        // Each read sees a whole number of batches, never half a transaction,
                        // and never fewer objects than a previous read.
                        let count = try await store.read { db in try db.count(TestNote.self) }
                        XCTAssertEqual(count % 4, 0)
                        XCTAssertGreaterThanOrEqual(count, last)
                        last = count
                    }
                }
            }
            try await group.waitForAll()
        }
        let count = try await store.read { try $0.count(TestNote.self) }
        XCTAssertEqual(count, 400)
        XCTAssertEqual(try rawSQL(folder.file("store.db"), "PRAGMA integrity_check"), [[.text("ok")]])
    }

    func testAnotherProcessHoldingTheWriteLockGivesAClearErrorAfterTheTimeout() throws {
        let folder = TemporaryFolder()
        let path = folder.file("store.db")
        let store = try makeStore(folder, options: OpenOptions(busyTimeout: 0.5))
        try store.write { tx in try tx.insert(TestNote(identifier: "before", content: "x")) }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else { throw XCTSkip("needs the sqlite3 command-line tool") }

        // A second process takes the write lock and keeps it for a few seconds.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        holder.arguments = [path]
        try holder.run()
        input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\nINSERT INTO \"Note\" VALUES ('other', 'y', 0);\nSELECT 'locked';\n".utf8))
        // Wait until it holds the lock.
        var buffer = Data()
        while !(String(decoding: buffer, as: UTF8.self).contains("locked")) {
            buffer += output.fileHandleForReading.availableData
        }

        assertStoreError(
            try store.write { tx in try tx.insert(TestNote(identifier: "during", content: "x")) },
            contains: ["is locked by another connection or process", "waited 0.5 s", "OpenOptions.busyTimeout"]
        ) {
            if case .locked = $0 { return true }
            return false
        }
        // Readers are not blocked by the other writer (WAL).
        XCTAssertEqual(try store.read { try $0.count(TestNote.self) }, 1)

        input.fileHandleForWriting.write(Data("COMMIT;\n.quit\n".utf8))
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()

        try store.write { tx in try tx.insert(TestNote(identifier: "after", content: "x")) }
        XCTAssertEqual(try store.read { try $0.objects(TestNote.self).sorted(by: TestNote.Columns.identifier).fetchAll().map(\.identifier) }, ["after", "before", "other"])
        XCTAssertEqual(try rawSQL(path, "PRAGMA integrity_check"), [[.text("ok")]])
    }
}
