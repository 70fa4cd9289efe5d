import Foundation
import XCTest

/// `remodel diagram` through the real binary: the example's schema, a version of its history
/// and its changes from version 1 to 3 equal the reviewed diagram references (which the
/// diagram tests render with Graphviz and read against Mermaid's grammar); `--output`; each
/// mistake a user can make, with its message and exit status; and the manual's diagram, which
/// must be what the command draws.
final class DiagramCommandTests: CLIFolderTestCase {
    /// The diagram reference `name` (`example-v3.mmd`).
    private func reference(_ name: String) throws -> String {
        try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Tests/RemodelDiagramTests/References/\(name)"), encoding: .utf8)
    }

    func testTheExampleIsDrawnAsItsReferences() throws {
        try copyExample()
        let mermaid = try remodel(["diagram"])
        XCTAssertEqual(mermaid.stdout, try reference("example-v3.mmd"))
        XCTAssertEqual(mermaid.stderr, "")
        XCTAssertEqual(try remodel(["diagram", "--format", "dot"]).stdout, try reference("example-v3.dot"))
        // A version of the history: its snapshot (--schemas says where the history is: beside it).
        XCTAssertEqual(try remodel(["diagram", "--version", "2"]).stdout, try reference("example-v2.mmd"))
        XCTAssertEqual(try remodel(["diagram", "--schemas", "Schemas", "--version", "2"]).stdout, try reference("example-v2.mmd"))
        // The format --output's extension names, unless --format says otherwise.
        try remodel(["diagram", "--output", "model.gv"])
        XCTAssertEqual(try String(contentsOfFile: path("model.gv"), encoding: .utf8), try reference("example-v3.dot"))
        try remodel(["diagram", "--output", "model.txt"])
        XCTAssertEqual(try String(contentsOfFile: path("model.txt"), encoding: .utf8), try reference("example-v3.mmd"))
        try remodel(["diagram", "--output", "model.gv", "--format", "mermaid"])
        XCTAssertEqual(try String(contentsOfFile: path("model.gv"), encoding: .utf8), try reference("example-v3.mmd"))
        XCTAssertEqual(try remodel(["diagram", "--version", "1", "--format", "dot"]).stdout, try reference("example-v1.dot"))
        // What changes from 1 to 3, the renames of the steps followed.
        let diff = try remodel(["diagram", "--diff", "1", "3"])
        XCTAssertEqual(diff.stdout, try reference("example-diff-1-3.mmd"))
        XCTAssertEqual(diff.stderr, "")
        XCTAssertEqual(try remodel(["diagram", "--diff", "1", "3", "--format", "dot"]).stdout, try reference("example-diff-1-3.dot"))
        XCTAssertTrue(diff.stdout.contains("employeeId → personId: string"), diff.stdout)
        // Backwards, newest first: the same renames, seen the other way (not a removal and an addition).
        let backwards = try remodel(["diagram", "--diff", "3", "1"])
        XCTAssertTrue(backwards.stdout.contains("personId → employeeId: string"), backwards.stdout)
        XCTAssertFalse(backwards.stdout.contains("employeeId: string «added»"), backwards.stdout)
        XCTAssertEqual(backwards.stderr, "")
        XCTAssertTrue(try remodel(["diff", "3", "1"]).stdout.contains("property Person.personId renamed to employeeId"))
        // Files instead of versions: renames by name and renamedFrom only, and a note saying so.
        let files = try remodel(["diagram", "--diff", "Migrations/snapshots/v1.yaml", "Schemas"])
        XCTAssertTrue(files.stdout.contains("title: \"Changes from 'Migrations/snapshots/v1.yaml' to 'Schemas'\""), files.stdout)
        XCTAssertTrue(files.stdout.contains("employeeId: string «removed»"), files.stdout)
        XCTAssertEqual(files.stderr, "Note: renames are matched by name and renamedFrom only: a schema file or folder has no migration steps to follow\n")
        // The defaults: the newest version against the schema folder, which are the same.
        let same = try remodel(["diagram", "--diff"]).stdout
        XCTAssertTrue(
            same.hasPrefix(
                "---\ntitle: \"Changes from version 3 to 'Schemas'\"\n---\nclassDiagram\n%% Drawn by remodel diagram: draw it again rather than edit it.\n    class Person {\n"),
            same)
        XCTAssertFalse(same.contains("classDef") || same.contains("«added") || same.contains("«removed") || same.contains("→"), same)
    }

    func testOutputWritesTheFileOnlyWhenItChanges() throws {
        try copyExample()
        let first = try remodel(["diagram", "--output", "model.mmd"])
        XCTAssertEqual(first.stdout, "")
        XCTAssertEqual(first.stderr, "Wrote 'model.mmd'\n")
        XCTAssertEqual(try String(contentsOfFile: path("model.mmd"), encoding: .utf8), try reference("example-v3.mmd"))
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path("model.mmd"))
        XCTAssertEqual(try remodel(["diagram", "-o", "model.mmd"]).stderr, "'model.mmd' is up to date\n")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path("model.mmd"))[.modificationDate] as? Date, old)
        // Another drawing replaces a diagram.
        XCTAssertEqual(try remodel(["diagram", "--format", "dot", "--output", "model.mmd"]).stderr, "Wrote 'model.mmd'\n")
        XCTAssertEqual(try String(contentsOfFile: path("model.mmd"), encoding: .utf8), try reference("example-v3.dot"))
        // A hand-written diagram is not one remodel drew: kept too.
        try write("classDiagram\n    class Hand\n", to: "hand.mmd")
        XCTAssertTrue(try remodel(["diagram", "--output", "hand.mmd"], expect: 1).stderr.hasPrefix("Error: refusing to replace 'hand.mmd': it is not a diagram"))
        try write("digraph schema {\n    my -> hand\n}\n", to: "hand.dot")
        XCTAssertTrue(try remodel(["diagram", "--output", "hand.dot"], expect: 1).stderr.hasPrefix("Error: refusing to replace 'hand.dot': it is not a diagram"))
        // A file that is not a diagram is kept, unless --force.
        try write("# Notes\n", to: "notes.md")
        let refused = try remodel(["diagram", "--output", "notes.md"], expect: 1)
        XCTAssertEqual(
            refused.stderr,
            "Error: refusing to replace 'notes.md': it is not a diagram remodel drew (its first lines say so); nothing was written: choose another path, or pass --force to replace it\n"
        )
        XCTAssertEqual(try String(contentsOfFile: path("notes.md"), encoding: .utf8), "# Notes\n")
        try remodel(["diagram", "--output", "notes.md", "--force"])
        XCTAssertEqual(try String(contentsOfFile: path("notes.md"), encoding: .utf8), try reference("example-v3.mmd"))
        let noFolder = try remodel(["diagram", "--output", "missing/model.mmd"], expect: 1)
        XCTAssertTrue(noFolder.stderr.hasPrefix("Error: cannot write 'missing/model.mmd': the folder 'missing' does not exist"), noFolder.stderr)
        let folder = try remodel(["diagram", "--format", "dot", "--output", "Schemas"], expect: 1)
        XCTAssertEqual(folder.stderr, "Error: cannot write 'Schemas': it is a folder; name a file (e.g. 'Schemas/model.dot')\n")
    }

    /// A one-character file name is a file name like any other (Foundation's path functions
    /// trap on it on Linux; OutputFile does without them).
    func testAOneCharacterOutputPathIsWritten() throws {
        try copyExample()
        XCTAssertEqual(try remodel(["diagram", "-o", "m"]).stderr, "Wrote 'm'\n")
        XCTAssertEqual(try String(contentsOfFile: path("m"), encoding: .utf8), try reference("example-v3.mmd"))
        try remodel(["init", "--store", "s"])
        XCTAssertEqual(try remodel(["export", "--store", "s", "--output", "e", "--quiet"]).stderr, "")
        XCTAssertEqual(try String(contentsOfFile: path("e"), encoding: .utf8), try remodel(["export", "--store", "s"]).stdout)
        let missing = try remodel(["validate", "--schemas", "S"], expect: 1)
        XCTAssertTrue(missing.stderr.contains("error: 'S' does not exist"), missing.stderr)
    }

    func testUsageErrors() throws {
        try copyExample()
        func usage(_ arguments: [String], _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let output = try remodel(arguments, expect: 64, file: file, line: line)
            XCTAssertTrue(output.stderr.hasPrefix("Error: \(message)\nUsage: remodel diagram "), output.stderr, file: file, line: line)
            XCTAssertEqual(output.stdout, "", file: file, line: line)
        }
        try usage(["diagram", "--version", "9"], "version 9 does not exist: the history in 'Migrations' has versions 1 to 3")
        try usage(["diagram", "--version", "two"], "--version needs a version number (1, 2, …), found 'two'")
        try usage(["diagram", "--format", "svg"], "invalid value 'svg' for '--format': expected mermaid or dot")
        try usage(
            ["diagram", "--diff", "--version", "2"],
            "--version and --diff cannot be used together: draw one version with --version N, or the changes between two with --diff FROM TO")
        try usage(["diagram", "1", "3"], "unexpected argument '1': FROM and TO go with --diff ('remodel diagram --diff 1 3'), or pass --version N to draw one version")
        try usage(["diagram", "--diff", "1", "nowhere"], "'nowhere' is neither a version number nor a schema file or folder")
        try usage(["diagram", "--diff", "1", "3", "4"], "unexpected argument '4'")
        try usage(["diagram", "--schemas", "Other"], "there is no schema file or folder at 'Other': run from the package folder, or pass --schemas DIR")
        try usage(["diagram", "--version", "2", "--migrations", "None"], "'2' names a version, but there is no migration history in 'None'; pass --migrations DIR")
    }

    func testASchemaThatDoesNotLoad() throws {
        try write("objects:\n  Dog:\n    properties:\n      owner: Persn?\n", to: "Broken/Dog.yaml")
        let output = try remodel(["diagram", "--schemas", "Broken"], expect: 1)
        XCTAssertEqual(output.stdout, "")
        XCTAssertTrue(output.stderr.contains("Broken/Dog.yaml:4:14: error: "), output.stderr)
        XCTAssertTrue(output.stderr.hasSuffix("Error: the schema in 'Broken' does not load (the problems above)\n"), output.stderr)
        // Nor is a file written.
        XCTAssertEqual(try remodel(["diagram", "--schemas", "Broken", "--output", "model.mmd"], expect: 1).stdout, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("model.mmd")))
        // A history that does not load, for --version.
        try copyExample()
        try write("description: broken\nsteps: [ { renameType: } ]\n", to: "Migrations/0002-split-person-name.yaml")
        let history = try remodel(["diagram", "--version", "1"], expect: 1)
        XCTAssertTrue(
            history.stderr.hasSuffix("Error: the migration history in 'Migrations' does not load (the problems above); fix it and check with 'remodel validate'\n"), history.stderr)
    }

    func testHelp() throws {
        let help = try remodel(["diagram", "--help"]).stdout
        for part in [
            "OVERVIEW: Draw the object model, or what a migration changes, as a Mermaid or Graphviz diagram.",
            "USAGE: remodel diagram [--schemas DIR] [--migrations DIR] [--version N] [--diff] [--format mermaid|dot] [--output FILE] [--force] [FROM] [TO]",
            "ARGUMENTS:", "OPTIONS:", "  --format FORMAT", "  -o, --output FILE", "  --diff ", "  --version N ",
            "Examples:\n  remodel diagram --output Docs/model.mmd\n  remodel diagram --version 2 --format dot | dot -Tsvg -o model-v2.svg\n",
        ] {
            XCTAssertTrue(help.contains(part), "help lacks \(part):\n\(help)")
        }
        XCTAssertEqual(try remodel(["help", "diagram"]).stdout, help)
        XCTAssertTrue(try remodel(["--help"]).stdout.contains("  diagram "))
    }

    /// The manual ("Seeing the schema") shows the example's diagram as it is drawn now, and the
    /// pictures it shows exist.
    func testTheManualShowsTheCurrentDiagram() throws {
        let articlePath = "Docs/Guides.docc/SeeingTheSchema.md"
        let resources = "Docs/Guides.docc/Resources/"
        let article = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent(articlePath), encoding: .utf8)
        let section = try XCTUnwrap(article.range(of: "\n## Diagrams\n"), "\(articlePath) has no '## Diagrams' section")
        let start = try XCTUnwrap(article.range(of: "\n```mermaid\n", range: section.upperBound..<article.endIndex), "no ```mermaid block under '## Diagrams'")
        let end = try XCTUnwrap(article.range(of: "\n```\n", range: start.upperBound..<article.endIndex))
        let shown = String(article[start.upperBound..<end.lowerBound]) + "\n"
        let drawn = try remodel(["diagram"], in: CLIRunner.packageRoot).stdout
        XCTAssertEqual(shown, drawn, "\(articlePath)'s diagram is out of date: replace the ```mermaid block under '## Diagrams' with the output of 'swift run remodel diagram'")
        let images = try NSRegularExpression(pattern: #"!\[[^\]]*\]\(([^)]+\.png)\)"#)
            .matches(in: article, range: NSRange(article.startIndex..., in: article))
            .map { String(article[Range($0.range(at: 1), in: article)!]) }
        XCTAssertEqual(images, ["example-model.png", "example-changes-1-3.png"], "the pictures \(articlePath) shows")
        for image in images {
            XCTAssertTrue(FileManager.default.fileExists(atPath: CLIRunner.packageRoot.appendingPathComponent(resources + image).path), "\(resources + image) is missing")
        }
        // Each picture's DOT source, beside it, is what the command draws today.
        for (source, arguments) in [
            (resources + "example-model.dot", ["diagram", "--format", "dot"]), (resources + "example-changes-1-3.dot", ["diagram", "--diff", "1", "3", "--format", "dot"]),
        ] {
            XCTAssertTrue(article.contains("dot -Tpng -Grankdir=TB -o \(source.dropLast(4)).png \(source)"), "\(articlePath) does not render \(source)")
            let kept = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent(source), encoding: .utf8)
            XCTAssertEqual(
                kept, try remodel(arguments, in: CLIRunner.packageRoot).stdout,
                "\(source) (and so its PNG) is out of date: run the commands under '## Diagrams' in \(articlePath) again"
            )
        }
    }
}
