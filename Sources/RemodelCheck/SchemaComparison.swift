import Foundation
import RemodelCore
import RemodelMigrate

/// What changed between two schemas, for `remodel diff`: each change with how it affects
/// stored data and whether it breaks the generated Swift API; between two versions of a
/// history, also the plan `remodel migrate` runs.
public struct SchemaComparison: Sendable {
    /// One change.
    public struct Entry: Hashable, Sendable, Codable {
        /// `additive`, `data-dependent` or `destructive`.
        public var impact: String
        /// `property Person.name removed`.
        public var change: String
        /// `Person.name`: what `accept:` names.
        public var subject: String
        /// Whether code using the generated Swift API must change.
        public var breaksAPI: Bool
    }

    public var from: String
    public var to: String
    public var entries: [Entry]
    /// The plan, when both sides are versions of a history.
    public var plan: MigrationPlan?
    /// What the comparison could not see, for people (shown under the heading).
    public var note: String?

    /// Compares two schemas; `renames` are those the migration steps between them declare
    /// (`MigrationPlan.renamesAcrossVersions`).
    public init(from: String, old: Schema, to: String, new: Schema, renames: SchemaDiff.Renames = SchemaDiff.Renames(), plan: MigrationPlan? = nil) {
        self.from = from
        self.to = to
        self.plan = plan
        let diff = SchemaDiff(from: old, to: new, renames: renames)
        entries = diff.changes.map { change in
            Entry(impact: change.impact.rawValue, change: change.description, subject: ChangeRules.subject(of: change.kind), breaksAPI: ChangeRules.breaksAPI(change.kind))
        }
    }

    /// For people: a heading, each change with its class, then the plan.
    public var text: String {
        var out = "Changes from \(from) to \(to):\n"
        if let note { out += "  (\(note))\n" }
        if entries.isEmpty { out += "  none: both store the same data and give the same Swift API\n" }
        let width = entries.map { $0.impact.count + 2 }.max() ?? 0
        for entry in entries {
            let tag = "[\(entry.impact)]".padding(toLength: width, withPad: " ", startingAt: 0)
            out += "  \(tag) \(entry.change)\(entry.breaksAPI ? "  (breaks the generated Swift API)" : "")\n"
        }
        if let plan, !plan.isEmpty {
            out += "\nThe plan (as 'remodel migrate' runs it):\n" + MigrationPlanRenderer.text(of: plan)
        }
        return out
    }

    /// For tools: `{ from, to, changes: [{ impact, change, subject, breaksAPI }], plan: [{ version, changes: [{ impact, summary, origin, statements }] }] }`.
    public var json: String {
        struct Planned: Codable {
            var impact: String
            var summary: String
            var origin: String
            var statements: [String]
        }
        struct Version: Codable {
            var version: Int
            var name: String
            var changes: [Planned]
        }
        struct Document: Codable {
            var from: String
            var to: String
            var changes: [Entry]
            var plan: [Version]?
        }
        let versions = plan?.versions.map { version in
            Version(
                version: version.version, name: version.name,
                changes: version.changes.map {
                    Planned(impact: $0.impact.rawValue, summary: $0.summary, origin: $0.origin, statements: version.statements(of: $0))
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Document(from: from, to: to, changes: entries, plan: versions))) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
