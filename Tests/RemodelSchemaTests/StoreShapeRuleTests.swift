import RemodelCore
import RemodelSchema
import XCTest

/// Schemas the store cannot lay out fail validation, not `init`. Found by the schema fuzz
/// target: a keyless object with a `list<…>` validated, then the store refused it.
final class StoreShapeRuleTests: XCTestCase {
    func testACollectionOnAKeylessObjectIsAnErrorAtItsType() throws {
        let yaml = "objects:\n  Log:\n    properties:\n      message: string\n      tags: list<string>\n      counts: { type: map<int> }\n"
        let result = loadSchema(yaml: yaml, file: "Schemas/Log.yaml")
        XCTAssertNil(result.schema)
        let found = result.diagnostics.filter { $0.rule == "collection-without-key" }
        XCTAssertEqual(
            found.map(\.message),
            [
                "object type 'Log' has no primary key, so its collection property 'tags' has nothing to attach to",
                "object type 'Log' has no primary key, so its collection property 'counts' has nothing to attach to",
            ])
        XCTAssertEqual(found.first?.location?.file, "Schemas/Log.yaml")
        XCTAssertEqual(found.first?.location?.line, 5)
        XCTAssertEqual(found.first?.location?.column, 13)
        XCTAssertTrue(found.first?.hint?.contains("give 'Log' a primaryKey") ?? false)
    }

    func testKeylessObjectsWithoutCollectionsAndEmbeddedCollectionsStayValid() {
        let keyless = loadSchema(yaml: "objects:\n  Log:\n    properties:\n      message: string\n      at: date?\n", file: "a.yaml")
        XCTAssertNotNil(keyless.schema, "\(keyless.diagnostics)")
        let embedded = loadSchema(yaml: "objects:\n  Address:\n    embedded: true\n    properties:\n      lines: list<string>\n", file: "b.yaml")
        XCTAssertNotNil(embedded.schema, "\(embedded.diagnostics)")
    }
}
