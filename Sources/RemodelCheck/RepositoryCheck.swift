import Foundation
import RemodelCodegen
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelSchema

/// What `remodel check` works on: the schema and history as every command loads them (with
/// the problems loading and planning found), and how to judge them.
public struct CheckInput: Sendable {
    public var schemasPath: String
    public var migrationsPath: String
    /// The schema folder's result, `nil` when it does not exist.
    public var schema: SchemaLoadResult?
    public var loaded: MigrationHistoryLoadResult
    public var history: MigrationHistory?
    /// Where the history is written (`MigrationHistoryLoadResult.sources`, with the schema
    /// folder as the newest version's declarations).
    public var sources: HistorySources
    /// What loading and planning found (validation, drift, completeness, plannability).
    public var diagnostics: [Diagnostic]
    /// `--base REF`: judge the versions added since REF, and check that REF's are unchanged.
    public var base: String?
    /// `--generated DIR`.
    public var generated: String?
    public var manifestName: String = GeneratorOptions.defaultManifestName
    /// `--realm`: also what `generate --realm` refuses (Realm cannot hold or run it).
    public var realm: Bool = false
    /// `--realm-class-names`, for the Realm side of `--generated`.
    public var realmClassNames: String = GeneratorOptions.defaultRealmClassNames
    public var strict: Bool = false
    /// `--engine`: the engine whose locking rules also judge the new versions.
    public var engine: CheckEngine = .sqlite

    public init(
        schemasPath: String, migrationsPath: String, schema: SchemaLoadResult?, loaded: MigrationHistoryLoadResult, history: MigrationHistory?, sources: HistorySources,
        diagnostics: [Diagnostic]
    ) {
        self.schemasPath = schemasPath
        self.migrationsPath = migrationsPath
        self.schema = schema
        self.loaded = loaded
        self.history = history
        self.sources = sources
        self.diagnostics = diagnostics
    }
}

/// What `remodel check` found.
public struct CheckReport: Sendable {
    /// Every finding, configured and sorted by location.
    public var findings: [Diagnostic]
    /// The versions the change rules judged.
    public var judged: [Int]
    /// The history's newest version (1 without a history).
    public var currentVersion: Int
    /// The rules `Migrations/remodel-check.yaml` sets, by ID: a run's log says which
    /// protections a repository turned down or off.
    public var levels: [String: CheckConfiguration.Level] = [:]
    public var passed: Bool { !findings.containsErrors }
}

/// `remodel check`: everything a pull request must pass, in one pass.
public enum RepositoryCheck {
    /// Runs every rule on `input`. Throws `GitBase.Failure` when `--base` cannot be read.
    public static func run(_ input: CheckInput) throws -> CheckReport {
        var findings = input.diagnostics
        let (configuration, configProblems) = CheckConfiguration.load(migrations: input.migrationsPath)
        findings += configProblems

        // The newest version as the folder has it, also when the history does not load (then
        // its problems are reported; the newest version is still the one under review).
        let newest = input.history?.currentVersion ?? input.loaded.files.keys.max() ?? 1
        var judged = newest >= 2 ? [newest] : []
        if let ref = input.base {
            let base = try GitBase.read(ref: ref, migrations: input.migrationsPath)
            findings += try base.releasedEdits(migrations: input.migrationsPath, squashedThrough: input.history?.baseVersion ?? 1)
            let released = base.versions
            judged = (1...max(newest, 1)).filter { !released.contains($0) }
        }
        // Released versions must match remodel.sum; the new ones are still being edited.
        findings += MigrationSum.verify(migrations: input.migrationsPath, hashes: input.loaded.fileHashes, unreleased: Set(judged))
        if let history = input.history, !input.diagnostics.containsErrors {
            findings += ChangeRules(history: history, sources: input.sources, loaded: input.loaded, engine: input.engine).findings(judging: judged)
        }
        // What `generate` and the build plugin would refuse (and Realm's output, with --realm).
        if let result = input.schema, let schema = result.schema, !input.diagnostics.containsErrors {
            let generatorInput = GeneratorInput(schema: schema, result: result, schemasPath: input.schemasPath, migrations: input.loaded)
            findings += CodeGenerator(options: GeneratorOptions(manifestName: input.manifestName, realm: input.realm, realmClassNames: input.realmClassNames))
                .check(generatorInput)
        }
        if let folder = input.generated {
            if let result = input.schema, let schema = result.schema, !input.diagnostics.containsErrors {
                let generatorInput = GeneratorInput(schema: schema, result: result, schemasPath: input.schemasPath, migrations: input.loaded)
                findings += GeneratedCodeCheck.findings(folder: folder, input: generatorInput, manifestName: input.manifestName, realmClassNames: input.realmClassNames)
            } else {
                findings.append(
                    .warning(
                        CheckRules.generatedOutOfDate.id, "'\(folder)' (--generated) was not compared: the schema or history has errors, so there is nothing to generate",
                        at: nil, hint: "fix the errors above; then check again"
                    ))
            }
        }
        let configured = configuration.apply(to: findings, strict: input.strict)
        return CheckReport(findings: configured.sortedByLocation(), judged: judged, currentVersion: newest, levels: configuration.levels)
    }
}
