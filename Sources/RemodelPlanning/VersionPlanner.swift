import RemodelCore
import RemodelLayout

/// Plans one version: from the schema before, the schema after and the migration file's
/// steps, the changes, checks and statements that take a store across.
///
/// It consumes the typed changes of `SchemaDiff` and the typed steps, and builds the plan as
/// values: SQL trees (`SQLStatement`) that only a dialect's renderer turns into text.
///
/// Order of work: copy what custom steps read; drop removed types; rename types, side
/// tables and columns; keep deep intermediate values; delete objects; check data; rewrite
/// each changed table once (every declarative step composed into one expression per
/// column), readers before the tables they read; drop what was only kept for reading;
/// create added types and new objects; run custom steps; give altered tables a fresh
/// store's definitions; check links.
struct VersionPlanner {
    /// When work runs within the version; operations of one phase run in the order planned.
    enum Phase: Int, CaseIterable {
        case snapshot, dropRemoved, dropIndexes, renameTables, renameColumns, renameSideTables
        // Values a deletion's condition reads are kept before it; every other kept value after
        // the deletions, so that it sees their effect (links to deleted objects are gone).
        case materializeForDeletions, delete, materialize, check, unembed, rewrite, dropKept, create, createObjects, custom, cleanup, normalize, conform, linkCheck
    }

    let old: Schema
    let new: Schema
    let migration: Migration
    let sources: HistorySources
    let nowMicroseconds: Int64
    let customSteps: Set<String>
    let tableRewrite: MigrationPlanner.TableRewrite
    /// Whether this is the newest version, the one a schema edit can still amend.
    var isNewest = false

    var diagnostics: [Diagnostic] = []
    var changes: [PlannedChange] = []
    var scheduled: [Phase: [ScheduledOperation]] = [:]
    /// Steps that have an error: what they would have done is not reported again.
    var failedSteps = Set<Int>()
    /// Old tables by their current name.
    var tables: [String: TableState] = [:]
    /// Current table names, in the old schema's order.
    var tableOrder: [String] = []
    /// The current name of each old table, by its old type's name; role, old and new type
    /// never change once a table is made, so lookups by type need no walk over every table.
    var tableOfOldType: [String: String] = [:]
    /// The current name of each continued table, by its new type's name.
    var continuedTableOfNewType: [String: String] = [:]
    /// Embedded types of both versions, by new name.
    var embedded: [String: EmbeddedState] = [:]
    var renames = SchemaDiff.Renames()
    var diff = SchemaDiff(from: Schema(), to: Schema())
    /// The store layouts of the two schemas, built once (the new one is the next version's old).
    let oldLayout: StoreLayout
    let newLayout: StoreLayout
    /// Whether links may point at missing objects afterwards (checked before commit).
    var linksChanged = false
    /// Tables whose rows this version's rewrite writes in full.
    var rewrittenTables = Set<String>()
    var temporaryCount = 0
    /// The change of each rename, by what it names afterwards.
    var renameChanges: [Renamed: Int] = [:]
    /// The change of each removed type, by its table's current name.
    var removedTypeChanges: [String: Int] = [:]
    /// Types that become embedded (by table name): the columns and side tables linking to them.
    var embeddingOwners: [String: [Container]] = [:]
    /// Embedded types that become tables (by new name): where their values are.
    var unembeddings: [String: [Unembedding]] = [:]
    /// The conditions no object of a table or embedded type may meet, in the order required.
    /// They live here rather than in a `PropertyScope`, which planning copies and stores back:
    /// a check required on a copy that is then overwritten would be printed and never run.
    var pendingChecks: [StepTarget: [PendingCheck]] = [:]
    /// The ids of the required checks that became queries of the plan.
    var scheduledCheckIDs = Set<Int>()
    var requiredCheckCount = 0

    /// What a rename names once it is done: a type, or a property of a type (new names).
    enum Renamed: Hashable {
        case type(String)
        case property(type: String, name: String)
    }

    /// The change of the rename of `property` of `type`, else of `type` itself.
    func renameChange(of property: String, in type: String) -> Int? {
        renameChanges[.property(type: type, name: property)] ?? renameChanges[.type(type)]
    }

    /// Fails when a schema cannot be stored (`diagnostic(forUnsupported:)` reports it);
    /// `oldLayout` is the previous version's new one, when there is one.
    /// Faults brought back for tests that prove a checker catches them (`PlannerFault`).
    var reintroducedFaults: Set<PlannerFault> = []

    init(
        old: Schema, new: Schema, migration: Migration, sources: HistorySources, nowMicroseconds: Int64, customSteps: Set<String>,
        tableRewrite: MigrationPlanner.TableRewrite, oldLayout: StoreLayout? = nil
    ) throws {
        self.oldLayout = try oldLayout ?? StoreLayout(schema: old)
        newLayout = try StoreLayout(schema: new)
        self.old = old
        self.new = new
        self.migration = migration
        self.sources = sources
        self.nowMicroseconds = nowMicroseconds
        self.customSteps = customSteps
        self.tableRewrite = tableRewrite
    }

    var version: Int { migration.version }

    // MARK: - Diagnostics

    /// What a problem is blamed on, to place it in a file.
    enum Blame {
        /// A step (or one of its values, by key: `from`, `into.1`, `where.content`).
        case step(Int, field: StepField? = nil)
        /// The value written for a field of a step, rather than its key.
        case value(Int, field: StepField)
        /// A declaration of the new schema (`member` a property or case), or of the old one.
        case schema(type: String, member: String? = nil, old: Bool = false)
        /// The migration as a whole.
        case migration

        /// The step blamed, if any.
        var step: Int? {
            switch self {
            case .step(let index, _), .value(let index, _): index
            case .schema, .migration: nil
            }
        }
    }

    func location(_ blame: Blame) -> SourceLocation? {
        switch blame {
        case .step(let index, let field):
            return sources.location(version: version, step: index, field: field)
        case .value(let index, let field):
            return sources.location(version: version, step: index, field: field, value: true)
        case .schema(let type, let member, let isOld):
            return sources.schemas[isOld ? version - 1 : version]?.location(of: type, member: member)
                ?? sources.location(version: version, step: nil)
        case .migration:
            return sources.location(version: version, step: nil)
        }
    }

    /// Whether a step of this version that failed gives values to `type.property` (new
    /// names), or to every property of `type`.
    func failedStepConcerns(type: String, property: String?) -> Bool {
        failedSteps.contains { index in
            let step = migration.steps[index]
            if case .renameType(let from, let to) = step { return to == type || from == (diff.types.old(for: type) ?? type) }
            guard let stepType = step.typeName, [type, diff.types.old(for: type)].contains(stepType) || diff.types.new(for: stepType) == type else { return false }
            guard let written = step.writtenProperties else { return true }
            guard let property else { return !written.isEmpty }
            // A step naming a property neither version has (a typo) may have meant any.
            let names = Set((new.objectType(named: type)?.properties ?? []).map(\.name) + (old.objectType(named: diff.types.old(for: type) ?? type)?.properties ?? []).map(\.name))
            if written.contains(where: { !names.contains($0) }) { return true }
            let oldName = diff.properties[type]?.old(for: property)
            return written.contains(property) || oldName.map(written.contains) == true
        }
    }

    /// The latest recorded change of the schema that `matches`, to own the work it causes.
    func schemaChange(_ matches: (SchemaChange.Kind) -> Bool) -> Int? {
        changes.lastIndex { if case .schema(let change) = $0.subject { matches(change.kind) } else { false } }
    }

    /// The temporary name a table is rebuilt under.
    static func rebuildName(of table: String) -> String { table + "__remodel_new" }

    /// The statements that rebuild `current` as `definition` (under a temporary name, then
    /// renamed): every row copied with `values` for `columns`, then the indexes.
    static func rebuild(_ current: String, as definition: SQLTableDefinition, columns: [String], values: [SQLExpression], indexes: [SQLIndexDefinition]) -> [SQLStatement] {
        var temporary = definition
        temporary.name = rebuildName(of: definition.name)
        return [
            .createTable(temporary),
            .insertSelect(table: temporary.name, columns: columns, SQLSelect(values.map { SQLSelect.Column($0) }, from: SQLSelect.Source(current))),
            .dropTable(current),
            .renameTable(from: temporary.name, to: definition.name),
        ] + indexes.map(SQLStatement.createIndex)
    }

    func reference(_ index: Int) -> StepReference {
        StepReference(index: index, kind: migration.steps[index].kind)
    }

    mutating func error(_ rule: String, _ message: String, at blame: Blame, hint: String? = nil, notes: [Diagnostic.Note] = []) {
        if let index = blame.step {
            failedSteps.insert(index)
        } else if ["migration-missing-step", "migration-missing-value"].contains(rule), case .schema(let type, let member, _) = blame,
            failedStepConcerns(type: type, property: member)
        {
            // A value left unset or unconverted because the step that gives it failed is that
            // step's error, already reported at the step: one mistake, one error.
            return
        }
        var hint = hint
        if case .schema(_, _, false) = blame, isNewest, let text = hint {
            hint = text + "; after editing the schema, run 'remodel migration amend' to freeze version \(version) again"
        }
        let prefix: String
        if let index = blame.step {
            prefix = "migration \(version) \(reference(index).label): "
        } else {
            prefix = "migration \(version): "
        }
        diagnostics.append(.error(rule, prefix + message, at: location(blame), hint: hint, notes: notes, version: version))
    }

    /// The error of a version whose schema cannot be stored, so that it has no planner.
    static func diagnostic(forUnsupported error: Error, version: Int, sources: HistorySources) -> Diagnostic {
        .error("migration-unsupported-schema", "migration \(version): \(error)", at: sources.location(version: version, step: nil), version: version)
    }

    /// "did you mean 'x'?" for the closest of `candidates`.
    static func suggestion(_ name: String, in candidates: [String]) -> String? {
        Suggestion.closest(to: name, in: candidates).map { "did you mean '\($0)'?" }
    }

    // MARK: - Changes and their work

    /// Records a change; returns its index for the work it owns.
    @discardableResult
    mutating func record(_ subject: PlannedChange.Subject, _ impact: SchemaChange.Impact, _ summary: String, at blame: Blame? = nil, assignments: [TableAssignment] = []) -> Int {
        let blame =
            blame
            ?? {
                if case .step(let index, _) = subject { return .step(index) }
                return nil
            }()
        changes.append(PlannedChange(subject: subject, impact: impact, summary: summary, location: blame.flatMap(location), assignments: assignments))
        return changes.count - 1
    }

    /// A change found by the diff, recorded with its impact and the schema line it comes from.
    @discardableResult
    mutating func record(
        _ change: SchemaChange, _ summary: String, type: String? = nil, member: String? = nil, old: Bool = false, impact: SchemaChange.Impact? = nil,
        assignments: [TableAssignment] = []
    ) -> Int {
        record(.schema(change), impact ?? change.impact, summary, at: type.map { .schema(type: $0, member: member, old: old) }, assignments: assignments)
    }

    /// Requires that no object of `target` meets `check.condition`: a data check that runs
    /// before the target's rewrite, owned by `check.change`.
    mutating func require(_ check: PendingCheck, at target: StepTarget) {
        var check = check
        requiredCheckCount += 1
        check.id = requiredCheckCount
        pendingChecks[target, default: []].append(check)
    }

    mutating func schedule(_ operation: PlanOperation, in phase: Phase, for change: Int) {
        scheduled[phase, default: []].append(ScheduledOperation(change: change, operation: operation))
    }

    mutating func schedule(_ statements: [SQLStatement], in phase: Phase, for change: Int) {
        for statement in statements { schedule(.statement(statement), in: phase, for: change) }
    }

    /// A fresh name for a temporary table.
    mutating func temporaryName(_ purpose: String) -> String {
        temporaryCount += 1
        return "remodel_\(purpose)_\(version)_\(temporaryCount)"
    }

    var literals: StoredLiteral { StoredLiteral(schema: new, nowMicroseconds: nowMicroseconds) }

    // MARK: - Planning

    mutating func plan() -> VersionPlan? {
        resolveRenames()
        diff = SchemaDiff(from: old, to: new, renames: renames)
        prepareTables()
        prepareEmbedded()
        applySteps()
        completeTables()
        planRewrites()
        planCreations()
        planCleanup()
        planConformance()
        verifyChecksRun()
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        let operations = Phase.allCases.flatMap { scheduled[$0] ?? [] }
        return VersionPlan(
            version: version, name: migration.name, description: migration.description, checksum: migration.checksum,
            schema: new, previousSchema: old, changes: changes, operations: operations, schemaText: CanonicalYAML.text(of: new), schemaHash: new.storageHash,
            typeRenames: RenameMap(
                diff.types.renamed.filter { pair in
                    old.objectType(named: pair.old).map { !$0.isEmbedded } ?? false
                }),
            renames: renames
        )
    }
}
