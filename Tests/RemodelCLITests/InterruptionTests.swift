import Foundation
import XCTest

/// Ctrl-C and `kill` at several moments of `import`, `migrate` and `generate`: the command
/// exits 130 (SIGINT) or 143 (SIGTERM) saying what it removed, nothing half made stays, and
/// stores keep their last committed state. Later runs remove what dead processes left.
final class InterruptionTests: CLIFolderTestCase {
    static let signals: [(signal: Int32, status: Int32, name: String)] = [(SIGINT, 130, "SIGINT"), (SIGTERM, 143, "SIGTERM")]

    static let items = "objects:\n  Item:\n    primaryKey: id\n    properties:\n      id: int\n      name: string\n"

    /// A schema of items at version 1 and an import file of `count` of them.
    private func itemsHistory(count: Int) throws -> String {
        try write(Self.items, to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
        let objects = (0..<count).map { #"{"id": \#($0), "name": "item number \#($0)"}"# }.joined(separator: ", ")
        return try write(#"{"Item": ["# + objects + "]}", to: "items.json")
    }

    /// The files of `folder` a command makes on the side: hidden temporary files and partial backups.
    private func halfMade(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".remodel-") || $0.contains(".partial-") }.sorted()
    }

    func testAnInterruptedImportIntoANewStoreLeavesNothing() throws {
        let data = try itemsHistory(count: 250_000)
        let store = path("items.db")
        var removedAStore = false
        let creating = ".items.db.remodel-creating-"
        for (signal, status, name) in Self.signals {
            // While the file is read and checked (their progress lines show after a second of
            // each), and while the new store is filled (its temporary file is there).
            for stage in ["reading:", "checking:", creating] {
                let run = try CLIRunner.start(["import", "--store", store, data], in: folder)
                try CLIRunner.waitUntil("'\(stage)' is shown") {
                    let now = stage == creating ? (try FileManager.default.contentsOfDirectory(atPath: folder.path)).joined(separator: "\n") : run.stderrSoFar
                    return now.contains(stage) || !run.process.isRunning
                }
                kill(run.process.processIdentifier, signal)
                let output = try run.wait()
                XCTAssertEqual(run.process.terminationReason, .exit, "\(name) at \(stage)")
                XCTAssertEqual(try halfMade(in: folder.path), [], "\(name) at \(stage)")
                if output.status == 0 {
                    // It finished before the signal: the store is whole.
                    XCTAssertTrue(try remodel(["status", "--store", store]).stdout.contains("Item"))
                    try FileManager.default.removeItem(atPath: store)
                    continue
                }
                XCTAssertEqual(output.status, status, "\(name) at \(stage): \(output.stderr)")
                XCTAssertTrue(output.stderr.contains("Interrupted by \(name)."), output.stderr)
                XCTAssertFalse(FileManager.default.fileExists(atPath: store), "\(name) at \(stage) left a store")
                if output.stderr.contains("Removed what was half made: the new store '\(store)' (nothing was created)") { removedAStore = true }
            }
        }
        XCTAssertTrue(removedAStore, "no run was interrupted while the new store was being filled")
    }

    func testAnInterruptedMigrationKeepsTheStoreAtOneVersionAndNoPartialBackup() throws {
        let data = try itemsHistory(count: 150_000)
        let original = path("original.db")
        try remodel(["import", "--store", original, "--quiet", data])
        try write(Self.items + "      first: { type: string, default: \"\" }\n      rest: { type: string, default: \"\" }\n", to: "Schemas/S.yaml")
        try remodel(["migration", "new", "split"])
        try write(
            "description: split\nsteps:\n  - split: { type: Item, property: name, into: [first, rest], separator: \" \" }\n", to: "Migrations/0002-split.yaml")
        try remodel(["migration", "hash"])
        var interrupted = 0
        for (signal, status, name) in Self.signals {
            for delay in [0.02, 0.1, 0.25] {
                let store = path("store-\(name)-\(delay).db")
                try FileManager.default.copyItem(atPath: original, toPath: store)
                let run = try CLIRunner.start(["migrate", "--store", store], in: folder)
                Thread.sleep(forTimeInterval: delay)
                kill(run.process.processIdentifier, signal)
                let output = try run.wait()
                XCTAssertEqual(try halfMade(in: folder.path), [], "\(name) after \(delay) s")
                let state = try remodel(["status", "--store", store]).stdout
                if output.status == 0 {
                    XCTAssertTrue(state.contains("Schema version:  2"), state)
                    continue
                }
                interrupted += 1
                // A signal before the tool set up its handlers (the first milliseconds) ends it
                // as any program; it had made nothing yet.
                if run.process.terminationReason == .exit {
                    XCTAssertEqual(output.status, status, "\(name) after \(delay) s: \(output.stderr)")
                    XCTAssertTrue(output.stderr.contains("Interrupted by \(name)."), output.stderr)
                }
                // Either version, whole: the migration is one transaction.
                XCTAssertTrue(state.contains("Schema version:  1") || state.contains("Schema version:  2"), state)
                XCTAssertTrue(state.contains("150000"), state)
            }
        }
        XCTAssertGreaterThan(interrupted, 0, "every migration finished before its signal")
    }

    func testAnInterruptedGenerateLeavesTheFolderAllOrNothingWithoutTemporaryFiles() throws {
        let types = 1_500
        let schema = "objects:\n" + (0..<types).map { "  T\($0):\n    properties:\n      name: string\n      size: int\n" }.joined()
        try write(schema, to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
        let output = path("Generated")
        var interrupted = 0
        for (signal, status, name) in Self.signals {
            for delay in [0.05, 0.3, 0.8] {
                try? FileManager.default.removeItem(atPath: output)
                let run = try CLIRunner.start(["generate", "--output", output], in: folder)
                Thread.sleep(forTimeInterval: delay)
                kill(run.process.processIdentifier, signal)
                let result = try run.wait()
                let files = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
                XCTAssertEqual(files.filter { $0.hasPrefix(".") }, [], "\(name) after \(delay) s")
                // Nor the hidden folder the new files are written into before it becomes the output folder.
                let beside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".new.tmp") }
                XCTAssertEqual(beside, [], "\(name) after \(delay) s")
                // Every type's two files and the manifest, or none.
                XCTAssertTrue(files.isEmpty || files.count == types * 2 + 1, "\(name) after \(delay) s: \(files.count) files")
                if result.status != 0 {
                    interrupted += 1
                    guard run.process.terminationReason == .exit else { continue }
                    XCTAssertEqual(result.status, status, result.stderr)
                    XCTAssertTrue(result.stderr.contains("Interrupted by \(name)."), result.stderr)
                }
            }
        }
        XCTAssertGreaterThan(interrupted, 0, "every generate finished before its signal")
    }

    /// What a killed process left (named with its id) is removed by the next run that works
    /// there; what a running process is making is not touched.
    func testLeftoversOfDeadProcessesAreRemovedAndThoseOfLiveOnesKept() throws {
        let data = try itemsHistory(count: 10)
        let dead = try deadProcessID()
        let live = ProcessInfo.processInfo.processIdentifier
        let leftovers = [".items.db.remodel-creating-\(dead)-17", ".items.db.remodel-creating-\(dead)-17-wal"]
        let kept = ".items.db.remodel-creating-\(live)-3"
        for name in leftovers + [kept] { try write("x", to: name) }
        try remodel(["import", "--store", path("items.db"), "--quiet", data])
        XCTAssertEqual(try halfMade(in: folder.path), [kept])

        let backup = "items.db.v1-backup-20260101T000000Z.partial-\(dead)"
        try write("x", to: backup)
        try write(Self.items + "      note: string?\n", to: "Schemas/S.yaml")
        try remodel(["migration", "new", "note"])
        try remodel(["migrate", "--store", path("items.db"), "--quiet"])
        XCTAssertEqual(try halfMade(in: folder.path), [kept])

        try write("x", to: "Generated/.Item.swift.remodel-\(dead)-9.tmp")
        try write("x", to: "Generated/.Item.swift.remodel-\(live)-9.tmp")
        try write("x", to: "Generated/.remodel-\(dead)-4.new.tmp/Item.swift")
        try remodel(["generate", "--output", path("Generated")])
        XCTAssertEqual(try halfMade(in: path("Generated")), [".Item.swift.remodel-\(live)-9.tmp"])
        // The hidden folder of a generate into a new folder, left beside it by a killed process.
        try write("x", to: ".remodel-\(dead)-5.new.tmp/Item.swift")
        try write("x", to: ".remodel-\(live)-5.new.tmp/Item.swift")
        try remodel(["generate", "--output", path("Models")])
        XCTAssertEqual(try halfMade(in: folder.path).filter { $0.hasSuffix(".new.tmp") }, [".remodel-\(live)-5.new.tmp"])
    }

    /// The id of a process that has ended.
    private func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
