import Foundation
import RemodelCore
import RemodelLayout
import RemodelMigrate
import RemodelPlanning
import RemodelStore

/// An online migration in progress, as the store records it (`_remodel_online`).
public struct PostgresOnlineState: Sendable {
    public enum Phase: String, Sendable {
        /// The new shape is added and being filled; only the previous app may use the store.
        case expanding
        /// Both versions' apps read and write the store; `--complete` or `--abort` ends it.
        case expanded
        /// Finished: only the views the new app may still use are left, dropped by the next
        /// migration.
        case complete
    }

    /// How far the backfill of one table is, in pages of the table as it was when it began.
    public struct Backfill: Sendable {
        public var table: String
        public var done: Int
        public var total: Int
        public var rows: Int
    }

    public var phase: Phase
    public var fromVersion: Int
    public var toVersion: Int
    /// The storage hash of the version the expand leads to.
    public var schemaHash: String
    /// The migrations' checksums, in order: the history the expand follows.
    public var checksums: String
    /// The schema of views through which the new version's app reads and writes.
    public var viewSchema: String
    /// The views the online migration before this one left, which apps of the store's
    /// version may still use: dropped at this one's contract.
    public var previousViews: String?
    public var backfill: [Backfill]

    static let table = "_remodel_online"

    /// The state in `connection`'s store, or nil when none was ever recorded.
    static func read(_ connection: PostgresConnection) throws -> PostgresOnlineState? {
        let table = PostgresLayout.qualified(Self.table, in: connection.target.schema)
        guard try connection.scalar("SELECT to_regclass($1) IS NOT NULL", [table]) == "t" else { return nil }
        var entries: [String: String] = [:]
        for row in try connection.query("SELECT \"key\", \"value\" FROM \(table)").rows {
            if let key = row[0], let value = row[1] { entries[key] = value }
        }
        guard let phase = entries["phase"].flatMap(Phase.init), let from = entries["from"].flatMap(Int.init), let to = entries["to"].flatMap(Int.init) else { return nil }
        var backfill: [Backfill] = []
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) where key.hasPrefix("backfill:") {
            let numbers = value.split(separator: "/").compactMap { Int($0) }
            guard numbers.count == 3 else { continue }
            backfill.append(Backfill(table: String(key.dropFirst("backfill:".count)), done: numbers[0], total: numbers[1], rows: numbers[2]))
        }
        return PostgresOnlineState(
            phase: phase, fromVersion: from, toVersion: to, schemaHash: entries["hash"] ?? "", checksums: entries["checksums"] ?? "",
            viewSchema: entries["views"] ?? "", previousViews: entries["previous"], backfill: backfill)
    }

    /// The state of the store at `target`, or nil.
    public static func read(at target: PostgresTarget) throws -> PostgresOnlineState? {
        try read(try PostgresConnection(target))
    }

    static func createTable(_ connection: PostgresConnection) throws {
        let table = PostgresLayout.qualified(Self.table, in: connection.target.schema)
        try connection.execute("CREATE TABLE \(table) (\"key\" \(PostgresLayout.text) PRIMARY KEY, \"value\" \(PostgresLayout.text) NOT NULL)")
    }

    static func write(_ connection: PostgresConnection, _ entries: [(String, String)]) throws {
        let table = PostgresLayout.qualified(Self.table, in: connection.target.schema)
        for (key, value) in entries {
            try connection.query(
                "INSERT INTO \(table) (\"key\", \"value\") VALUES ($1, $2) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = excluded.\"value\"", [key, value])
        }
    }
}

/// How the expand phase fills the new columns: batches of at most `maxRows` objects that take
/// about `batchTime` each (the number of pages per batch adapts), each its own transaction,
/// with a pause of `pause` × the batch's time after it, so that the app's own queries keep most
/// of the server and never wait for a lock longer than one batch.
public struct PostgresBackfillPolicy: Sendable {
    public var batchTime: Duration
    public var maxRows: Int
    public var pause: Double

    public init(batchTime: Duration = .milliseconds(100), maxRows: Int = 10_000, pause: Double = 0.1) {
        self.batchTime = batchTime
        self.maxRows = maxRows
        self.pause = pause
    }

    public static let standard = PostgresBackfillPolicy()
}

/// What an online phase did.
public struct PostgresOnlineReport: Sendable {
    public enum Outcome: Sendable {
        /// The expand phase finished now: both versions' apps may use the store.
        case expanded
        /// The expand phase had finished before; nothing was done.
        case alreadyExpanded
        /// The store is at the new version.
        case completed
        /// The store is back at the previous version, without the new shape.
        case aborted
        /// There was nothing to migrate.
        case upToDate
    }

    public var outcome: Outcome
    /// The store, for messages: its server, database and schema.
    public var store: String
    public var fromVersion: Int
    public var toVersion: Int
    public var viewSchema: String
    /// Objects written by the backfill, per table.
    public var backfilled: [(table: String, rows: Int)]
    public var duration: Duration
}

/// Progress of the expand phase's backfill.
public struct PostgresOnlineProgress: Sendable {
    public var table: String
    public var pagesDone: Int
    public var pagesTotal: Int
    public var rows: Int
}

/// Why an online phase cannot start or go on; each says what to run instead.
public enum PostgresOnlineError: Error, CustomStringConvertible {
    case unsupported(store: String, reasons: [String])
    case inProgress(store: String, state: PostgresOnlineState, wanted: String)
    case notInProgress(store: String, wanted: String)
    case notExpanded(store: String, PostgresOnlineState)
    case historyChanged(store: String, PostgresOnlineState)
    case backfillRefused(store: String, toVersion: Int, problem: String)
    case indexFailed(store: String, index: String, problem: String)

    public var description: String {
        switch self {
        case .unsupported(let store, let reasons):
            return "\(store) cannot be migrated online: "
                + reasons.joined(separator: "; ")
                + ". Nothing was changed.\n  hint: migrate that version with 'remodel migrate --store URL' (one transaction; the app's queries on the tables it rewrites wait for it), or release the change in two versions whose steps read only the object they change"
        case .inProgress(let store, let state, let wanted):
            return
                "\(store) is being migrated online from version \(state.fromVersion) to \(state.toVersion) (\(state.phase.rawValue)); \(wanted) cannot run meanwhile. Nothing was changed.\n  hint: "
                + (state.phase == .expanding ? "finish the expand phase with 'remodel migrate --store URL --online' (it goes on where it stopped), then " : "")
                + "finish it with 'remodel migrate --store URL --complete' once no app of version \(state.fromVersion) runs, or undo it with '--abort'"
        case .notInProgress(let store, let wanted):
            return
                "\(store) has no online migration in progress, so there is nothing to \(wanted). Nothing was changed.\n  hint: start one with 'remodel migrate --store URL --online'"
        case .notExpanded(let store, let state):
            return
                "the expand phase of \(store) to version \(state.toVersion) has not finished (\(Self.progress(state))). Nothing was changed.\n  hint: run 'remodel migrate --store URL --online' again: it goes on where it stopped"
        case .historyChanged(let store, let state):
            return
                "\(store) is being migrated online from version \(state.fromVersion) to \(state.toVersion) by another history than this one (its migration files changed since). Nothing was changed.\n  hint: use the migrations the expand phase was started with, or '--abort' with them"
        case .backfillRefused(let store, let version, let problem):
            return
                "the expand phase of \(store) to version \(version) stopped: \(problem)\n  hint: the store is still at the previous version and both versions' triggers keep it consistent; fix those objects, then run 'remodel migrate --store URL --online' again, or '--abort'"
        case .indexFailed(let store, let index, let problem):
            return
                "the expand phase of \(store) could not build the index \(index): \(problem)\n  hint: the store is still at the previous version; fix the objects, then run 'remodel migrate --store URL --online' again, or '--abort'"
        }
    }

    static func progress(_ state: PostgresOnlineState) -> String {
        let done = state.backfill.reduce(0) { $0 + $1.done }
        let total = state.backfill.reduce(0) { $0 + $1.total }
        return total == 0 ? "backfill not started" : "backfill \(done * 100 / max(total, 1))% of \(total) pages"
    }
}

extension PostgresMigrator {
    /// The expand phase of an online migration to `version` (default: the newest): the new
    /// version's columns and tables beside the old ones, filled in small batches while the
    /// previous app runs, kept in step both ways by triggers, with their constraints and
    /// indexes built without blocking writes. Afterwards apps of both versions use the store;
    /// `complete` ends the phase. Killed at any moment, running it again goes on.
    public func expand(
        at target: PostgresTarget, to version: Int? = nil, now: Date = Date(), lock: PostgresLockPolicy = .standard,
        backfill policy: PostgresBackfillPolicy = .standard, onLockWait: (@Sendable (PostgresLockWait) -> Void)? = nil,
        progress: (@Sendable (PostgresOnlineProgress) -> Void)? = nil
    ) throws -> PostgresOnlineReport {
        let started = ContinuousClock.now
        let connection = try PostgresConnection(target)
        let store = store(of: connection)
        // Batches by TID ranges need PostgreSQL 14's TID range scans (else each batch reads the table).
        let serverVersion = Int(try connection.scalar("SHOW server_version_num") ?? "") ?? 0
        guard serverVersion >= 140_000 else {
            throw PostgresOnlineError.unsupported(
                store: store,
                reasons: ["the server is PostgreSQL \(serverVersion / 10_000); an online migration needs PostgreSQL 14 or later (its backfill reads each batch by TID range)"])
        }
        // One expand at a time, for its whole run: a second waits here, then goes on from there.
        try connection.query("SELECT pg_advisory_lock(hashtext($1))", ["remodel-online:" + target.schema])
        var state = try PostgresOnlineState.read(connection)
        var layout: PostgresOnlineLayout
        if let current = state, current.phase != .complete {
            if let version, version != current.toVersion {
                throw PostgresOnlineError.inProgress(store: store, state: current, wanted: "an online migration to version \(version)")
            }
            layout = try onlineLayout(for: current, schemaName: target.schema, store: store, now: now)
            if current.phase == .expanded {
                return PostgresOnlineReport(
                    outcome: .alreadyExpanded, store: store, fromVersion: current.fromVersion, toVersion: current.toVersion, viewSchema: current.viewSchema, backfilled: [],
                    duration: ContinuousClock.now - started)
            }
        } else {
            let info = try self.state(at: target)
            try check(info, target: target)
            let plan = try migrator.plan(from: info.version, to: version, now: now)
            guard !plan.isEmpty else {
                return PostgresOnlineReport(
                    outcome: .upToDate, store: store, fromVersion: info.version, toVersion: info.version, viewSchema: "", backfilled: [], duration: ContinuousClock.now - started)
            }
            layout = try Self.onlineLayout(plan.versions, schemaName: target.schema, store: store)
            // Objects the plan's checks refuse stop it here, before anything changes.
            for check in layout.shape.checks {
                if let error = try dataError(check, layout: layout, connection: connection) { throw MigrationError.data(error) }
            }
            try withLockRetries(at: target, lock: lock, onLockWait: onLockWait) {
                try createShape(layout, plan: plan, connection: PostgresConnection(target), lock: lock)
            }
            state = try PostgresOnlineState.read(connection)
        }
        guard let current = state else { throw PostgresOnlineError.notInProgress(store: store, wanted: "expand") }
        let backfilled = try runBackfill(
            layout, state: current, connection: connection, store: store, lock: lock, policy: policy, onLockWait: onLockWait, progress: progress)
        try finishExpand(layout, connection: connection, store: store, lock: lock, onLockWait: onLockWait)
        return PostgresOnlineReport(
            outcome: .expanded, store: store, fromVersion: current.fromVersion, toVersion: current.toVersion, viewSchema: layout.viewSchema, backfilled: backfilled,
            duration: ContinuousClock.now - started)
    }

    /// The contract phase: once no app of the previous version runs, the old shape goes and the
    /// store is at the new version, in one short transaction of catalog changes.
    public func complete(
        at target: PostgresTarget, now: Date = Date(), lock: PostgresLockPolicy = .standard, onLockWait: (@Sendable (PostgresLockWait) -> Void)? = nil
    ) throws -> PostgresOnlineReport {
        let started = ContinuousClock.now
        let (store, state, layout) = try inProgress(at: target, wanted: "complete", now: now)
        guard state.phase == .expanded else { throw PostgresOnlineError.notExpanded(store: store, state) }
        let plan = try migrator.plan(from: state.fromVersion, to: state.toVersion, now: now)
        try withLockRetries(at: target, lock: lock, onLockWait: onLockWait) {
            let connection = try PostgresConnection(target)
            try connection.transaction {
                try begin(connection, lock: lock)
                guard let again = try PostgresOnlineState.read(connection), again.phase == .expanded else { return }
                if let previous = again.previousViews { try connection.execute("DROP SCHEMA IF EXISTS \(SQLiteRenderer.identifier(previous)) CASCADE") }
                try contract(layout, plan: plan, connection: connection, now: now)
            }
        }
        return PostgresOnlineReport(
            outcome: .completed, store: store, fromVersion: state.fromVersion, toVersion: state.toVersion, viewSchema: layout.viewSchema, backfilled: [],
            duration: ContinuousClock.now - started)
    }

    /// Undoes an expand phase that has not been completed: the new columns, tables, triggers and
    /// views go, and the store is as the previous version left it, with what either app wrote.
    public func abort(
        at target: PostgresTarget, now: Date = Date(), lock: PostgresLockPolicy = .standard, onLockWait: (@Sendable (PostgresLockWait) -> Void)? = nil
    ) throws -> PostgresOnlineReport {
        let started = ContinuousClock.now
        let (store, state, layout) = try inProgress(at: target, wanted: "abort", now: now)
        try withLockRetries(at: target, lock: lock, onLockWait: onLockWait) {
            let connection = try PostgresConnection(target)
            try connection.transaction {
                try begin(connection, lock: lock)
                guard let again = try PostgresOnlineState.read(connection), again.phase != .complete else { return }
                try connection.execute("DROP SCHEMA IF EXISTS \(SQLiteRenderer.identifier(layout.viewSchema)) CASCADE")
                for table in layout.tables {
                    if table.isCreated {
                        try connection.execute("DROP TABLE IF EXISTS \(layout.qualified(table.physical)) CASCADE")
                        continue
                    }
                    for column in table.columns.filter({ !$0.isShared }).map(\.physical) + [layout.readyColumn] {
                        try connection.execute("ALTER TABLE \(layout.qualified(table.physical)) DROP COLUMN IF EXISTS \(SQLiteRenderer.identifier(column))")
                    }
                }
                for index in layout.newIndexes { try connection.execute("DROP INDEX IF EXISTS \(layout.qualified(index.temporaryName))") }
                for key in layout.newForeignKeys {
                    try connection.execute(
                        "ALTER TABLE IF EXISTS \(layout.qualified(key.table)) DROP CONSTRAINT IF EXISTS \(SQLiteRenderer.identifier(PostgresOnlineLayout.foreignKeyName(key)))")
                }
                // What the new app left empty gets the old property's default (or an empty value),
                // so that the previous version's NOT NULL holds again.
                for (table, column, fill) in layout.relaxed {
                    let name = SQLiteRenderer.identifier(column)
                    try connection.execute("UPDATE \(layout.qualified(table)) SET \(name) = \(fill) WHERE \(name) IS NULL")
                    try connection.execute("ALTER TABLE \(layout.qualified(table)) ALTER COLUMN \(name) SET NOT NULL")
                }
                try connection.execute("DROP TABLE \(layout.qualified(PostgresOnlineState.table))")
                // The views of the online migration before, which apps of the store's version
                // may still use, stay recorded for the next migration to drop.
                if let previous = again.previousViews {
                    try PostgresOnlineState.createTable(connection)
                    try PostgresOnlineState.write(
                        connection,
                        [("phase", PostgresOnlineState.Phase.complete.rawValue), ("from", String(state.fromVersion)), ("to", String(state.fromVersion)), ("views", previous)])
                }
            }
        }
        return PostgresOnlineReport(
            outcome: .aborted, store: store, fromVersion: state.toVersion, toVersion: state.fromVersion, viewSchema: layout.viewSchema, backfilled: [],
            duration: ContinuousClock.now - started)
    }

    // MARK: - Phases

    /// The online migration in progress at `target` and its layout; `wanted` (what the caller
    /// does) names it in the error when there is none.
    private func inProgress(at target: PostgresTarget, wanted: String, now: Date) throws -> (store: String, state: PostgresOnlineState, layout: PostgresOnlineLayout) {
        let connection = try PostgresConnection(target)
        let store = "\(connection.displayName) (schema \(target.schema))"
        guard let state = try PostgresOnlineState.read(connection), state.phase != .complete else {
            throw PostgresOnlineError.notInProgress(store: store, wanted: wanted)
        }
        return (store, state, try onlineLayout(for: state, schemaName: target.schema, store: store, now: now))
    }

    /// The layout of the expand recorded in `state`, from this history, which must be the one
    /// it was started with.
    private func onlineLayout(for state: PostgresOnlineState, schemaName: String, store: String, now: Date) throws -> PostgresOnlineLayout {
        let plan = try migrator.plan(from: state.fromVersion, to: state.toVersion, now: now)
        guard Self.checksums(plan) == state.checksums else { throw PostgresOnlineError.historyChanged(store: store, state) }
        return try Self.onlineLayout(plan.versions, schemaName: schemaName, store: store)
    }

    static func checksums(_ plan: MigrationPlan) -> String {
        plan.versions.map { "\($0.version):\($0.checksum)" }.joined(separator: ",")
    }

    static func onlineLayout(_ versions: [VersionPlan], schemaName: String, store: String) throws -> PostgresOnlineLayout {
        do {
            let shape = try PostgresOnlineShape(versions: versions, schemaName: schemaName)
            return try PostgresOnlineLayout(shape: shape, toVersion: versions.last?.version ?? 0)
        } catch let reason as PostgresOnlineShape.Unsupported {
            throw PostgresOnlineError.unsupported(store: store, reasons: [reason.description])
        } catch let error as UnsupportedSchema {
            throw PostgresStoreError.unsupportedSchema(error.message)
        }
    }

    /// The start of every transaction that changes the store's shape: the advisory lock every
    /// change of the store takes (waited for without limit), then `lock_timeout` for tables.
    private func begin(_ connection: PostgresConnection, lock: PostgresLockPolicy) throws {
        try connection.execute("SET LOCAL lock_timeout = 0")
        try PostgresStore.lock(connection)
        try connection.execute("SET LOCAL lock_timeout = \(lock.milliseconds)")
    }

    /// The first step of the expand, in one transaction: the view schema with Remodel's
    /// functions, the new columns and tables, the constraints NOT VALID, the triggers, the
    /// views, and the state.
    private func createShape(_ layout: PostgresOnlineLayout, plan: MigrationPlan, connection: PostgresConnection, lock: PostgresLockPolicy) throws {
        try connection.transaction {
            try begin(connection, lock: lock)
            let info = try PostgresStore.info(connection) { _ in nil }
            // The views a completed online migration left stay: apps of the version it led to
            // still use them, until this migration's contract (when none of them runs).
            var previous: String?
            if let existing = try PostgresOnlineState.read(connection) {
                if existing.phase != .complete { return }  // another run started it meanwhile
                previous = existing.viewSchema.isEmpty ? nil : existing.viewSchema
            }
            try connection.execute("DROP TABLE IF EXISTS \(layout.qualified(PostgresOnlineState.table))")
            guard info.version == plan.fromVersion else { throw MigrationError.storeChanged(expected: plan.fromVersion, found: info.version) }
            let views = SQLiteRenderer.identifier(layout.viewSchema)
            try connection.execute("DROP SCHEMA IF EXISTS \(views) CASCADE")
            try connection.execute("CREATE SCHEMA \(views)")
            // Reaching the schema reveals nothing by itself: what a role may do with a view is
            // what it may do with the table under it (below).
            try connection.execute("GRANT USAGE ON SCHEMA \(views) TO PUBLIC")
            for definition in PostgresFunctions.definitions { try connection.execute(layout.relocated(definition)) }
            try PostgresOnlineState.createTable(connection)
            var entries: [(String, String)] = [
                ("phase", PostgresOnlineState.Phase.expanding.rawValue), ("from", String(plan.fromVersion)), ("to", String(plan.toVersion)),
                ("hash", plan.versions.last?.schemaHash ?? ""), ("checksums", Self.checksums(plan)), ("views", layout.viewSchema),
            ]
            if let previous { entries.append(("previous", previous)) }
            for table in layout.tables {
                let physical = layout.qualified(table.physical)
                if table.isCreated {
                    try connection.execute(layout.createStatement(table))
                    continue
                }
                for column in table.columns where !column.isShared {
                    try connection.execute("ALTER TABLE \(physical) ADD COLUMN \(SQLiteRenderer.identifier(column.physical)) \(column.type.sql)")
                }
                if table.needsBackfill {
                    try connection.execute("ALTER TABLE \(physical) ADD COLUMN \(SQLiteRenderer.identifier(layout.readyColumn)) boolean")
                }
                // The previous version's writes (and those of any other session) and the new
                // version's each have a trigger; the condition is checked before a function
                // is called, and the backfill, which computes in its own statement, calls none.
                let version = "current_setting('remodel.version', true)"
                for (body, side, condition) in [
                    (table.oldTrigger, "old", "\(version) IS DISTINCT FROM '\(layout.toVersion)' AND current_setting('remodel.backfill', true) IS DISTINCT FROM 'on'"),
                    (table.newTrigger, "new", "\(version) = '\(layout.toVersion)'"),
                ] {
                    guard let body else { continue }
                    guard !body.contains("$remodel_sync$") else {
                        throw PostgresOnlineError.unsupported(
                            store: store(of: connection), reasons: ["a value of the plan contains '$remodel_sync$', which would end the trigger's body"])
                    }
                    let function = PostgresLayout.qualified(PostgresLayout.indexName("__remodel_\(side)_" + table.physical), in: layout.viewSchema)
                    try connection.execute("CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $remodel_sync$\n\(body)\n$remodel_sync$")
                    try connection.execute(
                        "CREATE TRIGGER \(SQLiteRenderer.identifier(Self.triggerName(layout, side))) BEFORE INSERT OR UPDATE ON \(physical) FOR EACH ROW WHEN (\(condition)) EXECUTE FUNCTION \(function)()"
                    )
                }
                if table.needsBackfill {
                    let pages = try connection.scalar("SELECT pg_relation_size($1::regclass) / current_setting('block_size')::bigint", [physical]) ?? "0"
                    entries.append(("backfill:\(table.physical)", "0/\(pages)/0"))
                }
            }
            for (table, columns) in layout.requiredChecks {
                let condition = columns.map { "\(SQLiteRenderer.identifier($0)) IS NOT NULL" }.joined(separator: " AND ")
                try connection.execute(
                    "ALTER TABLE \(layout.qualified(table)) ADD CONSTRAINT \(SQLiteRenderer.identifier(layout.requiredCheck)) CHECK (\(condition)) NOT VALID")
            }
            for (table, column, _) in layout.relaxed {
                try connection.execute("ALTER TABLE \(layout.qualified(table)) ALTER COLUMN \(SQLiteRenderer.identifier(column)) DROP NOT NULL")
            }
            for key in layout.newForeignKeys {
                try connection.execute(
                    "ALTER TABLE \(layout.qualified(key.table)) ADD CONSTRAINT \(SQLiteRenderer.identifier(PostgresOnlineLayout.foreignKeyName(key))) FOREIGN KEY (\(SQLiteRenderer.identifier(key.column))) REFERENCES \(layout.qualified(key.target)) (\(SQLiteRenderer.identifier(key.targetColumn))) ON DELETE \(key.onDelete) DEFERRABLE INITIALLY DEFERRED NOT VALID"
                )
            }
            // A view checks the querying role's rights on its table itself from PostgreSQL 15;
            // before, it checks its owner's, so it is granted what the table grants.
            let invokerViews = (Int(try connection.scalar("SHOW server_version_num") ?? "") ?? 0) >= 150_000
            for table in layout.tables {
                try connection.execute(layout.viewStatement(table, securityInvoker: invokerViews))
                try grantLikeTable(table, layout: layout, invokerViews: invokerViews, connection: connection)
            }
            try PostgresOnlineState.write(connection, entries)
        }
    }

    /// Lets the roles that may read and write a table do the same through its view, and no
    /// other role.
    private func grantLikeTable(_ table: PostgresOnlineLayout.Table, layout: PostgresOnlineLayout, invokerViews: Bool, connection: PostgresConnection) throws {
        let view = PostgresLayout.qualified(table.name, in: layout.viewSchema)
        if invokerViews {
            try connection.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON \(view) TO PUBLIC")
            return
        }
        let grants = try connection.query(
            "SELECT grantee, privilege_type FROM information_schema.role_table_grants WHERE table_schema = $1 AND table_name = $2 AND privilege_type IN ('SELECT', 'INSERT', 'UPDATE', 'DELETE')",
            [layout.schemaName, table.physical])
        for row in grants.rows {
            guard let grantee = row[0], let privilege = row[1] else { continue }
            try connection.execute("GRANT \(privilege) ON \(view) TO \(grantee == "PUBLIC" ? "PUBLIC" : SQLiteRenderer.identifier(grantee))")
        }
    }

    private func store(of connection: PostgresConnection) -> String { "\(connection.displayName) (schema \(connection.target.schema))" }

    static func triggerName(_ layout: PostgresOnlineLayout, _ side: String) -> String { "__remodel_\(side)_v\(layout.toVersion)" }

    /// Fills the new columns of every table that has some, from where the last run stopped.
    /// The tables are filled at once, each on a connection of its own (the default mode's one
    /// transaction does one table after another on one server process).
    private func runBackfill(
        _ layout: PostgresOnlineLayout, state: PostgresOnlineState, connection: PostgresConnection, store: String, lock: PostgresLockPolicy,
        policy: PostgresBackfillPolicy, onLockWait: (@Sendable (PostgresLockWait) -> Void)?, progress: (@Sendable (PostgresOnlineProgress) -> Void)?
    ) throws -> [(table: String, rows: Int)] {
        let results = Results()
        let target = connection.target
        // One line of progress for all of them: pages and objects done of the tables together.
        let tables = state.backfill.map(\.table).joined(separator: ", ")
        let totals = Totals(state.backfill)
        let report: (@Sendable (PostgresOnlineProgress) -> Void)? = Self.aggregated(progress, totals: totals, tables: tables)
        DispatchQueue.concurrentPerform(iterations: state.backfill.count) { index in
            do {
                let rows = try backfill(
                    state.backfill[index], layout: layout, connection: PostgresConnection(target), store: store, lock: lock, policy: policy, onLockWait: onLockWait,
                    progress: report)
                results.set(index, .success(rows))
            } catch {
                results.set(index, .failure(error))
            }
        }
        return try state.backfill.indices.map { (state.backfill[$0].table, try results.get($0)) }
    }

    private static func aggregated(
        _ progress: (@Sendable (PostgresOnlineProgress) -> Void)?, totals: Totals, tables: String
    ) -> (@Sendable (PostgresOnlineProgress) -> Void)? {
        guard let progress else { return nil }
        return { step in progress(totals.update(step, tables: tables)) }
    }

    private final class Totals: @unchecked Sendable {
        private let lock = NSLock()
        private var latest: [String: PostgresOnlineProgress] = [:]
        init(_ entries: [PostgresOnlineState.Backfill]) {
            for entry in entries { latest[entry.table] = PostgresOnlineProgress(table: entry.table, pagesDone: entry.done, pagesTotal: entry.total, rows: entry.rows) }
        }
        func update(_ step: PostgresOnlineProgress, tables: String) -> PostgresOnlineProgress {
            lock.lock()
            defer { lock.unlock() }
            latest[step.table] = step
            return PostgresOnlineProgress(
                table: tables, pagesDone: latest.values.reduce(0) { $0 + $1.pagesDone }, pagesTotal: latest.values.reduce(0) { $0 + $1.pagesTotal },
                rows: latest.values.reduce(0) { $0 + $1.rows })
        }
    }

    private final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int: Result<Int, any Error>] = [:]
        func set(_ index: Int, _ value: Result<Int, any Error>) {
            lock.lock()
            defer { lock.unlock() }
            values[index] = value
        }
        func get(_ index: Int) throws -> Int {
            lock.lock()
            defer { lock.unlock() }
            return try values[index]?.get() ?? 0
        }
    }

    /// Fills one table's new columns, from where the last run stopped; returns the objects written.
    private func backfill(
        _ entry: PostgresOnlineState.Backfill, layout: PostgresOnlineLayout, connection: PostgresConnection, store: String, lock: PostgresLockPolicy,
        policy: PostgresBackfillPolicy, onLockWait: (@Sendable (PostgresLockWait) -> Void)?, progress: (@Sendable (PostgresOnlineProgress) -> Void)?
    ) throws -> Int {
        var done = entry.done
        var rows = entry.rows
        var pages = 8
        let table = layout.qualified(entry.table)
        guard let shape = layout.tables.first(where: { $0.physical == entry.table && !$0.isCreated }) else { return 0 }
        let ready = SQLiteRenderer.identifier(layout.readyColumn)
        while done < entry.total {
            let end = min(entry.total, done + pages)
            let started = ContinuousClock.now
            let range = "ctid >= '(\(done),0)'::tid AND ctid < '(\(end),0)'::tid AND \(ready) IS NULL"
            var touched = 0
            do {
                try connection.transaction {
                    try connection.execute("SET LOCAL lock_timeout = \(lock.milliseconds)")
                    // The new columns computed here, in one statement: the triggers stand aside.
                    try connection.execute("SET LOCAL remodel.backfill = 'on'")
                    // A batch lost in a crash is done again (its progress goes with it): its
                    // commit need not wait for the disk.
                    try connection.execute("SET LOCAL synchronous_commit = off")
                    if !shape.checks.isEmpty,
                        try connection.scalar("SELECT count(*) FROM \(table) WHERE \(range) AND (\(shape.checks.map { "(\($0))" }.joined(separator: " OR ")))") != "0"
                    {
                        throw PostgresError(kind: .statement, sqlState: "23514", message: "a check of the plan failed")
                    }
                    touched = try connection.query("UPDATE \(table) SET \((shape.backfill + ["\(ready) = true"]).joined(separator: ", ")) WHERE \(range)").affectedRows
                    try PostgresOnlineState.write(connection, [("backfill:\(entry.table)", "\(end)/\(entry.total)/\(rows + touched)")])
                }
            } catch let error as PostgresError where error.sqlState == "55P03" {
                Thread.sleep(forTimeInterval: Double(lock.milliseconds) / 1000)
                continue
            } catch let error as PostgresError where error.sqlState == "23514" {
                var problems: [String] = []
                for check in layout.shape.checks where check.table == entry.table {
                    if let found = try dataError(check, layout: layout, connection: connection) {
                        problems.append(MigrationError.data(found).description.components(separatedBy: " Nothing was changed.").first ?? "")
                    }
                }
                throw PostgresOnlineError.backfillRefused(
                    store: store, toVersion: layout.toVersion, problem: problems.isEmpty ? error.message : problems.joined(separator: "; "))
            }
            let elapsed = ContinuousClock.now - started
            done = end
            rows += touched
            progress?(PostgresOnlineProgress(table: entry.table, pagesDone: done, pagesTotal: entry.total, rows: rows))
            // Keep each batch near its time and under its number of rows.
            if elapsed > policy.batchTime || touched > policy.maxRows {
                pages = max(1, pages / 2)
            } else if elapsed * 2 < policy.batchTime && touched * 2 <= policy.maxRows {
                pages *= 2
            }
            Thread.sleep(forTimeInterval: Self.seconds(elapsed) * policy.pause)
        }
        return rows
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Validates the constraints added NOT VALID and builds the indexes concurrently (neither
    /// blocks the app's writes), then marks the store expanded.
    private func finishExpand(
        _ layout: PostgresOnlineLayout, connection: PostgresConnection, store: String, lock: PostgresLockPolicy, onLockWait: (@Sendable (PostgresLockWait) -> Void)?
    ) throws {
        try withLockRetries(at: connection.target, lock: lock, onLockWait: onLockWait) {
            try connection.execute("SET lock_timeout = \(lock.milliseconds)")
            // Each table on a connection of its own, at once: the check validated (one scan), then
            // the rows the backfill replaced vacuumed and the new columns' statistics taken, so
            // that the contract does not meet autovacuum (which a lock request waits a second
            // for) and the new version's queries are planned on its columns.
            let checked = Set(layout.requiredChecks.map(\.table))
            let tables = layout.tables.filter { !$0.isCreated && ($0.needsBackfill || checked.contains($0.physical)) }.map(\.physical)
            let results = Results()
            let target = connection.target
            DispatchQueue.concurrentPerform(iterations: tables.count) { index in
                do {
                    let session = try PostgresConnection(target)
                    try session.execute("SET lock_timeout = \(lock.milliseconds)")
                    if checked.contains(tables[index]) {
                        try session.execute("ALTER TABLE \(layout.qualified(tables[index])) VALIDATE CONSTRAINT \(SQLiteRenderer.identifier(layout.requiredCheck))")
                    }
                    try session.execute("VACUUM (ANALYZE) \(layout.qualified(tables[index]))")
                    results.set(index, .success(0))
                } catch {
                    results.set(index, .failure(error))
                }
            }
            for index in tables.indices { _ = try results.get(index) }
            for key in layout.newForeignKeys {
                try connection.execute(
                    "ALTER TABLE \(layout.qualified(key.table)) VALIDATE CONSTRAINT \(SQLiteRenderer.identifier(PostgresOnlineLayout.foreignKeyName(key)))")
            }
            for index in layout.newIndexes {
                let name = layout.qualified(index.temporaryName)
                // A build a killed run left unfinished is invalid: it goes, and is built again.
                let valid = try connection.scalar("SELECT i.indisvalid FROM pg_index i WHERE i.indexrelid = to_regclass($1)", [name])
                if valid == "t" { continue }
                if valid == "f" { try connection.execute("DROP INDEX CONCURRENTLY IF EXISTS \(name)") }
                do {
                    try connection.execute(
                        "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX CONCURRENTLY \(SQLiteRenderer.identifier(index.temporaryName)) ON \(layout.qualified(index.table)) (\(SQLiteRenderer.identifiers(index.columns)))"
                    )
                } catch let error as PostgresError where error.sqlState == "23505" {
                    try? connection.execute("DROP INDEX CONCURRENTLY IF EXISTS \(name)")
                    throw PostgresOnlineError.indexFailed(store: store, index: index.name, problem: [error.message, error.detail].compactMap { $0 }.joined(separator: ": "))
                }
            }
            try connection.execute("SET lock_timeout = 0")
        }
        try connection.transaction {
            try PostgresOnlineState.write(connection, [("phase", PostgresOnlineState.Phase.expanded.rawValue)])
        }
    }

    /// The contract, inside the caller's transaction.
    private func contract(_ layout: PostgresOnlineLayout, plan: MigrationPlan, connection: PostgresConnection, now: Date) throws {
        func identifier(_ name: String) -> String { SQLiteRenderer.identifier(name) }
        var renames: [(table: String, from: String, to: String)] = []
        for table in layout.tables where !table.isCreated {
            let physical = layout.qualified(table.physical)
            for side in ["old", "new"] { try connection.execute("DROP TRIGGER IF EXISTS \(identifier(Self.triggerName(layout, side))) ON \(physical)") }
            try connection.execute("ALTER TABLE \(physical) DROP COLUMN IF EXISTS \(identifier(layout.readyColumn))")
            for column in table.oldColumns { try connection.execute("ALTER TABLE \(physical) DROP COLUMN \(identifier(column))") }
            for column in table.columns where column.physical != column.name { renames.append((table.physical, column.physical, column.name)) }
        }
        for table in layout.shape.dropped { try connection.execute("DROP TABLE \(layout.qualified(table)) CASCADE") }
        for index in layout.droppedIndexes { try connection.execute("DROP INDEX IF EXISTS \(layout.qualified(index))") }
        // Through names of their own first, so that two columns may swap names.
        for (number, rename) in renames.enumerated() {
            try connection.execute("ALTER TABLE \(layout.qualified(rename.table)) RENAME COLUMN \(identifier(rename.from)) TO \(identifier("__remodel_rename_\(number)"))")
        }
        for (number, rename) in renames.enumerated() {
            try connection.execute("ALTER TABLE \(layout.qualified(rename.table)) RENAME COLUMN \(identifier("__remodel_rename_\(number)")) TO \(identifier(rename.to))")
        }
        for table in layout.tables where !table.isCreated {
            let required = table.columns.filter { $0.isRequired && (!$0.isShared || !$0.wasRequired) }
            guard !required.isEmpty else { continue }
            try connection.execute(
                "ALTER TABLE \(layout.qualified(table.physical)) " + required.map { "ALTER COLUMN \(identifier($0.name)) SET NOT NULL" }.joined(separator: ", "))
            try connection.execute("ALTER TABLE \(layout.qualified(table.physical)) DROP CONSTRAINT \(identifier(layout.requiredCheck))")
        }
        let renamedTables = layout.tables.filter { !$0.isCreated && $0.physical != $0.name }
        for (number, table) in renamedTables.enumerated() {
            try connection.execute("ALTER TABLE \(layout.qualified(table.physical)) RENAME TO \(identifier("__remodel_rename_\(number)"))")
        }
        for (number, table) in renamedTables.enumerated() {
            try connection.execute("ALTER TABLE \(layout.qualified("__remodel_rename_\(number)")) RENAME TO \(identifier(table.name))")
        }
        for (from, to) in layout.renamedIndexes { try connection.execute("ALTER INDEX \(layout.qualified(from)) RENAME TO \(identifier(to))") }
        for index in layout.newIndexes { try connection.execute("ALTER INDEX \(layout.qualified(index.temporaryName)) RENAME TO \(identifier(index.name))") }
        for key in layout.newForeignKeys {
            let table = layout.tables.first { $0.physical == key.table }?.name ?? key.table
            try connection.execute(
                "ALTER TABLE \(layout.qualified(table)) RENAME CONSTRAINT \(identifier(PostgresOnlineLayout.foreignKeyName(key))) TO \(identifier(key.finalName))")
        }
        // Remodel's functions go; the views stay for the new app's open connections, until the
        // next migration.
        let functions = try connection.query(
            "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1", [layout.viewSchema])
        for row in functions.rows { if let function = row[0] { try connection.execute("DROP FUNCTION \(function)") } }
        for version in plan.versions {
            try PostgresMetadata.record(connection, version: version, schemaName: layout.schemaName, milliseconds: 0, now: now)
        }
        try PostgresOnlineState.write(connection, [("phase", PostgresOnlineState.Phase.complete.rawValue)])
        try connection.execute("DELETE FROM \(layout.qualified(PostgresOnlineState.table)) WHERE \"key\" LIKE 'backfill:%'")
    }

    /// Drops what a completed online migration left for the new app's connections (its views),
    /// inside the caller's transaction, before the store's shape changes again.
    func dropLeftovers(_ state: PostgresOnlineState, connection: PostgresConnection) throws {
        if !state.viewSchema.isEmpty { try connection.execute("DROP SCHEMA IF EXISTS \(SQLiteRenderer.identifier(state.viewSchema)) CASCADE") }
        try connection.execute("DROP TABLE \(PostgresLayout.qualified(PostgresOnlineState.table, in: connection.target.schema))")
    }

    /// The objects `check` refuses, as the default mode reports them; nil when there are none.
    private func dataError(_ check: PostgresOnlineShape.Check, layout: PostgresOnlineLayout, connection: PostgresConnection) throws -> MigrationError.DataError? {
        var types: [String: PostgresColumnType?] = [:]
        for (name, type) in layout.shape.old.columnTypes[check.table] ?? [:] { types[name] = type }
        let renderer = SQLQueryRenderer(
            PostgresDialect(tables: [check.table: types], temporary: [], lookups: PostgresPlanRenderer.Lookups(), schema: layout.shape.old.layout.schema, version: check.version))
        let scope = SQLScope(table: check.table)
        let condition = try renderer.expression(check.condition, scope, as: .condition)
        let key = try renderer.expression(check.key, scope)
        let value = try check.value.map { try renderer.expression($0, scope) }
        // Remodel's functions, in this session.
        for definition in PostgresFunctions.definitions {
            try connection.execute(definition.replacingOccurrences(of: "CREATE FUNCTION", with: "CREATE OR REPLACE FUNCTION"))
        }
        let from = layout.qualified(check.table) + " AS " + SQLiteRenderer.identifier(check.table)
        let result = try connection.query("SELECT \(key)\(value.map { ", " + $0 } ?? "") FROM \(from) WHERE \(condition) LIMIT 5")
        guard !result.rows.isEmpty else { return nil }
        let count = Int(try connection.scalar("SELECT count(*) FROM \(from) WHERE \(condition)") ?? "") ?? result.rows.count
        return Runner.dataError(check.check, version: check.version, migrationName: check.migrationName, found: result, count: count)
    }
}
