import XCTest

@testable import RemodelCodegen

final class SwiftLiteralTests: XCTestCase {
    func testStringLiteralEscapesEverythingThatCouldEndOrChangeIt() {
        XCTAssertEqual(SwiftLiteral.string("plain"), #""plain""#)
        XCTAssertEqual(SwiftLiteral.string(#"say "hi""#), #""say \"hi\"""#)
        XCTAssertEqual(SwiftLiteral.string(#"C:\path"#), #""C:\\path""#)
        XCTAssertEqual(SwiftLiteral.string(#"\(evil)"#), #""\\(evil)""#)
        XCTAssertEqual(SwiftLiteral.string(#"""""#), #""\"\"\"""#)
        XCTAssertEqual(SwiftLiteral.string("a\nb\r\nc\td\0e"), #""a\nb\r\nc\td\0e""#)
        XCTAssertEqual(SwiftLiteral.string("bell\u{7} del\u{7F} c1\u{85}"), #""bell\u{7} del\u{7F} c1\u{85}""#)
        XCTAssertEqual(SwiftLiteral.string("ls\u{2028}ps\u{2029}"), #""ls\u{2028}ps\u{2029}""#)
        XCTAssertEqual(SwiftLiteral.string("rtl\u{202E}bom\u{FEFF}zw\u{200B}"), #""rtl\u{202E}bom\u{FEFF}zw\u{200B}""#)
        XCTAssertEqual(SwiftLiteral.string("\u{301}x"), #""\u{301}x""#, "a combining mark cannot attach to the opening quote")
        XCTAssertEqual(SwiftLiteral.string("é 🐶 日本"), "\"é 🐶 日本\"", "printable Unicode stays readable")
        XCTAssertEqual(SwiftLiteral.string(""), #""""#)
    }

    func testCommentLinesCannotEndTheComment() {
        XCTAssertEqual(SwiftLiteral.commentLines("one\ntwo\r\nthree\rfour\u{2028}five\u{85}six"), ["one", "two", "three", "four", "five", "six"])
        XCTAssertEqual(SwiftLiteral.commentLines("*/ code /*"), ["*/ code /*"], "`///` comments have no terminator to forge")
        XCTAssertEqual(SwiftLiteral.commentLines("nul\0esc\u{1B}rtl\u{202E}"), [#"nul\u{0}esc\u{1B}rtl\u{202E}"#])
        XCTAssertEqual(SwiftLiteral.commentLines("tab\there   "), ["tab here"], "tabs become spaces, trailing spaces go")
        XCTAssertEqual(SwiftLiteral.commentLine("a\nb"), "a b")
    }

    func testRenderedDocCommentsAreAllCommentLines() {
        let doc = "*/ } struct Evil {} /*\nline\r\u{2028}// MARK: x"
        let text = SwiftRenderer().render([.structure(SwiftStruct(doc: doc, name: "T", members: []))])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.last, "public struct T {}")
        for line in lines.dropLast() { XCTAssertTrue(line.hasPrefix("///"), String(line)) }
    }
}
