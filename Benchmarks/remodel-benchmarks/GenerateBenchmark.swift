import Foundation
import RemodelCodegen
import RemodelSchema

/// `generate [objects] [runs] [schemas]`: the `remodel generate` pipeline (load + validate,
/// generate + render every file, compare with the output folder) for the 1,000-object ×
/// 20-property schema of the `schema` benchmark, then for the example schema (`Schemas/`, or
/// the folder given). Then, with the `remodel` binary beside this one (`--product remodel`),
/// the whole `remodel generate` process for the large schema: into an empty folder and up to
/// date (bound: 200 ms), and `cp -r` of its output in the same run (bound: into an empty
/// folder within 2 × `cp -r` + the up-to-date time); and for the example schema's `--bundle`
/// (with `Migrations/` beside `Schemas/`), the same `--bundle` run of `remodel-generate`, the
/// build plugin's tool (target under 20 ms). `remodel validate` of the large schema, whole
/// process (bound: 70 ms). With `--baseline-remodel PATH`, another build's `generate` and
/// `validate` alternate with these in the same runs.
func runGenerateBenchmark(_ arguments: [String]) throws {
    var arguments = arguments
    var baseline: String?
    if let index = arguments.firstIndex(of: "--baseline-remodel"), arguments.indices.contains(index + 1) {
        baseline = arguments[index + 1]
        arguments.removeSubrange(index...(index + 1))
        guard FileManager.default.isExecutableFile(atPath: baseline!) else { throw BenchmarkError(description: "no executable at \(baseline!) (--baseline-remodel)") }
    }
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
    let trash = folder.appendingPathComponent("Trash")
    if hasRemodel {
        let generate = OutputProcess(
            label: "remodel generate, large schema", executable: remodel, arguments: ["generate", "--schemas", schemas.path, "--output"],
            output: folder.appendingPathComponent("CLIGenerated"))
        try generate.run()
        // What writing the same files costs without remodel: `cp -r` of that output into a new
        // folder on the same disk, alternating with remodel's runs.
        let copy = OutputProcess(label: "cp -r of that output", executable: "/bin/cp", arguments: ["-r", generate.output.path], output: folder.appendingPathComponent("Copied"))
        // With --baseline-remodel, the same runs of another build, alternating with these.
        let old = baseline.map {
            OutputProcess(
                label: "baseline remodel generate, large schema", executable: $0, arguments: generate.arguments, output: folder.appendingPathComponent("BaselineGenerated"))
        }
        let intoEmpty = try measureIntoEmpty([generate, copy] + (old.map { [$0] } ?? []), runs: runs, trash: trash)
        let upToDate = try measureUpToDate([generate] + (old.map { [$0] } ?? []), runs: runs)
        let bound = 2 * intoEmpty[1] + upToDate[0]
        print(
            String(
                format: "bounds: up to date %.1f ms (≤ 200: %@); into an empty folder %.1f ms, ≤ 2 × cp -r + up to date = %.1f ms: %@", upToDate[0],
                upToDate[0] <= 200 ? "yes" : "NO",
                intoEmpty[0], bound, intoEmpty[0] <= bound ? "yes" : "NO"))
        if old != nil {
            print(String(format: "remodel / baseline: into an empty folder %.2f, up to date %.2f", intoEmpty[0] / intoEmpty[2], upToDate[0] / upToDate[1]))
        }
        // `remodel validate` of the same schema, the whole process (bound: 70 ms).
        let validate = [remodel] + (baseline.map { [$0] } ?? [])
        let validated = try measureUpToDate(
            zip(validate, ["remodel validate, large schema", "baseline remodel validate, large schema"]).map {
                OutputProcess(label: $1, executable: $0, arguments: ["validate", "--schemas"], output: schemas)
            }, runs: runs, state: "valid schema")
        print(String(format: "bound: validate %.1f ms (≤ 70: %@)", validated[0], validated[0] <= 70 ? "yes" : "NO"))
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
        let cli = OutputProcess(label: "remodel generate --bundle, example schema", executable: remodel, arguments: bundle, output: folder.appendingPathComponent("CLIBundle"))
        // What the build plugin runs: its own small tool, beside remodel (`--product remodel-generate`).
        let tool = URL(fileURLWithPath: remodel).deletingLastPathComponent().appendingPathComponent("remodel-generate").path
        let plugin = OutputProcess(
            label: "remodel-generate --bundle (the build plugin's run), example schema", executable: tool, arguments: Array(bundle.dropFirst()),
            output: folder.appendingPathComponent("PluginBundle"))
        let hasTool = FileManager.default.isExecutableFile(atPath: tool)
        if !hasTool { print("the build plugin's run: no remodel-generate beside remodel (build it: --product remodel-generate)") }
        let processes = hasTool ? [cli, plugin] : [cli]
        _ = try measureIntoEmpty(processes, runs: runs * 2, trash: trash)
        _ = try measureUpToDate(processes, runs: runs * 2)
    }
    try? FileManager.default.removeItem(at: trash)
}

/// A process that writes into `output` (its path is the last argument), timed as a whole.
private struct OutputProcess {
    var label: String
    var executable: String
    var arguments: [String]
    var output: URL

    /// Runs it to the end, with its output thrown away; throws if it fails.
    func run() throws {
        // posix_spawn, not Process: Foundation's Process adds milliseconds of its own per launch.
        let argv = ([executable] + arguments + [output.path]).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        var status: Int32 = 0
        guard posix_spawn(&pid, executable, &actions, nil, argv + [nil], environ) == 0, waitpid(pid, &status, 0) == pid, status == 0 else {
            throw BenchmarkError(description: "\(([executable] + arguments + [output.path]).joined(separator: " ")) failed (status \(status))")
        }
    }
}

/// Times each process into an empty folder, alternating from round to round, after one
/// warm-up run each; prints and returns the medians in milliseconds. The previous output is
/// moved into `trash` (not deleted) while the clock runs, so that no run pays for another's
/// deletions: ext4 skips recently deleted inodes when it allocates new ones, which makes
/// creating files right after deleting thousands several times slower.
private func measureIntoEmpty(_ processes: [OutputProcess], runs: Int, trash: URL) throws -> [Double] {
    try FileManager.default.createDirectory(at: trash, withIntermediateDirectories: true)
    var moved = 0
    func timedRun(_ process: OutputProcess) throws -> Double {
        moved += 1
        let start = DispatchTime.now().uptimeNanoseconds
        rename(process.output.path, trash.appendingPathComponent("\(moved)").path)
        try process.run()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }
    for process in processes { _ = try timedRun(process) }
    var times = Array(repeating: [Double](), count: processes.count)
    for round in 0..<runs {
        let order = round % 2 == 0 ? Array(processes.indices) : processes.indices.reversed()
        for index in order { times[index].append(try timedRun(processes[index])) }
    }
    return zip(processes, times).map { process, values in
        let sorted = values.sorted()
        let middle = sorted[sorted.count / 2]
        print(
            String(
                format: "%@ (whole process, into an empty folder): median %.1f ms, min %.1f ms, max %.1f ms (%d runs)", process.label, middle, sorted.first!, sorted.last!,
                runs))
        return middle
    }
}

/// Times each process with its output up to date (after it ran once), alternating from round
/// to round; prints and returns the medians in milliseconds.
private func measureUpToDate(_ processes: [OutputProcess], runs: Int, state: String = "output up to date") throws -> [Double] {
    for process in processes { try process.run() }
    var times = Array(repeating: [Double](), count: processes.count)
    for round in 0..<runs {
        let order = round % 2 == 0 ? Array(processes.indices) : processes.indices.reversed()
        for index in order { times[index].append(try timed { try processes[index].run() } * 1000) }
    }
    return zip(processes, times).map { process, values in
        let sorted = values.sorted()
        let middle = sorted[sorted.count / 2]
        print(
            String(
                format: "%@ (whole process, %@): median %.1f ms, min %.1f ms, max %.1f ms (%d runs)", process.label, state, middle, sorted.first!, sorted.last!, runs))
        return middle
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
