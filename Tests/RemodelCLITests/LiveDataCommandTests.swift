import Foundation
import RemodelExample
import RemodelStore
import RemodelTestSupport
import XCTest

/// An app observing its store while `remodel import`, another process, adds to it: what a user
/// does to fill a running app's store from the command line.
final class LiveDataCommandTests: CLIFolderTestCase {
    func testAnObservationSeesRemodelImportFromAnotherProcess() async throws {
        try copyExample()
        let store = path("notes.remodel")
        try write(#"{"Note": [{"identifier": "a", "content": "Walk Rex", "lastEdited": "2026-01-01T00:00:00Z"}]}"#, to: "first.json")
        try remodel(["import", "--store", store, "--quiet", path("first.json")])

        let app = try RemodelStore(path: store, manifest: RemodelSchemaManifest.self)
        let contents = ObservedValues(app.observe { db in try db.objects(Note.self).fetchAll().map(\.content).sorted() })
        defer { contents.task?.cancel() }
        let first = await contents.wait { $0 == [["Walk Rex"]] }
        XCTAssertTrue(first, "\(contents.values)")

        try write(#"{"Note": [{"identifier": "b", "content": "Café au lait", "lastEdited": "2026-01-02T00:00:00Z"}]}"#, to: "second.json")
        try remodel(["import", "--store", store, "--quiet", path("second.json")])
        let started = Date()
        let imported = await contents.wait { $0.last == ["Café au lait", "Walk Rex"] }
        XCTAssertTrue(imported, "\(contents.values)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.25, "seen within 250 ms of the import's end")

        // And the search that finds it ignores case and accents.
        let found = try await app.read { db in try db.objects(Note.self).filter { $0.content.localizedStandardContains("CAFE") }.count() }
        XCTAssertEqual(found, 1)
    }
}
