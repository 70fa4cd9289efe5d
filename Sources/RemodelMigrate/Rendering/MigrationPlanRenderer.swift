import Foundation
import RemodelCore
import RemodelStore

/// Prints migration plans and reports for people: each version, each change with its impact
/// and origin, the values it gives and the numbered statements and checks it runs (numbers
/// are the order they run in); then what a run did, per version and per type. Used by
/// `remodel migrate`; deterministic for the same plan.
public enum MigrationPlanRenderer {
    /// The plan as text, one change per line, its work indented below it.
    public static func text(of plan: MigrationPlan, store: String? = nil) -> String {
        text(of: plan, store: store) { _, _ in nil }
    }

    /// The plan as text, with another engine's text for its operations: `statement(version,
    /// number)` for operation `number` (1-based) of `version`, nil for SQLite's.
    package static func text(of plan: MigrationPlan, store: String?, statement: (VersionPlan, Int) -> String?) -> String {
        let renderer = SQLiteRenderer()
        var out = ""
        let target = store.map { "'\($0)' " } ?? ""
        let count = plan.versions.count
        out += "Plan: migrate \(target)from version \(plan.fromVersion) to \(plan.toVersion) (\(count) migration\(count == 1 ? "" : "s")"
        out += plan.impact.map { ", \($0.rawValue))\n" } ?? ")\n"
        for version in plan.versions {
            out += "\nversion \(version.version) — \(version.name)"
            if let description = version.description, !description.isEmpty { out += ": \(description)" }
            out += "\n"
            let width = version.changes.map { $0.impact.rawValue.count }.max() ?? 0
            for (index, change) in version.changes.enumerated() {
                let label = "[\(change.impact.rawValue)]"
                out += "  \(label.padding(toLength: width + 2, withPad: " ", startingAt: 0)) \(change.summary)  (\(change.origin))\n"
                for assignment in change.assignments {
                    out += indent("\(SQLiteRenderer.identifier(assignment.column)) = \(renderer.expression(assignment.value, in: assignment.table))", by: 6)
                }
                for (number, operation) in version.operations(ofChange: index) {
                    out += indent("\(number). " + (statement(version, number) ?? describe(operation, renderer: renderer)), by: 6, hanging: "\(number). ".count)
                }
            }
        }
        return out
    }

    private static func describe(_ operation: PlanOperation, renderer: SQLiteRenderer) -> String {
        switch operation {
        case .statement(let statement):
            renderer.statement(statement)
        case .check(let check):
            "check \(check.property.map { "\(check.type).\($0)" } ?? check.type): none with \(check.problem)  (\(check.step)): \(check.sql)"
        case .count(let note):
            "count \(note.type) objects \(note.what): \(renderer.select(note.query))"
        case .custom(let call):
            "-- custom step '\(call.name)' on every \(call.type)"
        case .normalize(let definition, _):
            "-- give \(SQLiteRenderer.identifier(definition.name)) the definition a fresh store has, if it differs (sqlite_schema, columns in stored order)"
        case .retype(let table, let column, let type):
            "-- declare \(SQLiteRenderer.identifier(table)).\(SQLiteRenderer.identifier(column)) \(type.rawValue), its values as they are, for the UPDATE that converts them (sqlite_schema)"
        case .foreignKeyCheck:
            "PRAGMA foreign_key_check"
        }
    }

    /// What a run did: versions with durations, objects per type before and after.
    public static func text(of report: MigrationReport, store: String? = nil, backup: String? = nil) -> String {
        let embedded = Set(report.embeddedTypes)
        var out = ""
        let target = store.map { "'\($0)' " } ?? ""
        switch report.outcome {
        case .migratedByAnotherProcess:
            return "\(target.isEmpty ? "The store" : target)was migrated to version \(report.toVersion) by another process while this one waited; nothing to do\n"
        case .rehearsed:
            out +=
                "Dry run: migrated \(target)from version \(report.fromVersion) to \(report.toVersion) in \(seconds(report.duration)) inside a transaction, then rolled back; the store is unchanged\n"
        case .migrated:
            out += "Migrated \(target)from version \(report.fromVersion) to \(report.toVersion) in \(seconds(report.duration))\n"
        }
        for version in report.versions {
            out += "  version \(version.version) (\(version.name)): \(seconds(version.duration))\n"
            for note in version.notes { out += "    \(note)\n" }
        }
        // A renamed type is one line under its new name, counted before under its old one.
        let renamedFrom = report.renamedTypes.filter { report.countsAfter[$0.key] != nil }
        let types = Set(report.countsBefore.keys).subtracting(renamedFrom.values).union(report.countsAfter.keys).sorted()
        if !types.isEmpty {
            out += "Objects\(report.dryRun ? " (after, in the rolled-back transaction)" : ""):\n"
            let labels = types.map { type in renamedFrom[type].map { "\(type) (was \($0))" } ?? type }
            let width = labels.map(\.count).max() ?? 0
            for (type, label) in zip(types, labels) {
                let before = (report.countsBefore[renamedFrom[type] ?? type]).map(String.init) ?? "-"
                let after = report.countsAfter[type].map(String.init) ?? (embedded.contains(type) ? "embedded in their owners" : "removed")
                out += "  \(label.padding(toLength: width, withPad: " ", startingAt: 0))  \(before) → \(after)\n"
            }
        }
        if let backup { out += "Backup of version \(report.fromVersion): \(backup)\n" }
        return out
    }

    /// `0.042 s`.
    public static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return String(format: "%.3f s", value)
    }

    private static func indent(_ text: String, by spaces: Int, hanging: Int = 0) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var out = ""
        for (index, line) in lines.enumerated() {
            out += String(repeating: " ", count: spaces + (index == 0 ? 0 : hanging)) + line + "\n"
        }
        return out
    }
}
