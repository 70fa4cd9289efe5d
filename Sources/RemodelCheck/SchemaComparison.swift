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

    /// Compares two schemas; `renames` are those the migration steps between them declare.
    public init(from: String, old: Schema, to: String, new: Schema, renames: SchemaDiff.Renames = SchemaDiff.Renames(), plan: MigrationPlan? = nil) {
        self.from = from
        self.to = to
        self.plan = plan
        let diff = SchemaDiff(from: old, to: new, renames: renames)
        entries = diff.changes.map { change in
            Entry(impact: change.impact.rawValue, change: change.description, subject: ChangeRules.subject(of: change.kind), breaksAPI: ChangeRules.breaksAPI(change.kind))
        }
    }

    /// The renames across the versions of `plan`: each version's renames (its steps' and
    /// `renamedFrom`), followed through every version, so that a type renamed on the way
    /// compares as renamed, not removed and added.
    public static func renames(through plan: MigrationPlan) -> SchemaDiff.Renames {
        guard let start = plan.versions.first?.previousSchema else { return SchemaDiff.Renames() }
        // Each original type's current name, and each original property's current name by original type.
        var types = Dictionary(uniqueKeysWithValues: (start.objects.map(\.name) + start.enums.map(\.name)).map { ($0, $0) })
        var properties = Dictionary(uniqueKeysWithValues: start.objects.map { object in
            (object.name, Dictionary(uniqueKeysWithValues: object.properties.map { ($0.name, $0.name) }))
        })
        for version in plan.versions {
            let diff = SchemaDiff(from: version.previousSchema, to: version.schema, renames: version.renames)
            for (original, current) in types {
                guard let next = diff.types.new(for: current) ?? diff.enums.new(for: current) else {
                    types[original] = nil
                    properties[original] = nil
                    continue
                }
                types[original] = next
                guard let names = properties[original] else { continue }
                let map = diff.properties[next] ?? RenameMap()
                properties[original] = names.compactMapValues { map.new(for: $0) }
            }
        }
        var renames = SchemaDiff.Renames()
        for (original, current) in types.sorted(by: { $0.key < $1.key }) {
            renames.types.insert(old: original, new: current)
            for (property, now) in (properties[original] ?? [:]).sorted(by: { $0.key < $1.key }) {
                renames.properties[current, default: RenameMap()].insert(old: property, new: now)
            }
        }
        return renames
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
        struct Planned: Codable { var impact: String; var summary: String; var origin: String; var statements: [String] }
        struct Version: Codable { var version: Int; var name: String; var changes: [Planned] }
        struct Document: Codable { var from: String; var to: String; var changes: [Entry]; var plan: [Version]? }
        let versions = plan?.versions.map { version in
            Version(version: version.version, name: version.name, changes: version.changes.map {
                Planned(impact: $0.impact.rawValue, summary: $0.summary, origin: $0.origin, statements: version.statements(of: $0))
            })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Document(from: from, to: to, changes: entries, plan: versions))) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
