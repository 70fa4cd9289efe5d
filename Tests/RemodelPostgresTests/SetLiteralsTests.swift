import Foundation
import RemodelCodegen
import RemodelCore
import RemodelMigrate
import RemodelSchema
import RemodelTestSupport
import Testing

/// A step's literal means one thing everywhere: each literal of the table is written in a
/// migration file (as a `set` step's value, and as a created object's), an object imported at version 1 is migrated on SQLite and on PostgreSQL and
/// exported, and `remodel generate --realm`'s migration block is generated from the same
/// files. The stores must export the value the table gives and the block must write the Swift
/// literal of that value; a literal one of them refuses, all of them refuse, at its line.
@Suite(.serialized) struct SetLiteralsTests {
    /// A literal a property of `type` accepts.
    struct Accepted: Sendable {
        /// The property's type in the schema.
        var type: String
        /// `value:` as the migration file writes it.
        var yaml: String
        /// The value the store exports.
        var stored: JSONValue
        /// What the Realm migration block assigns.
        var realm: String

        /// What a created object holds instead, where YAML's core schema reads the plain
        /// scalar as another value than a `set` step's text does (`0x1F` is 31).
        var created: (stored: JSONValue, realm: String)?

        init(_ type: String, _ yaml: String, _ stored: JSONValue, _ realm: String, created: (stored: JSONValue, realm: String)? = nil) {
            self.type = type
            self.yaml = yaml
            self.stored = stored
            self.realm = realm
            self.created = created
        }
    }

    /// A literal a property of `type` refuses, with what the store's migration says.
    struct Refused: CustomTestStringConvertible, Sendable {
        var type: String
        var yaml: String
        var error: String

        var testDescription: String { "\(yaml) for \(type)" }
    }

    static let accepted: [Accepted] = [
        Accepted("int?", "0x1F", .integer(31), "31"),
        Accepted("int?", "-0o17", .integer(-15), "-15"),
        Accepted("int?", "\"42\"", .integer(42), "42"),
        Accepted("int?", "null", .null, "NSNull()"),
        Accepted("int8?", "-128", .integer(-128), "Int8(-128)"),
        Accepted("int16?", "0x7FFF", .integer(32767), "Int16(32767)"),
        Accepted("int32?", "+7", .integer(7), "Int32(7)"),
        Accepted("int64?", "-9223372036854775808", .integer(.min), "Int64(-9223372036854775808)"),
        Accepted("double?", ".inf", .double(.infinity), "Double.infinity"),
        Accepted("double?", "-.inf", .double(-.infinity), "-Double.infinity"),
        Accepted("double?", "1e3", .double(1000), "1000.0"),
        Accepted("double?", "0x1F", .double(31), "31.0"),
        Accepted("double?", "-2.5", .double(-2.5), "-2.5"),
        Accepted("float?", "1.5", .double(1.5), "1.5"),
        Accepted("float?", "-.inf", .double(-.infinity), "-Float.infinity"),
        Accepted("bool?", "true", .bool(true), "true"),
        Accepted("bool?", "\"false\"", .bool(false), "false"),
        Accepted("bool?", "True", .bool(true), "true"),
        Accepted("string?", "\"null\"", .string("null"), "\"null\""),
        Accepted("string?", "null", .null, "NSNull()"),
        Accepted("string?", "0x1F", .string("0x1F"), "\"0x1F\"", created: (.string("31"), "\"31\"")),
        Accepted("string?", ".inf", .string(".inf"), "\".inf\""),
        Accepted("date?", "2024-05-01", .string("2024-05-01T00:00:00Z"), "Date(timeIntervalSince1970: 1714521600.0)"),
        Accepted("date?", "\"2024-05-01T09:30:00+02:00\"", .string("2024-05-01T07:30:00Z"), "Date(timeIntervalSince1970: 1714548600.0)"),
        Accepted("uuid?", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), "UUID(uuidString: \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\")!"),
        Accepted("Level?", "high", .string("high"), "\"high\""),
    ]

    static let refused: [Refused] = [
        Refused(type: "int?", yaml: "\"null\"", error: "\"null\" is not a valid int?"),
        Refused(type: "int?", yaml: "1.5", error: "1.5 is not a whole number (int)"),
        Refused(type: "int?", yaml: "1e3", error: "1000.0 is a floating-point number, not an int"),
        Refused(type: "int8?", yaml: "0x80", error: "128 is out of range for int8"),
        Refused(type: "double?", yaml: ".nan", error: ".nan cannot be stored"),
        Refused(type: "float?", yaml: "1e39", error: "1e+39 is out of range for float"),
        Refused(type: "bool?", yaml: "yes", error: "\"yes\" is not a valid bool?"),
        Refused(type: "string", yaml: "null", error: "null is not allowed: the property is required (string)"),
        Refused(type: "date?", yaml: "01/02/2026", error: "\"01/02/2026\" is not an ISO 8601 date-time"),
        Refused(type: "Level?", yaml: "medium", error: "\"medium\" is not a case of Level"),
    ]

    static let engines: [BothEnginesSemanticsTests.Engine] = [.sqlite, .postgres]

    /// Every accepted literal, each setting its own property in one migration.
    @Test(arguments: Self.engines)
    func everyBackEndWritesTheSameValue(on engine: BothEnginesSemanticsTests.Engine) throws {
        let example = Self.example(Self.accepted.map { ($0.type, $0.yaml) })
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-set-literals-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (history, sources) = try BothEnginesSemanticsTests.load(example, in: folder)

        let realm = try Self.realmAssignments(history: history, sources: sources)
        for (index, literal) in Self.accepted.enumerated() {
            #expect(realm["p\(index)"] == literal.realm, "value: \(literal.yaml) for \(literal.type)")
        }

        let store = try Self.store(on: engine, in: folder)
        try store.importDocument(.object([("Row", .array([.object([("id", .integer(1))])]))]), schema: history.schema(at: 1)!)
        try store.migrate(Migrator(history: history))
        let row: [(String, JSONValue)] = [("id", .integer(1))] + Self.accepted.enumerated().map { ("p\($0.offset)", $0.element.stored) }
        let expected = JSONValue.object([("Row", .array([.object(row)]))])
        let exported = try store.export(history: history)
        #expect(exported == expected, "\(exported.prettyText)")
    }

    /// The same literals as the values of an object `createObjects` makes: the same stored
    /// value on both engines, and the same Swift literal in the Realm block's new object.
    @Test(arguments: Self.engines)
    func createdObjectsHoldTheSameValues(on engine: BothEnginesSemanticsTests.Engine) throws {
        var example = Self.example(Self.accepted.map { ($0.type, $0.yaml) })
        let values = Self.accepted.enumerated().map { "p\($0.offset): \($0.element.yaml)" }.joined(separator: ", ")
        example.steps = "  - createObjects: { type: Row, objects: [{ id: 2, \(values) }] }\n"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-set-literals-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (history, sources) = try BothEnginesSemanticsTests.load(example, in: folder)

        let block = try Self.realmBlock(history: history, sources: sources)
        for (index, literal) in Self.accepted.enumerated() {
            let realm = literal.created?.realm ?? literal.realm
            #expect(block.contains("\"p\(index)\": \(realm),") || block.contains("\"p\(index)\": \(realm)]"), "value: \(literal.yaml) for \(literal.type)\n\(block)")
        }

        let store = try Self.store(on: engine, in: folder)
        try store.importDocument(.object([("Row", .array([.object([("id", .integer(1))])]))]), schema: history.schema(at: 1)!)
        try store.migrate(Migrator(history: history))
        let empty: [(String, JSONValue)] = [("id", .integer(1))] + Self.accepted.indices.map { ("p\($0)", .null) }
        let created: [(String, JSONValue)] = [("id", .integer(2))] + Self.accepted.enumerated().map { ("p\($0.offset)", $0.element.created?.stored ?? $0.element.stored) }
        let expected = JSONValue.object([("Row", .array([.object(empty), .object(created)]))])
        let exported = try store.export(history: history)
        #expect(exported == expected, "\(exported.prettyText)")
    }

    /// Each refused literal alone: the store's migration stops at its line, and the Realm
    /// generator refuses it at the same line.
    @Test(arguments: Self.refused, Self.engines)
    func everyBackEndRefusesTheSameValue(_ literal: Refused, on engine: BothEnginesSemanticsTests.Engine) throws {
        let example = Self.example([(literal.type, literal.yaml)])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-set-literals-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (history, sources) = try BothEnginesSemanticsTests.load(example, in: folder)
        let line = "0002-change.yaml:3:"

        let store = try Self.store(on: engine, in: folder)
        try store.importDocument(.object([("Row", .array([.object([("id", .integer(1))])]))]), schema: history.schema(at: 1)!)
        var migrator = Migrator(history: history)
        migrator.sources = sources
        let error = #expect(throws: (any Error).self) { try store.migrate(migrator) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains(literal.error), "\(text)")
        #expect(text.contains(line), "\(text)")

        let realm = CodeGenerator(options: GeneratorOptions(realm: true)).check(
            GeneratorInput(schema: history.schema(at: 2)!, version: 2, history: history, sources: sources))
        #expect(realm.contains { $0.rule == "realm-unsupported-step" && "\($0.location.map { "\($0)" } ?? "")".contains(line) }, "\(realm)")
    }

    // MARK: - Helpers

    /// A history whose version 2 adds `p0`, `p1`, … of the given types to `Row` and sets each
    /// to its literal.
    static func example(_ literals: [(type: String, yaml: String)]) -> BothEnginesSemanticsTests.Case {
        let enums = "enums:\n  Level:\n    type: string\n    cases: [low, high]\n"
        let v1 = enums + "objects:\n  Row:\n    primaryKey: id\n    properties:\n      id: int\n"
        let v2 = v1 + literals.enumerated().map { "      p\($0.offset): \($0.element.type)\n" }.joined()
        let steps = literals.enumerated().map { "  - set: { type: Row, property: p\($0.offset), value: \($0.element.yaml) }\n" }.joined()
        return BothEnginesSemanticsTests.Case(name: "set literals", v1: v1, v2: v2, steps: steps, input: "{}", expected: nil)
    }

    static func store(on engine: BothEnginesSemanticsTests.Engine, in folder: URL) throws -> any EngineStore {
        engine.isPostgres ? try PostgresEngineStore(orSkip: { BothEnginesSemanticsTests.Skip($0) }) : try SQLiteEngineStore(folder: folder)
    }

    /// What the generated Realm migration block assigns to each property, by name.
    static func realmAssignments(history: MigrationHistory, sources: HistorySources) throws -> [String: String] {
        let block = try realmBlock(history: history, sources: sources)
        var assignments: [String: String] = [:]
        for line in block.split(separator: "\n") {
            let code = line.trimmingCharacters(in: .whitespaces)
            guard code.hasPrefix("newObject[\""), let end = code.range(of: "\"] = ") else { continue }
            assignments[String(code[code.index(code.startIndex, offsetBy: 11)..<end.lowerBound])] = String(code[end.upperBound...])
        }
        return assignments
    }

    /// The generated Realm migration block of version 2, which must generate.
    static func realmBlock(history: MigrationHistory, sources: HistorySources) throws -> String {
        let input = GeneratorInput(schema: history.schema(at: 2)!, version: 2, history: history, sources: sources)
        let generator = CodeGenerator(options: GeneratorOptions(realm: true))
        let refused = generator.check(input)
        #expect(refused.isEmpty, "\(refused)")
        return try #require(try generator.files(for: input).first { $0.name.hasSuffix("+Realm.swift") }).contents
    }
}
