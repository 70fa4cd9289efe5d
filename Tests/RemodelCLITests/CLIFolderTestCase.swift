import Foundation
import RemodelTestSupport
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

    // MARK: - Exports and the example's golden files

    /// The example history's fixtures: `vN.json` at each version, `vN-to-v3.json` migrated.
    static let fixtures = CLIRunner.packageRoot.appendingPathComponent("Tests/RemodelMigrateTests/Resources/fixtures")

    /// The store's export, as sorted-key JSON text.
    func export(_ store: String) throws -> String {
        let output = try remodel(["export", "--store", store])
        return try Self.canonicalJSON(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)))
    }

    /// The export with each dog's `dateLastUpdated` checked to lie within the run and replaced
    /// by `MIGRATION-TIME`, as the golden files write it.
    func normalisedExport(_ store: String, start: Date, end: Date, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let output = try remodel(["export", "--store", store])
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        var dogs = try XCTUnwrap(object["Dog"] as? [[String: Any]])
        for index in dogs.indices {
            let text = try XCTUnwrap(dogs[index]["dateLastUpdated"] as? String)
            let date = try XCTUnwrap(Self.parseISO8601(text), "not an ISO 8601 date: \(text)")
            // Stored with microseconds; the window is the process run, widened by a millisecond.
            XCTAssertGreaterThanOrEqual(date.timeIntervalSince1970, start.timeIntervalSince1970 - 0.001, "\(text) is before the migration started", file: file, line: line)
            XCTAssertLessThanOrEqual(date.timeIntervalSince1970, end.timeIntervalSince1970 + 0.001, "\(text) is after the migration ended", file: file, line: line)
            dogs[index]["dateLastUpdated"] = "MIGRATION-TIME"
        }
        object["Dog"] = dogs
        return try Self.canonicalJSON(object)
    }

    /// A v1 document with `people` Persons, as many Dogs (one each), and a Note.
    static func generatedV1(people: Int) -> String {
        ExampleData.generatedV1(people: people)
    }

    func golden(_ name: String) throws -> String {
        try Self.canonicalJSON(JSONSerialization.jsonObject(with: Data(contentsOf: CLIFolderTestCase.fixtures.appendingPathComponent(name))))
    }

    /// The text with each distinct UUID replaced by `UUID-n`, n its order of first appearance.
    static func numberingUUIDs(_ text: String) -> String {
        let pattern = try! NSRegularExpression(pattern: "[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}")
        var numbers: [String: Int] = [:]
        var result = ""
        var last = text.startIndex
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let range = Range(match.range, in: text)!
            let uuid = String(text[range])
            let number = numbers[uuid] ?? numbers.count + 1
            numbers[uuid] = number
            result += text[last..<range.lowerBound] + "UUID-\(number)"
            last = range.upperBound
        }
        return result + text[last...]
    }

    static func canonicalJSON(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]), as: UTF8.self)
    }

    /// `2026-11-30T13:42:51.706137Z` (fraction optional).
    static func parseISO8601(_ text: String) -> Date? {
        guard text.hasSuffix("Z"), text.count >= 20 else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        guard let whole = formatter.date(from: String(text.prefix(19))) else { return nil }
        let fraction = text.dropFirst(19).dropLast()
        guard fraction.isEmpty || fraction.first == "." else { return nil }
        return whole.addingTimeInterval(fraction.isEmpty ? 0 : Double("0" + fraction) ?? 0)
    }

    /// A copy of Migrations/ with a version 4 whose schema is v3 edited by `edit` and whose
    /// migration file has `steps`; returns the migrations folder and the v4 schema file.
    func historyWithVersion4(
        steps: String,
        edit: (String) -> String = {
            $0.replacingOccurrences(of: "favoriteToy:\n        type: string\n        default: \"\"", with: "favoriteToy:\n        type: string\n        default: ball")
        }
    ) throws -> (migrations: String, schemas: String) {
        let migrations = folder.appendingPathComponent("Migrations")
        try FileManager.default.copyItem(at: CLIRunner.packageRoot.appendingPathComponent("Migrations"), to: migrations)
        let v3 = try String(contentsOf: migrations.appendingPathComponent("snapshots/v3.yaml"), encoding: .utf8)
        let v4 = edit(v3)
        XCTAssertNotEqual(v4, v3, "the edit changed nothing")
        let schema = folder.appendingPathComponent("v4.yaml")
        try v4.write(to: schema, atomically: true, encoding: .utf8)
        try remodel(["migration", "new", "v4", "--schemas", schema.path, "--migrations", migrations.path])
        try "description: test\nsteps:\n\(steps)".write(to: migrations.appendingPathComponent("0004-v4.yaml"), atomically: true, encoding: .utf8)
        return (migrations.path, schema.path)
    }
}
