import RemodelCore
import RemodelSchema
import XCTest

/// The name rule (`StoreNames`): names SQLite would take for the same table or column, or
/// keeps for itself, fail validation at the later declaration with a note at the earlier one.
final class NameRuleTests: XCTestCase {
    private func diagnostics(_ yaml: String) -> [Diagnostic] {
        let result = loadSchema(yaml: yaml, file: "names.yaml")
        XCTAssertNil(result.schema)
        return result.diagnostics
    }

    func testTypesThatDifferOnlyInCaseCollide() throws {
        let found = diagnostics("objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: string\nenums:\n  PERSON:\n    cases: [a]\n")
        let collision = try XCTUnwrap(found.first { $0.rule == "name-case-collision" })
        XCTAssertEqual(collision.message, "'PERSON' differs from 'Person' only in letter case")
        XCTAssertEqual(collision.notes.first?.location?.line, 2)
        XCTAssertNotNil(collision.hint)
    }

    func testPropertiesThatDifferOnlyInCaseCollide() throws {
        let found = diagnostics("objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: string\n      dogs: list<string>\n      Dogs: list<string>\n")
        let collision = try XCTUnwrap(found.first { $0.rule == "name-case-collision" })
        XCTAssertEqual(collision.location?.line, 7)
        XCTAssertEqual(collision.location?.column, 7)
        XCTAssertEqual(collision.notes.first?.location?.line, 6)
        XCTAssertTrue(collision.hint?.contains("side tables") ?? false)
    }

    func testNamesSQLiteOrRemodelReserve() {
        let cases: [(yaml: String, message: String)] = [
            (
                "objects:\n  SQLite_Stat:\n    primaryKey: id\n    properties:\n      id: string\n",
                "object name 'SQLite_Stat' starts with 'sqlite_', which is reserved for SQLite's own tables"
            ),
            (
                "objects:\n  Person__remodel_new:\n    primaryKey: id\n    properties:\n      id: string\n",
                "object name 'Person__remodel_new' contains '__remodel', which is reserved for the tables and columns a migration rebuilds"
            ),
            (
                "objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: string\n      ROWID: string\n",
                "property name 'ROWID' is 'rowid' (in any letter case), which is reserved for SQLite's row id of every table"
            ),
            (
                "objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: string\n      _remodel_x: string\n",
                "property name '_remodel_x' starts with '_remodel', which is reserved for the store's own tables"
            ),
        ]
        for (yaml, message) in cases {
            let found = diagnostics(yaml).filter { $0.rule == "reserved-name" }
            XCTAssertEqual(found.map(\.message), [message])
            XCTAssertNotNil(found.first?.location)
            XCTAssertNotNil(found.first?.hint)
        }
    }

    func testNamesSQLiteAcceptsStayValid() {
        // Column names may start with 'sqlite_'; enum cases and projection properties name no column.
        let yaml = "enums:\n  E:\n    cases: [rowid, Rowid]\nobjects:\n  Person:\n    primaryKey: id\n    properties:\n      id: string\n      sqlite_note: string\n"
        XCTAssertEqual(loadSchema(yaml: yaml, file: "names.yaml").diagnostics, [])
    }
}
