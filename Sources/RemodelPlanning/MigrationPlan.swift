import RemodelCore
import RemodelLayout

/// What a migration will do to a store, version by version: each change with its impact, the
/// checks that guard it and the statements that carry it out. A plan is a value: it can be
/// printed, reviewed, compared and tested before anything runs, and every run of the same
/// history gives the same plan.
public struct MigrationPlan: Sendable {
    public var fromVersion: Int
    public var toVersion: Int
    public var versions: [VersionPlan]

    /// True when the store is already at the target version.
    public var isEmpty: Bool { versions.isEmpty }

    /// The part of this plan from `version` to `target`: the plan `MigrationPlanner` makes
    /// for those versions, as it plans each version on its own (from the two schemas, the
    /// migration and `now`), whatever version the plan starts from. Lets a caller that runs
    /// many parts (`remodel test`) plan the history once.
    package func part(from version: Int, to target: Int) -> MigrationPlan {
        MigrationPlan(fromVersion: version, toVersion: target, versions: versions.filter { $0.version > version && $0.version <= target })
    }

    /// Object types renamed across all versions: name after the last → name before the first.
    public var renamedTypes: [String: String] {
        var originals: [String: String] = [:]  // current name → name before the plan
        for version in versions {
            var next = originals.filter { version.typeRenames.old(for: $0.key) == nil && version.typeRenames.new(for: $0.key) == nil }
            for pair in version.typeRenames.pairs { next[pair.new] = originals[pair.old] ?? pair.old }
            originals = next
        }
        // Only types the store had before the plan: one created on the way has no old name.
        let start = versions.first?.previousSchema
        return originals.filter { $0.key != $0.value && start?.objectType(named: $0.value) != nil }
    }

    /// The most severe impact of any change in the plan.
    public var impact: SchemaChange.Impact? { versions.compactMap(\.impact).max() }

    /// The renames from the schema before the plan to the schema after it: each version's
    /// renames (its steps' and `renamedFrom`), followed through every version, so that a
    /// `SchemaDiff` of the two ends (`remodel diff 1 3`, `remodel diagram --diff 1 3`) sees a
    /// type or property renamed on the way as renamed, not removed and added.
    public var renamesAcrossVersions: SchemaDiff.Renames {
        guard let start = versions.first?.previousSchema else { return SchemaDiff.Renames() }
        // Each original type's current name, and each original property's current name by original type.
        var types = Dictionary(uniqueKeysWithValues: (start.objects.map(\.name) + start.enums.map(\.name)).map { ($0, $0) })
        var properties = Dictionary(
            uniqueKeysWithValues: start.objects.map { object in
                (object.name, Dictionary(uniqueKeysWithValues: object.properties.map { ($0.name, $0.name) }))
            })
        for version in versions {
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
    /// The schema before it.
    public var previousSchema: Schema
    /// Every change, in the order people read them: renames, steps in file order, what the
    /// schema diff needs, then the plan's own work (table rewrites, layout).
    public var changes: [PlannedChange]
    /// What runs, in order; each operation belongs to one change.
    package var operations: [ScheduledOperation]
    /// The schema's canonical text and storage hash, as the store records them after this
    /// version: made once with the plan, not by every run of it.
    package var schemaText: String
    package var schemaHash: String
    /// Object types (continuing objects) this version renames.
    public var typeRenames: RenameMap
    /// The renames the version declares (its steps' and `renamedFrom`), as its schema diff
    /// uses them: what a diff of its two schemas needs to see renames, not removals.
    public var renames: SchemaDiff.Renames

    /// The most severe impact of this version's changes.
    public var impact: SchemaChange.Impact? { changes.map(\.impact).max() }

    /// The SQL statements that run, in order, as SQLite receives them.
    public var statements: [String] {
        let renderer = SQLiteRenderer()
        return operations.compactMap { if case .statement(let statement) = $0.operation { renderer.statement(statement) } else { nil } }
    }

    /// The SQL statements that carry out `change`, in run order, as SQLite receives them.
    public func statements(of change: PlannedChange) -> [String] {
        guard let index = changes.firstIndex(of: change) else { return [] }
        let renderer = SQLiteRenderer()
        return operations(ofChange: index).compactMap { if case .statement(let statement) = $0.operation { renderer.statement(statement) } else { nil } }
    }

    /// The operations of change `index`, in run order, with their 1-based numbers.
    package func operations(ofChange index: Int) -> [(number: Int, operation: PlanOperation)] {
        operations.enumerated().filter { $0.element.change == index }.map { ($0.offset + 1, $0.element.operation) }
    }

    /// The data checks, in run order.
    public var checks: [DataCheck] {
        operations.compactMap { if case .check(let check) = $0.operation { check } else { nil } }
    }
}

/// One change of a version: what it is, how it affects stored data, where it comes from, and
/// (through `VersionPlan.operations`) the work that carries it out.
public struct PlannedChange: Hashable, Sendable {
    /// What a change is about.
    public enum Subject: Hashable, Sendable {
        /// A difference between the two snapshots, made without a step.
        case schema(SchemaChange)
        /// A step of the migration file (its index in the file).
        case step(index: Int, MigrationStep)
        /// Work the plan adds to carry out other changes: a table rewrite, index and layout
        /// adjustments, the link check.
        case plan(type: String?)
    }

    public var subject: Subject
    public var impact: SchemaChange.Impact
    /// For people: `split Person.name at " " into firstName, lastName`.
    public var summary: String
    /// Where the change is declared: the step in its migration file, or the schema line.
    public var location: SourceLocation?
    /// The values this change gives columns within a table rewrite, for people: the plan
    /// shows them next to the change; the rewrite's statement carries them out.
    package var assignments: [TableAssignment]

    package init(subject: Subject, impact: SchemaChange.Impact, summary: String, location: SourceLocation?, assignments: [TableAssignment] = []) {
        self.subject = subject
        self.impact = impact
        self.summary = summary
        self.location = location
        self.assignments = assignments
    }

    /// `step 2 (split)`, `schema` or `plan`.
    public var origin: String {
        switch subject {
        case .step(let index, let step): "step \(index + 1) (\(step.kind))"
        case .schema: "schema"
        case .plan: "plan"
        }
    }
}

/// A column's new value, as a step or schema change contributes it to a table rewrite.
package struct TableAssignment: Hashable, Sendable {
    package var table: String
    package var column: String
    package var value: SQLExpression
}

/// One unit of work and the change it belongs to.
package struct ScheduledOperation: Sendable {
    package var change: Int
    package var operation: PlanOperation
}

/// One thing the executor does.
package enum PlanOperation: Sendable {
    /// Run a statement.
    case statement(SQLStatement)
    /// Run a query; any object it finds stops the migration with a data error.
    case check(DataCheck)
    /// Count objects for the report (objects deleted because nothing owns them, say).
    case count(CountNote)
    /// Call a registered Swift closure for every object of a type.
    case custom(CustomCall)
    /// Give a table the definition a fresh store has (see `TableDefinitionNormalizer`).
    case normalize(SQLTableDefinition, rowsRewritten: Bool)
    /// Declare a column with another type, its stored values as they are, so that the table's
    /// next `UPDATE` converts them in the column's own slot (see
    /// `TableDefinitionNormalizer.retypeColumn`).
    case retype(table: String, column: String, type: SQLColumnType)
    /// Check that no link points at an object that does not exist.
    case foreignKeyCheck
}

/// A query that finds the objects a change cannot migrate.
public struct DataCheck: Hashable, Sendable {
    public var type: String
    public var property: String?
    /// `step 3 (convert)` or `schema`.
    public var step: String
    /// What is wrong with the objects found, e.g. `values that cannot be converted to int`.
    public var problem: String
    /// How to fix it.
    public var hint: String
    /// Where the step or schema declaration that makes the change is written, if known.
    public var location: SourceLocation?
    /// Whether the value column is words for people rather than a stored value.
    public var valueIsProse: Bool = false
    /// Returns `key, value` of offending objects (at most a few).
    package var query: SQLSelect
    /// Returns the number of offending objects.
    package var countQuery: SQLSelect

    /// The query as SQLite runs it.
    public var sql: String { SQLiteRenderer().select(query) }
}

/// A count the report shows, e.g. `2 Address objects deleted: no object held them`.
package struct CountNote: Hashable, Sendable {
    package var type: String
    package var what: String
    package var query: SQLSelect
}

/// A custom step as the executor runs it.
public struct CustomCall: Hashable, Sendable {
    public var name: String
    /// The type (new name) whose objects the closure visits.
    public var type: String
    public var step: String
    /// The temporary tables holding the old objects the step may read: old type name → its
    /// copy (and its side tables' copies, by property).
    package var snapshots: [String: CustomSnapshot]
    /// The old name of `type`.
    package var oldType: String
    /// The primary key column in the migrated table.
    public var key: String
    /// The primary key column of the old table.
    package var oldKey: String
}

/// The copy of one old table (and its side tables) a custom step reads.
package struct CustomSnapshot: Hashable, Sendable {
    package var table: String
    package var layout: TableLayoutSnapshot
}

/// The shape of an old table, as a custom step reads it: columns, key, side tables.
package struct TableLayoutSnapshot: Hashable, Sendable {
    package var columns: [String]
    package var key: String?
    /// Property → (copied side table, kind).
    package var sideTables: [String: SideTableSnapshot]
}

/// One copied side table.
package struct SideTableSnapshot: Hashable, Sendable {
    package var table: String
    package var kind: CollectionKind

    package init(table: String, kind: CollectionKind) {
        self.table = table
        self.kind = kind
    }
}
