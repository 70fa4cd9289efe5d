import Foundation
import PackagePlugin

/// What both Remodel plugins work out for a target: where its schema and migrations are and
/// which files they consist of. Shared by symlink (plugins can import nothing but
/// PackagePlugin and Foundation).
struct RemodelPluginInputs {
    /// The file names `remodel generate --bundle` writes; they must match
    /// `CodeGenerator.bundleFileNames` (a test in RemodelCodegenTests checks it).
    static let bundleFileNames = ["RemodelModels.swift", "RemodelStoreBridges.swift"]
    /// The third file with `realm: true`; must match `CodeGenerator.realmBundleFileName`.
    static let realmBundleFileName = "RemodelRealmBridges.swift"
    /// The options file, beside the schema folder (`Sources/App/remodel-plugin.yaml` or the
    /// package's): `realm: true` also generates the Realm side (`remodel generate --realm`).
    static let optionsFileName = "remodel-plugin.yaml"

    /// The schema folder: the target's own `Schemas/` if it has one, else the package's.
    let schemas: URL
    /// The migrations folder, chosen the same way (it need not exist).
    let migrations: URL
    /// Every schema and migration file, sorted, and the options file if there is one: the
    /// build command's inputs.
    let files: [URL]
    /// `realm: true` in the options file.
    let realm: Bool
    /// `realmClassNames: PATTERN` in the options file (`--realm-class-names`).
    let realmClassNames: String?

    /// The file names `remodel generate --bundle` writes with these options.
    var outputFileNames: [String] {
        Self.bundleFileNames + (realm ? [Self.realmBundleFileName] : [])
    }

    /// The arguments of `remodel generate` for these options (after the folders).
    var generateOptions: [String] {
        (realm ? ["--realm"] : []) + (realmClassNames.map { ["--realm-class-names", $0] } ?? [])
    }


    /// PackagePlugin API of tools 6.0 gives a target's folder only as a deprecated `Path`).
    init(target: SourceModuleTarget, packageDirectory: URL) throws {
        let ownSchemas = target.sourceFiles
            .map(\.url)
            .filter { $0.pathExtension == "yaml" || $0.pathExtension == "yml" }
            .compactMap(Self.schemasFolder(containing:))
            .min { $0.path.count < $1.path.count }
        let packageSchemas = packageDirectory.appendingPathComponent("Schemas")
        if let ownSchemas {
            schemas = ownSchemas
            migrations = ownSchemas.deletingLastPathComponent().appendingPathComponent("Migrations")
        } else if Self.isDirectory(packageSchemas) {
            schemas = packageSchemas
            migrations = packageDirectory.appendingPathComponent("Migrations")
        } else {
            throw RemodelPluginError(
                "target '\(target.name)' uses Remodel but has no schema: add a Schemas/ folder with *.yaml files to the target's folder (for this target) or to \(packageDirectory.path) (for the whole package)"
            )
        }
        let options = schemas.deletingLastPathComponent().appendingPathComponent(Self.optionsFileName)
        if FileManager.default.fileExists(atPath: options.path) {
            (realm, realmClassNames) = try Self.readOptions(options)
            files = Self.yamlFiles(under: schemas) + Self.yamlFiles(under: migrations) + [options]
        } else {
            (realm, realmClassNames) = (false, nil)
            files = Self.yamlFiles(under: schemas) + Self.yamlFiles(under: migrations)
        }
    }

    /// The options file's `realm:` (false when absent) and `realmClassNames:`. Its form is a
    /// few `key: value` lines and comments; plugins cannot link a YAML parser.
    static func readOptions(_ file: URL) throws -> (realm: Bool, realmClassNames: String?) {
        let text = try String(contentsOf: file, encoding: .utf8)
        var realm = false
        var realmClassNames: String?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
            guard !line.isEmpty else { continue }
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let location = "\(file.path):\(index + 1):1"
            guard parts.count == 2, parts[0] == "realm" || parts[0] == "realmClassNames" else {
                throw RemodelPluginError("\(location): error: unknown option '\(parts[0])'; the options file knows 'realm: true' (also generate the Realm side) and 'realmClassNames: \"{name}Object\"' (the Realm file's class names)")
            }
            if parts[0] == "realmClassNames" {
                realmClassNames = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                continue
            }
            guard parts[1] == "true" || parts[1] == "false" else {
                throw RemodelPluginError("\(location): error: 'realm' is true or false, not '\(parts[1])'")
            }
            realm = parts[1] == "true"
        }
        return (realm, realmClassNames)
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
