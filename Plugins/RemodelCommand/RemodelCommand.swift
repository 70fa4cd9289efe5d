import Foundation
import PackagePlugin

/// `swift package remodel [--target NAME] SUBCOMMAND …`: the `remodel` commands that work on a
/// package's own files — `validate`, `check`, `diff`, `diagram`, `generate`,
/// `migration new|amend|hash|squash`, `test` and `json-schema` — without cloning or installing
/// Remodel. SwiftPM builds their tool (`remodel-package`: those commands, without the store
/// commands and RemodelPostgres) for the host the first time, and keeps it.
///
/// The folders are the build plugin's: `--target NAME` picks that target's `Schemas/` (or the
/// package's when it has none); without it, the package's `Schemas/`, else the one target
/// that has its own. The tool runs in the package's folder, so paths on the command line and
/// in diagnostics are relative to it. Commands that write (`generate`, `migration new`,
/// `migration hash`, `diagram -o`) need `--allow-writing-to-package-directory` where SwiftPM sandboxes plugins
/// (macOS); the plugin declares no permission, so that `check` and `validate` run in CI
/// without it.
@main
struct RemodelCommand: CommandPlugin {
    /// The subcommands a package's files are enough for.
    static let fileCommands: Set<String> = ["validate", "check", "diff", "diagram", "generate", "migration", "test", "json-schema"]
    /// The subcommands that work on a store or a server, which a plugin has no business opening.
    static let storeCommands: Set<String> = ["migrate", "fixture", "init", "import", "export", "status"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let words = extractor.remainingArguments
        guard targetNames.count <= 1 else {
            throw RemodelPluginError("--target names one target; run the command once per target")
        }
        let asksForHelp = words.isEmpty || words.first == "help" || words.contains("-h") || words.contains("--help") || words.contains("--version")
        if let subcommand = words.first, !asksForHelp {
            if Self.storeCommands.contains(subcommand) {
                throw RemodelPluginError(
                    "'\(subcommand)' works on a store, not on the package's files: run it with the command-line tool, `swift run remodel \(subcommand) …`"
                )
            }
            guard Self.fileCommands.contains(subcommand) else {
                throw RemodelPluginError(
                    "unknown subcommand '\(subcommand)'; swift package remodel runs \(Self.fileCommands.sorted().joined(separator: ", ")) (swift package remodel --help lists them)"
                )
            }
        }

        let package = context.package.directoryURL
        var toolArguments = words
        // The folders the user did not name (`--schemas DIR` or `--schemas=DIR`) are the package's.
        let given = { (option: String) in words.contains { $0 == option || $0.hasPrefix(option + "=") } }
        if !asksForHelp, words.first != "json-schema", !given("--schemas"), let schemas = try schemasFolder(context: context, target: targetNames.first) {
            toolArguments += ["--schemas", relative(schemas.schemas, to: package)]
            if !given("--migrations") { toolArguments += ["--migrations", relative(schemas.migrations, to: package)] }
        }

        let process = Process()
        process.executableURL = try context.tool(named: "remodel-package").url
        process.arguments = toolArguments
        process.currentDirectoryURL = package
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            var message = "remodel \(words.prefix(2).joined(separator: " ")) failed (exit status \(process.terminationStatus))"
            if Self.writes(words) {
                message +=
                    "; if it could not write (\"Operation not permitted\"), SwiftPM kept the plugin out of the package: run `swift package --allow-writing-to-package-directory remodel \(words.joined(separator: " "))`"
            }
            throw RemodelPluginError(message)
        }
    }

    /// The folders to pass, or nil for the tool's defaults (`Schemas/` and `Migrations/` in the
    /// package's folder).
    private func schemasFolder(context: PluginContext, target name: String?) throws -> RemodelPluginInputs? {
        let package = context.package.directoryURL
        let sourceTargets = context.package.targets.compactMap { $0 as? SourceModuleTarget }
        if let name {
            guard let target = sourceTargets.first(where: { $0.name == name }) else {
                throw RemodelPluginError("no source target named '\(name)' (targets: \(sourceTargets.map(\.name).joined(separator: ", ")))")
            }
            return try RemodelPluginInputs(target: target, packageDirectory: package)
        }
        if FileManager.default.fileExists(atPath: package.appendingPathComponent("Schemas").path) { return nil }
        let withOwnSchemas = sourceTargets.compactMap { target in
            (try? RemodelPluginInputs(target: target, packageDirectory: package)).map { (target.name, $0) }
        }
        switch withOwnSchemas.count {
        case 0:
            throw RemodelPluginError(
                "\(package.path) has no Schemas/ folder, and no target has one of its own: add one with *.yaml files (the README's \"Adopt it in an app\" has a first schema)")
        case 1:
            return withOwnSchemas[0].1
        default:
            throw RemodelPluginError("targets \(withOwnSchemas.map(\.0).joined(separator: ", ")) each have a Schemas/ folder: name one with --target NAME")
        }
    }

    /// Whether the command line asks the tool to write into the package.
    private static func writes(_ words: [String]) -> Bool {
        switch words.first {
        case "generate": return !words.contains("--check")
        case "migration": return words.dropFirst().first.map { ["new", "amend", "hash", "squash"].contains($0) } ?? false
        case "diagram": return words.contains("-o") || words.contains(where: { $0.hasPrefix("--output") })
        default: return false
        }
    }

    /// `url`'s path relative to `folder` when it lies inside it, so that diagnostics name files
    /// as the package's developer does.
    private func relative(_ url: URL, to folder: URL) -> String {
        let path = url.standardizedFileURL.path
        let base = folder.standardizedFileURL.path
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
    }
}
