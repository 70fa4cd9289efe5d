import Foundation
import PackagePlugin

/// Generates a target's Swift models from YAML during `swift build`.
///
/// Reads the target's own `Schemas/` folder if it has one, else the package's (and
/// `Migrations/` likewise), and runs `remodel-generate --bundle` (what `remodel generate
/// --bundle` does, in a tool that builds only what generating needs) into the plugin's work
/// folder (with `realm: true` in `remodel-plugin.yaml` in the target's folder, also the Realm
/// side, as `--realm`). The outputs are files with fixed names, declared up front as SwiftPM
/// requires; the inputs are every schema and migration file plus the tool itself, so the
/// command runs again exactly when one of them changes. Schema errors are printed as
/// `file:line:column: error: …` and fail the build.
@main
struct RemodelPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = try RemodelPluginInputs(target: target, packageDirectory: context.package.directoryURL)
        let tool = try context.tool(named: RemodelPluginInputs.toolName)
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("GeneratedSources")
        return [
            .buildCommand(
                displayName: "Generating Remodel models for \(target.name) from \(inputs.schemas.lastPathComponent)/",
                executable: tool.url,
                arguments: inputs.toolArguments(["--bundle", output.path]),
                inputFiles: inputs.files + [tool.url],
                outputFiles: inputs.outputFileNames.map { output.appendingPathComponent($0) }
            ),
        ]
    }
}
