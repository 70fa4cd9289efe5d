import Foundation
import RemodelCore
import XCTest

/// What `validate` accepts, the build compiles and the store saves: the names generated code
/// declares and uses (`GeneratedNames`) are refused where the schema writes them, by
/// `validate`, `check` and `generate` alike, and names next to them are generated and compiled.
final class GeneratedNamesTests: CLIFolderTestCase {
    /// Names next to reserved ones, which generated code must compile with: properties named
    /// like the bridge's parameter (`row`), its protocols' members, and types it uses.
    static let neighbours = [
        "row", "rows", "schemaName", "encode", "decode", "storeValue", "bind", "read", "jsonText", "mismatch", "description", "Column", "columns",
        "manifest", "schema", "store", "type", "keyPath", "value", "statement", "index", "RowDecoder", "RowEncoder", "String", "Owner", "storage",
        "problem", "Inverse",
    ]

    func testNamesNextToReservedOnesGenerateAndCompile() throws {
        let properties = Self.neighbours.map { "      \($0): string?\n" }.joined()
        try write(
            """
            enums:
              Level:
                type: string
                cases: [low, \(Self.neighbours.joined(separator: ", "))]
            objects:
              Owner:
                primaryKey: k
                properties:
                  k: int
                  level: Level?
                  box: Box?
                  owners: list<Owner>
                  back: { inverse: Owner.owners }
            \(properties)  Box:
                embedded: true
                properties:
            \(properties)  ColumnValue:
                primaryKey: k
                properties:
                  k: int
              Storage:
                properties:
                  x: int

            """, to: "Schemas/S.yaml")
        try remodel(["validate"])
        try remodel(["check", "--strict"])
        try remodel(["migration", "new", "initial"])
        try remodel(["generate", "--bundle", path("Generated")])
        try typecheck(folder: path("Generated"))
    }

    func testEveryReservedNameIsRefusedWhereTheSchemaWritesIt() throws {
        let types = GeneratedNames.typeNames.sorted()
        let properties = GeneratedNames.modelMembers.subtracting(["id"]).sorted()
        let embedded = GeneratedNames.embeddedMembers.sorted()
        let cases = GeneratedNames.enumMembers.sorted()
        var text = "enums:\n  Level:\n    type: string\n    cases: [low, \(cases.joined(separator: ", "))]\nobjects:\n"
        text += "  Owner:\n    primaryKey: k\n    properties:\n      k: int\n" + properties.map { "      \($0): string?\n" }.joined()
        text += "  Box:\n    embedded: true\n    properties:\n" + embedded.map { "      \($0): string?\n" }.joined()
        text += types.map { "  \($0):\n    properties:\n      x: int\n" }.joined()
        try write(text, to: "Schemas/S.yaml")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Where the line `line` names its key: the first letter after the indentation.
        func place(_ line: String) -> String {
            let index = lines.firstIndex(of: line)!
            return "Schemas/S.yaml:\(index + 1):\(line.prefix { $0 == " " }.count + 1): error:"
        }
        for command in [["validate"], ["check", "--strict"]] {
            let output = try remodel(command, expect: 1)
            for name in types {
                XCTAssertTrue(output.stderr.contains("\(place("  \(name):")) object name '\(name)'"), "\(command): type \(name)\n\(output.stderr)")
            }
            for name in properties + embedded {
                XCTAssertTrue(output.stderr.contains("\(place("      \(name): string?")) property name '\(name)'"), "\(command): property \(name)\n\(output.stderr)")
            }
            for name in cases {
                XCTAssertTrue(output.stderr.contains("case name '\(name)'"), "\(command): case \(name)\n\(output.stderr)")
            }
        }
    }

    /// A property named like a member of `StorableValue` would have been taken as the reason
    /// every value cannot be saved: refused, and a neighbour saves.
    func testAnEmbeddedPropertyNamedStorageProblemIsRefusedAndItsNeighbourSaves() throws {
        let schema = "objects:\n  Owner:\n    primaryKey: id\n    properties:\n      id: int\n      box: Box?\n  Box:\n    embedded: true\n    properties:\n      NAME: string?\n"
        try write(schema.replacingOccurrences(of: "NAME", with: "storageProblem"), to: "Schemas/S.yaml")
        let refused = try remodel(["validate"], expect: 1)
        XCTAssertTrue(refused.stderr.contains("Schemas/S.yaml:10:7: error: property name 'storageProblem' of an embedded type"), refused.stderr)
        try write(schema.replacingOccurrences(of: "NAME", with: "storageProblems"), to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
        try write(#"{"Owner": [{"id": 1, "box": {"storageProblems": "note"}}]}"#, to: "data.json")
        try remodel(["import", "--store", path("s.sqlite"), "--quiet", path("data.json")])
        XCTAssertTrue(try export(path("s.sqlite")).contains("\"storageProblems\" : \"note\""))
    }

    func testAProjectionTypeThatIsNoSwiftTypeIsRefusedAtItsLineByValidateAndCheck() throws {
        try write(
            """
            objects:
              Person:
                primaryKey: id
                properties:
                  id: int
                  name: string
            projections:
              Card:
                of: Person
                properties:
                  initial: { keyPath: name.first, type: "Int } ; func evil() {" }

            """, to: "Schemas/S.yaml")
        for command in [["validate"], ["check", "--strict"]] {
            let output = try remodel(command, expect: 1)
            XCTAssertTrue(output.stderr.contains("Schemas/S.yaml:11:7: error: type 'Int } ; func evil() {' of 'Card.initial' is not a Swift type name"), output.stderr)
        }
    }

    /// The manifest of a 10,000-case enum and a hundred types compiles in bounded memory: as
    /// one expression it took 21 GB before the compiler was killed (and 24 GB for 300 types);
    /// built statement by statement its cost grows with the schema's size.
    func testTheManifestOfALargeSchemaCompiles() throws {
        var text = "enums:\n  Big:\n    type: string\n    cases: [" + (0..<10_000).map { "c\($0)" }.joined(separator: ", ") + "]\n"
        text += "  Level:\n    type: int\n    cases: {" + (0..<500).map { "l\($0): \($0 * 3)" }.joined(separator: ", ") + "}\nobjects:\n"
        for index in 0..<100 {
            text += "  T\(index):\n    primaryKey: id\n    properties:\n      id: int\n      big: Big?\n      level: Level?\n      next: T\((index + 1) % 100)?\n"
            text += (0..<8).map { "      p\($0): string?\n" }.joined()
        }
        try write(text, to: "Schemas/S.yaml")
        try remodel(["migration", "new", "initial"])
        try remodel(["generate", "--bundle", path("Generated")])
        try typecheck(folder: path("Generated"))
    }

    // MARK: - Generated files

    /// A type's file names the schema file that declares it, so adding a schema file rewrites
    /// no other type's file.
    func testATypesFileNamesOnlyItsOwnSchemaFileAndAnotherFileChangesNothingElse() throws {
        try write("objects:\n  Dog:\n    properties:\n      name: string\n", to: "Schemas/Dog.yaml")
        try write("objects:\n  Cat:\n    properties:\n      name: string\n", to: "Schemas/Cat.yaml")
        try remodel(["migration", "new", "initial"])
        try remodel(["generate", "--output", path("Generated")])
        let dog = try String(contentsOfFile: path("Generated/Dog.swift"), encoding: .utf8)
        XCTAssertTrue(dog.contains("// Generated by remodel from Schemas/Dog.yaml.\n"), dog)
        let manifest = try String(contentsOfFile: path("Generated/RemodelSchemaManifest.swift"), encoding: .utf8)
        XCTAssertTrue(manifest.contains("// Generated by remodel from Schemas/Cat.yaml, Schemas/Dog.yaml.\n"), manifest)

        try write("objects:\n  Bird:\n    properties:\n      name: string\n", to: "Schemas/Bird.yaml")
        try remodel(["migration", "new", "bird"])
        try remodel(["generate", "--output", path("Generated")])
        XCTAssertEqual(try String(contentsOfFile: path("Generated/Dog.swift"), encoding: .utf8), dog)
        XCTAssertEqual(try String(contentsOfFile: path("Generated/Dog+RemodelStore.swift"), encoding: .utf8).contains("from Schemas/Dog.yaml."), true)
    }

    // MARK: - Symbolic links

    func testSchemaFilesAndFoldersBehindSymbolicLinksAreRead() throws {
        try write("objects:\n  Dog:\n    properties:\n      name: string\n", to: "Shared/Dog.yaml")
        try write("objects:\n  Cat:\n    properties:\n      name: string\n", to: "Elsewhere/Pets/Cat.yaml")
        try write("objects:\n  Bird:\n    properties:\n      name: string\n", to: "Schemas/Bird.yaml")
        try FileManager.default.createSymbolicLink(atPath: path("Schemas/Dog.yaml"), withDestinationPath: path("Shared/Dog.yaml"))
        try FileManager.default.createSymbolicLink(atPath: path("Schemas/Pets"), withDestinationPath: path("Elsewhere/Pets"))
        // A link back up must not loop.
        try FileManager.default.createSymbolicLink(atPath: path("Elsewhere/Pets/Up"), withDestinationPath: path("Schemas"))
        let output = try remodel(["validate"])
        XCTAssertTrue(output.stdout.contains("3 objects"), output.stdout)
        try remodel(["migration", "new", "initial"])
        let snapshot = try String(contentsOfFile: path("Migrations/snapshots/v1.yaml"), encoding: .utf8)
        for name in ["Bird", "Cat", "Dog"] { XCTAssertTrue(snapshot.contains("  \(name):"), snapshot) }
    }

    func testASymbolicLinkToNothingIsAnErrorNotAMissingFile() throws {
        try write("objects:\n  Bird:\n    properties:\n      name: string\n", to: "Schemas/Bird.yaml")
        try FileManager.default.createSymbolicLink(atPath: path("Schemas/Dog.yaml"), withDestinationPath: path("Shared/Dog.yaml"))
        let output = try remodel(["validate"], expect: 1)
        XCTAssertTrue(output.stderr.contains("'Schemas/Dog.yaml' is a symbolic link to '\(path("Shared/Dog.yaml"))', which does not exist"), output.stderr)
    }

    // MARK: - Helpers

    /// Type-checks the generated files against the RemodelStore this test run built.
    private func typecheck(folder: String) throws {
        let modules = try CLIRunner.executable().deletingLastPathComponent().appendingPathComponent("Modules")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path, "-I", CLIRunner.packageRoot.appendingPathComponent("Sources/CSQLite").path] + files
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, output)
    }
}
