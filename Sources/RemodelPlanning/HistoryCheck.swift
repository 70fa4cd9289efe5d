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
                guard case .custom(let name, _, _, _) = step, !registered.contains(name) else { continue }
                warnings.append(
                    .warning(
                        "migration-custom-step-unavailable",
                        "migration \(migration.version) step \(index + 1) (custom): custom step '\(name)' is a Swift closure that this remodel does not register, so `remodel migrate` refuses version \(migration.version)",
                        at: sources.location(version: migration.version, step: index),
                        hint:
                            "the app runs it when it opens the store (Migrator.register), or build a remodel of your own that registers '\(name)' (RemodelTool; the manual's 'Migration files and steps': custom)",
                        version: migration.version
                    ))
            }
        }
        return warnings
    }

    /// Every problem planning `history` finds, at the step or schema line that causes it
    /// (with `sources`). Custom steps are closures an app registers; here they only need a name.
    ///
    /// Each version is planned on its `PlanningScope` (what it changes, and what refers to
    /// that); a version whose scope gives any diagnostic, or that has no smaller scope, is
    /// planned whole, so every diagnostic is the whole plan's.
    public static func diagnostics(of history: MigrationHistory, sources: HistorySources = HistorySources()) -> [Diagnostic] {
        let customNames = history.customStepNames
        var whole: [Int] = []
        if history.currentVersion >= 2, let first = history.schema(at: 1) {
            var references = ReferenceIndex(first)
            for version in 2...history.currentVersion {
                guard let old = history.schema(at: version - 1), let new = history.schema(at: version) else { continue }
                let migration = history.migration(to: version) ?? Migration(version: version, name: "v\(version)", steps: [], checksum: "")
                let changed = PlanningScope.changedTypes(from: old, to: new)
                let before = references
                references = references.moved(from: old, to: new, changed: changed)
                let after = references
                let scope = PlanningScope(old: old, new: new, migration: migration, changed: changed) { before[$0].union(after[$0]) }
                if scopedPlan(scope, migration, history: history, sources: sources, customSteps: customNames) == nil { whole.append(version) }
            }
        }
        let planner = MigrationPlanner(history: history, customSteps: customNames, sources: sources)
        var diagnostics: [Diagnostic] = []
        for version in whole {
            do {
                // A fixed clock: the check must not depend on when it runs.
                _ = try planner.plan(from: version - 1, to: version, now: Date(timeIntervalSince1970: 0))
            } catch let error as MigrationPlanningError {
                diagnostics += error.diagnostics
            } catch {
                diagnostics.append(.error("migration-invalid", "\(error)", at: nil, version: version))
            }
        }
        return diagnostics.sortedByLocation()
    }

    /// The plan of version `version`, on the version's scope when that plans cleanly, else
    /// whole; `nil` when the version cannot be planned. For `remodel check`'s change rules:
    /// its schema's and steps' changes and its renames are the whole plan's; the plan's own
    /// work (`PlannedChange.Subject.plan`: rewrites, fresh table definitions) may name only
    /// the scope's tables, and its schemas may be the scope's (read the history's instead).
    public static func plannedVersion(of history: MigrationHistory, version: Int, sources: HistorySources = HistorySources()) -> VersionPlan? {
        guard version >= 2, let old = history.schema(at: version - 1), let new = history.schema(at: version) else { return nil }
        let customNames = history.customStepNames
        let migration = history.migration(to: version) ?? Migration(version: version, name: "v\(version)", steps: [], checksum: "")
        let scope = PlanningScope(old: old, new: new, migration: migration)
        if let plan = scopedPlan(scope, migration, history: history, sources: sources, customSteps: customNames) { return plan }
        let planner = MigrationPlanner(history: history, customSteps: customNames, sources: sources)
        return (try? planner.plan(from: version - 1, to: version, now: Date(timeIntervalSince1970: 0)))?.versions.first
    }

    /// The plan of a version on its scope, when it has one smaller than the schema and it
    /// plans with no diagnostic at all; else `nil` (plan it whole).
    private static func scopedPlan(_ scope: PlanningScope, _ migration: Migration, history: MigrationHistory, sources: HistorySources, customSteps: Set<String>) -> VersionPlan? {
        guard let (old, new) = scope.reduced else { return nil }
        guard
            var planner = try? VersionPlanner(
                old: old, new: new, migration: migration, sources: sources, nowMicroseconds: 0,
                customSteps: customSteps, tableRewrite: .automatic
            )
        else { return nil }
        planner.isNewest = migration.version == history.currentVersion
        guard let plan = planner.plan(), planner.diagnostics.isEmpty else { return nil }
        return plan
    }

    /// The number of object types a version is checked on (its `PlanningScope`), `nil` when
    /// it is checked whole; for tests.
    package static func scopeSize(old: Schema, new: Schema, migration: Migration) -> Int? {
        PlanningScope(old: old, new: new, migration: migration).reduced?.new.objects.count
    }
}

extension MigrationHistory {
    /// The names of every custom step of the history: the closures a program must register
    /// to run it (a check plans them as registered).
    public var customStepNames: Set<String> {
        Set(
            migrations.flatMap(\.steps).compactMap { step -> String? in
                if case .custom(let name, _, _, _) = step { name } else { nil }
            })
    }
}
