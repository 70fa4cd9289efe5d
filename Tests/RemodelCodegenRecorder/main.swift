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
do {
    let folder = PlanReferences.folder
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let cases = try PlanReferences.all()
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !cases.contains(where: { "\($0.name).txt" == file }) {
        try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
        print("plans: removed \(file)")
    }
    for testCase in cases {
        let url = folder.appendingPathComponent("\(testCase.name).txt")
        let text = try PlanReferences.render(testCase)
        let old = try? String(contentsOf: url, encoding: .utf8)
        if old != text { try Data(text.utf8).write(to: url) }
        print("plan \(testCase.name): " + (old == text ? "unchanged" : "written"))
    }
} catch {
    FileHandle.standardError.write(Data("plans: error: \(error)\n".utf8))
    failed = true
}
do {
    let folder = DiagramReferences.folder
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let cases = try DiagramReferences.all()
    let names = Set(cases.flatMap { testCase in DiagramFormat.allCases.map(testCase.fileName) })
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where !names.contains(file) {
        try FileManager.default.removeItem(at: folder.appendingPathComponent(file))
        print("diagrams: removed \(file)")
    }
    for testCase in cases {
        for format in DiagramFormat.allCases {
            let url = folder.appendingPathComponent(testCase.fileName(format))
            let text = format.render(testCase.diagram)
            let old = try? String(contentsOf: url, encoding: .utf8)
            if old != text { try Data(text.utf8).write(to: url) }
            print("diagram \(testCase.fileName(format)): " + (old == text ? "unchanged" : "written"))
        }
    }
} catch {
    FileHandle.standardError.write(Data("diagrams: error: \(error)\n".utf8))
    failed = true
}
exit(failed ? 1 : 0)
