import RemodelCore
import XCTest

@testable import RemodelSchema

/// The type grammar: `Name`, `Name?`, `list<T>`, `set<T?>`, `map<T>`, `map<string, T>`, and
/// the offsets errors point at.
final class TypeExpressionTests: XCTestCase {
    private func parsed(_ text: String) -> TypeExpression? {
        try? TypeExpression.parse(text).get()
    }

    private func problem(_ text: String) -> TypeExpression.Problem? {
        if case .failure(let problem) = TypeExpression.parse(text) { return problem }
        return nil
    }

    func testValidForms() {
        XCTAssertEqual(parsed("string"), TypeExpression(collection: nil, name: "string", nameOffset: 0, isOptional: false))
        XCTAssertEqual(parsed("Dog?"), TypeExpression(collection: nil, name: "Dog", nameOffset: 0, isOptional: true))
        XCTAssertEqual(parsed("list<Dog>"), TypeExpression(collection: .list, name: "Dog", nameOffset: 5, isOptional: false))
        XCTAssertEqual(parsed("set<int?>"), TypeExpression(collection: .set, name: "int", nameOffset: 4, isOptional: true))
        XCTAssertEqual(parsed("map<Dog?>"), TypeExpression(collection: .map, name: "Dog", nameOffset: 4, isOptional: true))
        XCTAssertEqual(parsed(" list< Dog > "), TypeExpression(collection: .list, name: "Dog", nameOffset: 7, isOptional: false))
        XCTAssertEqual(parsed("map<string, int>"), TypeExpression(collection: .map, name: "int", nameOffset: 12, isOptional: false))
    }

    func testProblemsSayWhatAndWhere() {
        XCTAssertEqual(problem("list<Dog>?")?.rule, "optional-collection")
        XCTAssertEqual(problem("list<Dog>?")?.offset, 9)
        XCTAssertEqual(problem("list<list<int>>")?.rule, "nested-collection")
        XCTAssertEqual(problem("list<list<int>>")?.offset, 5)
        XCTAssertEqual(problem("map<int, Dog>")?.rule, "map-key-type")
        XCTAssertEqual(problem("map<int, Dog>")?.offset, 4)
        XCTAssertEqual(problem("map<int, Dog>")?.hint, "write 'map<Dog>': the keys are strings")
        XCTAssertEqual(problem("array<int>")?.hint, "did you mean 'list<…>'? collections are list, set and map")
        XCTAssertEqual(problem("string??")?.offset, 6)
        XCTAssertEqual(problem("list<Dog")?.rule, "invalid-type-syntax")
        XCTAssertEqual(problem("list<>")?.rule, "invalid-type-syntax")
        XCTAssertEqual(problem("Dog>")?.rule, "invalid-type-syntax")
        XCTAssertEqual(problem("")?.rule, "invalid-type-syntax")
        XCTAssertEqual(problem("my type")?.offset, 2)
    }

    func testQuotedTypesPointInsideTheQuotes() {
        let result = loadSchema(yaml: "objects:\n  A:\n    properties:\n      b: { type: \"list<Dgo>\" }\n", file: "q.yaml")
        XCTAssertEqual(result.diagnostics.first?.location, SourceLocation(file: "q.yaml", line: 4, column: 24))
    }

    func testSyntaxErrorInOneFileSkipsCrossFileChecks() throws {
        let broken = Array("objects:\n  Dog: [\n".utf8)
        let linking = Array("objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: uuid\n      dogs: list<Dog>\n".utf8)
        let result = SchemaLoader.load([("a.yaml", broken), ("b.yaml", linking)], files: ["a.yaml", "b.yaml"])
        XCTAssertEqual(result.diagnostics.map(\.rule), ["yaml-syntax"])
    }
}
