import RemodelCore

/// What a migration will do to a store, version by version: each change with its impact and
/// SQL, the data checks that guard it, and the statements that carry it out.
public struct MigrationPlan: Sendable {
    public var fromVersion: Int
    public var toVersion: Int
    public var versions: [VersionPlan]

    /// True when the store is already at the target version.
    public var isEmpty: Bool { versions.isEmpty }

    /// Object types renamed across all versions: name after the last → name before the first.
    public var renamedTypes: [String: String] {
        var originals: [String: String] = [:]   // current name → name before the plan
        for version in versions {
            var next = originals.filter { !version.renamedTypes.values.contains($0.key) }
            for (new, old) in version.renamedTypes { next[new] = originals[old] ?? old }
            originals = next
        }
        return originals.filter { $0.key != $0.value }
    }

    /// The most severe impact of any change in the plan.
    public var impact: SchemaChange.Impact? { versions.compactMap(\.impact).max() }
}

/// The part of a plan that takes the store to one version.
public struct VersionPlan: Sendable {
    public var version: Int
    /// The migration file's name part, e.g. `split-person-name`.
    public var name: String
    public var description: String?
    public var checksum: String
    /// The schema the store has after this version.
    public var schema: Schema
    /// Every change, in the order it is made, for people to read.
    public var changes: [PlannedChange]
    /// What runs, in order.
    public var items: [PlanItem]
    /// Object types this version renames: new name → old name.
    public var renamedTypes: [String: String] = [:]

    /// The most severe impact of this version's changes.
    public var impact: SchemaChange.Impact? { changes.map(\.impact).max() }

    /// The SQL statements, in order.
    public var statements: [String] {
        items.compactMap { if case .sql(let sql) = $0 { sql } else { nil } }
    }
}

/// One change of a version, as the plan prints it.
public struct PlannedChange: Hashable, Sendable {
    public var impact: SchemaChange.Impact
    /// e.g. `split Person.name into firstName, lastName`.
    public var summary: String
    /// `step 2 (split)` for a declared step, `schema` for a change found by the diff.
    public var origin: String
    /// The SQL that makes the change: statements, or the expression a rewrite uses.
    public var sql: [String]

    public init(impact: SchemaChange.Impact, summary: String, origin: String, sql: [String]) {
        self.impact = impact
        self.summary = summary
        self.origin = origin
        self.sql = sql
    }
}

/// One thing the executor does.
public enum PlanItem: Hashable, Sendable {
    /// Run a statement.
    case sql(String)
    /// Run a query; any row it returns is a data error.
    case check(DataCheck)
    /// Call a registered Swift closure for every object of a type.
    case custom(CustomCall)
}

/// A custom step as the executor runs it.
public struct CustomCall: Hashable, Sendable {
    public var name: String
    /// The type (new name) whose objects the closure visits.
    public var type: String
    public var step: String
    /// The temporary table holding the type's rows as they were before the version.
    public var snapshotTable: String
    /// The primary key column in the snapshot (the old name of the key).
    public var snapshotKey: String
    /// The primary key column in the migrated table.
    public var key: String
}

/// A query that finds the objects a change cannot migrate.
public struct DataCheck: Hashable, Sendable {
    public var type: String
    public var property: String?
    /// `step 3 (convert)` or `schema`.
    public var step: String
    /// What is wrong with the rows found, e.g. `values that are not whole numbers`.
    public var problem: String
    /// How to fix it.
    public var hint: String
    /// Returns `key, value` of offending rows (at most a few).
    public var query: String
    /// Returns the number of offending rows.
    public var countQuery: String
}
