import Foundation
import XCTest

/// A test case with a fresh folder of its own for each test, removed afterwards, and the real
/// `remodel` run with its exit status checked (the output shown when it differs).
class CLIFolderTestCase: XCTestCase {
    /// This test's folder.
    private(set) var folder: URL!

    /// Where `remodel(_:)` runs when no folder is given: this test's folder, unless a suite
    /// runs in the package (its `Schemas/` and `Migrations/`).
    var commandDirectory: URL { folder }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-\(String(describing: type(of: self)))-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The path of `name` in this test's folder.
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Writes `text` to `name` in this test's folder (making its folders); its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The package's example (Schemas/, Migrations/) copied into this test's folder.
    func copyExample() throws {
        for name in ["Schemas", "Migrations"] {
            try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
    }

    /// Runs `remodel arguments…` in `directory` (default `commandDirectory`) and checks that
    /// it exits with `status`.
    @discardableResult
    func remodel(_ arguments: [String], expect status: Int32 = 0, in directory: URL? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> CLIRunner.Output {
        let output = try CLIRunner.run(arguments, in: directory ?? commandDirectory)
        XCTAssertEqual(output.status, status, "remodel \(arguments.joined(separator: " "))\nstdout: \(output.stdout)\nstderr: \(output.stderr)", file: file, line: line)
        return output
    }
}
