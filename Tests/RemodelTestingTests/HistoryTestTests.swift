import Foundation
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelPlanning
import RemodelStore
import RemodelTestSupport
import XCTest

@testable import RemodelTesting

/// `HistoryTest` finds, from generated data alone, each data-dependent failure a step kind can
/// meet, names where and what, and passes the histories that migrate every value.
final class HistoryTestTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws {
        folder = FilePaths.join(NSTemporaryDirectory(), "remodel-history-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A two-version history in files (so that failures are located): `v1` and `v2` are the
    /// `objects:`/`enums:` YAML of each version, `steps` the second migration's steps.
    private func history(v1: String, v2: String, steps: String = " []") throws -> (MigrationHistory, HistorySources) {
        let migrations = FilePaths.join(folder, "Migrations")
        try FileManager.default.createDirectory(atPath: FilePaths.join(migrations, "snapshots"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: FilePaths.join(folder, "Schemas"), withIntermediateDirectories: true)
        try v1.write(toFile: FilePaths.join(migrations, "snapshots/v1.yaml"), atomically: true, encoding: .utf8)
        try v2.write(toFile: FilePaths.join(migrations, "snapshots/v2.yaml"), atomically: true, encoding: .utf8)
        try v2.write(toFile: FilePaths.join(folder, "Schemas/Schema.yaml"), atomically: true, encoding: .utf8)
        try "steps: []\n".write(toFile: FilePaths.join(migrations, "0001-initial.yaml"), atomically: true, encoding: .utf8)
        try "steps:\(steps)\n".write(toFile: FilePaths.join(migrations, "0002-change.yaml"), atomically: true, encoding: .utf8)
        let input = HistoryInput.read(schemasPath: FilePaths.join(folder, "Schemas"), migrationsPath: migrations)
        XCTAssertFalse(input.hasErrors, "\(input.diagnostics)")
        return (try XCTUnwrap(input.history), input.sources)
    }

    private func run(_ history: MigrationHistory, _ sources: HistorySources, configure: (inout Migrator) -> Void = { _ in }) throws -> HistoryTestReport {
        var migrator = Migrator(history: history)
        migrator.sources = sources
        configure(&migrator)
        var test = HistoryTest(migrator: migrator)
        test.workFolder = folder
        return try test.run()
    }

    private static let dog = """
        objects:
          Dog:
            primaryKey: id
            properties:
              id: string
              PROPERTY

        """

    private func dogs(_ v1: String, _ v2: String) -> (String, String) {
        (Self.dog.replacingOccurrences(of: "PROPERTY", with: v1), Self.dog.replacingOccurrences(of: "PROPERTY", with: v2))
    }

    /// Each step kind that can meet data it cannot migrate, with the problem the failure names.
    func testTheGeneratorFindsTheDataEachStepKindCannotMigrate() throws {
        struct Case {
            var name: String
            var v1: String
            var v2: String
            var steps: String
            var problem: String
            var property: String?
        }
        let enums = "enums:\n  Size: { type: string, cases: { small: s, large: l } }\n"
        let cases = [
            Case(
                name: "convert, onError: fail", v1: "weight: string", v2: "weight: int",
                steps: "\n  - convert: { type: Dog, property: weight, to: int, onError: fail }", problem: "cannot be converted to int", property: "weight"),
            Case(
                name: "convert narrowing a number", v1: "count: int64", v2: "count: int8",
                steps: "\n  - convert: { type: Dog, property: count, to: int8, onError: fail }", problem: "cannot be converted to int8", property: "count"),
            Case(
                name: "mapValues without otherwise", v1: "size: string", v2: "size: string",
                steps: "\n  - mapValues: { type: Dog, property: size, values: { small: S, large: L } }", problem: "mapValues does not map", property: "size"),
            Case(
                name: "createObjects with a key the data has", v1: "name: string?", v2: "name: string?",
                steps: "\n  - createObjects: { type: Dog, objects: [{ id: a }] }", problem: "createObjects also has", property: "id"),
            Case(name: "optional becoming required", v1: "nick: string?", v2: "nick: string", steps: " []", problem: "becomes required", property: "nick"),
            Case(
                name: "a set that reads a null", v1: "nick: string?\n      label: { type: string, default: \"\" }", v2: "nick: string?\n      label: string?",
                steps: "\n  - set: { type: Dog, property: label, value: \"{nick}\" }", problem: "", property: nil),
        ]
        var found = 0
        for testCase in cases {
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let (v1, v2) = dogs(testCase.v1, testCase.v2)
            let (history, sources) = try history(v1: v1, v2: v2, steps: testCase.steps)
            let report = try run(history, sources)
            guard !testCase.problem.isEmpty else {
                // A template over an optional property writes null into an optional one: no failure.
                XCTAssertTrue(report.passed, "\(testCase.name): \(report.failures)")
                continue
            }
            let failure = try XCTUnwrap(report.failures.first, "\(testCase.name): no failure found")
            XCTAssertEqual(failure.kind, .migrationFailed, testCase.name)
            XCTAssertEqual(failure.version, 1, testCase.name)
            XCTAssertEqual(failure.failingVersion, 2, testCase.name)
            XCTAssertTrue(failure.message.contains(testCase.problem), "\(testCase.name): \(failure.message)")
            XCTAssertEqual(failure.type, "Dog", testCase.name)
            XCTAssertEqual(failure.property, testCase.property, testCase.name)
            XCTAssertNotNil(failure.value, testCase.name)
            if testCase.steps != " []" {
                XCTAssertEqual(failure.location?.file, FilePaths.join(folder, "Migrations/0002-change.yaml"), testCase.name)
                XCTAssertEqual(failure.location?.line, 2, testCase.name)
            }
            // The smallest data that fails so: one Dog.
            guard case .object(let members)? = failure.minimalObjects, case .array(let minimal)? = members.first(where: { $0.0 == "Dog" })?.1 else {
                return XCTFail("\(testCase.name): no minimal data")
            }
            XCTAssertEqual(minimal.count, 1, "\(testCase.name): \(minimal)")
            found += 1
        }
        XCTAssertEqual(found, cases.count - 1)
        // Removed enum cases, with the enum at both versions.
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (v1, v2) = dogs("size: Size", "size: Size")
        let (history, sources) = try history(v1: enums + v1, v2: enums.replacingOccurrences(of: ", large: l", with: "") + v2)
        let failure = try XCTUnwrap(try run(history, sources).failures.first)
        XCTAssertTrue(failure.message.contains("values of enum cases removed from Size (large)"), failure.message)
        XCTAssertEqual(failure.value, "\"l\"")
    }

    /// A custom step that throws on a value it does not expect (the app's own parser, say)
    /// meets one: the failure names the step, the type and the object.
    func testACustomStepThatThrowsOnAValueIsFound() throws {
        struct NotAPhoneNumber: Error, CustomStringConvertible {
            var text: String
            var description: String { "'\(text)' is not a phone number" }
        }
        let (v1, v2) = dogs("phone: { type: string, default: \"\" }", "phone: { type: string, default: \"\" }")
        let (history, sources) = try history(v1: v1, v2: v2, steps: "\n  - custom: { name: normalisePhone, type: Dog, writes: [phone] }")
        let report = try run(history, sources) { migrator in
            migrator.register("normalisePhone") { object in
                guard case .text(let text) = object.old["phone"], text.allSatisfy({ $0.isNumber || $0 == " " || $0 == "+" }) else {
                    throw NotAPhoneNumber(text: object.old["phone"].map { "\($0)" } ?? "null")
                }
                object.new["phone"] = .text(text.filter(\.isNumber))
            }
        }
        let failure = try XCTUnwrap(report.failures.first)
        XCTAssertEqual(failure.kind, .migrationFailed)
        XCTAssertEqual(failure.type, "Dog")
        XCTAssertTrue(failure.message.contains("custom step 'normalisePhone' failed on Dog"), failure.message)
        XCTAssertTrue(failure.message.contains("is not a phone number"), failure.message)
        guard case .object(let members)? = failure.minimalObjects, case .array(let minimal)? = members.first(where: { $0.0 == "Dog" })?.1 else {
            return XCTFail("no minimal data")
        }
        XCTAssertEqual(minimal.count, 1, "\(minimal)")
    }

    /// A value becoming a link by key: generated values include keys that name no object.
    func testAValueBecomingALinkMeetsKeysThatNameNoObject() throws {
        let owners = """
            objects:
              Owner:
                primaryKey: id
                properties: { id: int, name: string? }
              Pet:
                primaryKey: id
                properties: { id: int, owner: OWNER }

            """
        let (history, sources) = try history(
            v1: owners.replacingOccurrences(of: "OWNER", with: "int32?"), v2: owners.replacingOccurrences(of: "OWNER", with: "Owner?"),
            steps: "\n  - convert: { type: Pet, property: owner, to: Owner?, onError: fail }")
        let failure = try XCTUnwrap(try run(history, sources).failures.first)
        XCTAssertTrue(failure.message.contains("no Owner's primary key"), failure.message)
        XCTAssertEqual(failure.property, "owner")
    }

    /// A migration that leaves removed enum cases in the store (issue 24's first fault, put
    /// back in this test's planner) is caught by the conformance check.
    func testAMigrationThatLeavesValuesTheNewestSchemaForbidsFails() throws {
        let enums = "enums:\n  Size: { type: string, cases: { small: s, large: l } }\n"
        let (v1, v2) = dogs("size: Size", "size: Size")
        let (history, sources) = try history(v1: enums + v1, v2: enums.replacingOccurrences(of: ", large: l", with: "") + v2)
        let fixed = try run(history, sources)
        XCTAssertEqual(fixed.failures.map(\.kind), [.migrationFailed])
        let faulty = try run(history, sources) { $0.reintroducedFaults = [.removedEnumCasesUnchecked] }
        let failure = try XCTUnwrap(faulty.failures.first)
        XCTAssertEqual(failure.kind, .doesNotConform)
        XCTAssertTrue(failure.message.contains("does not conform"), failure.message)
        XCTAssertTrue(failure.message.contains("\"l\""), failure.message)
    }

    /// A custom step whose result depends on the run, not on the data: migrated directly and
    /// version by version, the results differ, and the test says where.
    func testResultsThatDependOnHowTheVersionsRunAreReported() throws {
        let (v1, v2) = dogs("label: { type: string, default: \"\" }", "label: { type: string, default: \"\" }")
        let (history, sources) = try history(v1: v1, v2: v2, steps: "\n  - custom: { name: stamp, type: Dog, writes: [label] }")
        let counter = Counter()
        let report = try run(history, sources) { migrator in
            migrator.register("stamp") { object in object.new["label"] = .text("run \(counter.next())") }
        }
        let failure = try XCTUnwrap(report.failures.first)
        XCTAssertEqual(failure.kind, .resultsDiffer)
        XCTAssertEqual(failure.property, "label")
        XCTAssertTrue(failure.message.contains("directly and version by version, the results differ: Dog[0].label is"), failure.message)
    }

    /// The test plans a history once and runs parts of that plan: each part is the plan
    /// `remodel migrate` makes for a store at that version.
    func testAPartOfThePlanIsThePlanFromItsVersion() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let realm = HistoryInput.read(
            schemasPath: FilePaths.join(root, "Examples/RealmMigration/Schemas"), migrationsPath: FilePaths.join(root, "Examples/RealmMigration/Migrations"))
        for history in [ExampleHistory.history, try XCTUnwrap(realm.history)] {
            let migrator = Migrator(history: history)
            let now = Date(timeIntervalSince1970: 1_000_000)
            let whole = try migrator.plan(from: 1, now: now)
            for version in 1..<history.currentVersion {
                for target in (version + 1)...history.currentVersion {
                    let planned = try migrator.plan(from: version, to: target, now: now)
                    let part = whole.part(from: version, to: target)
                    XCTAssertEqual(part.fromVersion, planned.fromVersion)
                    XCTAssertEqual(part.toVersion, planned.toVersion)
                    XCTAssertEqual(part.versions.map(\.statements), planned.versions.map(\.statements), "\(version) → \(target)")
                    XCTAssertEqual(part.versions.map { $0.checks.map(\.problem) }, planned.versions.map { $0.checks.map(\.problem) })
                    XCTAssertEqual(MigrationPlanRenderer.text(of: part, store: "s"), MigrationPlanRenderer.text(of: planned, store: "s"))
                }
            }
        }
    }

    /// The example's history and Realm's example history migrate every generated value.
    func testTheExampleHistoriesPass() throws {
        let exampleReport = try run(ExampleHistory.history, HistorySources())
        XCTAssertTrue(exampleReport.passed, "\(exampleReport.failures)")
        XCTAssertEqual(exampleReport.dataSets.map(\.version), [1, 2, 3])
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let realm = HistoryInput.read(
            schemasPath: FilePaths.join(root, "Examples/RealmMigration/Schemas"), migrationsPath: FilePaths.join(root, "Examples/RealmMigration/Migrations"))
        let report = try run(try XCTUnwrap(realm.history), realm.sources)
        XCTAssertTrue(report.passed, "\(report.failures)")
        XCTAssertEqual(report.dataSets.count, 6)
        XCTAssertGreaterThan(report.dataSets.map(\.objects).reduce(0, +), 200)
    }

    /// A fixture that holds a value the history cannot migrate fails, named by its file; one
    /// that does not fit its version's schema is an import failure.
    func testFixturesAreMigratedAndNamed() throws {
        let (v1, v2) = dogs("weight: string", "weight: int")
        let (history, sources) = try history(v1: v1, v2: v2, steps: "\n  - convert: { type: Dog, property: weight, to: int, onError: default }")
        var migrator = Migrator(history: history)
        migrator.sources = sources
        var test = HistoryTest(migrator: migrator)
        test.workFolder = folder
        test.generates = false
        test.fixtures = [
            Fixture(version: 1, path: "fixtures/1/good.json", document: try parse(#"{ "Dog": [{ "id": "a", "weight": "12" }, { "id": "b", "weight": "n/a" }] }"#)),
            Fixture(version: 1, path: "fixtures/1/bad.json", document: try parse(#"{ "Dog": [{ "id": "a", "weight": 12 }] }"#)),
        ]
        let report = try test.run()
        XCTAssertEqual(report.dataSets.map(\.name), ["fixtures/1/good.json", "fixtures/1/bad.json"])
        XCTAssertNil(report.dataSets[0].failure)
        let failure = try XCTUnwrap(report.dataSets[1].failure)
        XCTAssertEqual(failure.kind, .importFailed)
        XCTAssertEqual(failure.diagnostic.location?.file, "fixtures/1/bad.json")
        XCTAssertTrue(failure.message.contains("Dog[0].weight"), failure.message)
    }

    private func parse(_ text: String) throws -> JSONValue {
        var parser = JSONParser(text)
        return try parser.parse()
    }
}

/// A counter shared by the calls of a custom step.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
