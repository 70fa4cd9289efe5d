import Foundation
import RemodelCore
import RemodelSchema
import XCTest

final class DiagnosticFormatterTests: XCTestCase {
    let diagnostic = Diagnostic.error(
        "unknown-type", "unknown type 'Dgo' for property 'Person.dogs'",
        at: SourceLocation(file: "Schemas/Person.yaml", line: 12, column: 7),
        hint: "did you mean 'Dog'?",
        notes: [.init("'Dog' declared here", at: SourceLocation(file: "Schemas/Dog.yaml", line: 2, column: 3))]
    )

    func testTextIsCompilerStyleWithTheRuleAndNotes() {
        XCTAssertEqual(
            DiagnosticFormatter(format: .text).string(for: [diagnostic]),
            """
            Schemas/Person.yaml:12:7: error: unknown type 'Dgo' for property 'Person.dogs' [unknown-type]
            Schemas/Person.yaml:12:7: note: did you mean 'Dog'?
            Schemas/Dog.yaml:2:3: note: 'Dog' declared here

            """)
    }

    func testTextWithoutLocation() {
        let diagnostic = Diagnostic.error("file-unreadable", "'Schemas' does not exist", at: nil)
        XCTAssertEqual(DiagnosticFormatter().string(for: [diagnostic]), "error: 'Schemas' does not exist [file-unreadable]\n")
    }

    func testColorsOnlyWhenAsked() {
        XCTAssertFalse(DiagnosticFormatter().string(for: [diagnostic]).contains("\u{1B}["))
        XCTAssertTrue(DiagnosticFormatter(format: .text, colored: true).string(for: [diagnostic]).contains("\u{1B}["))
    }

    /// Notes are bold in the terminal's own colour (`1;39`, as swiftc prints them), not bold
    /// black (`1;30`), which a dark theme hides.
    func testColoredNotesAreReadableOnDarkAndLightThemes() {
        let text = DiagnosticFormatter(format: .text, colored: true).string(for: [diagnostic])
        XCTAssertEqual(
            text,
            """
            \u{1B}[1mSchemas/Person.yaml:12:7: \u{1B}[0m\u{1B}[1;31merror:\u{1B}[0m \u{1B}[1munknown type 'Dgo' for property 'Person.dogs'\u{1B}[0m [unknown-type]
            \u{1B}[1mSchemas/Person.yaml:12:7: \u{1B}[0m\u{1B}[1;39mnote:\u{1B}[0m did you mean 'Dog'?
            \u{1B}[1mSchemas/Dog.yaml:2:3: \u{1B}[0m\u{1B}[1;39mnote:\u{1B}[0m 'Dog' declared here

            """)
    }

    func testJSONIsAnArrayOfObjects() throws {
        let text = DiagnosticFormatter(format: .json).string(for: [diagnostic])
        let array = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.count, 1)
        XCTAssertEqual(array[0]["rule"] as? String, "unknown-type")
        XCTAssertEqual(array[0]["severity"] as? String, "error")
        XCTAssertEqual(array[0]["file"] as? String, "Schemas/Person.yaml")
        XCTAssertEqual(array[0]["line"] as? Int, 12)
        XCTAssertEqual(array[0]["column"] as? Int, 7)
        XCTAssertEqual(array[0]["hint"] as? String, "did you mean 'Dog'?")
        XCTAssertEqual((array[0]["notes"] as? [[String: Any]])?.first?["line"] as? Int, 2)
        XCTAssertEqual(DiagnosticFormatter(format: .json).string(for: []), "[]\n")
    }

    func testGitHubAnnotationsEscapeTheirFields() {
        let diagnostic = Diagnostic.warning("r", "50% done: a, b", at: SourceLocation(file: "a,b:c.yaml", line: 1, column: 2), hint: "x\ny")
        XCTAssertEqual(
            DiagnosticFormatter(format: .github).string(for: [diagnostic]),
            "::warning file=a%2Cb%3Ac.yaml,line=1,col=2,title=r::50%25 done: a, b%0Ax%0Ay\n"
        )
        XCTAssertTrue(
            DiagnosticFormatter(format: .github).string(for: [self.diagnostic]).hasPrefix(
                "::error file=Schemas/Person.yaml,line=12,col=7,title=unknown-type::unknown type 'Dgo'"
            ))
    }
}
