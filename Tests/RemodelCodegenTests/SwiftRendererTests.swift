import XCTest

@testable import RemodelCodegen

final class SwiftRendererTests: XCTestCase {
    let renderer = SwiftRenderer()

    func testKeywordsAreEscapedAsNamesButNotAsArgumentLabels() {
        let call = SwiftExpression.call(.identifier("f"), [SwiftArgument("default", .identifier("class")), SwiftArgument("inout", .int(1))])
        XCTAssertEqual(renderer.flat(call), "f(default: `class`, `inout`: 1)")
        XCTAssertEqual(renderer.flat(.member(.identifier("x"), "Type")), "x.`Type`")
        XCTAssertEqual(renderer.flat(.implicitMember("self")), ".`self`")
        XCTAssertEqual(renderer.render(.member(.name("Dog"), "ID")), "Dog.ID")
        XCTAssertEqual(renderer.render(.named("Set", generics: [.optional(.name("Int"))])), "Set<Int?>")
        XCTAssertEqual(renderer.render(.dictionary(.name("String"), .array(.name("protocol")))), "[String: [`protocol`]]")
    }

    func testLongExpressionsBreakOneArgumentPerLine() {
        let long = SwiftExpression.call(.identifier("make"), (0..<8).map { SwiftArgument("argument\($0)", .string(String(repeating: "x", count: 10))) })
        let text = renderer.render([.property(SwiftProperty(isStatic: true, binding: .let, name: "value", type: nil, value: long))])
        XCTAssertEqual(
            text,
            """
            public static let value = make(
                argument0: "xxxxxxxxxx",
                argument1: "xxxxxxxxxx",
                argument2: "xxxxxxxxxx",
                argument3: "xxxxxxxxxx",
                argument4: "xxxxxxxxxx",
                argument5: "xxxxxxxxxx",
                argument6: "xxxxxxxxxx",
                argument7: "xxxxxxxxxx"
            )

            """)
        for line in text.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, renderer.lineWidth) }
    }

    func testDoublesReadBackExactly() {
        for value in [0.1, -0.0, 1e300, .leastNonzeroMagnitude, 3, .nan, .infinity, -.infinity, Double.ulpOfOne] {
            let text = renderer.flat(.double(value))
            if value.isNaN {
                XCTAssertEqual(text, ".nan")
            } else if value.isInfinite {
                XCTAssertTrue(text.hasSuffix(".infinity"))
            } else if value.isSubnormal {
                XCTAssertEqual(text, "Double(bitPattern: 0x\(String(value.bitPattern, radix: 16)))")
            } else {
                XCTAssertEqual(Double(text), value, text)
                XCTAssertEqual(Double(text)?.sign, value.sign)
            }
        }
    }

    func testProjectionTypesAcceptOnlyTypeSyntax() {
        for text in ["Character?", "[String: Int]", "Set<Foo.Bar>", "[[Int]]?", "Dictionary<String, [Int?]>"] {
            XCTAssertNotNil(SwiftType(parsing: text), text)
        }
        for text in ["", "Int; fatalError()", "() -> Int", "Int /* x */", "Int\n}", "[Int", "Foo.", "any P", "Int!", "Ünï"] {
            XCTAssertNil(SwiftType(parsing: text), text)
        }
    }
}
