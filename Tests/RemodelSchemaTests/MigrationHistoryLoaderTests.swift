import Foundation
import RemodelCore
import RemodelSchema
import XCTest

/// Loading `Migrations/`: steps and their values, checksums and locations, and every problem
/// of a history (bad steps, bad names, gaps, duplicates, missing snapshots) as a located
/// diagnostic that says how to fix it.
final class MigrationHistoryLoaderTests: XCTestCase {
    private var folder: URL!
    private var path: String { folder.path }

    static let v1 = Schema(objects: [
        ObjectType(
            name: "Dog", primaryKey: "_id",
            properties: [
                Property("_id", .scalar(.uuid), default: .generated(.uuid)),
                Property("name", .scalar(.string), default: .string("")),
                Property("weight", .scalar(.string), default: .string("")),
            ])
    ])

    static var v2: Schema {
        var schema = v1
        schema.enums = [EnumType(name: "Size", cases: [.init(name: "small", rawValue: .string("S")), .init(name: "large", rawValue: .string("L"))])]
        schema.objects[0].properties[2] = Property("weight", .scalar(.int), default: .int(0))
        schema.objects[0].properties.append(Property("size", PropertyType(.enumeration("Size"), optional: true)))
        return schema
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-history-\(UUID().uuidString)")
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

    /// A two-version history whose second migration file is `steps` (indented list items).
    private func writeHistory(steps: String) throws {
        try write("description: baseline\nsteps: []\n", to: "0001-initial.yaml")
        try write(CanonicalYAML.text(of: Self.v1), to: "snapshots/v1.yaml")
        try write(CanonicalYAML.text(of: Self.v2), to: "snapshots/v2.yaml")
        try write("description: weights\nsteps:\n" + steps, to: "0002-weights.yaml")
    }

    private func messages(_ result: MigrationHistoryLoadResult) -> [String] {
        result.diagnostics.map { d in
            "\(d.location.map { "\(URL(fileURLWithPath: $0.file).lastPathComponent):\($0.line):\($0.column)" } ?? "-") \(d.rule): \(d.message) | \(d.hint ?? "")"
        }
    }

    func testNoFolderMeansNoHistory() {
        let result = MigrationHistoryLoader.load(migrations: path + "/missing")
        XCTAssertNil(result.history)
        XCTAssertEqual(result.diagnostics, [])
        XCTAssertFalse(result.folderExists)
        XCTAssertEqual(result.currentVersion, 1)
    }

    func testStepsValuesChecksumsAndLocations() throws {
        try writeHistory(
            steps: """
                  - convert: { type: Dog, property: weight, to: int, onError: default }
                  - mapValues:
                      type: Dog
                      property: name
                      values: { a: null, b: true, c: 12, d: 1.5, e: "12", f: small }
                      otherwise: ''
                  - deleteObjects: { type: Dog, where: { name: "", weight: 0 } }
                  - set: { type: Dog, property: name, value: "{name} ({weight})" }
                  - split: { type: Dog, property: name, into: [name], separator: "," }
                  - renameProperty: { type: Dog, from: a, to: b }
                  - renameType: { from: Doggo, to: Dog }
                  - custom: { name: fixNames, type: Dog }
                  - convert: { type: Dog, property: size, to: Size? }
                  - convert: { type: Dog, property: size, to: Size?, onError: null }
                  - convert: { type: Dog, property: size, to: Size?, onError: "null" }

                """)
        let result = MigrationHistoryLoader.load(migrations: path)
        XCTAssertEqual(messages(result), [])
        let history = try XCTUnwrap(result.history)
        XCTAssertEqual(history.currentVersion, 2)
        XCTAssertEqual(history.migrations.map(\.name), ["initial", "weights"])
        XCTAssertEqual(history.migrations[1].description, "weights")
        XCTAssertEqual(history.snapshots, [Self.v1, Self.v2])
        XCTAssertEqual(
            history.migrations[1].steps,
            [
                .convert(type: "Dog", property: "weight", to: .scalar(.int), onError: .default),
                .mapValues(
                    type: "Dog", property: "name",
                    values: [
                        .init(from: "a", to: .null), .init(from: "b", to: .bool(true)), .init(from: "c", to: .int(12)),
                        .init(from: "d", to: .double(1.5)), .init(from: "e", to: .string("12")), .init(from: "f", to: .string("small")),
                    ], otherwise: .string("")),
                .deleteObjects(type: "Dog", where: [.init(property: "name", value: .string("")), .init(property: "weight", value: .int(0))]),
                .set(type: "Dog", property: "name", value: .template("{name} ({weight})")),
                .split(type: "Dog", property: "name", into: ["name"], separator: ","),
                .renameProperty(type: "Dog", from: "a", to: "b"),
                .renameType(from: "Doggo", to: "Dog"),
                .custom(name: "fixNames", type: "Dog"),
                .convert(type: "Dog", property: "size", to: PropertyType(.enumeration("Size"), optional: true), onError: .fail),
                .convert(type: "Dog", property: "size", to: PropertyType(.enumeration("Size"), optional: true), onError: .null),
                .convert(type: "Dog", property: "size", to: PropertyType(.enumeration("Size"), optional: true), onError: .null),
            ])
        let bytes = try Data(contentsOf: folder.appendingPathComponent("0002-weights.yaml"))
        XCTAssertEqual(history.migrations[1].checksum, SHA256.hexDigest(of: Array(bytes)))
        XCTAssertEqual(result.files[2], path + "/0002-weights.yaml")
        XCTAssertEqual(result.sources.migrations[2]?.steps[0].location, SourceLocation(file: path + "/0002-weights.yaml", line: 3, column: 5))
        XCTAssertEqual(result.sources.migrations[2]?.steps[2].location, SourceLocation(file: path + "/0002-weights.yaml", line: 9, column: 5))
    }

    /// Step values are YAML core-schema scalars, read as schema defaults read numbers.
    func testStepValuesFollowTheYAMLCoreSchemaLikeDefaults() throws {
        try writeHistory(
            steps: """
                  - mapValues:
                      type: Dog
                      property: name
                      values: { a: 0x1F, b: -0o17, c: .inf, d: -.Inf, e: 1e3, f: 100000000000000000000000, g: "0x1F", h: 2024-05-01, i: 1_000, j: .nan }

                """)
        let result = MigrationHistoryLoader.load(migrations: path)
        XCTAssertEqual(messages(result), [])
        guard case .mapValues(_, _, let values, _)? = result.history?.migrations[1].steps.first else { return XCTFail("no mapValues step") }
        XCTAssertEqual(
            values.dropLast().map(\.to),
            [
                .int(31), .int(-15), .double(.infinity), .double(-.infinity), .double(1000), .double(1e23), .string("0x1F"), .string("2024-05-01"), .string("1_000"),
            ])
        guard case .double(let nan)? = values.last?.to, nan.isNaN else { return XCTFail("\(String(describing: values.last))") }
    }

    /// The steps Realm users need: comparisons and `all: true` in deleteObjects, createObjects
    /// with addTo, custom steps that read other types; each value's location is kept.
    func testNewStepKindsAndTheLocationsOfTheirValues() throws {
        try writeHistory(
            steps: """
                  - deleteObjects: { type: Dog, where: { weight: { lt: 0 }, name: { in: ["", "?"] }, owner.name: Ada } }
                  - deleteObjects: { type: Dog, all: true }
                  - createObjects:
                      type: Dog
                      objects: [{ name: Rex, weight: 3 }, ~]
                      addTo: { type: Person, property: dogs, where: { name: { startsWith: A } } }
                  - custom: { name: fixNames, type: Dog, reads: [Person, Size] }

                """)
        let result = MigrationHistoryLoader.load(migrations: path)
        XCTAssertEqual(messages(result), [])
        let steps = try XCTUnwrap(result.history?.migrations[1].steps)
        XCTAssertEqual(
            steps,
            [
                .deleteObjects(
                    type: "Dog",
                    where: [
                        .init(property: "weight", condition: .lessThan(.int(0))), .init(property: "name", condition: .isIn([.string(""), .string("?")])),
                        .init(property: "owner.name", value: .string("Ada")),
                    ]),
                .deleteObjects(type: "Dog", where: []),
                .createObjects(
                    type: "Dog", objects: [[.init(property: "name", value: .string("Rex")), .init(property: "weight", value: .int(3))], []],
                    addTo: .init(type: "Person", property: "dogs", where: [.init(property: "name", condition: .startsWith("A"))])),
                .custom(name: "fixNames", type: "Dog", reads: ["Person", "Size"]),
            ])
        let file = path + "/0002-weights.yaml"
        let sources = try XCTUnwrap(result.sources.migrations[2])
        XCTAssertEqual(sources.file, file)
        XCTAssertEqual(sources.stepsLocation, SourceLocation(file: file, line: 2, column: 1))
        XCTAssertEqual(sources.steps[0].fields[StepField.key(.where).name("weight")], SourceLocation(file: file, line: 3, column: 42))
        XCTAssertEqual(sources.steps[0].fields[StepField.key(.where).name("owner.name")], SourceLocation(file: file, line: 3, column: 86))
        XCTAssertEqual(sources.steps[2].fields[StepField.key(.objects).position(0).name("weight")], SourceLocation(file: file, line: 7, column: 30))
        XCTAssertEqual(sources.steps[2].fields[StepField.key(.addTo).key(.where).name("name")], SourceLocation(file: file, line: 8, column: 55))
        XCTAssertEqual(sources.steps[3].fields[StepField.key(.reads).position(1)], SourceLocation(file: file, line: 9, column: 58))
    }

    func testNewStepKindsOfTheWrongShape() throws {
        try writeHistory(
            steps: """
                  - deleteObjects: { type: Dog }
                  - deleteObjects: { type: Dog, all: false }
                  - deleteObjects: { type: Dog, all: true, where: { name: x } }
                  - deleteObjects: { type: Dog, where: { weight: { ls: 0 } } }
                  - deleteObjects: { type: Dog, where: { weight: { lt: 0, gt: 9 } } }
                  - createObjects: { type: Dog, objects: { name: Rex } }
                  - createObjects: { type: Dog, objects: [{ name: Rex }], addTo: { type: Person } }
                  - custom: { name: x, reads: Dog }

                """)
        let result = MigrationHistoryLoader.load(migrations: path)
        XCTAssertNil(result.history)
        let text = messages(result)
        XCTAssertEqual(text.count, 9, text.joined(separator: "\n"))
        XCTAssertTrue(text[0].hasPrefix("0002-weights.yaml:3:5 missing-key: step 'deleteObjects' has no 'where' | add 'where:' conditions"), text[0])
        XCTAssertTrue(text[0].contains("or 'all: true' to delete every Dog"), text[0])
        XCTAssertTrue(text[1].contains("invalid-value: 'all: false' in step 'deleteObjects' deletes nothing"), text[1])
        XCTAssertTrue(text[2].contains("invalid-step: step 'deleteObjects' has both 'all: true' and 'where:'"), text[2])
        XCTAssertTrue(text[3].contains("unknown-key: unknown comparison 'ls' for 'weight' | did you mean 'lt'?"), text[3])
        XCTAssertTrue(text[4].contains("the condition on 'weight' must be one comparison, found a mapping with 2 keys"), text[4])
        XCTAssertTrue(text[5].contains("'objects' in step 'createObjects' must be a list of objects, found a mapping"), text[5])
        XCTAssertTrue(text[6].contains("missing-key: 'addTo' in step 'createObjects' has no 'property'"), text[6])
        XCTAssertTrue(text[7].contains("missing-key: 'addTo' in step 'createObjects' has no 'where'"), text[7])
        XCTAssertTrue(text[8].contains("'reads' in step 'custom' must be a list of type names, found 'Dog'"), text[8])
    }

    func testUnknownStepKindsAndKeysSuggestTheRightOnes() throws {
        try writeHistory(
            steps: """
                  - renameProprety: { type: Dog, from: a, to: b }
                  - convert: { type: Dog, property: weight, to: int, onErorr: default }
                  - split: { type: Dog, property: name, separator: " " }

                """)
        let result = MigrationHistoryLoader.load(migrations: path)
        XCTAssertNil(result.history)
        XCTAssertEqual(
            messages(result),
            [
                "0002-weights.yaml:3:5 unknown-step: unknown step kind 'renameProprety' | did you mean 'renameProperty'?",
                "0002-weights.yaml:4:54 unknown-key: unknown key 'onErorr' in step 'convert' | did you mean 'onError'?",
                "0002-weights.yaml:5:5 missing-key: step 'split' has no 'into' | add 'into:'; step 'split' needs type, property, into, separator",
            ])
    }

    func testWrongValueShapes() throws {
        try writeHistory(
            steps: """
                  - split: { type: Dog, property: name, into: firstName, separator: "" }
                  - mapValues: { type: Dog, property: name, values: [a, b] }
                  - convert: { type: Dog, property: weight, to: int, onError: skip }
                  - convert: { type: Dog, property: weight, to: list<int }
                  - convert: { type: Dog, property: weight, to: Sise }
                  - deleteObjects: { type: Dog, where: {} }
                  - set: { type: Dog, property: [name], value: x }
                  - renameType: Dog
                  - { renameType: { from: A, to: B }, set: { type: Dog, property: name, value: x } }

                """)
        let result = MigrationHistoryLoader.load(migrations: path)
        XCTAssertNil(result.history)
        let text = messages(result)
        XCTAssertEqual(text.count, 9, text.joined(separator: "\n"))
        XCTAssertTrue(text[0].hasPrefix("0002-weights.yaml:3:47 invalid-value: 'into' in step 'split' must be a list of property names, found 'firstName'"), text[0])
        XCTAssertTrue(text[1].hasPrefix("0002-weights.yaml:4:53 invalid-value: 'values' in step 'mapValues' must map old values to new ones, found a list"), text[1])
        XCTAssertTrue(text[2].contains("'onError' in step 'convert' must be one of fail, default, null, create, found 'skip'"), text[2])
        XCTAssertTrue(text[3].contains("missing '>' at the end of type 'list<int'"), text[3])
        XCTAssertTrue(text[4].contains("unknown type 'Sise'") && text[4].contains("did you mean 'Size'?"), text[4])
        XCTAssertTrue(text[5].contains("'where' in step 'deleteObjects' must name at least one property, found an empty mapping"), text[5])
        XCTAssertTrue(text[5].contains("to delete every object, write 'all: true'"), text[5])
        XCTAssertTrue(text[6].contains("'property' in step 'set' must be a single value, found a list"), text[6])
        XCTAssertTrue(text[7].contains("step 'renameType' must be a mapping of keys to values"), text[7])
        XCTAssertTrue(
            text[8].hasPrefix("0002-weights.yaml:11:5 invalid-step: each step must be a mapping with one key naming its kind, found a mapping with 2 keys (renameType, set)"),
            text[8])
    }

    func testBadFileNamesGapsAndDuplicatesNameTheFiles() throws {
        try write("steps: []\n", to: "0001-initial.yaml")
        try write("steps: []\n", to: "0002-a.yaml")
        try write("steps: []\n", to: "0002-b.yaml")
        try write("steps: []\n", to: "0005-late.yaml")
        try write("steps: []\n", to: "add-dogs.yaml")
        try write("ignored", to: "remodel.sum")
        for version in [1, 2, 5] { try write(CanonicalYAML.text(of: Self.v1), to: "snapshots/v\(version).yaml") }
        try write(CanonicalYAML.text(of: Self.v1), to: "snapshots/latest.yaml")
        let result = MigrationHistoryLoader.load(migrations: path)
        XCTAssertNil(result.history)
        let text = messages(result)
        XCTAssertEqual(text.count, 4, text.joined(separator: "\n"))
        XCTAssertTrue(
            text.contains { $0.hasPrefix("0002-b.yaml:1:1 migration-duplicate-version: two migration files have version 2: '\(path)/0002-a.yaml' and '\(path)/0002-b.yaml'") },
            text.joined(separator: "\n"))
        XCTAssertTrue(
            text.contains {
                $0.hasPrefix(
                    "0005-late.yaml:1:1 migration-gap: versions 3 to 4 are missing: the history jumps from '\(path)/0002-a.yaml' (version 2) to '\(path)/0005-late.yaml' (version 5)"
                )
            }, text.joined(separator: "\n"))
        XCTAssertTrue(text.contains { $0.hasPrefix("add-dogs.yaml:1:1 migration-file-name: '\(path)/add-dogs.yaml' is not named NNNN-name.yaml") }, text.joined(separator: "\n"))
        XCTAssertTrue(text.contains { $0.hasPrefix("latest.yaml:1:1 snapshot-file-name:") }, text.joined(separator: "\n"))
    }

    func testMissingSnapshotsAndOrphanSnapshots() throws {
        try write("steps: []\n", to: "0001-initial.yaml")
        try write("steps: []\n", to: "0002-next.yaml")
        try write(CanonicalYAML.text(of: Self.v1), to: "snapshots/v1.yaml")
        try write(CanonicalYAML.text(of: Self.v1), to: "snapshots/v3.yaml")
        let result = MigrationHistoryLoader.load(migrations: path)
        XCTAssertNil(result.history)
        XCTAssertEqual(
            messages(result),
            [
                "0002-next.yaml:1:1 migration-without-snapshot: version 2 ('\(path)/0002-next.yaml') has no snapshot: '\(path)/snapshots/v2.yaml' is missing | snapshots are written by 'remodel migration new'; restore the file from version control",
                "v3.yaml:1:1 snapshot-without-migration: '\(path)/snapshots/v3.yaml' is the snapshot of version 3, but there is no migration file for version 3 | restore the migration file 0003-NAME.yaml, or delete this snapshot",
            ])
    }

    func testHistoryMustStartAtTheBaselineWithoutSteps() throws {
        try write("steps:\n  - renameType: { from: A, to: B }\n", to: "0001-initial.yaml")
        try write(CanonicalYAML.text(of: Self.v1), to: "snapshots/v1.yaml")
        try write("steps: []\n", to: "0003-late.yaml")
        try write(CanonicalYAML.text(of: Self.v1), to: "snapshots/v3.yaml")
        let text = messages(MigrationHistoryLoader.load(migrations: path))
        XCTAssertTrue(text.contains { $0.hasPrefix("0001-initial.yaml:2:5 migration-baseline-steps: version 1 is the baseline") }, text.joined(separator: "\n"))
        XCTAssertTrue(text.contains { $0.contains("migration-gap: version 2 is missing") }, text.joined(separator: "\n"))
    }

    func testUnreadableYAMLIsLocated() throws {
        try write("description: [unclosed\nsteps: []\n", to: "0001-initial.yaml")
        try write(CanonicalYAML.text(of: Self.v1), to: "snapshots/v1.yaml")
        let result = MigrationHistoryLoader.load(migrations: path)
        XCTAssertNil(result.history)
        XCTAssertEqual(result.diagnostics.first?.rule, "yaml-syntax")
        XCTAssertEqual(result.diagnostics.first?.location?.file, path + "/0001-initial.yaml")
    }

    func testEditedSnapshotIsAWarning() throws {
        try write("steps: []\n", to: "0001-initial.yaml")
        try write(CanonicalYAML.text(of: Self.v1) + "# edited\n", to: "snapshots/v1.yaml")
        let result = MigrationHistoryLoader.load(migrations: path)
        XCTAssertNotNil(result.history)
        XCTAssertEqual(result.diagnostics.map(\.rule), ["snapshot-not-canonical"])
        XCTAssertEqual(result.diagnostics.first?.severity, .warning)
    }

    func testSchemaEditedWithoutANewMigration() throws {
        try writeHistory(steps: "  - convert: { type: Dog, property: weight, to: int, onError: default }\n")
        let history = try XCTUnwrap(MigrationHistoryLoader.load(migrations: path).history)
        XCTAssertNil(MigrationHistoryLoader.checkSnapshotted(schema: Self.v2, schemasPath: "Schemas", history: history, migrationsPath: "Migrations"))
        var documented = Self.v2
        documented.objects[0].doc = "Docs need no new version."
        XCTAssertNil(MigrationHistoryLoader.checkSnapshotted(schema: documented, schemasPath: "Schemas", history: history, migrationsPath: "Migrations"))
        var edited = Self.v2
        edited.objects[0].properties.append(Property("breed", .scalar(.string), default: .string("")))
        let diagnostic = try XCTUnwrap(MigrationHistoryLoader.checkSnapshotted(schema: edited, schemasPath: "Schemas", history: history, migrationsPath: "Migrations"))
        XCTAssertEqual(diagnostic.rule, "schema-not-snapshotted")
        XCTAssertEqual(
            diagnostic.message,
            "the schema in 'Schemas' differs from the newest snapshot 'Migrations/snapshots/v2.yaml' (version 2) (property Dog.breed added): the schema changed without a new migration"
        )
        XCTAssertEqual(diagnostic.hint, "run 'remodel migration new NAME' to freeze it as version 3")
    }

    func testFileNames() {
        XCTAssertEqual(MigrationFolder.parseMigrationFileName("0002-split-person-name.yaml")?.version, 2)
        XCTAssertEqual(MigrationFolder.parseMigrationFileName("0002-split-person-name.yaml")?.name, "split-person-name")
        XCTAssertNil(MigrationFolder.parseMigrationFileName("0002_split.yaml"))
        XCTAssertNil(MigrationFolder.parseMigrationFileName("0000-zero.yaml"))
        XCTAssertNil(MigrationFolder.parseMigrationFileName("0002-.yaml"))
        XCTAssertNil(MigrationFolder.parseMigrationFileName("0002-two words.yaml"))
        XCTAssertEqual(MigrationFolder.parseSnapshotFileName("v12.yaml"), 12)
        XCTAssertNil(MigrationFolder.parseSnapshotFileName("v.yaml"))
        XCTAssertEqual(MigrationFolder.migrationFileName(version: 3, name: "dog-details"), "0003-dog-details.yaml")
    }
}

final class MigrationsBesideSchemasTests: XCTestCase {
    func testTheMigrationsFolderIsBesideTheSchemas() {
        XCTAssertEqual(MigrationFolder.path(besideSchemas: "Schemas"), "Migrations")
        XCTAssertEqual(MigrationFolder.path(besideSchemas: "Schemas/"), "Migrations")
        XCTAssertEqual(MigrationFolder.path(besideSchemas: "other/Schemas"), "other/Migrations")
        XCTAssertEqual(MigrationFolder.path(besideSchemas: "other/Schemas/Note.yaml"), "other/Schemas/Migrations")
        XCTAssertEqual(MigrationFolder.path(besideSchemas: "/app/Schemas"), "/app/Migrations")
        XCTAssertEqual(MigrationFolder.path(besideSchemas: "/Schemas"), "/Migrations")
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        XCTAssertEqual(MigrationFolder.path(besideSchemas: "."), cwd.deletingLastPathComponent().appendingPathComponent("Migrations").path)
    }
}
