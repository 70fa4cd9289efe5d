import Foundation
import XCTest

/// The manual's example schemas (Docs/Examples, shown in the articles: `DocumentationTests`
/// finds each YAML block there) are valid schemas: `remodel validate` accepts each one.
final class ManualExamplesTests: XCTestCase {
    func testEveryExampleSchemaOfTheManualIsValid() throws {
        let folder = CLIRunner.packageRoot.appendingPathComponent("Docs/Examples")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        XCTAssertFalse(files.isEmpty, "no example schema in Docs/Examples")
        for file in files {
            let result = try CLIRunner.run(["validate", "--schemas", "Docs/Examples/\(file)"])
            XCTAssertEqual(result.status, 0, "Docs/Examples/\(file) is not a valid schema:\n\(result.stderr)")
        }
    }
}
