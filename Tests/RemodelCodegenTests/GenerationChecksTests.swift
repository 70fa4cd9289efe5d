import RemodelCodegen
import RemodelCore
import RemodelTestSupport
import XCTest

/// Schemas built in code skip the YAML validator; the generator still refuses anything it
/// cannot turn into safe Swift, saying what, where and how to fix it.
final class GenerationChecksTests: XCTestCase {
    private func problems(_ schema: Schema) -> [Diagnostic] {
        CodeGenerator().check(GeneratorInput(schema: schema))
    }

    private func assertRefused(_ schema: Schema, rule: String, mentions words: [String], file: StaticString = #filePath, line: UInt = #line) {
        let found = problems(schema)
        guard let diagnostic = found.first(where: { $0.rule == rule }) else {
            return XCTFail("expected \(rule), got \(found.map { "\($0.rule): \($0.message)" })", file: file, line: line)
        }
        for word in words { XCTAssertTrue(diagnostic.message.contains(word), "'\(diagnostic.message)' should mention '\(word)'", file: file, line: line) }
        XCTAssertNotNil(diagnostic.hint, file: file, line: line)
        XCTAssertThrowsError(try CodeGenerator().files(for: GeneratorInput(schema: schema)), file: file, line: line)
    }

    private func object(_ name: String, key: String? = "id", _ properties: [Property]) -> ObjectType {
        ObjectType(name: name, primaryKey: key, properties: properties)
    }

    private func object(key: String? = "id", _ properties: [Property]) -> ObjectType {
        object("Thing", key: key, properties)
    }

    func testNamesThatAreNotIdentifiersAreRefused() {
        assertRefused(Schema(objects: [object("../Escape", [Property("id", .scalar(.int))])]), rule: "codegen-invalid-name", mentions: ["../Escape", "type name"])
        assertRefused(Schema(objects: [object([Property("id", .scalar(.int)), Property("a b\"); evil(", .scalar(.int))])]), rule: "codegen-invalid-name", mentions: ["Thing"])
        assertRefused(Schema(enums: [EnumType(name: "E", cases: [.init(name: "x-y", rawValue: .string("x"))])]), rule: "codegen-invalid-name", mentions: ["x-y"])
    }

    func testShadowingAndCollidingNamesAreRefused() {
        assertRefused(Schema(objects: [object("Date", [Property("id", .scalar(.int))])]), rule: "codegen-reserved-name", mentions: ["Date"])
        assertRefused(
            Schema(objects: [object("Note", [Property("id", .scalar(.int))]), object("note", [Property("id", .scalar(.int))])]), rule: "codegen-name-collision",
            mentions: ["note", "Note"])
        assertRefused(Schema(objects: [object("RemodelSchemaManifest", [Property("id", .scalar(.int))])]), rule: "codegen-name-collision", mentions: ["RemodelSchemaManifest"])
        assertRefused(
            Schema(objects: [object(key: "key", [Property("key", .scalar(.int)), Property("id", .scalar(.string))])]), rule: "codegen-name-collision",
            mentions: ["Thing.id", "key"])
        assertRefused(Schema(objects: [object([Property("id", .scalar(.int)), Property("self", .scalar(.int))])]), rule: "codegen-reserved-name", mentions: ["self"])
        assertRefused(Schema(enums: [EnumType(name: "E", cases: [.init(name: "rawValue", rawValue: .string("r"))])]), rule: "codegen-reserved-name", mentions: ["rawValue"])
    }

    func testDefaultsLinksAndProjectionsNeedASwiftForm() {
        assertRefused(
            Schema(objects: [object([Property("id", .scalar(.uuid), default: .string("not-a-uuid"))])]), rule: "codegen-invalid-default", mentions: ["not-a-uuid", "uuid"])
        assertRefused(Schema(objects: [object([Property("id", .scalar(.int8), default: .int(300))])]), rule: "codegen-invalid-default", mentions: ["300", "int8"])
        assertRefused(
            Schema(objects: [object([Property("id", .scalar(.int)), Property("other", PropertyType(.object("Nowhere"), optional: true))])]), rule: "codegen-unknown-type",
            mentions: ["Nowhere"])
        assertRefused(
            Schema(objects: [
                object([Property("id", .scalar(.int)), Property("log", PropertyType(.object("Log"), optional: true))]),
                object("Log", key: nil, [Property("text", .scalar(.string))]),
            ]), rule: "codegen-link-without-key", mentions: ["Log"])
        let model = object("Person", [Property("id", .scalar(.int)), Property("name", .scalar(.string))])
        assertRefused(
            Schema(objects: [model], projections: [Projection(name: "P", of: "Person", properties: [.init(name: "x", keyPath: "name.count")])]), rule: "codegen-invalid-projection",
            mentions: ["P.x", "type"])
        assertRefused(
            Schema(objects: [model], projections: [Projection(name: "P", of: "Person", properties: [.init(name: "x", keyPath: "name", type: "Int) { evil() }; let y: (Int")])]),
            rule: "codegen-invalid-projection", mentions: ["not a Swift type"])
        assertRefused(
            Schema(objects: [model], projections: [Projection(name: "P", of: "Person", properties: [.init(name: "x", keyPath: "missing")])]), rule: "codegen-invalid-projection",
            mentions: ["missing", "Person"])
    }

    func testDateDefaultsGenerateTheMicrosecondTheStoreKeeps() throws {
        let schema = Schema(objects: [
            object([
                Property("id", .scalar(.int)),
                Property("day", .scalar(.date), default: .string("2024-05-01")),
                Property("minute", .scalar(.date), default: .string("2024-05-01T14:30+02")),
                Property("micro", .scalar(.date), default: .string("2024-05-01 00:00:00.1234565Z")),
            ])
        ])
        let text = try CodeGenerator().files(for: GeneratorInput(schema: schema)).map(\.contents).joined()
        XCTAssertTrue(text.contains("day: Date = Date(timeIntervalSince1970: 1714521600.0)"), "midnight UTC")
        XCTAssertTrue(text.contains("minute: Date = Date(timeIntervalSince1970: 1714566600.0)"), "12:30Z")
        XCTAssertTrue(text.contains("micro: Date = Date(timeIntervalSince1970: 1714521600.123457)"), "rounded to the microsecond")
        for bad in ["2023-02-29", "2024-05-01T12:00+99:99", "2024-05-01T12:00:60Z"] {
            assertRefused(
                Schema(objects: [object([Property("id", .scalar(.int)), Property("at", .scalar(.date), default: .string(bad))])]),
                rule: "codegen-invalid-default", mentions: [bad])
        }
    }

    func testTheExampleSchemaPasses() {
        XCTAssertEqual(problems(ExampleHistory.v3WithProjection), [])
    }
}
