import Foundation
import RemodelCore
import RemodelPostgres
import RemodelSchema
import RemodelStore
import RemodelTestSupport
import Testing

/// Import and export tell their progress the same way on both engines (`DataTransferProgress`):
/// each stage from 0 to every object, in order, type by type, at most a thousand objects or so
/// apart; and the export's text is the same with a callback as without.
@Suite(.serialized) struct DataTransferProgressTests {
    /// What a callback heard.
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var heard: [DataTransferProgress] = []

        var callback: @Sendable (DataTransferProgress) -> Void { { progress in self.lock.withLock { self.heard.append(progress) } } }
        var events: [DataTransferProgress] { lock.withLock { heard } }
    }

    /// 2,500 Persons, each with a Dog, and 3 Notes, at the example's version 1.
    static let document: JSONValue = {
        let people = 2_500
        var persons: [JSONValue] = []
        var dogs: [JSONValue] = []
        for index in 0..<people {
            let dog = String(format: "00000000-0000-0000-0000-%012X", index + 1)
            persons.append(.object([("_id", .string(String(format: "%024x", index + 1))), ("name", .string("P \(index)")), ("dogs", .array([.string(dog)]))]))
            dogs.append(.object([("_id", .string(dog)), ("name", .string("D \(index)"))]))
        }
        let notes = (1...3).map { JSONValue.object([("identifier", .string("n\($0)")), ("content", .string("note"))]) }
        return .object([("Person", .array(persons)), ("Dog", .array(dogs)), ("Note", .array(notes))])
    }()
    static let total = 5_003

    /// Checks one stage's events: they start at 0 and end at every object, never go back or
    /// past the total, come at most about `step` objects apart (twice that where a type ends
    /// between two), and name the types in `types`' order.
    static func check(_ events: [DataTransferProgress], stage: DataTransferProgress.Stage, types: [String]) {
        let ofStage = events.filter { $0.stage == stage }
        #expect(ofStage.first?.completed == 0, "\(stage)")
        #expect(ofStage.last?.completed == total, "\(stage)")
        #expect(ofStage.allSatisfy { $0.total == total }, "\(stage)")
        for (earlier, later) in zip(ofStage, ofStage.dropFirst()) {
            #expect(earlier.completed <= later.completed && later.completed <= total, "\(stage): \(earlier.completed) then \(later.completed)")
            #expect(later.completed - earlier.completed <= 2 * DataTransferProgress.step, "\(stage): \(earlier.completed) then \(later.completed)")
        }
        var named: [String] = []
        for event in ofStage where !event.type.isEmpty && named.last != event.type { named.append(event.type) }
        #expect(named == types, "\(stage)")
        // A sensible granularity: not one call per object.
        #expect(ofStage.count < 20, "\(stage): \(ofStage.count) calls")
    }

    @Test func sqliteImportAndExport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let imported = Recorder()
        let counts = try RemodelStore.create(atomicallyAt: folder.appendingPathComponent("s.db").path, schema: ExampleHistory.v1, version: 1) { store in
            try StoreJSON.importDocument(Self.document, into: store, progress: imported.callback)
        }
        #expect(counts.map(\.count) == [2_500, 2_500, 3])
        #expect(imported.events.map(\.stage).first == .checking && imported.events.map(\.stage).last == .importing)
        Self.check(imported.events, stage: .checking, types: ["Person", "Dog", "Note"])
        Self.check(imported.events, stage: .importing, types: ["Person", "Dog", "Note"])

        let store = try RemodelStore(path: folder.appendingPathComponent("s.db").path, schema: ExampleHistory.v1, version: 1)
        let exported = Recorder()
        let document = try store.read { try StoreJSON.export($0, progress: exported.callback) }
        let text = StoreJSON.text(of: document, progress: exported.callback)
        #expect(text == document.prettyText)
        #expect(document == (try store.read { try StoreJSON.export($0) }))
        Self.check(exported.events, stage: .reading, types: ["Person", "Dog", "Note"])
        Self.check(exported.events, stage: .writing, types: ["Person", "Dog", "Note"])
    }

    @Test func postgresImportAndExport() throws {
        let server = try PostgresTestServer.shared { BothEnginesSemanticsTests.Skip($0) }
        let target = try PostgresTarget(server.url(database: try server.makeDatabase()) + "?schema=progress")
        let imported = Recorder()
        let (counts, _) = try PostgresStore.importDocument(
            Self.document, into: target, source: "the data", expectedVersion: nil, recordedSchema: { _ in ExampleHistory.v1 },
            create: (ExampleHistory.v1, 1), progress: imported.callback
        )
        #expect(counts.map(\.count) == [2_500, 2_500, 3])
        Self.check(imported.events, stage: .checking, types: ["Person", "Dog", "Note"])
        Self.check(imported.events, stage: .importing, types: ["Person", "Dog", "Note"])

        let exported = Recorder()
        let (document, _) = try PostgresStore.export(at: target, recordedSchema: { _ in ExampleHistory.v1 }, progress: exported.callback)
        Self.check(exported.events, stage: .reading, types: ["Person", "Dog", "Note"])
        #expect(document == (try PostgresStore.export(at: target, recordedSchema: { _ in ExampleHistory.v1 })).document)
    }

    /// A document checked against one schema is not imported into a store of another.
    @Test func aCheckedDocumentGoesOnlyIntoAStoreOfItsSchema() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-progress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let checked = try StoreJSON.check(Self.document, schema: ExampleHistory.v1)
        #expect(checked.objectCount == Self.total)
        let other = try RemodelStore(path: folder.appendingPathComponent("v2.db").path, schema: ExampleHistory.v2, version: 2)
        #expect(throws: StoreError.self) { try StoreJSON.importDocument(checked, into: other) }
        #expect(try other.read { try $0.count(ofType: "Person") } == 0)
        let same = try RemodelStore(path: folder.appendingPathComponent("v1.db").path, schema: ExampleHistory.v1, version: 1)
        #expect(try StoreJSON.importDocument(checked, into: same).map(\.count) == [2_500, 2_500, 3])
    }
}
