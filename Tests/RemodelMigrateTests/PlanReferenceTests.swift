import Foundation
import RemodelCodegen
import RemodelTestSupport
import Testing

/// The rendered plans of the example history, Realm's example and one focused history per
/// step kind and automatic change equal the reviewed files in `References/Plans`; a mismatch
/// fails with a unified diff. Re-record after an intended change with
/// `swift run remodel-record-references` and review `git diff Tests/RemodelMigrateTests/References`.
@Suite struct PlanReferenceTests {
    static let cases = (try? PlanReferences.all()) ?? []

    @Test(arguments: cases.map(\.name))
    func planEqualsItsReference(name: String) throws {
        let testCase = try #require(Self.cases.first { $0.name == name })
        let actual = try PlanReferences.render(testCase)
        let file = PlanReferences.folder.appendingPathComponent("\(name).txt")
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(actual == expected, "\(UnifiedDiff.make(old: expected, new: actual, oldName: "References/Plans/\(name).txt", newName: "planned"))")
        // Deterministic: planning again gives the same bytes.
        #expect(try PlanReferences.render(testCase) == actual)
    }

    /// Every case has a file and every file a case.
    @Test func everyReferenceHasACase() throws {
        // Loading again here reports why the cases did not load, if they did not.
        let cases = try PlanReferences.all()
        #expect(cases.map(\.name) == Self.cases.map(\.name))
        let files = try FileManager.default.contentsOfDirectory(atPath: PlanReferences.folder.path).filter { $0.hasSuffix(".txt") }.sorted()
        #expect(files == Self.cases.map { "\($0.name).txt" }.sorted())
    }
}
