import Foundation
import XCTest

/// `remodel generate --realm` through the real binary: what it writes, and what it refuses
/// (at the YAML line, with the fix, writing nothing) because Realm cannot hold or run it.
final class RealmGenerateCommandTests: CLIFolderTestCase {
    func testRealmFilesAreWrittenAndCheckKnowsThem() throws {
        try copyExample()
        let output = try remodel(["generate", "--realm", "--output", "Generated"])
        XCTAssertEqual(output.stderr, "Generated: 15 written, 0 deleted, 0 unchanged\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: path("Generated")).sorted()
        XCTAssertEqual(
            files.filter { $0.hasPrefix("Realm") || $0.hasSuffix("+Realm.swift") },
            ["RealmDog.swift", "RealmNote.swift", "RealmPerson.swift", "RealmProfile.swift", "RemodelSchemaManifest+Realm.swift"])
        let person = try String(contentsOfFile: path("Generated/RealmPerson.swift"), encoding: .utf8)
        XCTAssertTrue(person.contains("#if canImport(RealmSwift)\nimport Foundation\nimport RealmSwift\n"))
        XCTAssertTrue(person.contains("public final class RealmPerson: Object {"))
        XCTAssertTrue(person.contains("public convenience init(person: Person, in realm: Realm) throws {"))

        try remodel(["generate", "--realm", "--output", "Generated", "--check"])
        // Without --realm the folder is out of date (the Realm files would go).
        try remodel(["generate", "--output", "Generated", "--check"], expect: 1)
        // check --generated sees that the folder was generated with --realm.
        try remodel(["check", "--generated", "Generated"])
        try (person + "// edited\n").write(toFile: path("Generated/RealmPerson.swift"), atomically: true, encoding: .utf8)
        let stale = try remodel(["check", "--generated", "Generated"], expect: 1)
        XCTAssertTrue(stale.stderr.contains("[generated-out-of-date]"), stale.stderr)
        XCTAssertTrue(stale.stderr.contains("remodel generate --output Generated --realm"), stale.stderr)

        try remodel(["generate", "--realm", "--bundle", "Bundle"])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: path("Bundle")).sorted(),
            ["RemodelModels.swift", "RemodelRealmBridges.swift", "RemodelStoreBridges.swift"])
    }

    func testWhatRealmCannotHoldIsRefusedAtItsLine() throws {
        try write(
            """
            objects:
              Person:
                primaryKey: id
                properties:
                  id: { type: uuid, default: $uuid }
                  description: { type: string, default: "" }
                  home: Address
                  person: string?
                  places: set<Address>
              Address:
                embedded: true
                properties:
                  street: { type: string, default: "" }

            """, to: "Schemas/People.yaml")
        let output = try remodel(["generate", "--realm", "--output", "Generated"], expect: 1)
        XCTAssertEqual(
            output.stderr,
            """
            Schemas/People.yaml:6:7: error: property 'Person.description' clashes with a member of Realm's Object [realm-reserved-name]
            Schemas/People.yaml:6:7: note: rename the property (Realm apps map a different name with `propertiesMapping`, which Remodel does not generate)
            Schemas/People.yaml:7:7: error: property 'Person.home' holds a required Address, but Realm holds every to-one object optionally [realm-required-object]
            Schemas/People.yaml:7:7: note: make it 'Address?'
            Schemas/People.yaml:8:7: error: property 'Person.person' clashes with the bridge 'RealmPerson.person' that returns the plain Person [realm-reserved-name]
            Schemas/People.yaml:8:7: note: rename the property
            Schemas/People.yaml:9:7: error: property 'Person.places' is a set of embedded Address objects, which Realm cannot hold [realm-unsupported-type]
            Schemas/People.yaml:9:7: note: use 'list<Address>'
            4 errors

            """)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("Generated")), "nothing is written")
        // validate --realm reports the same, for CI before any code is generated.
        let validated = try remodel(["validate", "--realm"], expect: 1)
        XCTAssertEqual(validated.stderr, output.stderr)
        try remodel(["validate"])
        // Without --realm the same schema generates.
        try remodel(["generate", "--output", "Generated"])
    }

    func testATypeNamedLikeARealmTypeIsRefused() throws {
        try write("objects:\n  Map:\n    primaryKey: id\n    properties:\n      id: { type: int, default: 0 }\n", to: "Schemas/Map.yaml")
        let output = try remodel(["generate", "--realm", "--output", "Generated"], expect: 1)
        XCTAssertTrue(output.stderr.hasPrefix("Schemas/Map.yaml:2:3: error: type name 'Map' shadows a type the Realm output uses [realm-reserved-name]\n"), output.stderr)
        XCTAssertTrue(output.stderr.contains("note: rename the type, e.g. 'MapModel'"), output.stderr)
    }

    func testStepsRealmsBlockCannotExpressAreRefusedAtTheStep() throws {
        try copyExample()
        try remodel(["generate", "--realm", "--output", "Generated"])
        let before = try FileManager.default.contentsOfDirectory(atPath: path("Generated")).sorted()
        // Version 3's convert may no longer fall back: Realm's block cannot fail.
        let file = path("Migrations/0003-dog-details.yaml")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "onError: default", with: "onError: fail").write(toFile: file, atomically: true, encoding: .utf8)
        try remodel(["migration", "hash"])
        let output = try remodel(["generate", "--realm", "--output", "Generated"], expect: 1)
        let lines = output.stderr.split(separator: "\n").map(String.init)
        let line = try XCTUnwrap(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("- convert:") }) + 1
        XCTAssertEqual(
            lines.first,
            "Migrations/0003-dog-details.yaml:\(line):5: error: step 1 (convert) fails on values that do not convert, which Realm's migration block cannot express [realm-unsupported-step]"
        )
        XCTAssertEqual(lines.dropFirst().first, "Migrations/0003-dog-details.yaml:\(line):5: note: Realm's migration block cannot fail: use `onError: default`")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("Generated")).sorted(), before)
        XCTAssertTrue(try String(contentsOfFile: path("Generated/RemodelSchemaManifest+Realm.swift"), encoding: .utf8).contains("?? 0"), "the old output is left as it was")
        // The store's own migration runs it as written.
        try remodel(["generate", "--output", "Plain"])
    }

    func testRealmsOwnExampleNamesTheTypeRename() throws {
        for name in ["Schemas", "Migrations"] {
            try FileManager.default.copyItem(
                at: CLIRunner.packageRoot.appendingPathComponent("Examples/RealmMigration").appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let output = try remodel(["generate", "--realm", "--output", "Generated"], expect: 1)
        XCTAssertTrue(
            output.stderr.hasPrefix("Migrations/0004-pets.yaml:15:5: error: renames type Dog to Pet, which Realm's migration block cannot express [realm-unsupported-step]\n"),
            output.stderr)
        XCTAssertTrue(output.stderr.contains("note: Realm's migration block cannot rename a class; keep the name for as long as the app is on Realm"), output.stderr)
    }

    func testCheckRealmFailsOnWhatTheRealmBuildWouldRefuse() throws {
        try copyExample()
        try remodel(["check", "--realm"])
        let file = path("Migrations/0003-dog-details.yaml")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "onError: default", with: "onError: fail").write(toFile: file, atomically: true, encoding: .utf8)
        try remodel(["migration", "hash"])
        try remodel(["check"])
        let output = try remodel(["check", "--realm"], expect: 1)
        XCTAssertTrue(output.stderr.contains("Migrations/0003-dog-details.yaml:"), output.stderr)
        XCTAssertTrue(output.stderr.contains("[realm-unsupported-step]"), output.stderr)
    }

    func testRealmClassNamesNameTheRealmFilesClasses() throws {
        try copyExample()
        try remodel(["generate", "--realm", "--realm-class-names", "{name}Object", "--output", "Generated"])
        let person = try String(contentsOfFile: path("Generated/RealmPerson.swift"), encoding: .utf8)
        XCTAssertTrue(person.contains("public override class func _realmObjectName() -> String? {\n        return \"PersonObject\"\n    }"), person)
        let block = try String(contentsOfFile: path("Generated/RemodelSchemaManifest+Realm.swift"), encoding: .utf8)
        XCTAssertTrue(block.contains("migration.renameProperty(onType: \"PersonObject\", from: \"employeeId\", to: \"personId\")"), block)
        XCTAssertFalse(block.contains("\"RealmPerson\""), block)
        try remodel(["check", "--generated", "Generated", "--realm-class-names", "{name}Object"])
        try remodel(["check", "--generated", "Generated"], expect: 1)
        let usage = try remodel(["generate", "--realm", "--realm-class-names", "Object", "--output", "Other"], expect: 64)
        XCTAssertTrue(usage.stderr.hasPrefix("Error: --realm-class-names 'Object' has no {name}; write where the type's name goes, e.g. '{name}Object'\n"), usage.stderr)
    }

    /// The build plugin's `remodel-plugin.yaml`, read by the tool.
    func testPluginOptionsAreReadByTheTool() throws {
        try copyExample()
        try write("realm: true\nrealmClassNames: \"{name}Object\"\n", to: "remodel-plugin.yaml")
        try remodel(["generate", "--bundle", "Bundle", "--plugin-options", "remodel-plugin.yaml"])
        XCTAssertTrue(try String(contentsOfFile: path("Bundle/RemodelRealmBridges.swift"), encoding: .utf8).contains("return \"PersonObject\""))
        // realm: false still writes the file the plugin declared, saying the Realm side is off.
        try write("realm: false\n", to: "remodel-plugin.yaml")
        try remodel(["generate", "--bundle", "Bundle", "--plugin-options", "remodel-plugin.yaml"])
        XCTAssertTrue(
            try String(contentsOfFile: path("Bundle/RemodelRealmBridges.swift"), encoding: .utf8).hasSuffix(
                "// The Realm side is off: `realm: true` in remodel-plugin.yaml (or --realm) generates it.\n"))
        try write("realm: yes\nrealmClass: x\n", to: "remodel-plugin.yaml")
        let output = try remodel(["generate", "--bundle", "Bundle", "--plugin-options", "remodel-plugin.yaml"], expect: 1)
        XCTAssertEqual(
            output.stderr,
            """
            remodel-plugin.yaml:1:8: error: 'realm' in remodel-plugin.yaml must be true or false, found 'yes' [invalid-value]
            remodel-plugin.yaml:1:8: note: write 'realm: true' or leave the key out
            remodel-plugin.yaml:2:1: error: unknown key 'realmClass' in remodel-plugin.yaml [unknown-key]
            remodel-plugin.yaml:2:1: note: allowed keys in remodel-plugin.yaml: realm, realmClassNames
            2 errors

            """)
    }

    /// What the store's migration does by itself and Realm's does not: a `renamedFrom`
    /// rename is written into the block; a retype with no step is refused.
    func testAutomaticChangesAreWrittenOrRefused() throws {
        let schema = "objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: { type: uuid, default: $uuid }\n"
        try write(schema + "      employeeId: { type: string, default: \"\" }\n      score: { type: int, default: 0 }\n", to: "Schemas/People.yaml")
        try remodel(["migration", "new", "initial"])
        try write(schema + "      personId: { type: string, default: \"\", renamedFrom: employeeId }\n      score: { type: int, default: 0 }\n", to: "Schemas/People.yaml")
        try remodel(["migration", "new", "person-ids"])
        try remodel(["generate", "--realm", "--output", "Generated"])
        let block = try String(contentsOfFile: path("Generated/RemodelSchemaManifest+Realm.swift"), encoding: .utf8)
        XCTAssertTrue(block.contains("migration.renameProperty(onType: \"RealmPerson\", from: \"employeeId\", to: \"personId\")"), block)

        try write(schema + "      personId: { type: string, default: \"\" }\n      score: { type: string, default: \"0\" }\n", to: "Schemas/People.yaml")
        try remodel(["migration", "new", "text-scores"])
        let output = try remodel(["generate", "--realm", "--output", "Generated"], expect: 1)
        XCTAssertTrue(
            output.stderr.contains("error: changes Person.score from int to string with no step, which Realm's migration block cannot express [realm-unsupported-step]"),
            output.stderr)
        XCTAssertTrue(output.stderr.contains("add a `convert` (or, for an enum, `mapValues`) step"), output.stderr)
    }

    /// Realm's block does not visit objects an earlier version's block made: a later step on
    /// them is refused, not silently skipped.
    func testALaterStepOnCreatedObjectsIsRefused() throws {
        try write(
            "objects:\n  Dog:\n    primaryKey: id\n    properties:\n      id: { type: uuid, default: $uuid }\n      name: { type: string, default: \"\" }\n",
            to: "Schemas/Dogs.yaml")
        try remodel(["migration", "new", "initial"])
        try remodel(["migration", "new", "rex"])
        try write("steps:\n  - createObjects: { type: Dog, objects: [{ name: rex }] }\n", to: "Migrations/0002-rex.yaml")
        try remodel(["migration", "hash"])
        try remodel(["migration", "new", "names"])
        try write("steps:\n  - set: { type: Dog, property: name, value: \"Dog {name}\" }\n", to: "Migrations/0003-names.yaml")
        try remodel(["migration", "hash"])
        try remodel(["generate", "--output", "Plain"])
        let output = try remodel(["generate", "--realm", "--output", "Generated"], expect: 1)
        XCTAssertTrue(
            output.stderr.hasPrefix(
                "Migrations/0003-names.yaml:2:5: error: step 1 (set) visits every Dog, including those version 2 creates, which Realm's migration block cannot express [realm-unsupported-step]\n"
            ), output.stderr)
    }

    func testHelpDescribesRealm() throws {
        let output = try remodel(["generate", "--help"])
        XCTAssertTrue(output.stdout.contains("--realm"), output.stdout)
        XCTAssertTrue(output.stdout.contains("copyRealm(_:into:)"), output.stdout)
    }
}
