import Foundation
import RemodelCodegen
import RemodelCore
import RemodelTestSupport
import XCTest

final class OutputTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func generate(_ schema: Schema) throws -> [GeneratedFile] {
        try CodeGenerator().files(for: GeneratorInput(schema: schema, schemaFiles: ["Schemas/Example.yaml"]))
    }

    func testWritesOnlyChangesAndDeletesOnlyItsOwnStaleFiles() throws {
        let output = OutputDirectory(path: folder.path)
        let files = try generate(ExampleHistory.v3WithProjection)
        let first = try output.changes(toMatch: files)
        XCTAssertEqual(first.count, files.count)
        try output.apply(first)
        XCTAssertEqual(try output.changes(toMatch: files), [], "a second run changes nothing")

        try "// my own file\n".write(to: folder.appendingPathComponent("Handwritten.swift"), atomically: true, encoding: .utf8)
        try "not swift".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        var smaller = ExampleHistory.v3WithProjection
        smaller.projections = []
        let changes = try output.changes(toMatch: try generate(smaller))
        XCTAssertEqual(changes.map(\.name), ["Profile.swift", "RemodelSchemaManifest.swift"])
        guard case .delete = changes[0] else { return XCTFail("Profile.swift should be deleted") }
        try output.apply(changes)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertTrue(names.contains("Handwritten.swift") && names.contains("notes.txt"))
        XCTAssertFalse(names.contains("Profile.swift"))
    }

    /// New files for a folder that does not exist are written into a hidden folder beside it,
    /// which becomes the folder: nothing is there before `commit`, everything after, and no
    /// hidden folder is left either way.
    func testNewFilesMakeANewFolderInOneStep() throws {
        let target = folder.appendingPathComponent("Generated").path
        var files = try NewFiles(folder: target)
        try files.add("A.swift", Data("a".utf8))
        try files.add("B.swift", Data("b".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        try files.commit()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target).sorted(), ["A.swift", "B.swift"])
        XCTAssertEqual(try String(contentsOfFile: target + "/B.swift", encoding: .utf8), "b")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["Generated"], "a hidden folder was left beside it")

        // Into the folder that now exists: linked in beside the files there, no hidden folder left.
        var more = try NewFiles(folder: target)
        try more.add("C.swift", Data("c".utf8))
        try more.commit()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target).sorted(), ["A.swift", "B.swift", "C.swift"])
    }

    /// A file (or folder) that appears under a new file's name while the files are written
    /// is never replaced: the commit fails saying so, and no hidden folder is left.
    func testNewFilesNeverReplaceWhatAppearedMeanwhile() throws {
        let target = folder.appendingPathComponent("Generated").path
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        var files = try NewFiles(folder: target)
        try files.add("0.swift", Data("first".utf8))
        try files.add("A.swift", Data("new".utf8))
        try "mine".write(toFile: target + "/A.swift", atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try files.commit()) { error in
            XCTAssertEqual("\(error)", "refusing to replace '\(target)/A.swift': it appeared while remodel was writing; nothing was written: run the command again")
        }
        XCTAssertEqual(try String(contentsOfFile: target + "/A.swift", encoding: .utf8), "mine")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: target), ["A.swift"], "a file was put in place, or a hidden folder left")

        let fresh = folder.appendingPathComponent("Fresh").path
        var other = try NewFiles(folder: fresh)
        try other.add("A.swift", Data("new".utf8))
        try FileManager.default.createDirectory(atPath: fresh, withIntermediateDirectories: true)
        try "mine".write(toFile: fresh + "/Notes.txt", atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try other.commit())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: fresh), ["Notes.txt"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["Fresh", "Generated"], "a hidden folder was left")
    }

    /// Paths are used as written: `link/../Generated` is the `Generated` beside the link's
    /// target, as the system resolves it, for new and changed files alike. A very long folder
    /// name works (the hidden folder's name does not grow with it).
    func testOutputPathsAreResolvedByTheSystem() throws {
        let files = try generate(ExampleHistory.v3WithProjection)
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link").path, withDestinationPath: elsewhere.appendingPathComponent("sub").path)
        let output = OutputDirectory(path: folder.appendingPathComponent("link/../Generated").path)
        try output.apply(try output.changes(toMatch: files))
        let real = elsewhere.appendingPathComponent("Generated").path
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: real).count, files.count)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Generated").path))
        // One file missing, one changed: both go to the same folder.
        try FileManager.default.removeItem(atPath: real + "/" + files[0].name)
        try (try String(contentsOfFile: real + "/" + files[1].name, encoding: .utf8) + "// old\n").write(toFile: real + "/" + files[1].name, atomically: true, encoding: .utf8)
        try output.apply(try output.changes(toMatch: files))
        XCTAssertEqual(try output.changes(toMatch: files), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).sorted(), ["Generated", "sub"], "a hidden folder was left")

        let long = OutputDirectory(path: folder.appendingPathComponent(String(repeating: "x", count: 240)).path)
        try long.apply(try long.changes(toMatch: files))
        XCTAssertEqual(try long.changes(toMatch: files), [])
    }

    /// A folder where a new file goes is reported as what it is, and nothing is written.
    func testAFolderInTheWayOfANewFileIsNamed() throws {
        let files = try generate(ExampleHistory.v3WithProjection)
        let output = OutputDirectory(path: folder.path)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(files[0].name), withIntermediateDirectories: true)
        XCTAssertThrowsError(try output.apply(try output.changes(toMatch: files))) { error in
            XCTAssertTrue("\(error)".contains("'\(folder.path)/\(files[0].name)'"), "\(error)")
            XCTAssertTrue("\(error)".contains("no file in '\(folder.path)' was changed"), "\(error)")
            XCTAssertFalse("\(error)".contains("appeared while remodel was writing"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [files[0].name])
    }

    func testUnsafeFileNamesAreRefused() {
        let output = OutputDirectory(path: folder.path)
        for name in ["../x.swift", "/etc/x.swift", "a/b.swift", "..", ""] {
            XCTAssertThrowsError(try output.changes(toMatch: [GeneratedFile(name: name, contents: "")]), name)
        }
    }

    func testUnifiedDiff() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n").replacingOccurrences(of: "line 10\n", with: "line 10\nline 11\n")
        XCTAssertEqual(
            UnifiedDiff.make(old: old, new: new, oldName: "a/f", newName: "b/f"),
            """
            --- a/f
            +++ b/f
            @@ -2,9 +2,10 @@
             line 2
             line 3
             line 4
            -line 5
            +line five
             line 6
             line 7
             line 8
             line 9
             line 10
            +line 11

            """)
        XCTAssertEqual(UnifiedDiff.make(old: "same\n", new: "same\n", oldName: "a", newName: "b"), "")
        XCTAssertEqual(UnifiedDiff.make(old: "", new: "x\n", oldName: "/dev/null", newName: "b/x"), "--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+x\n")
    }

    func testOutputIsDeterministicAndPortable() throws {
        let one = try generate(ExampleHistory.v3WithProjection)
        let two = try generate(ExampleHistory.v3WithProjection)
        XCTAssertEqual(one, two)
        for file in one {
            XCTAssertTrue(CodeGenerator.isGenerated(file.contents), file.name)
            XCTAssertTrue(file.contents.contains("// Generated by remodel from Schemas/Example.yaml.\n"))
            XCTAssertFalse(file.contents.contains("/tmp") || file.contents.contains("/work"), "no absolute paths")
            XCTAssertTrue(OutputDirectory.isPlainFileName(file.name))
            if !file.name.contains("+RemodelStore") && !file.name.contains("Manifest") {
                XCTAssertFalse(file.contents.contains("import RemodelStore"), "\(file.name): models never import the store")
            }
        }
        XCTAssertEqual(
            one.map(\.name),
            [
                "BusinessUnitEnum.swift", "Person.swift", "Dog.swift", "Note.swift", "Profile.swift", "BusinessUnitEnum+RemodelStore.swift",
                "Person+RemodelStore.swift", "Dog+RemodelStore.swift", "Note+RemodelStore.swift", "RemodelSchemaManifest.swift",
            ])
    }

    func testBundleHasTheNamesThePluginDeclares() throws {
        let bundle = try CodeGenerator().bundle(for: GeneratorInput(schema: ExampleHistory.v3WithProjection))
        XCTAssertEqual(bundle.map(\.name), CodeGenerator.bundleFileNames)
        XCTAssertFalse(bundle[0].contents.contains("import RemodelStore"))
        let pluginSource = ReferenceCases.testsFolder().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Plugins/PluginsShared/RemodelPluginInputs.swift")
        let text = try String(contentsOf: pluginSource, encoding: .utf8)
        let declared = "static let bundleFileNames = [" + CodeGenerator.bundleFileNames.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        XCTAssertTrue(text.contains(declared), "the plugin must declare exactly \(CodeGenerator.bundleFileNames)")

        // With --realm (the plugin's `realm: true`), a third file, under the Realm condition.
        let realm = try CodeGenerator(options: GeneratorOptions(realm: true)).bundle(for: GeneratorInput(schema: ExampleHistory.v3WithProjection))
        XCTAssertEqual(realm.map(\.name), CodeGenerator.bundleFileNames + [CodeGenerator.realmBundleFileName])
        XCTAssertTrue(realm[2].contents.contains("#if canImport(RealmSwift)\nimport Foundation\nimport RealmSwift\n"))
        XCTAssertTrue(realm[2].contents.hasSuffix("\n#endif\n"))
        XCTAssertEqual(realm[0], bundle[0], "the models do not change with --realm")
        XCTAssertTrue(text.contains("static let realmBundleFileName = \"\(CodeGenerator.realmBundleFileName)\""), "the plugin must declare \(CodeGenerator.realmBundleFileName)")
    }

    func testSchemaFolderFacts() throws {
        XCTAssertEqual(
            SchemaFolder.displayNames(of: ["/abs/app/Schemas/A.yaml", "/abs/app/Schemas/sub/B.yaml"], schemasPath: "/abs/app/Schemas"), ["Schemas/A.yaml", "Schemas/sub/B.yaml"])
        XCTAssertEqual(SchemaFolder.displayNames(of: ["Schemas/A.yaml"], schemasPath: "Schemas/"), ["Schemas/A.yaml"])
        XCTAssertEqual(SchemaFolder.version(migrationsPath: folder.appendingPathComponent("missing").path), 1)
        for name in ["0001-initial.yaml", "0003-split-name.yaml", "0002-x.yaml", "notes.txt", "9999.yaml"] {
            try "".write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(SchemaFolder.version(migrationsPath: folder.path), 3)
    }
}
