import Foundation
import RemodelCore
import RemodelSchema

/// `check [--versions 10,50,200] [--objects N] [--runs N] [--remodel PATH]
/// [--baseline-remodel PATH] [--baseline-max-versions N]`: `remodel check` as a whole process
/// (release build, beside this benchmark unless --remodel) on histories of the `schema`
/// benchmark's 1,000-object × 20-property schema, each version adding one optional property
/// to one type, with remodel.sum. Prints the median per history length and the time per
/// version, so that growth with the history shows. With --baseline-remodel, also times that
/// build's `remodel validate` (the gate before `check`) on the same histories in the same
/// run, once each, up to --baseline-max-versions (default 50: it grows with the history).
/// Target: 200 versions under 2 s.
func runCheckBenchmark(_ arguments: [String]) throws {
    func value(_ name: String) -> String? {
        arguments.firstIndex(of: "--\(name)").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }
    let lengths = (value("versions") ?? "10,50,200").split(separator: ",").compactMap { Int($0) }.sorted()
    let objects = value("objects").flatMap(Int.init) ?? 1_000
    let runs = value("runs").flatMap(Int.init) ?? 3
    let remodel = value("remodel") ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("remodel").path
    guard FileManager.default.isExecutableFile(atPath: remodel) else { throw CheckBenchmarkError.noRemodel(remodel) }
    let baseline = value("baseline-remodel")
    let baselineLimit = value("baseline-max-versions").flatMap(Int.init) ?? 50
    // `--squash-to K`: then, in the same run, check again after `migration squash` leaves K
    // versions (without and with --keep-upgrade-path).
    let squashTo = value("squash-to").flatMap(Int.init)

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-check-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let schemas = folder.appendingPathComponent("Schemas")
    try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
    for (name, text) in SchemaBenchmarkFixture.files(objects: objects) {
        try text.write(to: schemas.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    guard let schema = SchemaLoader.load(path: schemas.path).schema else { throw SchemaBenchmarkError.invalidFixture }
    print("remodel check on histories of a \(objects)-object × 20-property schema (\(remodel))")
    for length in lengths {
        let project = folder.appendingPathComponent("h\(length)")
        let migrations = project.appendingPathComponent("Migrations")
        try FileManager.default.createDirectory(at: migrations.appendingPathComponent("snapshots"), withIntermediateDirectories: true)
        var current = schema
        var bytes = 0
        for version in 1...length {
            if version > 1 {
                let index = (version * 37) % current.objects.count
                current.objects[index].properties.append(Property("extra\(version)", PropertyType(.scalar(.string), optional: true)))
            }
            let snapshot = CanonicalYAML.text(of: current)
            bytes += snapshot.utf8.count
            try snapshot.write(to: migrations.appendingPathComponent("snapshots/v\(version).yaml"), atomically: false, encoding: .utf8)
            let text = version == 1 ? "description: The baseline.\nsteps: []\n" : "description: Type\((version * 37) % current.objects.count) gets extra\(version).\nsteps: []\n"
            try text.write(to: migrations.appendingPathComponent(MigrationFolder.migrationFileName(version: version, name: "v\(version)")), atomically: false, encoding: .utf8)
        }
        let schemaFolder = project.appendingPathComponent("Schemas")
        try FileManager.default.createDirectory(at: schemaFolder, withIntermediateDirectories: true)
        try CanonicalYAML.text(of: current).write(to: schemaFolder.appendingPathComponent("Schema.yaml"), atomically: false, encoding: .utf8)
        try MigrationSum.current(of: migrations.path).text.write(to: migrations.appendingPathComponent(MigrationSum.fileName), atomically: false, encoding: .utf8)

        /// The median time of `remodel check` in `project`.
        func timeCheck(_ project: URL) throws -> (median: Double, times: [Double]) {
            var times: [Double] = []
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                let status = try run(remodel, "check", in: project)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000)
                guard status == 0 else { throw CheckBenchmarkError.failed(project.path, status) }
            }
            times.sort()
            return (times[times.count / 2], times)
        }
        let (median, times) = try timeCheck(project)
        print(
            String(
                format: "%4d versions (%d MB of snapshots): median %.2f s, min %.2f s, max %.2f s (%d runs), %.1f ms per version",
                length, bytes / 1_000_000, median, times.first!, times.last!, runs, median * 1000 / Double(length)))
        if let baseline, length <= baselineLimit {
            let start = DispatchTime.now().uptimeNanoseconds
            let status = try run(baseline, "validate", in: project)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000_000
            guard status == 0 else { throw CheckBenchmarkError.failed(project.path, status) }
            print(String(format: "     baseline %@ validate: %.2f s (1 run); check takes %.3f× its time", baseline, seconds, median / seconds))
        }
        if let squashTo, squashTo < length {
            for keep in [false, true] {
                let copy = folder.appendingPathComponent("h\(length)-squashed\(keep ? "-kept" : "")")
                try FileManager.default.copyItem(at: project, to: copy)
                let through = String(length - squashTo + 1)
                let status =
                    keep
                    ? try run(remodel, "migration", "squash", "--through", through, "--keep-upgrade-path", in: copy)
                    : try run(remodel, "migration", "squash", "--through", through, in: copy)
                guard status == 0 else { throw CheckBenchmarkError.failed(copy.path, status) }
                let squashed = try timeCheck(copy).median
                print(
                    String(
                        format: "     squashed to %d versions%@: median %.2f s (%.3f× the %d versions)", squashTo, keep ? " keeping the upgrade path" : "", squashed,
                        squashed / median,
                        length))
                try? FileManager.default.removeItem(at: copy)
            }
        }
        try? FileManager.default.removeItem(at: project)
    }
}

func run(_ remodel: String, _ arguments: String..., in directory: URL) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: remodel)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}

enum CheckBenchmarkError: Error, CustomStringConvertible {
    case noRemodel(String)
    case failed(String, Int32)

    var description: String {
        switch self {
        case .noRemodel(let path): "no remodel executable at \(path): build it with 'swift build -c release --product remodel', or pass --remodel PATH"
        case .failed(let path, let status): "remodel exited \(status) in \(path)"
        }
    }
}
