import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import XCTest

/// The StepKinds reference: a manifest whose embedded history has one step of every kind,
/// compiled and used the way an app upgrades its store with no files.
final class StepKindsTests: XCTestCase {
    func testManifestEmbedsTheHistory() throws {
        try Reference.assertManifest(StepKindsManifest.self, matches: "StepKinds")
    }

    /// A version 1 store opened by the generated code migrates in-app through every step, and
    /// the generated models read the result.
    func testTheEmbeddedHistoryUpgradesAStoreInApp() throws {
        let history = try XCTUnwrap(StepKindsManifest.history)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-step-kinds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        let v1 = try RemodelStore(path: path, schema: history.snapshots[0], version: 1)
        try v1.write { tx in
            try tx.insert(
                ["id": .text("p1"), "name": .text("Ada Lovelace"), "phone": .text("555"), "age": .text("36"), "level": .text("H"), "dogs": .list([])], ofType: "KindPerson")
            try tx.insert(["id": .text("p2"), "name": .text("Bob"), "phone": .text(""), "age": .text("n/a"), "level": .text("?"), "dogs": .list([])], ofType: "KindPerson")
            try tx.insert(["id": .blob([UInt8](repeating: 1, count: 16)), "name": .text("?"), "weight": .integer(-1)], ofType: "KindDog")
            try tx.insert(["id": .text("n1"), "content": .text("gone")], ofType: "KindNote")
        }
        var migrator = Migrator(history: history)
        let visited = Counter()
        migrator.register("checkDogs") { object in
            // The step reads the old dogs: the one named "?", which this version deletes (the
            // new store has only Rex, created by the version).
            if try object.oldObjects.all("KindDog").map({ $0["name"] }) == [.text("?")] { visited.add() }
        }
        let store = try RemodelStore(path: path, manifest: StepKindsManifest.self, options: OpenOptions(migrator: migrator))
        let people = try store.read { try $0.objects(KindPerson.self).fetchAll() }.sorted { $0.id < $1.id }
        XCTAssertEqual(people.map(\.first), ["Ada", "Bob"])
        XCTAssertEqual(people.map(\.last), ["Lovelace", ""])
        XCTAssertEqual(people.map(\.phoneNumber), ["555", ""])
        XCTAssertEqual(people.map(\.age), [36, 0])
        XCTAssertEqual(people.map(\.level), [.high, .low])
        XCTAssertEqual(people.map(\.greeting), ["Hi Ada", "Hi Bob"])
        let dogs = try store.read { try $0.objects(KindDog.self).fetchAll() }
        XCTAssertEqual(dogs.map(\.name), ["Rex"], "the ? dog deleted, Rex created")
        XCTAssertEqual(people[0].dogs, dogs.map(\.id), "Rex added to Ada's dogs")
        XCTAssertEqual(people[1].dogs, [])
        XCTAssertEqual(try store.read { try $0.objects(KindMemo.self).count() }, 0, "every memo deleted")
        XCTAssertEqual(visited.value, 2, "the custom step visited both people")
    }
}

/// Counts from a `@Sendable` closure.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() {
        lock.lock()
        count += 1
        lock.unlock()
    }
    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
