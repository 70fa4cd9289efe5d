import Foundation
import RemodelSchema

/// `schema`: loads and validates a generated schema of 1,000 objects × 20 properties.
func runSchemaBenchmark(_ arguments: [String]) throws {
    print("schema benchmark: not written yet")
}
