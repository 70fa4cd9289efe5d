import Foundation
import RemodelCodegen
import RemodelSchema

/// `generate [objects] [runs] [schemas]`: the `remodel generate` pipeline (load + validate,
/// generate + render every file, compare with the output folder) for the 1,000-object ×
/// 20-property schema of the `schema` benchmark, then for the example schema (`Schemas/`, or
/// the folder given). Targets: under 150 ms and under 50 ms in release. Then, with the
/// `remodel` binary beside this one (`--product remodel`), the whole `remodel generate`
/// process: into an empty folder and up to date, for the large schema and for the example
/// schema's `--bundle` (with `Migrations/` beside `Schemas/`), and the same `--bundle` run of
/// `remodel-generate`, the build plugin's tool (target under 20 ms).
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

    let remodel = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("remodel").path
    let hasRemodel = FileManager.default.isExecutableFile(atPath: remodel)
    if hasRemodel {
        try measureWholeProcess(
            remodel, ["generate", "--schemas", schemas.path, "--output"], output: folder.appendingPathComponent("CLIGenerated"), in: folder, runs: runs,
            label: "remodel generate, large schema")
    } else {
        print("whole process: no remodel binary beside this one (build it: --product remodel)")
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
    let exampleMigrations = URL(fileURLWithPath: exampleSchemas).deletingLastPathComponent().appendingPathComponent("Migrations").path
    if hasRemodel, FileManager.default.fileExists(atPath: exampleMigrations) {
        // The build plugin's invocation; the target is under 20 ms.
        let bundle = ["generate", "--schemas", exampleSchemas, "--migrations", exampleMigrations, "--bundle"]
        try measureWholeProcess(remodel, bundle, output: folder.appendingPathComponent("CLIBundle"), in: folder, runs: runs * 2, label: "remodel generate --bundle, example schema")
        // What the build plugin runs: its own small tool, beside remodel (`--product remodel-generate`).
        let tool = URL(fileURLWithPath: remodel).deletingLastPathComponent().appendingPathComponent("remodel-generate").path
        if FileManager.default.isExecutableFile(atPath: tool) {
            try measureWholeProcess(
                tool, Array(bundle.dropFirst()), output: folder.appendingPathComponent("PluginBundle"), in: folder, runs: runs * 2,
                label: "remodel-generate --bundle (the build plugin's run), example schema")
        } else {
            print("the build plugin's run: no remodel-generate beside remodel (build it: --product remodel-generate)")
        }
    }
}

/// Times the `remodel` process `arguments + [output]` into an empty folder (the previous
/// run's output is moved aside, not deleted, while the clock runs), then again with the
/// output up to date; prints both medians.
private func measureWholeProcess(_ remodel: String, _ arguments: [String], output: URL, in folder: URL, runs: Int, label: String) throws {
    let trash = folder.appendingPathComponent("Trash")
    try FileManager.default.createDirectory(at: trash, withIntermediateDirectories: true)
    var moved = 0
    // posix_spawn, not Process: Foundation's Process adds milliseconds of its own per launch.
    let argv = ([remodel] + arguments + [output.path]).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    func run() {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        var status: Int32 = 0
        guard posix_spawn(&pid, remodel, &actions, nil, argv + [nil], environ) == 0, waitpid(pid, &status, 0) == pid, status == 0 else {
            print("\(([remodel] + arguments + [output.path]).joined(separator: " ")) failed (status \(status))")
            return
        }
    }
    measure("\(label) (whole process, into an empty folder)", iterations: runs) {
        moved += 1
        rename(output.path, trash.appendingPathComponent("\(moved)").path)
        run()
    }
    measure("\(label) (whole process, output up to date)", iterations: runs) { run() }
    try? FileManager.default.removeItem(at: trash)
}

enum GenerateBenchmarkError: Error, CustomStringConvertible {
    case invalidSchema(String)

    var description: String {
        switch self {
        case .invalidSchema(let path): "the schema at \(path) does not load"
        }
    }
}
