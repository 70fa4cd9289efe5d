import Foundation
import RemodelCodegen
import RemodelSchema

/// `generate [objects] [runs] [schemas]`: the `remodel generate` pipeline (load + validate,
/// generate + render every file, compare with the output folder) for the 1,000-object ×
/// 20-property schema of the `schema` benchmark, then for the example schema (`Schemas/`, or
/// the folder given). Targets: under 500 ms and under 50 ms in release.
func runGenerateBenchmark(_ arguments: [String]) throws {
    let objectCount = arguments.first.flatMap(Int.init) ?? 1_000
    let runs = arguments.dropFirst().first.flatMap(Int.init) ?? 11
    let exampleSchemas = arguments.dropFirst(2).first ?? "Schemas"
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-generate-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
    let schemas = folder.appendingPathComponent("Schemas")
    let output = folder.appendingPathComponent("Generated")
    try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
    // REMODEL_BENCHMARK_KEEP=1 keeps the generated schema folder, e.g. to time the CLI on it.
    let keep = ProcessInfo.processInfo.environment["REMODEL_BENCHMARK_KEEP"] == "1"
    defer { if keep { print("kept \(schemas.path)") } else { try? FileManager.default.removeItem(at: folder) } }
    for (name, text) in SchemaBenchmarkFixture.files(objects: objectCount) {
        try text.write(to: schemas.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// The whole `generate --output` pipeline; returns the number of files and bytes.
    func pipeline(_ schemasPath: String, into output: URL) throws -> (files: Int, bytes: Int) {
        let loaded = SchemaLoader.load(path: schemasPath)
        guard let schema = loaded.schema else { throw GenerateBenchmarkError.invalidSchema(schemasPath) }
        let input = GeneratorInput(schema: schema, schemaFiles: SchemaFolder.displayNames(of: loaded.files, schemasPath: schemasPath))
        let files = try CodeGenerator().files(for: input)
        let directory = OutputDirectory(path: output.path)
        try directory.apply(try directory.changes(toMatch: files))
        return (files.count, files.reduce(0) { $0 + $1.contents.utf8.count })
    }

    let (count, bytes) = try pipeline(schemas.path, into: output)
    print("large schema: \(objectCount) objects × 20 properties → \(count) files, \(bytes / 1024) KiB of Swift")
    measure("generate (load + validate + generate + render + compare, output up to date)", iterations: runs) {
        _ = try? pipeline(schemas.path, into: output)
    }
    let loaded = SchemaLoader.load(path: schemas.path)
    if let schema = loaded.schema {
        let input = GeneratorInput(schema: schema, schemaFiles: loaded.files)
        measure("  of which generate + render only", iterations: runs) {
            _ = try? CodeGenerator().files(for: input)
        }
    }

    guard FileManager.default.fileExists(atPath: exampleSchemas) else {
        print("example schema: \(exampleSchemas) not found (run from the package folder or pass it)")
        return
    }
    let exampleOutput = folder.appendingPathComponent("ExampleGenerated")
    let (exampleCount, _) = try pipeline(exampleSchemas, into: exampleOutput)
    print("example schema: \(exampleSchemas) → \(exampleCount) files")
    measure("generate example schema (in process)", iterations: runs * 5) {
        _ = try? pipeline(exampleSchemas, into: exampleOutput)
    }
}

enum GenerateBenchmarkError: Error, CustomStringConvertible {
    case invalidSchema(String)

    var description: String {
        switch self {
        case .invalidSchema(let path): "the schema at \(path) does not load"
        }
    }
}
