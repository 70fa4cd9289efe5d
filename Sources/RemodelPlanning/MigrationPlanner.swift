import Foundation
import RemodelCore
import RemodelLayout

/// Turns a version history into the plan that upgrades a store from one version to another.
///
/// Planning is pure: it reads schemas and migration steps, never a store, so a plan can be
/// printed, reviewed and tested before anything runs. The same history, versions and clock
/// give the same plan.
public struct MigrationPlanner: Sendable {
    /// How a table whose data changes is rewritten.
    public enum TableRewrite: String, Sendable, CaseIterable {
        /// `ALTER TABLE` and one `UPDATE` where SQLite allows it, a rebuild otherwise.
        case automatic
        /// Always `ALTER TABLE ADD/DROP COLUMN` + `UPDATE` where SQLite allows it.
        case alterTable
        /// Always create the new table, copy every row with `INSERT … SELECT`, drop the old one.
        case rebuild
    }

    public var history: MigrationHistory
    /// Names of the custom steps whose closures are registered; others are planning errors.
    public var customSteps: Set<String>
    public var tableRewrite: TableRewrite
    /// Where the history is written, so that problems point at the step or schema line.
    public var sources: HistorySources
    /// Faults brought back for tests that prove a checker catches them; empty otherwise.
    package var reintroducedFaults: Set<PlannerFault> = []

    public init(history: MigrationHistory, customSteps: Set<String> = [], tableRewrite: TableRewrite = .automatic, sources: HistorySources = HistorySources()) {
        self.history = history
        self.customSteps = customSteps
        self.tableRewrite = tableRewrite
        self.sources = sources
    }

    /// The plan from `version` to `target` (default: the newest version).
    ///
    /// `now` is the instant `$now` stands for: every object a migration touches gets the same
    /// time.
    public func plan(from version: Int, to target: Int? = nil, now: Date = Date()) throws -> MigrationPlan {
        let target = target ?? history.currentVersion
        if version < history.baseVersion, let older = history.upgradePath, older.schema(at: version) != nil, target >= history.baseVersion {
            // Through the versions the squash kept, to the baseline; then on as usual.
            var upgrade = self
            upgrade.history = older
            let first = try upgrade.plan(from: version, to: history.baseVersion, now: now)
            let rest = try plan(from: history.baseVersion, to: target, now: now)
            return MigrationPlan(fromVersion: version, toVersion: target, versions: first.versions + rest.versions)
        }
        if version < history.baseVersion, version >= 1 {
            throw MigrationPlanningError([
                .error(
                    "migration-squashed-version",
                    "the store is at version \(version), older than version \(history.baseVersion), the oldest this history supports: versions up to \(history.baseVersion) were squashed into one baseline ('remodel migration squash'), so this build cannot upgrade it",
                    at: nil,
                    hint:
                        "upgrade the store first with a release built before the squash (its history still has versions \(version) to \(history.baseVersion)), then with this one; or squash with --keep-upgrade-path so that old stores keep upgrading"
                )
            ])
        }
        guard history.schema(at: version) != nil else {
            throw MigrationPlanningError([
                .error(
                    "migration-unknown-version",
                    "the store is at version \(version), which the migration history does not have (it has versions \(history.baseVersion) to \(history.currentVersion))",
                    at: nil, hint: "use the Migrations/ folder of the app that wrote the store")
            ])
        }
        guard target >= version else {
            throw MigrationPlanningError([
                .error(
                    "migration-downgrade", "cannot migrate from version \(version) down to \(target): migrations only go forward", at: nil,
                    hint: "restore a backup made before the upgrade instead")
            ])
        }
        guard history.schema(at: target) != nil else {
            throw MigrationPlanningError([
                .error(
                    "migration-unknown-version", "version \(target) does not exist: the newest version is \(history.currentVersion)", at: nil,
                    hint: "omit --to to migrate to the newest version")
            ])
        }
        let nowMicroseconds = Int64((now.timeIntervalSince1970 * 1_000_000).rounded(.down))
        var versions: [VersionPlan] = []
        var diagnostics: [Diagnostic] = []
        var layout: StoreLayout?
        if target > version {
            for next in (version + 1)...target {
                guard let old = history.schema(at: next - 1), let new = history.schema(at: next) else { continue }
                let migration = history.migration(to: next) ?? Migration(version: next, name: "v\(next)", steps: [], checksum: "")
                // The layouts of consecutive versions are shared: version N's new one is N+1's old.
                var planner: VersionPlanner
                do {
                    planner = try VersionPlanner(
                        old: old, new: new, migration: migration, sources: sources, nowMicroseconds: nowMicroseconds,
                        customSteps: customSteps, tableRewrite: tableRewrite, oldLayout: layout
                    )
                } catch {
                    diagnostics.append(VersionPlanner.diagnostic(forUnsupported: error, version: next, sources: sources))
                    layout = nil
                    continue
                }
                planner.isNewest = next == history.currentVersion
                planner.reintroducedFaults = reintroducedFaults
                if let plan = planner.plan() { versions.append(plan) }
                layout = planner.newLayout
                diagnostics += planner.diagnostics
            }
        }
        if diagnostics.containsErrors {
            throw MigrationPlanningError(diagnostics.sortedByLocation())
        }
        return MigrationPlan(fromVersion: version, toVersion: target, versions: versions)
    }
}
