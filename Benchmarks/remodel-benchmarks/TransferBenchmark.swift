import Foundation
import RemodelTestSupport

/// An export's text with the migration's own time (`dateLastUpdated`, `$now` when the
/// migration ran) blanked: what two builds' exports must agree on.
private func exported(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
        .replacingOccurrences(of: #""dateLastUpdated": "[^"]*""#, with: #""dateLastUpdated": """#, options: .regularExpression)
}

/// `transfer [--people N] [--runs N] [--remodel PATH] [--baseline-remodel PATH]`: the commands
/// that move a whole store, as whole processes (release builds): `remodel import` of a generated
/// example v1 document (N Person, N Dog, a Note; default N = 150,000) into a new store, `remodel
/// migrate` of it to v3 (--no-backup), and `remodel export --output` of the result. Progress is
/// on (stderr to a file, so plain lines), as a user runs them. With --baseline-remodel, that
/// build runs the same three commands on its own copy in the same run, the two alternating
/// round after round, and the export files must be the same but for the migration's time. Prints each round,
/// then per command the median wall time, the peak RSS and the ratio to the baseline.
func runTransferBenchmark(_ arguments: [String]) throws {
    func value(_ name: String) -> String? {
        arguments.firstIndex(of: "--\(name)").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }
    let people = value("people").flatMap(Int.init) ?? 150_000
    let runs = value("runs").flatMap(Int.init) ?? 5
    let remodel = try BenchmarkPaths.remodel(value("remodel"))
    let baseline = try value("baseline-remodel").map { try BenchmarkPaths.remodel($0) }
    let folder = BenchmarkPaths.folder("remodel-transfer-benchmark")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let data = folder + "/v1.json"
    try ExampleData.generatedV1(people: people).write(toFile: data, atomically: false, encoding: .utf8)
    let schemas = BenchmarkPaths.root + "/Schemas"
    emit("import, migrate and export of \(2 * people + 1) objects of the example (\(megabytes(fileSize(data))) of JSON), \(runs) rounds")

    let commands = ["import", "migrate", "export"]
    var sides = [(name: "remodel", path: remodel)]
    if let baseline { sides.append((name: "baseline", path: baseline)) }
    var results: [String: [String: [ChildResult]]] = [:]
    for round in 1...runs {
        // Alternating which side goes first, so that neither always runs on a warmer machine.
        for side in round % 2 == 1 ? sides : sides.reversed() {
            let store = "\(folder)/\(side.name).db"
            let export = "\(folder)/\(side.name).json"
            try removeStore(store)
            try? FileManager.default.removeItem(atPath: export)
            let log = "\(folder)/\(side.name).log"
            let steps: [[String]] = [
                ["import", "--store", store, "--version", "1", "--schemas", schemas, data],
                ["migrate", "--store", store, "--no-backup", "--schemas", schemas],
                ["export", "--store", store, "--output", export],
            ]
            var line = "round \(round) \(side.name):"
            for (command, arguments) in zip(commands, steps) {
                let result = try runChild(side.path, arguments, stdin: nil, log: log)
                results[side.name, default: [:]][command, default: []].append(result)
                line += String(format: " %@ %.2f s", command, result.seconds)
            }
            emit(line)
        }
        if baseline != nil, try exported("\(folder)/remodel.json") != exported("\(folder)/baseline.json") {
            throw BenchmarkError(description: "the two builds' exports differ in round \(round) (\(folder)/remodel.json, baseline.json)")
        }
    }
    for command in commands {
        var line = "\(command):"
        for side in sides {
            let figures = results[side.name]?[command] ?? []
            line += String(
                format: " %@ median %.2f s, peak RSS %@;", side.name, median(figures.map(\.seconds)), megabytes((figures.map(\.maxRSSKilobytes).max() ?? 0) * 1024))
        }
        if baseline != nil {
            let ratio = median((results["remodel"]?[command] ?? []).map(\.seconds)) / median((results["baseline"]?[command] ?? []).map(\.seconds))
            line += String(format: " remodel / baseline %.2f", ratio)
        }
        emit(line)
    }
}
