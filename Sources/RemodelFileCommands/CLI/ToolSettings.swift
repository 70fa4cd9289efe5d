import RemodelCore
import RemodelMigrate

/// What a `remodel` an app builds (`RemodelTool`) adds to the plain tool: the custom migration
/// steps it registered, which `migrate`, `status`, `test` and the checks of custom steps see.
package struct ToolSettings: Sendable {
    /// The custom steps the tool can run, by name.
    package var customSteps: [String: CustomStep] = [:]

    package init() {}

    /// The names of the custom steps this tool can run.
    package var registeredStepNames: Set<String> { Set(customSteps.keys) }

    /// A migrator for `history` with this tool's custom steps registered.
    package func migrator(for history: MigrationHistory) -> Migrator {
        var migrator = Migrator(history: history)
        for (name, step) in customSteps { migrator.register(name, step) }
        return migrator
    }
}
