import Foundation
import RemodelCore
import RemodelMigrate
import RemodelSchema

/// The change rules of `remodel check`, judged on the versions a pull request adds: destructive
/// and data-dependent changes (from the typed plan, as `migrate` would run them), changes that
/// break the generated Swift API (from the schema diff), draft questions left open, and
/// acceptances that accept nothing. A change its migration file accepts (`accept:`) passes.
public struct ChangeRules {
    /// A change a rule judges: what it is about, what it does, and where it is declared.
    struct Change: Hashable {
        var kind: ChangeAcceptance.Kind
        /// `Type`, `Type.property` or `Enum.case`.
        var subject: String
        /// `property Person.name removed`, `convert Dog.weight from string to int (onError: default)`.
        var summary: String
        var declaration: SourceLocation?
    }

    public var history: MigrationHistory
    public var sources: HistorySources
    public var loaded: MigrationHistoryLoadResult
    /// The engine whose locking rules also judge each version (`--engine`).
    public var engine: CheckEngine

    public init(history: MigrationHistory, sources: HistorySources, loaded: MigrationHistoryLoadResult, engine: CheckEngine = .sqlite) {
        self.history = history
        self.sources = sources
        self.loaded = loaded
        self.engine = engine
    }

    /// Every finding for the versions `judged` (version 1, the baseline, changes nothing), of
    /// a history whose versions can all be planned.
    public func findings(judging judged: [Int]) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for version in judged where version >= 2 {
            // The version's changes as its plan records them (the plan `migrate` runs).
            guard let planned = HistoryCheck.plannedVersion(of: history, version: version, sources: sources),
                let old = history.schema(at: version - 1), let new = history.schema(at: version)
            else { continue }
            let file = loaded.files[version] ?? MigrationFolder.migrationFileName(version: version, name: planned.name)
            // At the file's `steps:` (its start without): the version a reviewer accepts it in.
            let place = sources.migrations[version]?.start ?? SourceLocation(file: file, line: 1, column: 1)
            var changes = Self.dataChanges(of: planned.changes) + Self.apiChanges(from: old, to: new, renames: planned.renames)
            var lockingRules: [String: (rule: CheckRule, instead: String)] = [:]
            if engine == .postgresql {
                for (change, rule, instead) in PostgresRules.changes(of: planned.changes, from: old, to: new, renames: planned.renames) {
                    changes.append(change)
                    lockingRules[change.subject + "\u{0}" + change.summary] = (rule, instead)
                }
            }
            // `locking` acceptances are judged only when the engine's rules run.
            let accepted = (loaded.acceptances[version] ?? []).filter { engine == .postgresql || $0.kind != .locking }
            var used = Set<ChangeAcceptance>()
            var seen = Set<String>()
            for change in changes where seen.insert("\(change.kind.rawValue) \(change.subject) \(change.summary)").inserted {
                if let acceptance = accepted.first(where: { $0.kind == change.kind && $0.subject == change.subject }) {
                    used.insert(acceptance)
                    continue
                }
                findings.append(Self.finding(for: change, version: version, file: file, at: place, locking: lockingRules[change.subject + "\u{0}" + change.summary]))
            }
            for acceptance in accepted where !used.contains(acceptance) {
                let made = changes.filter { $0.kind == acceptance.kind }.map(\.subject)
                let hint = Suggestion.closest(to: acceptance.subject, in: made).map { "did you mean '\($0)'? " } ?? ""
                findings.append(
                    .warning(
                        CheckRules.unusedAcceptance.id,
                        "version \(version) accepts the \(acceptance.kind.rawValue) change '\(acceptance.subject)', but makes no such change",
                        at: acceptance.location,
                        hint: hint
                            + (made.isEmpty
                                ? "it makes no \(acceptance.kind.rawValue) change: remove the line"
                                : "the \(acceptance.kind.rawValue) changes it makes are to \(Set(made).sorted().joined(separator: ", ")); fix or remove the line"),
                        version: version
                    ))
            }
            findings += Self.openQuestions(in: history, version: version, file: file)
        }
        return findings
    }

    // MARK: - Findings

    static func finding(for change: Change, version: Int, file: String, at place: SourceLocation, locking: (rule: CheckRule, instead: String)? = nil) -> Diagnostic {
        var rule = CheckRules.destructiveChange
        let what: String
        switch change.kind {
        case .destructive:
            rule = CheckRules.destructiveChange
            what = "deletes stored data"
        case .dataDependent:
            rule = CheckRules.dataDependentChange
            what = "keeps every value only if the data allows"
        case .breaking:
            rule = CheckRules.breakingAPIChange
            what = "breaks the generated Swift API (code using it must change)"
        case .locking:
            rule = locking?.rule ?? CheckRules.postgresTableRewrite
            what = "locks or rewrites a table on PostgreSQL in the default mode"
        }
        let acceptance = "accept it in '\(file)' with the reason, where reviewers see it: 'accept: { \(change.kind.rawValue): { \(change.subject): \"why\" } }'"
        let fix: String =
            switch change.kind {
            case .destructive: "keep the data with a step (renameProperty, renameType, split, set …) or keep what was removed; if the data may go, \(acceptance)"
            case .dataDependent: "try it on a copy of real data ('remodel migrate --store COPY --dry-run'), then \(acceptance)"
            case .breaking: "update the code that uses it, then \(acceptance)"
            case .locking: "\(locking?.instead ?? "migrate it with `remodel migrate --online`"); if a short lock is fine (a small table, a maintenance window), \(acceptance)"
            }
        return Diagnostic(
            rule.defaultSeverity, rule: rule.id,
            "version \(version): \(change.summary) — \(what), and '\(file)' does not accept it",
            at: place, hint: fix,
            notes: change.declaration.map { [.init("declared here", at: $0)] } ?? [], version: version
        )
    }

    /// The draft questions still open in version `version`'s migration file `file`, each an
    /// error at the line of the commented step that answers it.
    public static func openQuestions(in history: MigrationHistory, version: Int, file: String) -> [Diagnostic] {
        guard let migration = history.migration(to: version), let old = history.schema(at: version - 1), let new = history.schema(at: version),
            let text = try? String(contentsOfFile: file, encoding: .utf8)
        else { return [] }
        return MigrationDraft.openQuestions(in: text, steps: migration.steps, from: old, to: new).map { open in
            .error(
                CheckRules.unansweredQuestion.id,
                "version \(version) leaves a question of its draft open: \(open.question.replacingOccurrences(of: "Question: ", with: ""))",
                at: SourceLocation(file: file, line: open.line, column: 1),
                hint: "answer it: uncomment '\(open.step)' if so, or delete the commented step if not (then the change runs as drafted)",
                version: version
            )
        }
    }

    // MARK: - Changes

    /// The changes of a version's plan that delete data or depend on it. Steps the file
    /// writes on purpose to delete (`deleteObjects`, `deduplicate`) are their own acceptance; the plan's own
    /// work (rewrites, dropped tables, layout) is how the schema changes are made, not what.
    static func dataChanges(of planned: [PlannedChange]) -> [Change] {
        let steps = planned.compactMap { change -> (index: Int, step: MigrationStep)? in
            if case .step(let index, let step) = change.subject { (index, step) } else { nil }
        }
        return planned.compactMap { change in
            let kind: ChangeAcceptance.Kind
            switch change.impact {
            case .destructive: kind = .destructive
            case .dataDependent: kind = .dataDependent
            case .additive: return nil
            }
            switch change.subject {
            case .schema(let schemaChange):
                if case .uniqueAdded(let type, let group) = schemaChange.kind, Self.deduplicates(type, group, steps: steps) { return nil }
                return Change(kind: kind, subject: subject(of: schemaChange.kind), summary: schemaChange.description, declaration: change.location)
            case .step(_, let step):
                if case .deleteObjects = step { return nil }
                if case .deduplicate = step { return nil }
                guard kind == .dataDependent, let type = step.typeName else { return nil }
                let property = step.writtenProperties?.first
                return Change(kind: kind, subject: property.map { "\(type).\($0)" } ?? type, summary: change.summary, declaration: change.location)
            case .plan:
                // How the plan carries out the changes above (rewrites, dropped tables), not what.
                return nil
            }
        }
    }

    /// Whether a `deduplicate` step leaves no two `type` objects sharing values of `group`:
    /// it groups by some of them, and no later step writes them again.
    static func deduplicates(_ type: String, _ group: [String], steps: [(index: Int, step: MigrationStep)]) -> Bool {
        steps.contains { index, step in
            guard case .deduplicate(type, let by, _, _) = step, Set(by).isSubset(of: group) else { return false }
            return !steps.contains { later in
                later.index > index && later.step.typeName == type && (later.step.writtenProperties.map { !Set($0).isDisjoint(with: group) } ?? true)
            }
        }
    }

    /// The changes between a version's schemas that break the generated Swift API.
    static func apiChanges(from old: Schema, to new: Schema, renames: SchemaDiff.Renames) -> [Change] {
        let diff = SchemaDiff(from: old, to: new, renames: renames)
        var changes: [Change] = diff.changes.filter { breaksAPI($0.kind) }.map { change in
            Change(kind: .breaking, subject: subject(of: change.kind), summary: change.description, declaration: nil)
        }
        let kept = Set(new.projections.map(\.name))
        for projection in old.projections where !kept.contains(projection.name) {
            changes.append(Change(kind: .breaking, subject: projection.name, summary: "projection \(projection.name) removed", declaration: nil))
        }
        return changes
    }

    /// Whether a change breaks code written against the generated Swift API: a type,
    /// property, enum or case removed or renamed, a property's Swift type changed.
    static func breaksAPI(_ kind: SchemaChange.Kind) -> Bool {
        switch kind {
        case .objectRemoved, .objectRenamed, .embeddedChanged, .primaryKeyChanged, .propertyRemoved, .propertyRenamed, .propertyRetyped,
            .propertyMadeOptional, .propertyMadeRequired, .inverseChanged, .enumRemoved, .enumRenamed, .enumRawTypeChanged, .enumCaseRemoved:
            true
        case .objectAdded, .propertyAdded, .indexAdded, .indexRemoved, .defaultChanged, .enumAdded, .enumCaseAdded, .enumCaseRawValueChanged, .uniqueAdded,
            .uniqueRemoved, .indexGroupAdded, .indexGroupRemoved:
            false
        }
    }

    /// What a change is about, as findings and acceptances name it: its declaration, except
    /// that a rename is named by what it renames.
    static func subject(of kind: SchemaChange.Kind) -> String {
        switch kind {
        case .objectRenamed(let from, _), .enumRenamed(let from, _): return from
        case .propertyRenamed(let type, let from, _): return "\(type).\(from)"
        default:
            let (type, member) = kind.declaration
            return member.map { "\(type).\($0)" } ?? type
        }
    }
}
