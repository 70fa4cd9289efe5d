import Foundation
import RemodelCodegen
import RemodelCore
import RemodelSchema

/// The reference cases: inputs under `Tests/RemodelCodegenTests/Schemas/<Case>/` (the
/// package's own `Schemas/` for `Example`, a Swift-built schema for `MemberKeywords`), expected
/// output under `Tests/RemodelCodegenTests/References/<Case>/`.
///
/// Shared (by symlink) between `ReferenceTests`, which compares, and the
/// `remodel-record-references` executable, which re-records: recording must work even when
/// the current references no longer compile, so it cannot be a test.
enum ReferenceCases {
    /// One reference case.
    struct Case: Sendable {
        var name: String
        var manifestName: String
        /// Generated with `--realm`, into `RealmReferences/<Case>/` (compiled against the
        /// RealmSwift mirror by RemodelRealmTests, one target per case).
        var realm = false
        var realmClassNames = GeneratorOptions.defaultRealmClassNames
    }

    /// Cases read from YAML, by folder name. Each gets its own manifest type so that all of
    /// them compile together in one test target.
    static let yamlCases = [
        "Scalars", "Collections", "Optionals", "Keywords", "HostileStrings", "IntEnums", "Embedded", "Projections",
        "Links", "Documented", "Keyless", "Uniques",
    ]

    /// Cases with a migration history, under `Histories/<Case>/` (`Schemas/` and
    /// `Migrations/`): the manifest embeds every step.
    static let historyCases = ["StepKinds", "RealmEverything", "Trips", "Squashed"]

    /// Cases generated with `--realm`: the example (its schema and history) and a history with
    /// every type, collection, embedded object, inverse, projection and step kind.
    static let realmCases = [
        Case(name: "RealmExample", manifestName: "RealmExampleManifest", realm: true),
        // The app's Realm names its classes `OwnerObject`, …: the classes say so with `_realmObjectName()`.
        Case(name: "RealmEverything", manifestName: "RealmEverythingManifest", realm: true, realmClassNames: "{name}Object"),
    ]

    static let all: [Case] =
        [Case(name: "Example", manifestName: GeneratorOptions.defaultManifestName)]
        + yamlCases.map { Case(name: $0, manifestName: $0 + "Manifest") }
        + historyCases.filter { name in !realmCases.contains { $0.name == name } }.map { Case(name: $0, manifestName: $0 + "Manifest") }
        + [Case(name: "MemberKeywords", manifestName: "MemberKeywordsManifest")]
        + realmCases

    /// The command that re-records every reference.
    static let recordCommand = "swift run remodel-record-references"

    /// `Tests/RemodelCodegenTests`, found from this file's path.
    static func testsFolder(filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static func referencesFolder(_ name: String) -> String {
        let root = realmCases.contains { $0.name == name } ? "RealmReferences" : "References"
        return testsFolder().appendingPathComponent(root).appendingPathComponent(name).path
    }

    /// The generator input of a case, or the loader's diagnostics as an error.
    static func input(for name: String) throws -> GeneratorInput {
        if name == "MemberKeywords" {
            return GeneratorInput(schema: MemberKeywordsSchema.schema, schemaFiles: ["MemberKeywordsSchema.swift"])
        }
        let folder =
            name == "Example" || name == "RealmExample"
            ? testsFolder().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Schemas")
            : historyCases.contains(name)
                ? testsFolder().appendingPathComponent("Histories").appendingPathComponent(name).appendingPathComponent("Schemas")
                : testsFolder().appendingPathComponent("Schemas").appendingPathComponent(name)
        let result = SchemaLoader.load(path: folder.path)
        guard let schema = result.schema else {
            throw CaseError(
                description: "\(folder.path) does not load:\n"
                    + result.diagnostics.map { "\($0.location.map(String.init(describing:)) ?? "-"): \($0.message)" }.joined(separator: "\n"))
        }
        var input = GeneratorInput(schema: schema, schemaFiles: SchemaFolder.displayNames(of: result.files, schemasPath: folder.path))
        if name == "Example" || name == "RealmExample" || historyCases.contains(name) {
            // These have a migration history: the manifest embeds it.
            let migrations = MigrationHistoryLoader.load(migrations: folder.deletingLastPathComponent().appendingPathComponent("Migrations").path)
            guard !migrations.diagnostics.containsErrors else {
                throw CaseError(description: "Migrations/ does not load: \(migrations.diagnostics.map(\.message))")
            }
            input.version = migrations.currentVersion
            input.history = migrations.history
        }
        return input
    }

    /// The changes that would make `References/<name>/` hold exactly the generated files.
    static func changes(for testCase: Case) throws -> (OutputDirectory, [OutputDirectory.Change]) {
        let files = try CodeGenerator(options: GeneratorOptions(manifestName: testCase.manifestName, realm: testCase.realm, realmClassNames: testCase.realmClassNames)).files(
            for: input(for: testCase.name))
        let folder = OutputDirectory(path: referencesFolder(testCase.name))
        var changes = try folder.changes(toMatch: files)
        // Any other file in a reference folder is wrong too, generated-looking or not.
        let expected = Set(files.map(\.name))
        let present = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for extra in present.sorted() where !expected.contains(extra) && !changes.contains(where: { $0.name == extra }) {
            changes.append(.delete(name: extra, old: (try? String(contentsOfFile: folder.path + "/" + extra, encoding: .utf8)) ?? ""))
        }
        return (folder, changes)
    }

    struct CaseError: Error, CustomStringConvertible {
        var description: String
    }
}
