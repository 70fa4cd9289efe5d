import Foundation
import RemodelCodegen
import RemodelCore
import RemodelMigrate
import RemodelSchema
import RemodelStore

/// What the fuzzers feed with arbitrary bytes: the schema loader, the migration-file reader
/// and the JSON importer. Each runs the input the way the tool does and then checks what must
/// hold for every input, trapping (so that the fuzzer keeps the input) when it does not:
///
/// - `yaml`: a schema that validates round-trips through its canonical text, creates a
///   store, and generates Swift; every error has a location and a message.
/// - `migration`: a file read as version 3 of the example history; when it reads without
///   errors, the history is checked and planned, and planning refuses with a located error
///   or gives a plan that renders.
/// - `json`: a document imported into a fresh store of the example schema; when `check`
///   accepts it, the import either succeeds or fails on a link to a missing object, and the
///   store's export is accepted again.
///
/// A refusal is never a failure: only a crash, a hang or a broken invariant is.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case yaml
    case migration
    case json

    /// What the target reads, for `--help`.
    public var abstract: String {
        switch self {
        case .yaml: "a schema file: load, validate, canonical round trip, store layout, code generation"
        case .migration: "a migration file (version 3 of the example history): read, check, plan"
        case .json: "an import document for the example schema: parse, check, import, export"
        }
    }

    /// Runs one input.
    public func run(_ bytes: [UInt8]) {
        switch self {
        case .yaml: Self.runSchema(bytes)
        case .migration: Self.runMigration(bytes)
        case .json: Self.runJSON(bytes)
        }
    }

    /// A broken invariant: traps with what broke, so that the fuzzer records the input.
    static func violated(_ what: String, _ input: [UInt8]) -> Never {
        let preview = String(decoding: input.prefix(400), as: UTF8.self)
        fatalError("fuzz invariant broken: \(what)\n--- input (\(input.count) bytes) ---\n\(preview)")
    }

    /// The first line where the dumps of two values differ.
    static func firstDifference<T>(_ a: T, _ b: T) -> String {
        var left = ""
        var right = ""
        dump(a, to: &left)
        dump(b, to: &right)
        for (x, y) in zip(left.split(separator: "\n"), right.split(separator: "\n")) where x != y { return "\(x) ≠ \(y)" }
        return "(the dumps are equal)"
    }

    static func checkLocated(_ diagnostics: [Diagnostic], _ input: [UInt8]) {
        for diagnostic in diagnostics where diagnostic.severity == .error {
            if diagnostic.message.isEmpty { violated("an error without a message (rule \(diagnostic.rule))", input) }
            if diagnostic.location == nil { violated("an error without a location: \(diagnostic.message)", input) }
        }
    }

    // MARK: - Schema files

    static func runSchema(_ bytes: [UInt8]) {
        let file = "Schemas/Fuzz.yaml"
        let loaded = loadSchema(yaml: String(decoding: bytes, as: UTF8.self), file: file)
        checkLocated(loaded.diagnostics, bytes)
        guard let schema = loaded.schema, !loaded.diagnostics.containsErrors else { return }

        let canonical = CanonicalYAML.text(of: schema)
        let reloaded = loadSchema(yaml: canonical, file: file)
        guard let again = reloaded.schema, !reloaded.diagnostics.containsErrors else {
            violated("the canonical text of a valid schema does not load: \(reloaded.diagnostics.map(\.message))", bytes)
        }
        if again != schema { violated("the canonical text loads as a different schema: \(firstDifference(schema, again))", bytes) }
        if CanonicalYAML.text(of: again) != canonical { violated("the canonical text is not stable", bytes) }

        // A schema that validates is one the store accepts: `init` must not fail on it.
        Scratch.withStorePath { path in
            do { _ = try RemodelStore(path: path, schema: schema, version: 1) } catch {
                violated("a valid schema cannot create a store: \(error)", bytes)
            }
        }
        let generator = CodeGenerator()
        let input = GeneratorInput(schema: schema, schemaFiles: [file])
        if !generator.check(input).containsErrors {
            do { _ = try generator.files(for: input) } catch { violated("generation failed after its check passed: \(error)", bytes) }
        }
    }

    // MARK: - Migration files

    static func runMigration(_ bytes: [UInt8]) {
        let example = ExampleHistory.shared
        let file = "Migrations/0003-fuzz.yaml"
        let (steps, source, diagnostics) = readMigrationFile(yaml: bytes, file: file, target: example.snapshots[2])
        checkLocated(diagnostics, bytes)
        guard !diagnostics.containsErrors else { return }
        var migrations = example.migrations
        migrations[2] = Migration(version: 3, name: "fuzz", steps: steps, checksum: SHA256.hexDigest(of: bytes))
        let history = MigrationHistory(snapshots: example.snapshots, migrations: migrations)
        var sources = example.sources
        sources.migrations[3] = source
        let checked = HistoryCheck.diagnostics(of: history, sources: sources)
        checkLocated(checked, bytes)
        guard !checked.containsErrors else { return }
        let planner = MigrationPlanner(history: history, sources: sources)
        do {
            let plan = try planner.plan(from: 1, to: 3, now: Date(timeIntervalSince1970: 1_700_000_000))
            _ = MigrationPlanRenderer.text(of: plan)
        } catch let error as MigrationPlanningError {
            checkLocated(error.diagnostics, bytes)
        } catch {
            violated("planning threw something other than a planning error: \(error)", bytes)
        }
    }

    // MARK: - Import documents

    static func runJSON(_ bytes: [UInt8]) {
        let schema = ExampleHistory.shared.snapshots[2]
        var parser = JSONParser(bytes: bytes)
        guard let document = try? parser.parse() else { return }
        do { try StoreJSON.check(document, schema: schema, source: "fuzz.json") } catch { return }
        Scratch.withStorePath { path in
            do {
                let store = try RemodelStore(path: path, schema: schema, version: 3)
                do {
                    try StoreJSON.importDocument(document, into: store, source: "fuzz.json")
                } catch StoreError.danglingLink {
                    return
                } catch {
                    violated("an import that check accepted failed: \(error)", bytes)
                }
                let exported = try store.read { try StoreJSON.export($0) }
                do { try StoreJSON.check(exported, schema: schema, source: "export") } catch {
                    violated("the export of an imported document is refused on import: \(error)", bytes)
                }
            } catch {
                violated("the store failed: \(error)", bytes)
            }
        }
    }
}

/// The example history of this repository (`Migrations/`, versions 1–3), loaded once from
/// the checkout the fuzz targets were built in.
struct ExampleHistory: Sendable {
    let snapshots: [Schema]
    let migrations: [Migration]
    let sources: HistorySources

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Migrations").path

    static let shared: ExampleHistory = {
        let loaded = MigrationHistoryLoader.load(migrations: folder)
        guard let history = loaded.history, history.snapshots.count == 3 else {
            fatalError("the example history at \(folder) does not load as versions 1–3: \(loaded.diagnostics.map(\.message))")
        }
        return ExampleHistory(snapshots: history.snapshots, migrations: history.migrations, sources: loaded.sources)
    }()
}

/// A folder of this process for the stores the targets create, emptied after each input.
enum Scratch {
    static let folder: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let folder = base + "/remodel-fuzz-\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }()

    static func withStorePath(_ body: (String) -> Void) {
        let path = folder + "/store.db"
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        body(path)
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
    }
}
