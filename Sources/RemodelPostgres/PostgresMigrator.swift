import Foundation
import RemodelCore
import RemodelLayout
import RemodelMigrate
import RemodelPlanning
import RemodelStore

/// Migrates a store in a PostgreSQL schema through a `Migrator`'s history: the plan SQLite
/// runs, rendered for PostgreSQL (`PostgresPlanRenderer`), in one transaction under an
/// advisory lock on the schema.
///
/// Many app instances starting at once each call `migrate`: the first takes the lock and
/// migrates; the others wait for it, find the store at the target version, and do nothing
/// (`MigrationReport.Outcome.migratedByAnotherProcess`). PostgreSQL's DDL is transactional,
/// so after any failure, and after a crash or a killed process, the store is as it was. No
/// backup is made: the database's own backups and the transaction take that role.
///
/// ```swift
/// // At a server's boot, before it serves requests:
/// let migrator = PostgresMigrator(Migrator(history: AppSchema.history!))
/// try migrator.migrate(at: PostgresTarget("postgresql://app@db/notes"))
/// ```
public struct PostgresMigrator: Sendable {
    public var migrator: Migrator

    public init(_ migrator: Migrator) {
        self.migrator = migrator
    }

    /// The store's version and what it records, read without a lock.
    public func state(at target: PostgresTarget) throws -> PostgresStoreInfo {
        try PostgresStore.info(at: target) { _ in nil }
    }

    /// The plan from the store's version to `version` (default: the newest), with the
    /// statements PostgreSQL runs; throws when the store is not this history's, or the plan
    /// needs what PostgreSQL does not run yet, before anything changes.
    public func plan(at target: PostgresTarget, to version: Int? = nil, now: Date = Date()) throws -> PostgresMigrationPlan {
        let info = try state(at: target)
        try check(info, target: target)
        return try plan(from: info.version, to: version, schemaName: target.schema, now: now)
    }

    /// The plan from `version`, for a store in `schemaName` (`plan(at:)` reads the version).
    public func plan(from version: Int, to target: Int?, schemaName: String, now: Date = Date()) throws -> PostgresMigrationPlan {
        let plan = try migrator.plan(from: version, to: target, now: now)
        return PostgresMigrationPlan(
            plan: plan,
            steps: try plan.versions.map { version in
                var renderer = try PostgresPlanRenderer(version: version, schemaName: schemaName)
                return try renderer.steps()
            })
    }

    /// Migrates the store at `target` to `version` (default: the newest), or with `dryRun`
    /// runs every statement and check and rolls back.
    ///
    /// Each statement waits at most `lock.timeout` for a table lock; a try that times out is
    /// rolled back and the migration tried again (`onLockWait` hears of it), up to
    /// `lock.attempts` times, after which `PostgresLockTimeout` names the sessions holding the
    /// locks. Waiting for another instance's migration (the advisory lock) has no limit.
    public func migrate(
        at target: PostgresTarget, plan given: PostgresMigrationPlan? = nil, to version: Int? = nil, dryRun: Bool = false, now: Date = Date(),
        lock: PostgresLockPolicy = .standard, onLockWait: (@Sendable (PostgresLockWait) -> Void)? = nil,
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws -> (plan: PostgresMigrationPlan, report: MigrationReport) {
        let plan = try given ?? self.plan(at: target, to: version, now: now)
        return try withLockRetries(at: target, lock: lock, onLockWait: onLockWait) {
            try migrateOnce(at: target, plan: plan, dryRun: dryRun, now: now, lock: lock, progress: progress)
        }
    }

    /// Runs `body`, a transaction whose statements wait at most `lock.timeout` for a table
    /// lock, again after a pause each time it times out (`onLockWait` hears of it), up to
    /// `lock.attempts` times; then `PostgresLockTimeout` names the sessions holding the locks.
    func withLockRetries<T>(at target: PostgresTarget, lock: PostgresLockPolicy, onLockWait: (@Sendable (PostgresLockWait) -> Void)?, _ body: () throws -> T) throws -> T {
        let started = ContinuousClock.now
        var attempt = 1
        while true {
            do {
                return try body()
            } catch let error where Self.isLockTimeout(error) {
                // That try was rolled back: see who holds the locks, then wait and try again.
                let (store, blockers) = Self.blockers(at: target)
                guard attempt < lock.attempts else {
                    let failed = error as? PostgresMigrationError
                    throw PostgresLockTimeout(
                        store: store, version: failed?.version, statement: failed?.statement ?? (error as? PostgresError)?.statement ?? "",
                        policy: lock, elapsed: ContinuousClock.now - started, blockers: blockers)
                }
                let pause = lock.pause(before: attempt + 1)
                onLockWait?(PostgresLockWait(attempt: attempt, attempts: lock.attempts, pause: pause, blockers: blockers))
                Thread.sleep(forTimeInterval: Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18)
                attempt += 1
            }
        }
    }

    /// The store's name and the sessions holding locks on its tables (or why they could not be
    /// listed), through a connection of its own that is closed again.
    private static func blockers(at target: PostgresTarget) -> (store: String, blockers: Result<[PostgresBlockingSession], PostgresError>) {
        let probe: PostgresConnection
        do {
            probe = try PostgresConnection(target)
        } catch {
            return ("\(target.redacted) (schema \(target.schema))", .failure(error))
        }
        let store = "\(probe.displayName) (schema \(target.schema))"
        do {
            return (store, .success(try PostgresBlockingSession.holdingLocks(probe)))
        } catch {
            return (store, .failure(error))
        }
    }

    /// Whether `error` is PostgreSQL's `lock_not_available` (55P03): `lock_timeout` expired.
    static func isLockTimeout(_ error: any Error) -> Bool {
        ((error as? PostgresMigrationError)?.error ?? error as? PostgresError)?.sqlState == "55P03"
    }

    /// One try of `migrate`, in one transaction.
    private func migrateOnce(
        at target: PostgresTarget, plan: PostgresMigrationPlan, dryRun: Bool, now: Date, lock: PostgresLockPolicy,
        progress: (@Sendable (MigrationProgress) -> Void)?
    ) throws -> (plan: PostgresMigrationPlan, report: MigrationReport) {
        let started = ContinuousClock.now
        let connection = try PostgresConnection(target)
        try connection.execute("BEGIN")
        var finished = false
        defer { if !finished { try? connection.execute("ROLLBACK") } }
        // Waiting for another instance's migration has no limit, whatever the role or database
        // sets; the tables' locks are waited for at most `lock.timeout`.
        try connection.execute("SET LOCAL lock_timeout = 0")
        try PostgresStore.lock(connection)
        try connection.execute("SET LOCAL lock_timeout = \(lock.milliseconds)")
        // Read again under the lock: another instance may have migrated meanwhile.
        let info = try PostgresStore.info(connection) { _ in nil }
        if info.version != plan.plan.fromVersion || plan.plan.isEmpty {
            guard info.version == plan.plan.toVersion else {
                throw MigrationError.storeChanged(expected: plan.plan.fromVersion, found: info.version)
            }
            try check(info, target: target)
            try connection.execute("ROLLBACK")
            finished = true
            let outcome: MigrationReport.Outcome = plan.plan.isEmpty ? (dryRun ? .rehearsed : .migrated) : .migratedByAnotherProcess
            return (
                plan,
                MigrationReport(
                    fromVersion: info.version, toVersion: info.version, versions: [], countsBefore: [:], countsAfter: [:],
                    dryRun: dryRun, duration: ContinuousClock.now - started, outcome: outcome)
            )
        }
        // An online migration in progress is finished or undone first; the views a completed one
        // left for the new app's connections go (they would block rewriting their columns).
        if let online = try PostgresOnlineState.read(connection) {
            guard online.phase == .complete else {
                throw PostgresOnlineError.inProgress(store: info.name, state: online, wanted: "a migration in one transaction")
            }
            try dropLeftovers(online, connection: connection)
        }
        try connection.execute("SELECT set_config('search_path', \(SQLiteRenderer.text(SQLiteRenderer.identifier(target.schema))), true)")
        try connection.execute("SET LOCAL standard_conforming_strings = on")
        for definition in PostgresFunctions.definitions {
            try connection.execute(definition.replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"))
        }
        let runner = Runner(connection: connection, schemaName: target.schema, customSteps: migrator.customSteps, progress: progress, total: plan.steps.reduce(0) { $0 + $1.count })
        let before = try runner.counts(plan.plan.versions.first?.previousSchema)
        var versions: [MigrationReport.Version] = []
        for (version, steps) in zip(plan.plan.versions, plan.steps) {
            let versionStart = ContinuousClock.now
            let notes = try runner.run(steps, of: version)
            let duration = ContinuousClock.now - versionStart
            try runner.record(version, duration: duration, now: now)
            versions.append(.init(version: version.version, name: version.name, duration: duration, notes: notes))
        }
        let after = try runner.counts(plan.plan.versions.last?.schema)
        try runner.wrap(plan.plan.versions.last?.version ?? 0, "COMMIT") {
            try connection.execute("SET CONSTRAINTS ALL IMMEDIATE")
            try connection.execute(dryRun ? "ROLLBACK" : "COMMIT")
        }
        finished = true
        var report = MigrationReport(
            fromVersion: plan.plan.fromVersion, toVersion: plan.plan.toVersion, versions: versions, countsBefore: before, countsAfter: after,
            dryRun: dryRun, duration: ContinuousClock.now - started, outcome: dryRun ? .rehearsed : .migrated
        )
        report.renamedTypes = plan.plan.renamedTypes
        report.embeddedTypes = (plan.plan.versions.last?.schema.objects ?? []).filter { $0.isEmbedded && before[$0.name] != nil }.map(\.name)
        return (plan, report)
    }

    /// Refuses a store this history cannot migrate: newer than the history, or with a schema
    /// other than the snapshot of its version.
    public func check(_ info: PostgresStoreInfo, target: PostgresTarget) throws {
        let place = info.name
        if info.version > migrator.history.currentVersion {
            throw StoreError.superseded(path: place, storeVersion: info.version, codeVersion: migrator.history.currentVersion)
        }
        if let expected = migrator.history.schema(at: info.version)?.storageHash, !info.schemaHash.isEmpty, info.schemaHash != expected {
            throw StoreError.schemaMismatch(path: place, version: info.version, storeHash: info.schemaHash, codeHash: expected)
        }
    }
}

/// A migration plan with the statements PostgreSQL runs for each of its operations.
public struct PostgresMigrationPlan: Sendable {
    /// The plan, as SQLite's (and every engine's) migration of the same history.
    public var plan: MigrationPlan
    /// Per version, per plan operation, what runs on PostgreSQL.
    package var steps: [[PostgresPlanRenderer.Step]]

    /// The plan as `remodel migrate` prints it, with PostgreSQL's statements.
    public func text(store: String) -> String {
        MigrationPlanRenderer.text(of: plan, store: store) { version, operation in
            guard let versionIndex = plan.versions.firstIndex(where: { $0.version == version.version }),
                operation - 1 < steps[versionIndex].count
            else { return nil }
            return steps[versionIndex][operation - 1].text
        }
    }
}

extension PostgresPlanRenderer.Step {
    /// For people, in the plan.
    var text: String {
        switch self {
        case .statements(let statements): statements.joined(separator: ";\n")
        case .check(let check, let query, _): "check \(check.property.map { "\(check.type).\($0)" } ?? check.type): none with \(check.problem)  (\(check.step)): \(query)"
        case .count(let note, let query): "count \(note.type) objects \(note.what): \(query)"
        case .reconcile(let table, _): "-- give \(SQLiteRenderer.identifier(table)) the defaults, NOT NULL and foreign keys of a fresh store, where they differ (pg_catalog)"
        case .linkCheck: "SET CONSTRAINTS ALL IMMEDIATE; SET CONSTRAINTS ALL DEFERRED"
        case .custom(let call, _, _): "-- custom step '\(call.name)' on every \(call.type)"
        case .withLookups(let lookups, let step):
            lookups.map {
                "-- \(SQLiteRenderer.name(of: $0.function)) of each distinct value of `\($0.inputs)`, computed by Remodel into pg_temp.\(SQLiteRenderer.identifier($0.table))"
            }.joined(separator: ";\n")
                + ";\n" + step.text
        case .none(let comment): comment
        }
    }
}

/// Runs rendered steps on the migrating connection.
struct Runner {
    let connection: PostgresConnection
    let schemaName: String
    let customSteps: [String: CustomStep]
    let progress: (@Sendable (MigrationProgress) -> Void)?
    let total: Int
    private let completed = Counter()

    init(connection: PostgresConnection, schemaName: String, customSteps: [String: CustomStep], progress: (@Sendable (MigrationProgress) -> Void)?, total: Int) {
        self.connection = connection
        self.schemaName = schemaName
        self.customSteps = customSteps
        self.progress = progress
        self.total = total
    }

    private final class Counter: @unchecked Sendable {
        var value = 0
    }

    func run(_ steps: [PostgresPlanRenderer.Step], of version: VersionPlan) throws -> [String] {
        var notes: [String] = []
        for step in steps {
            completed.value += 1
            progress?(MigrationProgress(version: version.version, completed: completed.value, total: total, activity: MigrationExecutor.shorten(step.text)))
            if let note = try perform(step, of: version) { notes.append(note) }
        }
        try reconcileForeignKeys(try StoreLayout(storing: version.schema), version: version.version)
        return notes
    }

    /// Runs one step; returns a note for the report, if it makes one.
    private func perform(_ step: PostgresPlanRenderer.Step, of version: VersionPlan) throws -> String? {
        var notes: [String] = []
        do {
            switch step {
            case .statements(let statements):
                for statement in statements { try wrap(version.version, statement) { try connection.execute(statement) } }
            case .check(let check, let query, let countQuery):
                let result = try wrap(version.version, query) { try connection.query(query) }
                guard !result.rows.isEmpty else { return nil }
                let count = try wrap(version.version, countQuery) { try connection.scalar(countQuery) }.flatMap { Int($0) } ?? result.rows.count
                throw MigrationError.data(Self.dataError(check, version: version.version, migrationName: version.name, found: result, count: count))
            case .count(let note, let query):
                if let count = try wrap(version.version, query, { try connection.scalar(query) }).flatMap({ Int($0) }), count > 0 {
                    notes.append("\(count) \(note.type) object\(count == 1 ? "" : "s") \(note.what)")
                }
            case .reconcile(let table, let definition):
                try reconcileColumns(table, definition, version: version.version)
            case .linkCheck:
                try wrap(version.version, "SET CONSTRAINTS ALL IMMEDIATE") {
                    try connection.execute("SET CONSTRAINTS ALL IMMEDIATE")
                    try connection.execute("SET CONSTRAINTS ALL DEFERRED")
                }
            case .custom(let call, let columns, let snapshots):
                guard let body = customSteps[call.name] else {
                    throw MigrationError.customStepFailed(
                        version: version.version, name: call.name, type: call.type, key: "-", underlying: "no closure is registered under this name")
                }
                try wrap(version.version, "custom step \(call.name)") {
                    try PostgresCustomStep(call: call, columns: columns, snapshots: snapshots, version: version, body: body).run(on: connection)
                }
            case .withLookups(let lookups, let inner):
                for lookup in lookups { try fill(lookup, version: version) }
                defer { for lookup in lookups { try? connection.execute("DROP TABLE IF EXISTS pg_temp.\(SQLiteRenderer.identifier(lookup.table))") } }
                return try perform(inner, of: version)
            case .none:
                break
            }
        }
        return notes.first
    }

    /// Fills a lookup table: the function of every distinct input (or of every row's
    /// arguments), by the rule SQLite's function of the same name follows (`StoredForm`,
    /// `StoreDateFormat`, `EmbeddedValueCoding`).
    private func fill(_ lookup: PostgresPlanRenderer.Lookup, version: VersionPlan) throws {
        let table = "pg_temp." + SQLiteRenderer.identifier(lookup.table)
        try execute("CREATE TEMPORARY TABLE \(table) (\"input\" \(lookup.inputType.sql) PRIMARY KEY, \"output\" \(lookup.outputType.sql))", version.version)
        let result = try wrap(version.version, lookup.inputs) { try connection.query(lookup.inputs) }
        let output = PostgresValueCoding(columnType: lookup.outputType)
        let coders = lookup.perRow ? (old: EmbeddedValueCoding(schema: version.previousSchema), new: EmbeddedValueCoding(schema: version.schema)) : nil
        var pairs: [(String, String?)] = []
        for row in result.rows {
            guard let input = row[0] else { continue }
            if let coders {
                let arguments = zip(row.dropFirst(), result.types.dropFirst()).map { Self.storeValue($0, type: $1) }
                let value: StoreValue
                do {
                    value = try Self.evaluate(lookup, arguments, coders: coders)
                } catch {
                    throw PostgresMigrationError(
                        version: version.version,
                        error: PostgresError(kind: .statement, message: "cannot \(lookup.function == .embeddedGet ? "read" : "write") an embedded value: \(error)"),
                        statement: lookup.inputs)
                }
                pairs.append((input, try output.parameter(value)))
            } else {
                pairs.append((input, Self.evaluate(lookup.function, input)))
            }
        }
        var start = 0
        while start < pairs.count {
            let batch = pairs[start..<min(pairs.count, start + 1_000)]
            let parameters = batch.flatMap { [$0.0, $0.1] }
            let tuples = (0..<batch.count).map { "($\($0 * 2 + 1), $\($0 * 2 + 2))" }.joined(separator: ", ")
            let sql = "INSERT INTO \(table) (\"input\", \"output\") VALUES \(tuples)"
            _ = try wrap(version.version, sql) { try connection.query(sql, parameters) }
            start += 1_000
        }
        try execute("ANALYZE \(table)", version.version)
    }

    /// An embedded-JSON function of one row's arguments, as SQLite's computes it.
    private static func evaluate(
        _ lookup: PostgresPlanRenderer.Lookup, _ arguments: [StoreValue], coders: (old: EmbeddedValueCoding, new: EmbeddedValueCoding)
    ) throws -> StoreValue {
        switch lookup.function {
        case .embeddedGet:
            guard case .text(let json)? = arguments.first else { return .null }
            guard let type = coders.old.type(described: lookup.constants[1]) else { return .null }
            let value = try coders.old.storedValue(ofProperty: lookup.constants[0], type: type, in: try coders.old.parse(embeddedJSON: json))
            if case .list = value { return .null }
            if case .map = value { return .null }
            return value
        case .embeddedJSON:
            return .text(try coders.new.jsonText(ofType: lookup.constants[0], values: arguments))
        default:
            return .null
        }
    }

    /// `function` of one input (PostgreSQL text), as PostgreSQL text; nil when SQLite's
    /// function gives NULL.
    private static func evaluate(_ function: SQLFunction, _ input: String) -> String? {
        switch function {
        case .formatDate:
            return Int64(input).map { StoreDateFormat.string(microseconds: $0) }
        case .parseDate, .parseDecimal, .parseURL:
            let scalar: ScalarType = function == .parseDate ? .date : function == .parseDecimal ? .decimal128 : .url
            switch StoredForm.text(input, as: scalar) {
            case .success(.integer(let number)): return String(number)
            case .success(.text(let text)): return text
            default: return nil
            }
        default:
            return nil
        }
    }

    /// Drops the defaults the plan's `ADD COLUMN`s needed and sets NOT NULL as a fresh
    /// store declares it.
    private func reconcileColumns(_ table: String, _ definition: SQLTableDefinition, version: Int) throws {
        let sql = """
            SELECT a.attname, a.attnotnull, d.adbin IS NOT NULL FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum \
            WHERE a.attrelid = to_regclass($1) AND a.attnum > 0 AND NOT a.attisdropped AND a.attidentity = ''
            """
        let relation = PostgresLayout.qualified(table, in: schemaName)
        let rows = try wrap(version, sql) { try connection.query(sql, [relation]).rows }
        let declared = Dictionary(definition.columns.map { ($0.name, $0.isNotNull || $0.isPrimaryKey) }, uniquingKeysWith: { $1 })
        for row in rows {
            guard let name = row[0], let required = declared[name] else { continue }
            let column = "ALTER TABLE \(relation) ALTER COLUMN \(SQLiteRenderer.identifier(name))"
            if row[2] == "t" { try execute("\(column) DROP DEFAULT", version) }
            if required && row[1] != "t" { try execute("\(column) SET NOT NULL", version) }
            if !required && row[1] == "t" { try execute("\(column) DROP NOT NULL", version) }
        }
    }

    /// Adds the foreign keys of `layout` a table lacks: those of tables the plan created, and
    /// those a dropped table took with it (`DROP TABLE … CASCADE`). Adding one checks every
    /// row, so a link to a missing object stops the migration here.
    private func reconcileForeignKeys(_ layout: StoreLayout, version: Int) throws {
        let sql = """
            SELECT c.relname, a.attname, t.relname, ta.attname FROM pg_constraint k \
            JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace \
            JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1] \
            JOIN pg_class t ON t.oid = k.confrelid JOIN pg_attribute ta ON ta.attrelid = k.confrelid AND ta.attnum = k.confkey[1] \
            WHERE k.contype = 'f' AND n.nspname = $1
            """
        let existing = Set(try wrap(version, sql) { try connection.query(sql, [schemaName]).rows }.map { $0.map { $0 ?? "" }.joined(separator: "\u{0}") })
        let definitions = layout.tables.flatMap { [$0.definition] + $0.sideTables.map(\.definition) }
        for definition in definitions {
            for case .foreignKey(let column, let key) in definition.constraints
            where !existing.contains([definition.name, column, key.table, key.column].joined(separator: "\u{0}")) {
                try execute(
                    "ALTER TABLE \(SQLiteRenderer.identifier(definition.name)) ADD FOREIGN KEY (\(SQLiteRenderer.identifier(column))) REFERENCES \(SQLiteRenderer.identifier(key.table)) (\(SQLiteRenderer.identifier(key.column))) "
                        + "ON DELETE \(key.onDelete.rawValue) DEFERRABLE INITIALLY DEFERRED",
                    version
                )
            }
        }
    }

    private func execute(_ sql: String, _ version: Int) throws {
        try wrap(version, sql) { try connection.execute(sql) }
    }

    /// Records `version` as the store's schema and in the applied migrations.
    func record(_ version: VersionPlan, duration: Duration, now: Date) throws {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        try wrap(version.version, "record the migration") {
            try PostgresMetadata.record(connection, version: version, schemaName: schemaName, milliseconds: Int(milliseconds), now: now)
        }
    }

    /// Objects per table of `schema`.
    func counts(_ schema: Schema?) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for object in schema?.objects ?? [] where !object.isEmbedded {
            let sql = "SELECT count(*) FROM \(PostgresLayout.qualified(object.name, in: schemaName))"
            result[object.name] = try wrap(0, sql) { try connection.scalar(sql) }.flatMap { Int($0) } ?? 0
        }
        return result
    }

    /// The data error of `check`, from the offending objects its query `found` (key, value).
    static func dataError(_ check: DataCheck, version: Int, migrationName: String, found result: PostgresResult, count: Int) -> MigrationError.DataError {
        MigrationError.DataError(
            version: version, migrationName: migrationName, type: check.type, property: check.property, step: check.step, location: check.location,
            problem: check.problem, hint: check.hint,
            examples: result.rows.map { row in
                let key = storeValue(row[0], type: result.types[0])
                let value = row.count > 1 ? storeValue(row[1], type: result.types[1]) : nil
                return MigrationError.Example(key: key.readable, value: value.map { check.valueIsProse ? $0.prose : $0.readable } ?? "")
            },
            count: count)
    }

    /// A value of a check's result in its stored form, by the column's type OID.
    private static func storeValue(_ text: String?, type: UInt32) -> StoreValue {
        guard let text else { return .null }
        switch type {
        case 20, 21, 23: return Int64(text).map(StoreValue.integer) ?? .text(text)
        case 700, 701: return Double(text).map(StoreValue.real) ?? .text(text)
        case 16: return .integer(text == "t" ? 1 : 0)
        case 17: return (try? PostgresValueCoding(.scalar(.data)).value(fromText: String(text.dropFirst(2)))) ?? .text(text)
        default: return .text(text)
        }
    }

    /// Runs `body`; a server error becomes a migration error naming the version and statement,
    /// a broken link a dangling-link error.
    func wrap<T>(_ version: Int, _ statement: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError {
            if error.sqlState == "23503" {
                throw MigrationError.danglingLinks(version: version, details: [[error.message, error.detail].compactMap { $0 }.joined(separator: ": ")])
            }
            throw PostgresMigrationError(version: version, error: error, statement: statement)
        }
    }
}

/// PostgreSQL refused a statement of a migration; the transaction was rolled back.
public struct PostgresMigrationError: Error, CustomStringConvertible {
    public var version: Int
    public var error: PostgresError
    public var statement: String

    public var description: String {
        var text = "migration to version \(version) failed on PostgreSQL: \(error.message)"
        if !error.sqlState.isEmpty { text += " (SQLSTATE \(error.sqlState))" }
        if let detail = error.detail { text += "; \(detail)" }
        text += " while executing `\(MigrationExecutor.shorten(statement))`. Nothing was changed."
        text +=
            "\n  hint: "
            + (error.kind == .connection
                ? "the connection to the server broke; check the server and run the migration again"
                : error.hint ?? "this is unexpected for a planned migration; please report it with the plan (`remodel migrate --dry-run`)")
        return text
    }
}
