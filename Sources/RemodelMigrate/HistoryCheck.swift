import Foundation
import RemodelCore

/// The check every command runs on a version history before it relies on it: each migration
/// planned as `remodel migrate` would plan it. `validate`, `generate` (and so the build plugin),
/// `status`, `migrate` and `migration new` all run this one check, so they agree on which
/// histories can run.
public enum HistoryCheck {
    /// The warnings for custom steps that `registered` (the closures a program has) lacks:
    /// the check passes, but that program cannot run those versions. Each names its version
    /// (`Diagnostic.version`).
    public static func unregisteredCustomSteps(in history: MigrationHistory, registered: Set<String>, sources: HistorySources = HistorySources()) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for migration in history.migrations {
            for (index, step) in migration.steps.enumerated() {
                guard case .custom(let name, _, _) = step, !registered.contains(name) else { continue }
                warnings.append(.warning(
                    "migration-custom-step-unavailable",
                    "migration \(migration.version) step \(index + 1) (custom): custom step '\(name)' is a Swift closure that this remodel does not register, so `remodel migrate` refuses version \(migration.version)",
                    at: sources.location(version: migration.version, step: index),
                    hint: "the app runs it when it opens the store (Migrator.register), or build a remodel of your own that registers '\(name)' (RemodelTool, see the README: custom steps)",
                    version: migration.version
                ))
            }
        }
        return warnings
    }

    /// Every problem planning `history` finds, at the step or schema line that causes it
    /// (with `sources`). Custom steps are closures an app registers; here they only need a name.
    public static func diagnostics(of history: MigrationHistory, sources: HistorySources = HistorySources()) -> [Diagnostic] {
        planned(history, sources: sources).diagnostics
    }

    /// The plan of the whole history (from version 1) when every version can be planned,
    /// else the problems; `remodel check` judges the newest versions' changes on that plan.
    public static func planned(_ history: MigrationHistory, sources: HistorySources = HistorySources()) -> (plan: MigrationPlan?, diagnostics: [Diagnostic]) {
        let customNames = history.migrations.flatMap(\.steps).compactMap { step -> String? in
            if case .custom(let name, _, _) = step { name } else { nil }
        }
        let planner = MigrationPlanner(history: history, customSteps: Set(customNames), sources: sources)
        do {
            // A fixed clock: the check must not depend on when it runs.
            return (try planner.plan(from: 1, now: Date(timeIntervalSince1970: 0)), [])
        } catch let error as MigrationPlanningError {
            return (nil, error.diagnostics)
        } catch {
            return (nil, [.error("migration-invalid", "\(error)", at: nil)])
        }
    }
}
