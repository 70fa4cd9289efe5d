import Foundation
import RemodelFuzzTargets
import Testing

/// Every input a fuzz run crashed on (or broke an invariant with), kept in
/// `Regressions/TARGET/` and run again through the same target: each must now be refused or
/// accepted cleanly. A crash fails the whole test process; a broken invariant traps too.
@Suite struct FuzzRegressionTests {
    static let folder = Bundle.module.resourceURL!.appendingPathComponent("Regressions")

    static func inputs(_ target: FuzzTarget) throws -> [(name: String, bytes: [UInt8])] {
        let folder = folder.appendingPathComponent(target.rawValue)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted().map {
            ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0))))
        }
    }

    @Test(arguments: FuzzTarget.allCases) func everyKeptInputRunsCleanly(_ target: FuzzTarget) throws {
        let inputs = try Self.inputs(target)
        #expect(!inputs.isEmpty, "Regressions/\(target.rawValue) has no inputs")
        for input in inputs { target.run(input.bytes) }
    }
}
