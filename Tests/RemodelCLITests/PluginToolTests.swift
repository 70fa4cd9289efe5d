import Foundation
import XCTest

/// `remodel-generate`, the tool the build plugins run: on the command lines the plugins give
/// it, it writes exactly what `remodel generate` writes, prints exactly what it prints and
/// exits with the same status, refusals included.
final class PluginToolTests: CLIFolderTestCase {
    /// Runs `remodel-generate arguments…` in the test folder and checks its exit status.
    @discardableResult
    private func pluginTool(_ arguments: [String], expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> CLIRunner.Output {
        let tool = try CLIRunner.executable().deletingLastPathComponent().appendingPathComponent("remodel-generate")
        let output = try CLIRunner.runProgram(tool.path, arguments, in: folder, file: file, line: line)
        XCTAssertEqual(output.status, status, "remodel-generate \(arguments.joined(separator: " "))\nstdout: \(output.stdout)\nstderr: \(output.stderr)", file: file, line: line)
        return output
    }

    /// Every file of the folder `name` and its text; empty when there is no such folder.
    private func contents(of name: String) throws -> [String: String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path(name)) else { return [:] }
        var files: [String: String] = [:]
        for file in names { files[file] = try String(contentsOfFile: path(name + "/" + file), encoding: .utf8) }
        return files
    }

    /// Runs `remodel generate arguments…`, then `remodel-generate arguments…` (with `fresh`,
    /// each with no `Out` folder; else the tool on what `generate` left), and checks that both
    /// exit with `status`, print the same and leave `Out` the same. Returns the tool's output.
    @discardableResult
    private func assertSameAsGenerate(
        _ arguments: [String], expect status: Int32 = 0, fresh: Bool = true, file: StaticString = #filePath, line: UInt = #line
    ) throws -> CLIRunner.Output {
        if fresh { try? FileManager.default.removeItem(atPath: path("Out")) }
        let cli = try remodel(["generate"] + arguments, expect: status, file: file, line: line)
        let written = try contents(of: "Out")
        if fresh { try? FileManager.default.removeItem(atPath: path("Out")) }
        let tool = try pluginTool(arguments, expect: status, file: file, line: line)
        XCTAssertEqual(tool.stderr, cli.stderr, "stderr", file: file, line: line)
        XCTAssertEqual(tool.stdout, cli.stdout, "stdout", file: file, line: line)
        XCTAssertEqual(try contents(of: "Out"), written, "the files in Out", file: file, line: line)
        return tool
    }

    private let folders = ["--schemas", "Schemas", "--migrations", "Migrations"]

    func testBundleIsWhatGenerateWrites() throws {
        try copyExample()
        try assertSameAsGenerate(folders + ["--bundle", "Out"])
        XCTAssertEqual(try contents(of: "Out").keys.sorted(), ["RemodelModels.swift", "RemodelStoreBridges.swift"])
        // Run again on its own output: nothing to say, nothing changed.
        try assertSameAsGenerate(folders + ["--bundle", "Out"], fresh: false)
    }

    func testPluginOptionsAreReadTheSameWay() throws {
        try copyExample()
        let options = ["--plugin-options", "remodel-plugin.yaml"]
        try write("realm: true\nrealmClassNames: \"{name}Object\"\n", to: "remodel-plugin.yaml")
        try assertSameAsGenerate(folders + ["--bundle", "Out"] + options)
        XCTAssertTrue(try contents(of: "Out")["RemodelRealmBridges.swift"]?.contains("return \"PersonObject\"") == true)
        try write("realm: false\n", to: "remodel-plugin.yaml")
        try assertSameAsGenerate(folders + ["--bundle", "Out"] + options)
        XCTAssertEqual(try contents(of: "Out").count, 3, "the placeholder for the declared Realm file")
        try write("realm: yes\nrealmClass: x\n", to: "remodel-plugin.yaml")
        let refused = try assertSameAsGenerate(folders + ["--bundle", "Out"] + options, expect: 1)
        XCTAssertTrue(
            refused.stderr.hasPrefix("remodel-plugin.yaml:1:8: error: 'realm' in remodel-plugin.yaml must be true or false, found 'yes' [invalid-value]\n"), refused.stderr)
    }

    /// What the generate-models command plugin runs: one file per type, and --check.
    func testOutputAndCheckAreWhatGenerateDoes() throws {
        try copyExample()
        let written = try assertSameAsGenerate(folders + ["--output", "Out"])
        XCTAssertTrue(written.stderr.hasPrefix("Out: "), written.stderr)
        try assertSameAsGenerate(folders + ["--output", "Out", "--check"], fresh: false)
        try write(try String(contentsOfFile: path("Out/Person.swift"), encoding: .utf8) + "// edited\n", to: "Out/Person.swift")
        let stale = try assertSameAsGenerate(folders + ["--output", "Out", "--check"], expect: 1, fresh: false)
        XCTAssertTrue(stale.stderr.contains("out of date"), stale.stderr)
        XCTAssertFalse(stale.stdout.isEmpty, "the diff")
    }

    /// The refusals: an invalid schema, a schema edited without a new version, a history that
    /// cannot run, and a folder of the inputs; each writes nothing.
    func testRefusalsAreGenerates() throws {
        let schema = "objects:\n  Animal:\n    primaryKey: tag\n    properties:\n      tag: string\n      name: { type: string, default: \"\" }\n"
        try write(schema.replacingOccurrences(of: "type: string", with: "type: strng"), to: "Schemas/Zoo.yaml")
        let invalid = try assertSameAsGenerate(folders + ["--bundle", "Out"], expect: 1)
        XCTAssertTrue(invalid.stderr.hasPrefix("Schemas/Zoo.yaml:6:21: error: "), invalid.stderr)

        try write(schema, to: "Schemas/Zoo.yaml")
        try remodel(["migration", "new", "initial"])
        try write(schema + "      chipNumber: string\n", to: "Schemas/Zoo.yaml")
        let unsnapshotted = try assertSameAsGenerate(folders + ["--bundle", "Out"], expect: 1)
        XCTAssertTrue(unsnapshotted.stderr.contains("[schema-not-snapshotted]"), unsnapshotted.stderr)

        // Written, though version 2 cannot run yet.
        try remodel(["migration", "new", "chip-numbers"])
        let cannotRun = try assertSameAsGenerate(folders + ["--bundle", "Out"], expect: 1)
        XCTAssertTrue(cannotRun.stderr.contains("error: migration 2: 'Animal.chipNumber' is new and required but has no default"), cannotRun.stderr)

        try write(schema, to: "Schemas/Zoo.yaml")
        try FileManager.default.removeItem(atPath: path("Migrations"))
        let intoInputs = try assertSameAsGenerate(folders + ["--bundle", "Schemas"], expect: 1)
        XCTAssertTrue(intoInputs.stderr.hasPrefix("Error: refusing to write generated files into 'Schemas': it is the schemas folder"), intoInputs.stderr)
    }

    func testUsageErrors() throws {
        let missing = try pluginTool(["--bundle", "Out"], expect: 64)
        XCTAssertTrue(missing.stderr.hasPrefix("Error: missing --schemas DIR or --migrations DIR\nUsage: remodel-generate "), missing.stderr)
        let both = try pluginTool(folders + ["--bundle", "Out", "--output", "Out"], expect: 64)
        XCTAssertTrue(both.stderr.hasPrefix("Error: give one of --output DIR and --bundle DIR\n"), both.stderr)
        let unknown = try pluginTool(folders + ["--bundle", "Out", "--realm"], expect: 64)
        XCTAssertTrue(unknown.stderr.hasPrefix("Error: unexpected argument '--realm'\n"), unknown.stderr)
        XCTAssertTrue(try pluginTool(["--help"]).stdout.contains("USAGE: remodel-generate --schemas DIR"))
        XCTAssertFalse(exists("Out"))
    }

    /// A cancelled build (SwiftPM stops the tool) leaves the output folder as it was: the
    /// staged files go, and the tool says so, as `remodel` does.
    func testACancelledRunLeavesNoTemporaryFiles() throws {
        let types = 1_500
        try write("objects:\n" + (0..<types).map { "  T\($0):\n    properties:\n      name: string\n" }.joined(), to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
        let tool = try CLIRunner.executable().deletingLastPathComponent().appendingPathComponent("remodel-generate")
        var interrupted = 0
        for delay in [0.05, 0.2, 0.5] {
            try? FileManager.default.removeItem(atPath: path("Out"))
            let process = Process()
            process.executableURL = tool
            process.arguments = folders + ["--output", path("Out")]
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            let files = (try? FileManager.default.contentsOfDirectory(atPath: path("Out"))) ?? []
            XCTAssertEqual(files.filter { $0.hasPrefix(".") }, [], "after \(delay) s")
            XCTAssertTrue(files.isEmpty || files.count == types * 2 + 1, "after \(delay) s: \(files.count) files")
            if process.terminationStatus != 0 {
                interrupted += 1
                if process.terminationReason == .exit { XCTAssertEqual(process.terminationStatus, 143) }
            }
        }
        XCTAssertGreaterThan(interrupted, 0, "every run finished before its signal")
    }

    private func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }
}
