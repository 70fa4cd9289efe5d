import Foundation
import XCTest

/// The manual's command-line reference (Docs/Guides.docc/CommandLineReference.md) is the tool's
/// help, command by command: a new command, option or changed help text fails here until
/// `Docs/command-line-reference.sh` has written the article again.
final class CommandLineReferenceTests: XCTestCase {
    static let articlePath = "Docs/Guides.docc/CommandLineReference.md"

    func testEveryCommandsHelpIsInTheReference() throws {
        let article = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent(Self.articlePath), encoding: .utf8)
        let commands = try Self.commands(below: [])
        XCTAssertGreaterThan(commands.count, 15, "the walk found too few commands: \(commands)")
        XCTAssertTrue(commands.contains(["migration", "squash"]), "\(commands)")
        for words in commands {
            let help = try CLIRunner.run(["help"] + words)
            XCTAssertEqual(help.status, 0, help.stderr)
            let section = "\n## " + (["remodel"] + words).joined(separator: " ") + "\n\n```\n" + help.stdout + "```\n"
            XCTAssertTrue(
                article.contains(section),
                "\(Self.articlePath) lacks the current help of 'remodel \(words.joined(separator: " "))': run Docs/command-line-reference.sh")
        }
        let headings = article.components(separatedBy: "\n").filter { $0.hasPrefix("## remodel") }
        XCTAssertEqual(headings.count, commands.count, "\(Self.articlePath) has sections for commands the tool no longer has: run Docs/command-line-reference.sh")
    }

    /// `words` and every command below it, depth first, from the SUBCOMMANDS of each help.
    static func commands(below words: [String]) throws -> [[String]] {
        let help = try CLIRunner.run(["help"] + words).stdout
        var found = [words]
        var inList = false
        for line in help.components(separatedBy: "\n") {
            if line == "SUBCOMMANDS:" {
                inList = true
            } else if inList, line.isEmpty {
                inList = false
            } else if inList, line.hasPrefix("  "), let first = line.dropFirst(2).first, first.isLowercase {
                let name = String(line.dropFirst(2).prefix { $0 != " " })
                found += try commands(below: words + [name])
            }
        }
        return found
    }
}
