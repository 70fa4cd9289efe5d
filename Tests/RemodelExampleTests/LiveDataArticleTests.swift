import Foundation
import Observation
import RemodelExample
import RemodelStore
import XCTest

/// The article "Live data in SwiftUI": its notes list shows the notes, follows commits of
/// other stores and processes, searches ignoring case and accents, deletes and adds off the
/// main actor, and tells SwiftUI (Observation) when what it shows changes.
@MainActor @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class LiveDataArticleTests: XCTestCase {
    private var folder: URL!

    override func setUp() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func openStore() throws -> RemodelStore {
        try RemodelStore(path: folder.appendingPathComponent("notes.remodel").path, manifest: RemodelSchemaManifest.self)
    }

    nonisolated private static func note(_ content: String, minutesAgo: Double) -> Note {
        Note(identifier: content, content: content, lastEdited: Date(timeIntervalSinceNow: -60 * minutesAgo))
    }

    /// Waits (on the main actor, letting the query's task run) until `condition` holds.
    private func wait(_ what: String, _ seconds: Double = 5, until condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { return XCTFail("not within \(seconds) s: \(what)") }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }

    func testTheListFollowsTheStoreSearchesDeletesAndAdds() async throws {
        let store = try openStore()
        try await store.write { tx in
            try tx.insert(Self.note("Walk Rex", minutesAgo: 10))
            try tx.insert(Self.note("Café au lait", minutesAgo: 5))
        }
        let list = try NotesList(store: store)
        _ = list.body
        XCTAssertEqual(list.shown.value.map(\.content), ["Café au lait", "Walk Rex"], "last edited first, at once")

        // Another store on the file — another window, a widget — adds a note: the list shows it.
        let widget = try openStore()
        try await widget.write { tx in try tx.insert(Self.note("Feed Rex", minutesAgo: 1)) }
        try await wait("the other store's note is shown") { list.shown.value.first?.content == "Feed Rex" }

        // Another process too (the sqlite3 shell standing in for `remodel import`).
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        let tomorrow = Int64((Date().timeIntervalSince1970 + 86_400) * 1_000_000)  // dates are stored in microseconds
        sqlite.arguments = [folder.appendingPathComponent("notes.remodel").path, "PRAGMA busy_timeout = 5000; INSERT INTO \"Note\" VALUES ('cafe', 'CAFE CRÈME', \(tomorrow));"]
        try sqlite.run()
        sqlite.waitUntilExit()
        XCTAssertEqual(sqlite.terminationStatus, 0)
        try await wait("the other process's note is shown") { list.shown.value.first?.content == "CAFE CRÈME" }

        // Searching ignores case and accents, and the search stays live.
        try list.type("cafe")
        XCTAssertEqual(list.shown.value.map(\.content), ["CAFE CRÈME", "Café au lait"])
        try await widget.write { tx in
            try tx.insert(Self.note("café noir", minutesAgo: 0))
            try tx.insert(Self.note("Tea", minutesAgo: 0))
        }
        try await wait("a new matching note is shown, and only it") { list.shown.value.count == 3 }
        XCTAssertEqual(Set(list.shown.value.map(\.content)), ["CAFE CRÈME", "Café au lait", "café noir"])

        // Swiping a row away deletes that note; the list changes when the write commits.
        let shown = list.shown.value
        try await list.delete(shown, at: IndexSet([shown.firstIndex { $0.content == "Café au lait" }!])).value
        try await wait("the deleted note is gone") { !list.shown.value.contains { $0.content == "Café au lait" } }
        let stored = try await store.read { db in try db.object(Note.self, forKey: "Café au lait") }
        XCTAssertNil(stored)

        try list.type("")
        let before = list.shown.value.count
        try await list.add().value
        try await wait("the added note is shown") { list.shown.value.count == before + 1 }
        _ = list.body
        XCTAssertNil(list.shown.error)
    }

    /// What SwiftUI does with a view that reads `value`: it is told when the value changes,
    /// and not told for a commit that leaves the value as it was.
    func testObservationTellsTheViewOnlyOfNewValues() async throws {
        let store = try openStore()
        let list = try NotesList(store: store)
        let told = Tally()
        func track() {
            withObservationTracking {
                _ = list.shown.value
            } onChange: {
                Task { @MainActor in told.count += 1 }
            }
        }
        track()
        try await store.write { tx in try tx.insert(Self.note("Walk Rex", minutesAgo: 0)) }
        try await wait("the view is told of the new note") { told.count == 1 }
        XCTAssertEqual(list.shown.value.map(\.content), ["Walk Rex"])
        track()
        // A Dog is not in the list: its commit wakes nothing. A note changed to the same
        // content and date gives an equal value: nothing to redraw.
        try await store.write { tx in try tx.insert(Dog(name: "Rex")) }
        let same = list.shown.value[0]
        try await store.write { tx in try tx.upsert(same) }
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertEqual(told.count, 1, "the view was told of a value that did not change")
    }

    /// The article's loops: notes, one person (nil once deleted), her profile only when it
    /// changes; and the async write and read.
    func testTheLoopsOutsideAView() async throws {
        let store = try openStore()
        let ada = Person(firstName: "Ada", lastName: "Lovelace")
        let walk = Self.note("Walk Rex", minutesAgo: 0)
        try await store.write { tx in
            try tx.insert(ada)
            try tx.insert(walk)
        }
        let seen = Seen()
        let tasks = [
            Task { try await LiveDataLoops.followNotes(in: store) { notes in seen.add("notes \(notes.map(\.content))") } },
            Task { try await LiveDataLoops.follow(ada, in: store) { person in seen.add("person \(person?.company ?? "-")") } },
            Task { try await LiveDataLoops.followProfile(of: ada, in: store) { profile in seen.add("profile \(profile?.firstName ?? "-")") } },
        ]
        defer { for task in tasks { task.cancel() } }
        try await wait("the first values") { seen.contains(["notes [\"Walk Rex\"]", "person MongoDB", "profile Ada"]) }

        let count = try await LiveDataLoops.archive(walk, in: store)
        XCTAssertEqual(count, 1)
        try await wait("the archived note") { seen.contains(["notes [\"[archived] Walk Rex\"]"]) }
        var employed = ada
        employed.company = "Analytical Engines"
        try await store.write { [employed] tx in try tx.upsert(employed) }
        try await wait("the person's new company") { seen.contains(["person Analytical Engines"]) }
        try await store.write { [employed] tx in _ = try tx.delete(employed) }
        try await wait("nil once deleted") { seen.all.filter { $0 == "profile -" }.count == 1 && seen.all.last(where: { $0.hasPrefix("person") }) == "person -" }
        XCTAssertEqual(seen.all.filter { $0.hasPrefix("profile") }, ["profile Ada", "profile -"], "the company is not in the profile")
    }

    /// A fetch that fails sets `error` and keeps the last value; `update` starts again.
    func testAFailedFetchKeepsTheLastValueAndSaysWhy() async throws {
        struct Unreadable: Error {}
        let store = try openStore()
        try await store.write { tx in try tx.insert(Self.note("Walk Rex", minutesAgo: 0)) }
        let query = try LiveQuery(store) { db -> [String] in
            let contents = try db.objects(Note.self).fetchAll().map(\.content)
            if contents.count > 1 { throw Unreadable() }
            return contents
        }
        XCTAssertEqual(query.value, ["Walk Rex"])
        try await store.write { tx in try tx.insert(Self.note("Feed Rex", minutesAgo: 0)) }
        try await wait("the error is set") { query.error != nil }
        XCTAssertTrue(query.error is Unreadable)
        XCTAssertEqual(query.value, ["Walk Rex"])
        try query.update { db in try db.objects(Note.self).fetchAll().map(\.content).sorted() }
        XCTAssertNil(query.error)
        XCTAssertEqual(query.value, ["Feed Rex", "Walk Rex"])
        XCTAssertThrowsError(try query.update { _ in throw Unreadable() })
        XCTAssertEqual(query.value, ["Feed Rex", "Walk Rex"], "a fetch that fails at once changes nothing")
    }
}

/// How many times a view was told to redraw.
@MainActor private final class Tally {
    var count = 0
}

/// What the loops showed, in order.
private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var shown: [String] = []
    var all: [String] { lock.withLock { shown } }
    func add(_ line: String) { lock.withLock { shown.append(line) } }
    func contains(_ lines: [String]) -> Bool { Set(lines).isSubset(of: all) }
}
