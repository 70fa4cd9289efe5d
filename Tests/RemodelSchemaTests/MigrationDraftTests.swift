import RemodelCore
import RemodelSchema
import XCTest

/// What `migration amend` and the readiness line read from a draft: the steps it has (also
/// when a trailing comment follows one) and the questions still open.
final class MigrationDraftTests: XCTestCase {
    private func schema(_ properties: String) throws -> Schema {
        let result = loadSchema(yaml: "objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: { type: string }\n" + properties, file: "People.yaml")
        return try XCTUnwrap(result.schema, "\(result.diagnostics)")
    }

    /// The drafted `convert` ends in `# string → int: …`: amending the draft keeps it as it is.
    func testAmendingADraftWithAConvertChangesNothing() throws {
        let old = try schema("      age: { type: string, default: \"\" }\n")
        let new = try schema("      age: { type: int, default: 0 }\n")
        let draft = MigrationDraft.text(version: 2, name: "ages", from: old, to: new)
        XCTAssertTrue(draft.contains("  - convert: { type: Person, property: age, to: int, onError: fail }   # string → int"), draft)
        let steps: [MigrationStep] = [.convert(type: "Person", property: "age", to: PropertyType(.scalar(.int)), onError: .fail)]
        XCTAssertEqual(MigrationDraft.amended(draft, steps: steps, version: 2, from: old, to: new), draft)
        // Without the step (deleted from the file), it is suggested again.
        let withoutStep = draft.replacingOccurrences(of: "  - convert: { type: Person, property: age, to: int, onError: fail }   # string → int: fail, default or null\n", with: "")
        XCTAssertTrue(MigrationDraft.amended(withoutStep, version: 2, from: old, to: new).contains("  # - convert: { type: Person, property: age, to: int, onError: fail }"))
    }

    /// A question is open while its commented step is in the file and no step answers it.
    func testOpenQuestions() throws {
        let old = try schema("      firstName: { type: string, default: \"\" }\n      lastName: { type: string, default: \"\" }\n")
        let new = try schema("      fullName: { type: string, default: \"\" }\n")
        let draft = MigrationDraft.text(version: 2, name: "full-name", from: old, to: new)
        let step = "  # - set: { type: Person, property: fullName, value: \"{firstName} {lastName}\" }\n"
        XCTAssertTrue(draft.contains(step), draft)
        XCTAssertEqual(MigrationDraft.openQuestions(in: draft, steps: [], from: old, to: new).count, 1)
        // Answered by uncommenting the step (its `# Question:` comment left in place).
        let answered = draft.replacingOccurrences(of: "  # - set:", with: "  - set:")
        let set = MigrationStep.set(type: "Person", property: "fullName", value: .template("{firstName} {lastName}"))
        XCTAssertEqual(MigrationDraft.openQuestions(in: answered, steps: [set], from: old, to: new), [])
        // Deleted: nothing left to answer.
        XCTAssertEqual(MigrationDraft.openQuestions(in: draft.replacingOccurrences(of: step, with: ""), steps: [], from: old, to: new), [])
    }
}
