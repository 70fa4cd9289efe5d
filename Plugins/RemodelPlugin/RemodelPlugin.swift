import Foundation
import PackagePlugin

/// Generates a target's Swift models from YAML during `swift build` (and, for an Xcode app
/// target, during Xcode's build).
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
        return [Self.command(for: target.name, inputs: inputs, tool: try context.tool(named: RemodelPluginInputs.toolName).url, workDirectory: context.pluginWorkDirectoryURL)]
    }

    /// The one build command, for a package's target and an Xcode target alike.
    static func command(for targetName: String, inputs: RemodelPluginInputs, tool: URL, workDirectory: URL) -> Command {
        let output = workDirectory.appendingPathComponent("GeneratedSources")
        return .buildCommand(
            displayName: "Generating Remodel models for \(targetName) from \(inputs.schemas.lastPathComponent)/",
            executable: tool,
            arguments: inputs.toolArguments(["--bundle", output.path]),
            inputFiles: inputs.files + [tool],
            outputFiles: inputs.outputFileNames.map { output.appendingPathComponent($0) }
        )
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    /// An Xcode app target: its schema is a `Schemas/` folder among the target's files, else the
    /// `Schemas/` folder beside the `.xcodeproj` (which need not be part of the project, and then
    /// is not copied into the app); `remodel-plugin.yaml` is read when it is one of the target's files.
    extension RemodelPlugin: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let inputs = try RemodelPluginInputs(
                targetName: target.displayName, targetFiles: target.inputFiles.map(\.url), rootDirectory: context.xcodeProject.directoryURL,
                ownSchemasAdvice: "to the target (for this target)", rootSchemasAdvice: "every target of the project"
            )
            return [
                Self.command(
                    for: target.displayName, inputs: inputs, tool: try context.tool(named: RemodelPluginInputs.toolName).url, workDirectory: context.pluginWorkDirectoryURL)
            ]
        }
    }
#endif
