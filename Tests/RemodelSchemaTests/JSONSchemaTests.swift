import Foundation
import RemodelCore
import XCTest

@testable import RemodelSchema

/// The JSON Schemas of schema and migration files: shipped as generated, listing exactly the
/// keys the loader accepts in every mapping, and (with a standard validator, PyPI's
/// check-jsonschema) accepting every valid file of the repository and rejecting every
/// structural mistake of the invalid corpora.
final class JSONSchemaTests: XCTestCase {
    /// The repository's top folder.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-json-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: - The documents

    func testTheShippedFilesAreWhatTheCommandPrints() throws {
        for document in JSONSchemaDocument.allCases {
            let url = Self.repository.appendingPathComponent("JSONSchema").appendingPathComponent(document.fileName)
            let shipped = try String(contentsOf: url, encoding: .utf8)
            XCTAssertEqual(
                shipped, document.text,
                "JSONSchema/\(document.fileName) is out of date: run 'swift run remodel json-schema \(document.rawValue) > JSONSchema/\(document.fileName)'"
            )
        }
    }

    func testEveryKeyHasADescriptionAndEveryStepKindIsListed() throws {
        for document in JSONSchemaDocument.allCases {
            let json = try Self.parse(document)
            var missing: [String] = []
            Self.walk(json, path: "#") { path, value in
                guard let properties = value["properties"], case .object(let members) = properties else { return }
                for (key, schema) in members where schema != .bool(false) {
                    if case .string(let text)? = schema["description"], !text.isEmpty { continue }
                    missing.append("\(path)/properties/\(key)")
                }
            }
            XCTAssertEqual(missing, [], "keys without a description in the \(document.rawValue) JSON Schema")
        }
        let migration = try Self.parse(.migration)
        XCTAssertEqual(Self.keys(of: try XCTUnwrap(Self.definition("step", in: migration))), MigrationStep.kinds)
        XCTAssertEqual(FileVocabulary.stepKinds.map(\.name), MigrationStep.kinds)
        // The keys of steps (and of `addTo:`) are exactly the StepKeys that places in steps are
        // recorded and blamed by, so the reader and the planner cannot spell one two ways.
        let stepKeys = FileVocabulary.stepKinds.flatMap { $0.mapping.keys.map(\.name) } + FileVocabulary.linkTarget.keys.map(\.name)
        XCTAssertEqual(Set(stepKeys), Set(StepKey.allCases.map(\.rawValue)))
        // Types complete from an enumeration: every scalar type, plain and optional.
        let schema = try Self.parse(.schema)
        let typeSchema = try XCTUnwrap(Self.definition("property", in: schema)?["properties"]?["type"])
        XCTAssertTrue(typeSchema.description.contains("\"decimal128?\""), typeSchema.description)
        XCTAssertTrue(typeSchema.description.contains("\"objectId\""), typeSchema.description)
    }

    // MARK: - In step with the loader

    /// Where each mapping of the JSON Schemas is in a file: the YAML above it, and how each
    /// probed key is written there — all in one mapping (`key: x` lines indented by `indent`),
    /// or, where a mapping holds one key, one `item` each (`KEY` replaced by the key).
    private struct Context {
        var definition: String?
        var document: JSONSchemaDocument
        var header: String
        var indent = 0
        var item: String?
    }

    private let contexts: [Context] =
        [
            Context(definition: nil, document: .schema, header: "objects:\n  T:\n    properties: { a: string }\n"),
            Context(definition: "enum", document: .schema, header: "enums:\n  E:\n    cases: [a]\n", indent: 4),
            Context(definition: "object", document: .schema, header: "objects:\n  T:\n    properties: { a: string }\n", indent: 4),
            Context(definition: "property", document: .schema, header: "objects:\n  T:\n    properties:\n      a:\n        type: string\n", indent: 8),
            Context(
                definition: "projection", document: .schema, header: "objects:\n  T:\n    properties: { a: string }\nprojections:\n  P:\n    of: T\n    properties: { a: a }\n",
                indent: 4),
            Context(
                definition: "projectionProperty", document: .schema,
                header: "objects:\n  T:\n    properties: { a: string }\nprojections:\n  P:\n    of: T\n    properties:\n      a:\n        keyPath: a\n", indent: 8),
            Context(definition: nil, document: .migration, header: "description: probe\nsteps: []\n"),
            Context(definition: "accept", document: .migration, header: "description: probe\nsteps: []\naccept:\n", indent: 2),
            Context(definition: "step", document: .migration, header: "description: probe\nsteps:\n", item: "  - KEY: {}"),
            Context(
                definition: "linkTarget", document: .migration,
                header: "description: probe\nsteps:\n  - createObjects:\n      type: Dog\n      objects: [{ name: Rex }]\n      addTo:\n", indent: 8),
            Context(definition: "comparison", document: .migration, header: "description: probe\nsteps:\n", item: "  - deleteObjects: { type: Dog, where: { name: { KEY: x } } }"),
        ]
        + FileVocabulary.stepKinds.map { kind in
            Context(definition: "step.\(kind.name)", document: .migration, header: "description: probe\nsteps:\n  - \(kind.name):\n", indent: 6)
        }

    /// Every key any mapping of either file, the JSON Schemas or the readers know, and some
    /// no mapping has: the candidates each mapping is probed with.
    private func candidateKeys() throws -> [String] {
        var keys: Set<String> = ["bogus", "Type", "types", "steps2", "kind", "version", "name2"]
        for document in JSONSchemaDocument.allCases {
            Self.walk(try Self.parse(document), path: "#") { _, value in
                if let properties = value["properties"] { keys.formUnion(Self.keys(of: .object([("properties", properties)]))) }
            }
        }
        let readers = [
            SchemaFileReader.fileKeys, SchemaFileReader.enumKeys, SchemaFileReader.objectKeys, SchemaFileReader.propertyKeys,
            SchemaFileReader.projectionKeys, SchemaFileReader.projectionPropertyKeys, MigrationFileReader.fileKeys,
            MigrationFileReader.linkTargetKeys, MigrationStep.kinds, MigrationStep.Condition.keywords,
            ChangeAcceptance.Kind.allCases.map(\.rawValue),
        ]
        keys.formUnion(readers.joined())
        keys.formUnion(MigrationFileReader.stepKeys.values.flatMap { $0.required + $0.optional })
        return keys.sorted()
    }

    /// Probes each mapping with every candidate key: the keys the loader accepts there (no
    /// unknown-key or unknown-step error names them) must be the keys the JSON Schema lists.
    /// A key added to a reader and not to the vocabulary, or the other way round, fails here.
    func testTheLoaderAcceptsExactlyTheKeysTheJSONSchemaLists() throws {
        let candidates = try candidateKeys()
        var failures: [String] = []
        for context in contexts {
            let json = try Self.parse(context.document)
            let schema = try XCTUnwrap(context.definition.map { Self.definition($0, in: json) } ?? json, "no definition \(context.definition ?? "")")
            let listed = Set(Self.keys(of: schema))
            let lines = candidates.map { key in context.item.map { $0.replacingOccurrences(of: "KEY", with: key) } ?? String(repeating: " ", count: context.indent) + "\(key): x" }
            var rejected: Set<String> = []
            for diagnostic in try load(context.header + lines.joined(separator: "\n") + "\n", as: context.document)
            where ["unknown-key", "unknown-step"].contains(diagnostic.rule) {
                for candidate in candidates where diagnostic.message.contains("'\(candidate)'") { rejected.insert(candidate) }
            }
            let accepted = Set(candidates).subtracting(rejected)
            if accepted != listed {
                failures.append(
                    "\(context.document.rawValue) \(context.definition ?? "file"): the loader accepts \(accepted.sorted()), the JSON Schema lists \(listed.sorted())"
                )
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// Each mapping written with the keys it needs, to take one away at a time.
    private struct Complete {
        var definition: String
        var document: JSONSchemaDocument
        var header: String
        var indent: Int
        var keys: [(String, String)]
    }

    private var completeMappings: [Complete] {
        let objectT = "objects:\n  T:\n    properties: { a: string }\n"
        var mappings = [
            Complete(definition: "enum", document: .schema, header: "enums:\n  E:\n", indent: 4, keys: [("cases", "[a]")]),
            Complete(definition: "object", document: .schema, header: "objects:\n  T:\n", indent: 4, keys: [("properties", "{ a: string }")]),
            Complete(definition: "property", document: .schema, header: "objects:\n  T:\n    properties:\n      a:\n", indent: 8, keys: [("type", "string")]),
            Complete(definition: "projection", document: .schema, header: objectT + "projections:\n  P:\n", indent: 4, keys: [("of", "T"), ("properties", "{ a: a }")]),
            Complete(
                definition: "projectionProperty", document: .schema, header: objectT + "projections:\n  P:\n    of: T\n    properties:\n      a:\n", indent: 8,
                keys: [("keyPath", "a")]
            ),
            Complete(
                definition: "linkTarget", document: .migration,
                header: "description: probe\nsteps:\n  - createObjects:\n      type: Dog\n      objects: [{ name: Rex }]\n      addTo:\n", indent: 8,
                keys: [("type", "Dog"), ("property", "name"), ("where", "{ name: Fido }")]
            ),
        ]
        // A value for each key a step needs; `to` differs by kind.
        let values = [
            "type": "Dog", "from": "name", "property": "name", "value": "x", "into": "[a, b]", "separator": "\" \"", "values": "{ a: b }",
            "objects": "[{ name: Rex }]", "name": "fixNames", "where": "{ name: Rex }", "by": "[name]",
        ]
        let to = ["renameType": "Hound", "renameProperty": "title", "convert": "int"]
        for kind in FileVocabulary.stepKinds {
            // The keys it needs, and `where` for deleteObjects, which needs it or `all`.
            let names = kind.mapping.requiredKeys + (kind.name == "deleteObjects" ? ["where"] : [])
            mappings.append(
                Complete(
                    definition: "step.\(kind.name)", document: .migration, header: "description: probe\nsteps:\n  - \(kind.name):\n", indent: 6,
                    keys: names.map { ($0, $0 == "to" ? to[kind.name]! : values[$0]!) }
                )
            )
        }
        return mappings
    }

    /// Takes each key a mapping is written with away in turn: the loader reports a missing
    /// key exactly for those the JSON Schema requires (its `required`, or the one of
    /// alternatives it needs at least one of: a property's `type` or `inverse`, `where` or
    /// `all`). Required keys, too, cannot drift apart.
    func testTheLoaderRequiresExactlyTheKeysTheJSONSchemaRequires() throws {
        var failures: [String] = []
        for mapping in completeMappings {
            let json = try Self.parse(mapping.document)
            let schema = try XCTUnwrap(Self.definition(mapping.definition, in: json), mapping.definition)
            var required: Set<String> = []
            if case .array(let names)? = schema["required"] { required.formUnion(names.compactMap { if case .string(let name) = $0 { name } else { nil } }) }
            for alternatives in Self.alternatives(in: schema) where alternatives.count(where: { key in mapping.keys.contains { $0.0 == key } }) == 1 {
                required.formUnion(alternatives.filter { key in mapping.keys.contains { $0.0 == key } })
            }
            var missing: Set<String> = []
            for (index, (key, _)) in mapping.keys.enumerated() {
                var kept = mapping.keys
                kept.remove(at: index)
                let text = mapping.header + kept.map { String(repeating: " ", count: mapping.indent) + "\($0.0): \($0.1)" }.joined(separator: "\n") + "\n"
                let diagnostics = try load(kept.isEmpty ? mapping.header + String(repeating: " ", count: mapping.indent) + "doc: x\n" : text, as: mapping.document)
                if diagnostics.contains(where: { $0.rule == "missing-key" && $0.message.contains("'\(key)'") }) { missing.insert(key) }
            }
            let complete = mapping.header + mapping.keys.map { String(repeating: " ", count: mapping.indent) + "\($0.0): \($0.1)" }.joined(separator: "\n") + "\n"
            let problems = try load(complete, as: mapping.document).filter {
                ["missing-key", "unknown-key", "invalid-structure", "invalid-value", "invalid-step"].contains($0.rule)
            }
            if !problems.isEmpty { failures.append("\(mapping.definition): the complete mapping does not read: \(problems.map(\.message))") }
            if missing != required {
                failures.append("\(mapping.definition): the loader requires \(missing.sorted()), the JSON Schema \(required.sorted())")
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// The groups of keys a schema needs one of (`anyOf` of `required`).
    private static func alternatives(in schema: JSONValue) -> [[String]] {
        var groups: [[String]] = []
        walk(schema, path: "#") { _, value in
            guard case .array(let options)? = value["anyOf"] else { return }
            let keys = options.compactMap { option -> String? in
                guard case .array(let names)? = option["required"], names.count == 1, case .string(let name) = names[0] else { return nil }
                return name
            }
            if keys.count == options.count, !keys.isEmpty { groups.append(keys) }
        }
        return groups
    }

    /// The probe of a mapping that holds one key must see the readers' rejections at all:
    /// a candidate the loader rejects is reported as such.
    func testTheProbeSeesARejectedKey() throws {
        let diagnostics = try load("description: probe\nsteps:\n  - renameTypo: {}\n", as: .migration)
        XCTAssertTrue(diagnostics.contains { $0.rule == "unknown-step" && $0.message.contains("'renameTypo'") }, "\(diagnostics)")
        let schemaDiagnostics = try load("objects:\n  T:\n    properties: { a: string }\n    primarykey: a\n", as: .schema)
        XCTAssertTrue(schemaDiagnostics.contains { $0.rule == "unknown-key" && $0.message.contains("'primarykey'") }, "\(schemaDiagnostics)")
    }

    // MARK: - Invalid migration files

    func testEveryInvalidMigrationFileReportsItsRuleAtTheMarkedSpot() throws {
        var failures: [String] = []
        let cases = try Self.corpus("invalid-migrations")
        XCTAssertGreaterThanOrEqual(cases.count, 25)
        for testCase in cases {
            let file = try writeHistory(migration: testCase.yaml)
            let result = MigrationHistoryLoader.load(migrations: folder.path)
            let expected = SourceLocation(file: file, line: testCase.line, column: testCase.column)
            if let match = result.diagnostics.first(where: { $0.rule == testCase.rule && $0.location == expected }) {
                if match.severity != .error { failures.append("\(testCase.name): [\(testCase.rule)] is a \(match.severity), expected an error") }
                if match.hint?.isEmpty ?? true { failures.append("\(testCase.name): [\(testCase.rule)] has no fix-it hint") }
            } else {
                let report = result.diagnostics.map { "      \($0.location.map { "\($0.line):\($0.column)" } ?? "-") [\($0.rule)] \($0.message)" }.joined(separator: "\n")
                failures.append("\(testCase.name): expected [\(testCase.rule)] at \(testCase.line):\(testCase.column), got:\n\(report)")
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    // MARK: - With a standard validator

    /// The rules of the invalid schema corpus that are about a file's shape or syntax, which
    /// the JSON Schema must reject; the others are about meaning (names that resolve, defaults
    /// that fit, cycles), which only `remodel validate` can judge.
    static let structuralRules: Set<String> = [
        "unknown-key", "missing-key", "duplicate-key", "invalid-structure", "invalid-value", "empty-declaration",
        "invalid-type-syntax", "optional-collection", "nested-collection", "map-key-type", "invalid-name", "enum-raw-type",
        "inverse-syntax", "inverse-conflict", "duplicate-property", "duplicate-case",
        "yaml-syntax", "yaml-tab", "yaml-multiple-documents", "yaml-complex-key",
    ]

    func testCheckJSONSchemaAcceptsEveryValidFileOfTheRepository() throws {
        let validator = try Self.checkJSONSchema()
        let files = try Self.validFiles()
        XCTAssertGreaterThanOrEqual(files[.schema]?.count ?? 0, 30, "schema files and snapshots found")
        XCTAssertGreaterThanOrEqual(files[.migration]?.count ?? 0, 10, "migration files found")
        for document in JSONSchemaDocument.allCases {
            let paths = files[document] ?? []
            // They are valid for Remodel too, so the JSON Schema is not stricter than the loader.
            for dialect in Self.dialects {
                let result = try validate(paths, against: document, dialect: dialect, with: validator)
                XCTAssertEqual(result.rejected, [], "check-jsonschema (\(dialect)) rejects valid \(document.rawValue) files:\n\(result.output)")
            }
        }
        XCTAssertTrue(files[.schema]!.contains { $0.hasSuffix("Schemas/DoggoDB.yaml") })
        XCTAssertTrue(files[.migration]!.contains { $0.hasSuffix("Migrations/0003-dog-details.yaml") })
    }

    func testCheckJSONSchemaRejectsEveryStructuralMistake() throws {
        let validator = try Self.checkJSONSchema()
        let invalidSchemas = try Self.corpus("invalid").filter { Self.structuralRules.contains($0.rule) }
        let invalidMigrations = try Self.corpus("invalid-migrations")
        XCTAssertGreaterThanOrEqual(invalidSchemas.count, 25)
        for (document, cases) in [(JSONSchemaDocument.schema, invalidSchemas), (.migration, invalidMigrations)] {
            var paths: [String] = []
            for testCase in cases {
                let url = folder.appendingPathComponent(document.rawValue).appendingPathComponent(testCase.name)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try testCase.yaml.write(to: url, atomically: true, encoding: .utf8)
                paths.append(url.path)
            }
            for dialect in Self.dialects {
                let result = try validate(paths, against: document, dialect: dialect, with: validator)
                let accepted = paths.filter { !result.rejected.contains($0) }.map { URL(fileURLWithPath: $0).lastPathComponent }
                XCTAssertEqual(accepted, [], "check-jsonschema (\(dialect)) accepts these invalid \(document.rawValue) files")
            }
        }
    }

    /// Files the loader takes with at most a warning pass too: a file of comments only (a new
    /// file holding just the modeline), an empty migration file, and an `accept:` subject that
    /// names nothing (`remodel check` warns about it, the loader takes it).
    func testFilesTheLoaderTakesWithAWarningPass() throws {
        let validator = try Self.checkJSONSchema()
        let modeline = "# yaml-language-server: $schema=../JSONSchema/remodel-schema.schema.json\n# Kennels, to come.\n"
        let schemas = folder.appendingPathComponent("Schemas")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        try "objects:\n  Dog:\n    properties: { name: string }\n".write(to: schemas.appendingPathComponent("Dog.yaml"), atomically: true, encoding: .utf8)
        try modeline.write(to: schemas.appendingPathComponent("Kennels.yaml"), atomically: true, encoding: .utf8)
        let schemaDiagnostics = SchemaLoader.load(path: schemas.path).diagnostics
        XCTAssertEqual(schemaDiagnostics.map(\.rule), ["empty-file"])
        for (document, text) in [
            (JSONSchemaDocument.migration, ""),
            (
                .migration,
                "description: weights\nsteps:\n  - convert: { type: Dog, property: weight, to: int, onError: default }\naccept:\n  data-dependent:\n    not a subject!: a reason\n"
            ),
        ] {
            _ = try writeHistory(migration: text)
            let diagnostics = MigrationHistoryLoader.load(migrations: folder.path).diagnostics
            XCTAssertFalse(diagnostics.contains { $0.severity == .error }, "\(text.debugDescription): \(diagnostics)")
            let file = schemas.appendingPathComponent("probe-\(UUID().uuidString).yaml")
            try text.write(to: file, atomically: true, encoding: .utf8)
            XCTAssertEqual(try validate([file.path], against: document, with: validator).rejected, [], text.debugDescription)
        }
        XCTAssertEqual(try validate([schemas.appendingPathComponent("Kennels.yaml").path], against: .schema, with: validator).rejected, [])
    }

    /// Validating a file that breaks the JSON Schema fails, so the tests above can fail.
    func testTheValidatorReportsAFileItRejects() throws {
        let validator = try Self.checkJSONSchema()
        let url = folder.appendingPathComponent("bad.yaml")
        try "objects:\n  Person:\n    properties: { name: { tpye: string } }\n".write(to: url, atomically: true, encoding: .utf8)
        let result = try validate([url.path], against: .schema, with: validator)
        XCTAssertEqual(result.rejected, [url.path], result.output)
    }

    // MARK: - Helpers

    private static func parse(_ document: JSONSchemaDocument) throws -> JSONValue {
        var parser = JSONParser(document.text)
        return try parser.parse()
    }

    private static func definition(_ name: String, in json: JSONValue) -> JSONValue? {
        json["$defs"]?[name]
    }

    /// The property names a schema lists, in order.
    private static func keys(of schema: JSONValue) -> [String] {
        guard case .object(let members)? = schema["properties"] else { return [] }
        return members.map(\.0)
    }

    /// Calls `visit` on `schema` and every schema inside it, depth first.
    private static func walk(_ schema: JSONValue, path: String, _ visit: (String, JSONValue) -> Void) {
        guard case .object(let members) = schema else { return }
        visit(path, schema)
        for (keyword, value) in members {
            switch keyword {
            case "properties", "$defs":
                guard case .object(let named) = value else { continue }
                for (name, member) in named { walk(member, path: "\(path)/\(keyword)/\(name)", visit) }
            case "anyOf", "allOf", "oneOf":
                guard case .array(let items) = value else { continue }
                for (index, item) in items.enumerated() { walk(item, path: "\(path)/\(keyword)/\(index)", visit) }
            case "items", "additionalProperties", "propertyNames", "if", "then", "else", "not":
                walk(value, path: "\(path)/\(keyword)", visit)
            default:
                continue
            }
        }
    }

    private func load(_ text: String, as document: JSONSchemaDocument) throws -> [Diagnostic] {
        switch document {
        case .schema:
            return loadSchema(yaml: text, file: "probe.yaml").diagnostics
        case .migration:
            _ = try writeHistory(migration: text)
            return MigrationHistoryLoader.load(migrations: folder.path).diagnostics
        }
    }

    /// A two-version history (MigrationHistoryLoaderTests' schemas) whose second migration
    /// file is `migration`; returns that file's path.
    private func writeHistory(migration: String) throws -> String {
        func write(_ text: String, to name: String) throws -> String {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        _ = try write("description: baseline\nsteps: []\n", to: "0001-initial.yaml")
        _ = try write(CanonicalYAML.text(of: MigrationHistoryLoaderTests.v1), to: "snapshots/v1.yaml")
        _ = try write(CanonicalYAML.text(of: MigrationHistoryLoaderTests.v2), to: "snapshots/v2.yaml")
        return try write(migration, to: "0002-weights.yaml")
    }

    private static func corpus(_ name: String) throws -> [CorpusTests.Case] {
        let folder = try XCTUnwrap(Bundle.module.url(forResource: "Corpus", withExtension: nil)).appendingPathComponent(name)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        return try files.map { try CorpusTests.parseCase(name: $0, text: String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
    }

    /// Every schema file, snapshot and migration file of the repository that Remodel loads:
    /// its examples, benchmarks and test fixtures (not the fuzzers' corpora, which are not meant
    /// to be valid, nor the tool's other YAML files, remodel-check.yaml and remodel-plugin.yaml).
    private static func validFiles() throws -> [JSONSchemaDocument: [String]] {
        let root = repository.path
        var files: [JSONSchemaDocument: [String]] = [:]
        let skipped: Set<String> = ["Fuzz", "RemodelFuzzTests", "Corpus", "Packages"]
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: root))
        while let relative = enumerator.nextObject() as? String {
            let parts = relative.split(separator: "/").map(String.init)
            if parts.contains(where: { $0.hasPrefix(".") || skipped.contains($0) }) {
                enumerator.skipDescendants()
                continue
            }
            guard let name = parts.last, name.hasSuffix(".yaml") || name.hasSuffix(".yml"), !name.hasPrefix("remodel-") else { continue }
            let isMigration = MigrationFolder.parseMigrationFileName(name) != nil && !parts.contains("snapshots")
            files[isMigration ? .migration : .schema, default: []].append(root + "/" + relative)
        }
        return files.mapValues { $0.sorted() }
    }

    /// PyPI's check-jsonschema: on PATH (CI installs it), else installed once into a virtual
    /// environment of the tests' own in the package's build folder, so that a fresh machine
    /// runs these tests too. Fails, saying what to install, when it cannot be installed.
    private static func checkJSONSchema() throws -> String {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(folder)/check-jsonschema"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        installLock.lock()
        defer { installLock.unlock() }
        let environment = repository.appendingPathComponent(".build/test-python").path
        let tool = environment + "/bin/check-jsonschema"
        if FileManager.default.isExecutableFile(atPath: tool) { return tool }
        var log = ""
        for (program, arguments) in [
            ("/usr/bin/env", ["python3", "-m", "venv", environment]),
            (environment + "/bin/python", ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "check-jsonschema"]),
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            do {
                try process.run()
            } catch {
                log += "\(program): \(error)"
                break
            }
            log += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if process.terminationReason != .exit || process.terminationStatus != 0 { break }
        }
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            try? FileManager.default.removeItem(atPath: environment)
            throw InstallFailure(
                description:
                    "check-jsonschema is not on PATH and could not be installed into '\(environment)': \(log.trimmingCharacters(in: .whitespacesAndNewlines)); install Python's venv module (apt-get install python3-venv) with PyPI reachable, or put check-jsonschema on PATH"
            )
        }
        return tool
    }

    private static let installLock = NSLock()

    struct InstallFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs check-jsonschema on `paths`; the paths it rejects (schema errors or unparsable
    /// YAML) and what it printed.
    /// The dialects each document is validated under: its own (2020-12), and draft 7, which
    /// yaml-language-server implements. The documents use only keywords that mean the same in
    /// both, so each file must get the same verdict under either.
    static let dialects = [JSONSchemaWriter.dialect, "http://json-schema.org/draft-07/schema#"]

    private func validate(
        _ paths: [String], against document: JSONSchemaDocument, dialect: String = JSONSchemaWriter.dialect, with validator: String
    ) throws -> (rejected: Set<String>, output: String) {
        let schemaFile = folder.appendingPathComponent("\(Self.dialects.firstIndex(of: dialect) ?? 0)-\(document.fileName)")
        let schema = document.text.replacingOccurrences(of: "\"$schema\": \"\(JSONSchemaWriter.dialect)\"", with: "\"$schema\": \"\(dialect)\"")
        XCTAssertTrue(schema.contains(dialect))
        try schema.write(to: schemaFile, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: validator)
        process.arguments = ["--output-format", "json", "--schemafile", schemaFile.path] + paths
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        var parser = JSONParser(text)
        let json = try parser.parse()
        var rejected: Set<String> = []
        for key in ["errors", "parse_errors"] {
            guard case .array(let items)? = json[key] else { continue }
            for item in items {
                if case .string(let file)? = item["filename"] { rejected.insert(file) }
            }
        }
        XCTAssertEqual(process.terminationStatus == 0, rejected.isEmpty, "exit status \(process.terminationStatus) disagrees with its report: \(text)")
        return (rejected, text)
    }
}
