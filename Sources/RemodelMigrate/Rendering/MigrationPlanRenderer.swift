import Foundation
import RemodelCore

/// Prints migration plans and reports for people: each version, each change with its impact
/// and origin and the SQL it takes, the data checks, and the statements that run; then what
/// a run did, per type and per version. Used by `remodel migrate`; deterministic for the
/// same plan.
public enum MigrationPlanRenderer {
    /// The plan as text, one change per line, SQL indented below it.
    public static func text(of plan: MigrationPlan, store: String? = nil) -> String {
        var out = ""
        let target = store.map { "'\($0)' " } ?? ""
        let count = plan.versions.count
        out += "Plan: migrate \(target)from version \(plan.fromVersion) to \(plan.toVersion) (\(count) migration\(count == 1 ? "" : "s")"
        out += plan.impact.map { ", \($0.rawValue))\n" } ?? ")\n"
        for version in plan.versions {
            out += "\nversion \(version.version) — \(version.name)"
            if let description = version.description, !description.isEmpty { out += ": \(description)" }
            out += "\n"
            // Statements are numbered as the SQL section lists them; a change whose SQL is
            // made of whole statements refers to their numbers instead of repeating them.
            var numbers: [String: Int] = [:]
            for (index, item) in version.items.enumerated() {
                if case .sql(let sql) = item, numbers[sql] == nil { numbers[sql] = index + 1 }
            }
            let width = version.changes.map { $0.impact.rawValue.count }.max() ?? 0
            for change in version.changes {
                let label = "[\(change.impact.rawValue)]"
                out += "  \(label.padding(toLength: width + 2, withPad: " ", startingAt: 0)) \(change.summary)  (\(change.origin))\n"
                let referenced = change.sql.compactMap { numbers[$0] }
                if !change.sql.isEmpty && referenced.count == change.sql.count {
                    out += "      SQL \(referenced.map(String.init).joined(separator: ", ")) below\n"
                } else {
                    for sql in change.sql {
                        out += indent(sql, by: 6)
                    }
                }
            }
            let checks = version.items.compactMap { if case .check(let check) = $0 { check } else { nil } }
            if !checks.isEmpty {
                out += "  checks (any object found stops the migration):\n"
                for check in checks {
                    let what = check.property.map { "\(check.type).\($0)" } ?? check.type
                    out += "    \(what): \(check.problem)  (\(check.step))\n"
                }
            }
            out += "  SQL:\n"
            var number = 0
            for item in version.items {
                switch item {
                case .sql(let sql):
                    number += 1
                    out += indent("\(number). \(sql)", by: 4, hanging: "\(number). ".count)
                case .check(let check):
                    number += 1
                    out += indent("\(number). -- check: \(check.query)", by: 4, hanging: "\(number). ".count)
                case .custom(let call):
                    number += 1
                    out += "    \(number). -- custom step '\(call.name)' on every \(call.type)\n"
                }
            }
        }
        return out
    }

    /// What a run did: versions with durations, objects per type before and after.
    public static func text(of report: MigrationReport, store: String? = nil, backup: String? = nil) -> String {
        var out = ""
        let target = store.map { "'\($0)' " } ?? ""
        if report.dryRun {
            out += "Dry run: migrated \(target)from version \(report.fromVersion) to \(report.toVersion) in \(seconds(report.duration)) inside a transaction, then rolled back; the store is unchanged\n"
        } else {
            out += "Migrated \(target)from version \(report.fromVersion) to \(report.toVersion) in \(seconds(report.duration))\n"
        }
        for version in report.versions {
            out += "  version \(version.version) (\(version.name)): \(seconds(version.duration))\n"
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
                let after = report.countsAfter[type].map(String.init) ?? "removed"
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
