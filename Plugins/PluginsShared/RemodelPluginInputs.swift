import Foundation
import PackagePlugin

/// What both Remodel plugins work out for a target: where its schema and migrations are and
/// which files they consist of. Shared by symlink (plugins can import nothing but
/// PackagePlugin and Foundation).
struct RemodelPluginInputs {
    /// The tool both plugins run (Sources/remodel-generate): what `remodel generate` does and
    /// nothing else, so that a build compiles for the host only the modules generating needs.
    static let toolName = "remodel-generate"
    /// The file names `remodel-generate --bundle` (as `remodel generate --bundle`) writes;
    /// they must match `CodeGenerator.bundleFileNames` (a test in RemodelCodegenTests checks it).
    static let bundleFileNames = ["RemodelModels.swift", "RemodelStoreBridges.swift"]
    /// The third file with `realm: true`; must match `CodeGenerator.realmBundleFileName`.
    static let realmBundleFileName = "RemodelRealmBridges.swift"
    /// The options file, in the target's folder (`Sources/App/remodel-plugin.yaml`), where
    /// SwiftPM sees it as one of the target's files and plans the build again when it is added:
    /// `realm: true` also generates the Realm side (`remodel generate --realm`).
    static let optionsFileName = "remodel-plugin.yaml"

    /// The schema folder: the target's own `Schemas/` if it has one, else the package's.
    let schemas: URL
    /// The migrations folder, chosen the same way (it need not exist).
    let migrations: URL
    /// Every schema and migration file, sorted, and the options file if there is one: the
    /// build command's inputs.
    let files: [URL]
    /// The target's options file, if it has one. The tool reads it (`--plugin-options`), so
    /// that an edit takes effect on the next build; the plugin only says it is there.
    let options: URL?

    /// The file names `remodel-generate --bundle` writes: with an options file, the Realm
    /// file too (a placeholder when it says `realm: false`).
    var outputFileNames: [String] {
        Self.bundleFileNames + (options == nil ? [] : [Self.realmBundleFileName])
    }

    /// The tool's arguments: the folders, `destination` (`--bundle DIR`, or `--output DIR`
    /// and perhaps `--check`), and the options file if there is one.
    func toolArguments(_ destination: [String]) -> [String] {
        ["--schemas", schemas.path, "--migrations", migrations.path] + destination + (options.map { ["--plugin-options", $0.path] } ?? [])
    }

    /// The inputs of a package's target. (The PackagePlugin API of tools 6.0 gives a target's
    /// folder only as a deprecated `Path`, so the target's own schemas are found among its files.)
    init(target: SourceModuleTarget, packageDirectory: URL) throws {
        try self.init(
            targetName: target.name, targetFiles: target.sourceFiles.map(\.url), rootDirectory: packageDirectory,
            ownSchemasAdvice: "to the target's folder (for this target)", rootSchemasAdvice: "the whole package"
        )
    }

    /// The inputs of a target whose files are `targetFiles`: its own `Schemas/` if one of them
    /// lies in a folder of that name, else `rootDirectory`'s `Schemas/` (a package's folder, or
    /// the folder of an Xcode project). The advice completes the error for a target with neither.
    init(targetName: String, targetFiles: [URL], rootDirectory: URL, ownSchemasAdvice: String, rootSchemasAdvice: String) throws {
        let ownSchemas =
            targetFiles
            .filter { $0.pathExtension == "yaml" || $0.pathExtension == "yml" }
            .compactMap(Self.schemasFolder(containing:))
            .min { $0.path.count < $1.path.count }
        let rootSchemas = rootDirectory.appendingPathComponent("Schemas")
        if let ownSchemas {
            schemas = ownSchemas
            migrations = ownSchemas.deletingLastPathComponent().appendingPathComponent("Migrations")
        } else if Self.isDirectory(rootSchemas) {
            schemas = rootSchemas
            migrations = rootDirectory.appendingPathComponent("Migrations")
        } else {
            throw RemodelPluginError(
                "target '\(targetName)' uses Remodel but has no schema: add a Schemas/ folder with *.yaml files \(ownSchemasAdvice) or to \(rootDirectory.path) (for \(rootSchemasAdvice))"
            )
        }
        options = targetFiles.filter { $0.lastPathComponent == Self.optionsFileName }.min { $0.path.count < $1.path.count }
        files = Self.yamlFiles(under: schemas) + Self.yamlFiles(under: migrations) + (options.map { [$0] } ?? [])
    }

    /// The `Schemas` folder that holds `file`, if any folder of its path is called so.
    private static func schemasFolder(containing file: URL) -> URL? {
        var folder = file.deletingLastPathComponent()
        while folder.path != "/" && !folder.path.isEmpty {
            if folder.lastPathComponent == "Schemas" { return folder }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Every `*.yaml`/`*.yml` file below `folder`, sorted by path; none when it does not exist.
    static func yamlFiles(under folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var found: [URL] = []
        for case let url as URL in enumerator where url.pathExtension == "yaml" || url.pathExtension == "yml" {
            found.append(url)
        }
        return found.sorted { $0.path < $1.path }
    }
}

/// A plugin failure with a message that says what to do.
struct RemodelPluginError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
