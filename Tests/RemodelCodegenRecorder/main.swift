// Re-records the code generator's reference files: `swift run remodel-record-references`.
//
// Writes Tests/RemodelCodegenTests/References/<Case>/ for every reference case (see
// ReferenceCases.swift) and removes files that no longer belong there. Review the diff before
// committing: the references are the generator's contract, and RemodelCodegenReferenceTests
// compiles and runs them.
import Foundation
import RemodelCodegen

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
exit(failed ? 1 : 0)
