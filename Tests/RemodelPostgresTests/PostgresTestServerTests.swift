import Foundation
import RemodelTestSupport
import XCTest

/// The throwaway server's own housekeeping: a test process killed by a signal never runs
/// `atexit`, so the next one stops and removes what it left.
final class PostgresTestServerTests: XCTestCase {
    func testFoldersOfEndedTestProcessesAreRemovedAndLiveOnesKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-stale-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A process that has ended (and been waited for): its id names no process now.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = folder + "/remodel-postgres-\(ended.processIdentifier)-0000aaaa"
        let live = folder + "/remodel-postgres-\(getpid())-0000bbbb"
        let other = folder + "/remodel-postgres-notapid"
        for path in [stale + "/data", live + "/data", other] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        XCTAssertEqual(PostgresTestServer.removeStaleServers(in: folder), [stale])
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: live))
        XCTAssertTrue(FileManager.default.fileExists(atPath: other))
    }
}
