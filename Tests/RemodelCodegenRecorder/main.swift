// Re-records the reference files: `swift run remodel-record-references`.
//
// Writes Tests/RemodelCodegenTests/References/<Case>/ for every code generator reference case
// (see ReferenceCases.swift), removing files that no longer belong there, and
// Tests/RemodelMigrateTests/References/Plans/<case>.txt for every migration plan reference
// (see RemodelTestSupport/PlanReferences.swift), and
// Tests/RemodelDiagramTests/References/<case>.mmd and .dot for every diagram reference (see
// RemodelTestSupport/DiagramReferences.swift). Review the diff before committing: the
// references are contracts, RemodelCodegenReferenceTests compiles and runs the generated ones,
// and RemodelDiagramTests renders the diagrams with Graphviz and checks the Mermaid grammar.
import Foundation
import RemodelCodegen
import RemodelDiagram
import RemodelTestSupport

var failed = false
for testCase in ReferenceCases.all {
    do {
        let (folder, changes) = try ReferenceCases.changes(for: testCase)
        try folder.apply(changes)
        print("\(testCase.name): " + (changes.isEmpty ? "unchanged" : changes.map(\.name).joined(separator: ", ")))
    } catch {
        FileHandle.standardError.write(Data("\(testCase.name): error: \(error)\n".utf8))
        failed = true
    }
}
/// Removes the files of `folder` that are not in `keeping`.
func removeStrays(in folder: URL, keeping: Set<String>, label: String) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where !keeping.contains(file) {
        try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
        print("\(label): removed \(file)")
    }
}

/// Writes `text` to `url` unless it holds it already, and says which.
func record(_ text: String, at url: URL, label: String) throws {
    let old = try? String(contentsOf: url, encoding: .utf8)
    if old != text { try Data(text.utf8).write(to: url) }
    print("\(label): " + (old == text ? "unchanged" : "written"))
}

do {
    let cases = try PlanReferences.all()
    try removeStrays(in: PlanReferences.folder, keeping: Set(cases.map { "\($0.name).txt" }), label: "plans")
    for testCase in cases {
        try record(try PlanReferences.render(testCase), at: PlanReferences.folder.appendingPathComponent("\(testCase.name).txt"), label: "plan \(testCase.name)")
    }
} catch {
    FileHandle.standardError.write(Data("plans: error: \(error)\n".utf8))
    failed = true
}
do {
    let cases = try DiagramReferences.all()
    try removeStrays(in: DiagramReferences.folder, keeping: Set(cases.flatMap { testCase in DiagramFormat.allCases.map(testCase.fileName) }), label: "diagrams")
    for testCase in cases {
        for format in DiagramFormat.allCases {
            let name = testCase.fileName(format)
            try record(format.render(testCase.diagram), at: DiagramReferences.folder.appendingPathComponent(name), label: "diagram \(name)")
        }
    }
} catch {
    FileHandle.standardError.write(Data("diagrams: error: \(error)\n".utf8))
    failed = true
}
exit(failed ? 1 : 0)
