import Foundation
import RemodelCore
import RemodelSchema
import XCTest

/// Loading from disk: finding and ordering files, merging them, and naming files in
/// diagnostics the way the user wrote the path.
final class SchemaLoaderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ text: String, to name: String) throws {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func testFilesAreMergedInPathOrderAndNamedAsGiven() throws {
        try write("objects:\n  B:\n    properties:\n      name: string\n", to: "b.yml")
        try write("objects:\n  A:\n    properties:\n      name: string\n", to: "a.yaml")
        try write("objects:\n  C:\n    properties:\n      name: string\n", to: "nested/c.yaml")
        try write("not: [valid", to: ".hidden.yaml")
        try write("ignored", to: "notes.txt")
        let result = SchemaLoader.load(path: folder.path + "/")
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertEqual(result.files, [folder.path + "/a.yaml", folder.path + "/b.yml", folder.path + "/nested/c.yaml"])
        XCTAssertEqual(result.schema?.objects.map(\.name), ["A", "B", "C"])
    }

    func testDuplicateTypesAcrossFilesShowBothPlaces() throws {
        try write("objects:\n  Dog:\n    properties:\n      name: string\n", to: "a.yaml")
        try write("enums:\n  Dog:\n    cases: [small]\n", to: "b.yaml")
        let result = SchemaLoader.load(path: folder.path)
        XCTAssertNil(result.schema)
        XCTAssertEqual(result.diagnostics.count, 1)
        let diagnostic = try XCTUnwrap(result.diagnostics.first)
        XCTAssertEqual(diagnostic.rule, "duplicate-type")
        // Enums are registered first, so the object in a.yaml is the second declaration.
        XCTAssertEqual(diagnostic.location, SourceLocation(file: folder.path + "/a.yaml", line: 2, column: 3))
        XCTAssertEqual(diagnostic.notes.first?.location, SourceLocation(file: folder.path + "/b.yaml", line: 2, column: 3))
        XCTAssertEqual(diagnostic.notes.first?.message, "'Dog' first declared here")
    }

    func testLinksResolveAcrossFiles() throws {
        try write("objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: uuid\n      dogs: list<Dog>\n", to: "a.yaml")
        try write("objects:\n  Dog:\n    primaryKey: id\n    properties:\n      id: uuid\n      owners: { inverse: Person.dogs }\n", to: "b.yaml")
        let result = SchemaLoader.load(path: folder.path)
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertEqual(result.schema?.objectType(named: "Dog")?.property(named: "owners")?.kind, .inverse(type: "Person", property: "dogs"))
    }

    /// Object types are resolved in parallel runs (several per core); every problem in every
    /// run must still be reported once, at its place, in file order, and what one run
    /// resolved (where a property's type is written) must reach the checks that follow.
    func testProblemsInManyObjectsAreAllReportedInOrder() throws {
        let count = 61
        var text = "objects:\n"
        for index in 0..<count {
            text += "  T\(index):\n    primaryKey: id\n    properties:\n      id: uuid\n"
            // Every seventh type has an unknown type; every eleventh an inverse of a property
            // that is not a link (reported by the relationship checks, at the inverse).
            text += index % 7 == 3 ? "      bad: Nope\(index)\n" : "      next: T\((index + 1) % count)?\n"
            if index % 11 == 5 { text += "      back: { inverse: T\((index + 1) % count).id }\n" }
        }
        try write(text, to: "many.yaml")
        let result = SchemaLoader.load(path: folder.path)
        XCTAssertNil(result.schema)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func line(containing needle: String) -> Int { lines.firstIndex { $0.contains(needle) }! + 1 }
        var expected: [(rule: String, line: Int)] = []
        for index in 0..<count {
            if index % 7 == 3 { expected.append(("unknown-type", line(containing: "bad: Nope\(index)"))) }
            if index % 11 == 5 { expected.append(("inverse-origin-not-link", line(containing: "back: { inverse: T\((index + 1) % count).id }"))) }
        }
        XCTAssertEqual(result.diagnostics.map(\.rule), expected.map(\.rule))
        XCTAssertEqual(result.diagnostics.map { $0.location?.line }, expected.map(\.line))
        XCTAssertEqual(result.diagnostics.first?.location?.column, 12, "at the type name")
    }

    func testMissingPathIsReported() {
        let result = SchemaLoader.load(path: folder.path + "/Nope")
        XCTAssertEqual(result.diagnostics.map(\.rule), ["file-unreadable"])
        XCTAssertTrue(result.diagnostics[0].message.contains("does not exist"))
        XCTAssertTrue(result.diagnostics[0].hint?.contains("--schemas") ?? false)
    }

    func testFolderWithoutSchemaFilesIsReported() throws {
        try write("hello", to: "README.md")
        XCTAssertEqual(SchemaLoader.load(path: folder.path).diagnostics.map(\.rule), ["no-schema-files"])
    }

    func testRelativePathsStayRelativeInDiagnostics() throws {
        try write("objects:\n  Dog:\n    properties:\n      name: strin\n", to: "Schemas/Dog.yaml")
        let previous = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(folder.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(previous) }
        let result = SchemaLoader.load(path: "Schemas")
        XCTAssertEqual(result.diagnostics.first?.location, SourceLocation(file: "Schemas/Dog.yaml", line: 4, column: 13))
        XCTAssertEqual(result.diagnostics.first?.hint, "did you mean 'string'?")
    }

    func testEveryProblemIsReportedInOneRun() {
        let yaml = """
            objects:
              Person:
                primaryKey: id
                properties:
                  id: uuid?
                  age: integr
                  dog: Dog
              Dog:
                properties:
                  name: { type: string, defualt: x }
            """
        let rules = loadSchema(yaml: yaml, file: "p.yaml").diagnostics.map(\.rule)
        XCTAssertEqual(rules, ["primary-key-optional", "unknown-type", "primary-key-missing", "link-not-optional", "unknown-key"])
    }

    func testWarningsDoNotFailTheLoad() {
        let yaml = "objects:\n  Thing:\n    properties:\n      default: string\n"
        let result = loadSchema(yaml: yaml, file: "w.yaml")
        XCTAssertNotNil(result.schema)
        XCTAssertEqual(result.diagnostics.map(\.rule), ["swift-keyword"])
        XCTAssertEqual(result.diagnostics.first?.severity, .warning)
    }

    func testUnusedEmbeddedObjectsAndIndexedKeysAreWarnings() {
        let yaml = """
            objects:
              Thing:
                primaryKey: key
                properties:
                  key: { type: string, indexed: true }
              Address:
                embedded: true
                properties:
                  street: string
            """
        let result = loadSchema(yaml: yaml, file: "w.yaml")
        XCTAssertNotNil(result.schema)
        XCTAssertEqual(result.diagnostics.map(\.rule), ["index-redundant", "embedded-unused"])
        XCTAssertEqual(result.diagnostics.map(\.severity), [.warning, .warning])
        XCTAssertEqual(result.diagnostics.last?.location, SourceLocation(file: "w.yaml", line: 6, column: 3))
    }

    func testPropertyLevelPrimaryKeyAndIdAsPrimaryKey() {
        let yaml = "objects:\n  Thing:\n    properties:\n      id: { type: int, primaryKey: true }\n"
        let result = loadSchema(yaml: yaml, file: "pk.yaml")
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertEqual(result.schema?.objects.first?.primaryKey, "id")
    }

    func testDefaultsResolveAgainstTheirPropertyType() throws {
        let yaml = """
            enums:
              Size: { type: int, cases: { small: 1, large: 2 } }
            objects:
              Thing:
                properties:
                  a: { type: string, default: 123 }
                  b: { type: string, default: "$uuid" }
                  c: { type: string, default: $uuid }
                  d: { type: string?, default: ~ }
                  e: { type: double, default: 3 }
                  f: { type: decimal128, default: 1.25 }
                  g: { type: Size, default: large }
                  h: { type: bool, default: false }
                  i: { type: int8, default: -128 }
                  j: { type: int, default: 0x1F }
                  k: { type: date, default: 2024-05-01 }
                  l: { type: string, default: true }
            """
        let result = loadSchema(yaml: yaml, file: "d.yaml")
        XCTAssertEqual(result.diagnostics, [])
        let defaults = try XCTUnwrap(result.schema?.objects.first?.properties.map(\.defaultValue))
        XCTAssertEqual(
            defaults,
            [
                .string("123"), .string("$uuid"), .generated(.uuid), .null, .double(3), .string("1.25"), .enumCase("large"),
                .bool(false), .int(-128), .int(31), .string("2024-05-01"), .string("true"),
            ])
    }

    func testDateDefaultsAreTheFormsTheStoreReads() {
        for text in ["2024-05-01", "2024-05-01T12:30Z", "2024-05-01 12:30:00.5z", "2024-05-01T12:30:00+0200", "2024-05-01T12:30-05", "2024-02-29"] {
            let result = loadSchema(yaml: "objects:\n  T:\n    properties:\n      at: { type: date, default: \"\(text)\" }\n", file: "d.yaml")
            XCTAssertEqual(result.diagnostics, [], text)
        }
        for text in ["2024-05-01T12:30:00+99:99", "2023-02-29", "2024-04-31", "2024-05-01T12:30:60Z", "2024-05-01T12:30", "2024-05-01T12:30:00.Z"] {
            let result = loadSchema(yaml: "objects:\n  T:\n    properties:\n      at: { type: date, default: \"\(text)\" }\n", file: "d.yaml")
            XCTAssertEqual(result.diagnostics.map(\.rule), ["default-type-mismatch"], text)
        }
    }
}
