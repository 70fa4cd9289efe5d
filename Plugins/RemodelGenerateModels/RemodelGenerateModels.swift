import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-models --target NAME
/// [--output DIR] [--check]`: writes a target's generated Swift (one file per type) into the
/// source tree, for projects that prefer to commit it instead of using the build plugin.
/// It runs `remodel-generate --output DIR` (what `remodel generate --output DIR` does).
///
/// The output folder defaults to `<target folder>/Generated`. Files are rewritten only when
/// their content changed; files generated earlier for types that no longer exist are
/// removed; other files are left alone. `--check` writes nothing and fails when the folder
/// is out of date (for CI). Do not also apply `RemodelPlugin` to the same target: the types
/// would be declared twice.
@main
struct RemodelGenerateModels: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let outputs = extractor.extractOption(named: "output")
        let check = extractor.extractFlag(named: "check") > 0
        guard extractor.remainingArguments.isEmpty else {
            throw RemodelPluginError("unexpected arguments \(extractor.remainingArguments); usage: generate-models --target NAME [--output DIR] [--check]")
        }
        let sourceTargets = context.package.targets.compactMap { $0 as? SourceModuleTarget }
        guard !targetNames.isEmpty else {
            throw RemodelPluginError("name the target to generate for with --target NAME (one of: \(sourceTargets.map(\.name).joined(separator: ", ")))")
        }
        guard outputs.count <= 1, outputs.isEmpty || targetNames.count == 1 else {
            throw RemodelPluginError("--output names one folder, so it works with exactly one --target")
        }
        let tool = try context.tool(named: RemodelPluginInputs.toolName)
        for name in targetNames {
            guard let target = sourceTargets.first(where: { $0.name == name }) else {
                throw RemodelPluginError("no source target named '\(name)' (targets: \(sourceTargets.map(\.name).joined(separator: ", ")))")
            }
            let inputs = try RemodelPluginInputs(target: target, packageDirectory: context.package.directoryURL)
            let output = try outputs.first.map { URL(fileURLWithPath: $0, relativeTo: context.package.directoryURL) } ?? defaultOutput(for: target, in: context.package)
            let process = Process()
            process.executableURL = tool.url
            process.arguments = inputs.toolArguments(["--output", output.path] + (check ? ["--check"] : []))
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw RemodelPluginError(
                    check
                        ? "the generated code of \(name) is out of date: run generate-models without --check"
                        : "remodel-generate failed for \(name) (exit \(process.terminationStatus))")
            }
        }
    }

    /// `<target folder>/Generated`: the folder of the target's Swift files (the tools-6.0
    /// plugin API has no non-deprecated way to ask for the target's folder).
    private func defaultOutput(for target: SourceModuleTarget, in package: Package) throws -> URL {
        let swiftFolders = Set(target.sourceFiles(withSuffix: ".swift").map { $0.url.deletingLastPathComponent().path })
        guard let folder = swiftFolders.min(by: { $0.count < $1.count }) else {
            throw RemodelPluginError("cannot tell where target '\(target.name)' lives: pass --output DIR")
        }
        return URL(fileURLWithPath: folder).appendingPathComponent("Generated")
    }
}
