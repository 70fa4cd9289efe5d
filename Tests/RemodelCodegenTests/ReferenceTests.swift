import Foundation
import RemodelCodegen
import XCTest

/// Reference tests: each case of `ReferenceCases` generates exactly the files checked in under
/// `References/<Case>/`; a mismatch fails with a unified diff.
///
/// The same reference files are compiled and exercised by `RemodelCodegenReferenceTests` (its
/// `References` folder is a symlink to this one), so a wrong reference cannot pass unnoticed.
/// Re-record after an intended change with `swift run remodel-record-references` and review
/// the diff of `Tests/RemodelCodegenTests/References` before committing.
final class ReferenceTests: XCTestCase {
    func testExample() throws { try check("Example") }
    func testScalars() throws { try check("Scalars") }
    func testCollections() throws { try check("Collections") }
    func testOptionals() throws { try check("Optionals") }
    func testKeywords() throws { try check("Keywords") }
    func testHostileStrings() throws { try check("HostileStrings") }
    func testIntEnums() throws { try check("IntEnums") }
    func testEmbedded() throws { try check("Embedded") }
    func testProjections() throws { try check("Projections") }
    func testLinks() throws { try check("Links") }
    func testDocumented() throws { try check("Documented") }
    func testKeyless() throws { try check("Keyless") }
    /// A history with one step of every kind: the manifest embeds each.
    func testStepKinds() throws { try check("StepKinds") }
    /// A history squashed to its version 2: the manifest embeds versions 2 and 3 from 2 on.
    func testSquashed() throws { try check("Squashed") }
    /// Names the YAML validator refuses (`Type`, `init`, `Protocol` as properties; `self`,
    /// `Type`, `Self` as cases) but Swift holds in backticks: the generator must stay safe for
    /// schemas that never went through YAML.
    func testMemberKeywords() throws { try check("MemberKeywords") }
    /// `--realm` on the example's schema and history: Realm classes, bridges, the
    /// configuration with its migration block, the copy.
    func testRealmExample() throws { try check("RealmExample") }
    /// `--realm` on every type, collection, embedded object, inverse, projection and step kind.
    func testRealmEverything() throws { try check("RealmEverything") }

    /// Every case has a test above, a schema folder and a reference folder, and nothing else.
    func testEveryCaseIsCovered() throws {
        let folder = ReferenceCases.testsFolder()
        let schemaFolders = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Schemas").path).sorted()
        XCTAssertEqual(schemaFolders, ReferenceCases.yamlCases.sorted())
        let historyFolders = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Histories").path).sorted()
        XCTAssertEqual(historyFolders, ReferenceCases.historyCases.sorted())
        let referenceFolders = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("References").path).sorted()
        XCTAssertEqual(referenceFolders, ReferenceCases.all.filter { !$0.realm }.map(\.name).sorted())
        let realmFolders = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("RealmReferences").path).sorted()
        XCTAssertEqual(realmFolders, ReferenceCases.realmCases.map(\.name).sorted())
    }

    private func check(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let testCase = try XCTUnwrap(ReferenceCases.all.first { $0.name == name })
        let (folder, changes) = try ReferenceCases.changes(for: testCase)
        guard !changes.isEmpty else { return }
        XCTFail(
            "\(testCase.realm ? "RealmReferences" : "References")/\(name) is out of date; if the change is intended, re-record with `\(ReferenceCases.recordCommand)`:\n\(folder.diff(changes))",
            file: file, line: line
        )
    }
}
