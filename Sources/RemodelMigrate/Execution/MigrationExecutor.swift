import CSQLite
import Foundation
import RemodelCore
import RemodelStore

/// What a migration did, per version and per type.
public struct MigrationReport: Sendable {
    /// One applied (or, in a dry run, rehearsed) version.
    public struct Version: Sendable {
        public var version: Int
        public var name: String
        public var duration: Duration
        /// What the version did that the plan could not count in advance, e.g. `2 Address
        /// objects deleted: no object held them`.
        public var notes: [String] = []

        package init(version: Int, name: String, duration: Duration, notes: [String] = []) {
            self.version = version
            self.name = name
            self.duration = duration
            self.notes = notes
        }
    }

    /// How the run ended.
    public enum Outcome: Sendable, Equatable {
        /// The versions ran and were committed.
        case migrated
        /// The versions ran and were rolled back.
        case rehearsed
        /// Another process migrated the store to the target version first; nothing ran here.
        case migratedByAnotherProcess
    }

    public var fromVersion: Int
    public var toVersion: Int
    public var versions: [Version]
    /// Objects per type before and after (after = in the rolled-back transaction for a dry run).
    public var countsBefore: [String: Int]
    public var countsAfter: [String: Int]
    /// Object types renamed on the way: name after the migration → name before it.
    public var renamedTypes: [String: String] = [:]
    public var dryRun: Bool
    public var duration: Duration
    public var outcome: Outcome = .migrated
    /// Types that were tables and are embedded objects after the migration.
    public var embeddedTypes: [String] = []
    /// Whether `PRAGMA foreign_key_check` ran, finding nothing, after the plan's last change.
    package var checkedLinks = false

    package init(
        fromVersion: Int, toVersion: Int, versions: [Version], countsBefore: [String: Int], countsAfter: [String: Int],
        dryRun: Bool, duration: Duration, outcome: Outcome = .migrated
    ) {
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.versions = versions
        self.countsBefore = countsBefore
        self.countsAfter = countsAfter
        self.dryRun = dryRun
        self.duration = duration
        self.outcome = outcome
    }
}

/// Progress of a running migration, for a progress bar or log.
public struct MigrationProgress: Sendable {
    public var version: Int
    /// 1-based index of the operation about to run, over all versions.
    public var completed: Int
    public var total: Int
    /// What runs now, e.g. `UPDATE "Person" SET …` shortened.
    public var activity: String

    package init(version: Int, completed: Int, total: Int, activity: String) {
        self.version = version
        self.completed = completed
        self.total = total
        self.activity = activity
    }
}

/// Runs a plan on an open connection, in one transaction.
package struct MigrationExecutor {
    package var plan: MigrationPlan
    package var customSteps: [String: CustomStep]
    package var dryRun: Bool
    package var progress: (@Sendable (MigrationProgress) -> Void)?
    /// Where `$uuid` and `$objectId` values come from.
    package var generatedValues: GeneratedValues = .random
    /// A store the caller has just made and will throw away (`remodel test` runs thousands):
    /// no integrity check under the write lock before anything is committed, and no object
    /// counts for the report. Never for a store people keep.
    package var isThrowaway = false
    private let renderer = SQLiteRenderer()

    package init(plan: MigrationPlan, customSteps: [String: CustomStep], dryRun: Bool, progress: (@Sendable (MigrationProgress) -> Void)?) {
        self.plan = plan
        self.customSteps = customSteps
        self.dryRun = dryRun
        self.progress = progress
    }

    /// Migrates the database behind `connection`, which nothing else may use meanwhile.
    /// Commits everything or nothing. The store's version is read again once the write lock
    /// is held: a store another process migrated meanwhile is not migrated twice, and one it
    /// migrated to the target version with another schema is refused
    /// (`StoreError.schemaMismatch`).
    package func run(on connection: Connection) throws -> MigrationReport {
        let started = ContinuousClock.now
        // Row-level change tracking is for app notifications; a migration would pay for it
        // per row.
        sqlite3_update_hook(connection.pointer, nil, nil)
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        try connection.execute("BEGIN IMMEDIATE")
        var finished = false
        defer { if !finished { try? connection.execute("ROLLBACK") } }
        let version = try StoreMetadata.version(connection)
        if version != plan.fromVersion {
            guard version == plan.toVersion else {
                throw MigrationError.storeChanged(expected: plan.fromVersion, found: version)
            }
            // At the target version, but perhaps through another history: its schema must be
            // this plan's, as a store opening at its version checks.
            if let last = plan.versions.last {
                try StoreMetadata.checkSchemaHash(connection, path: connection.path, version: version, expected: last.schemaHash)
            }
            try connection.execute("ROLLBACK")
            finished = true
            return MigrationReport(
                fromVersion: version, toVersion: version, versions: [], countsBefore: [:], countsAfter: [:], dryRun: dryRun,
                duration: ContinuousClock.now - started, outcome: .migratedByAnotherProcess)
        }
        // Under the write lock: a damaged store is refused, not migrated. The check reads the
        // state this transaction starts from, on another core while the plan runs, and
        // nothing is committed before it passed.
        let integrity = !isThrowaway ? try ConcurrentIntegrityCheck(path: connection.path, busyTimeout: Migrator.busyTimeout) : nil
        let before: [String: Int]
        var report: MigrationReport
        do {
            before = isThrowaway ? [:] : try counts(connection, schema: plan.versions.first?.previousSchema)
            report = try runInTransaction(on: connection)
        } catch {
            // A damaged store can fail the plan first; the damage says more than the SQL error.
            throw integrity?.damage() ?? error
        }
        try integrity?.wait()
        if let last = plan.versions.last {
            // Committing writes the journal: a full disk shows up here.
            try wrap(last) { try connection.execute(dryRun ? "ROLLBACK" : "COMMIT") }
        } else {
            try connection.execute("ROLLBACK")
        }
        finished = true
        report.countsBefore = before
        report.renamedTypes = plan.renamedTypes
        report.embeddedTypes = (plan.versions.last?.schema.objects ?? []).filter { $0.isEmbedded && before[$0.name] != nil }.map(\.name)
        report.duration = ContinuousClock.now - started
        report.outcome = dryRun ? .rehearsed : .migrated
        return report
    }

    /// Runs the plan inside the caller's transaction (foreign keys must be off), recording
    /// each version in the store's metadata (`StoreMetadata`: schema, hash, `user_version`, the
    /// applied migration). Does not commit.
    package func runInTransaction(on connection: Connection) throws -> MigrationReport {
        let started = ContinuousClock.now
        try MigrationFunctions.register(on: connection.pointer)
        try connection.execute("PRAGMA legacy_alter_table = OFF")
        var versions: [MigrationReport.Version] = []
        let total = plan.versions.reduce(0) { $0 + $1.operations.count }
        var completed = 0
        var checkedLinks = false
        for version in plan.versions {
            let versionStart = ContinuousClock.now
            try MigrationFunctions.registerEmbedded(on: connection.pointer, old: version.previousSchema, new: version.schema)
            try MigrationFunctions.registerGenerated(on: connection.pointer, values: generatedValues, version: version.version)
            var notes: [String] = []
            for scheduled in version.operations {
                completed += 1
                if let note = try perform(scheduled.operation, version: version, connection: connection, completed: completed, total: total) {
                    notes.append(note)
                }
                switch scheduled.operation {
                case .foreignKeyCheck: checkedLinks = true
                case .statement, .custom: checkedLinks = false
                // Reads, and a definition whose foreign keys were checked to be the same.
                case .check, .count, .normalize, .retype: break
                }
            }
            let duration = ContinuousClock.now - versionStart
            try record(version, duration: duration, connection: connection)
            versions.append(.init(version: version.version, name: version.name, duration: duration, notes: notes))
        }
        connection.clearCaches()
        let after = isThrowaway ? [:] : try counts(connection, schema: plan.versions.last?.schema)
        var report = MigrationReport(
            fromVersion: plan.fromVersion, toVersion: plan.toVersion, versions: versions,
            countsBefore: [:], countsAfter: after, dryRun: dryRun, duration: ContinuousClock.now - started
        )
        report.checkedLinks = checkedLinks
        return report
    }

    /// Runs one operation; returns a note for the report, if it makes one.
    private func perform(_ operation: PlanOperation, version: VersionPlan, connection: Connection, completed: Int, total: Int) throws -> String? {
        func report(_ activity: String) {
            progress?(MigrationProgress(version: version.version, completed: completed, total: total, activity: activity))
        }
        switch operation {
        case .statement(let statement):
            let sql = renderer.statement(statement)
            report(Self.shorten(sql))
            try wrap(version) { try connection.execute(sql) }
        case .check(let check):
            report("checking \(check.type)\(check.property.map { ".\($0)" } ?? "")")
            let rows = try wrap(version) { try connection.query(renderer.select(check.query)) }
            guard !rows.isEmpty else { return nil }
            let count = try wrap(version) { try connection.scalar(renderer.select(check.countQuery)) }
            var countValue = rows.count
            if case .integer(let number) = count { countValue = Int(number) }
            throw MigrationError.data(
                .init(
                    version: version.version, migrationName: version.name, type: check.type, property: check.property, step: check.step, location: check.location,
                    problem: check.problem, hint: check.hint,
                    examples: rows.map { MigrationError.Example(key: $0[0].readable, value: $0.count > 1 ? (check.valueIsProse ? $0[1].prose : $0[1].readable) : "") },
                    count: countValue
                ))
        case .count(let note):
            report("counting \(note.type)")
            guard case .integer(let count) = try wrap(version, { try connection.scalar(renderer.select(note.query)) }), count > 0 else { return nil }
            return "\(count) \(note.type) object\(count == 1 ? "" : "s") \(note.what)"
        case .custom(let call):
            report("custom step \(call.name) on \(call.type)")
            guard let body = customSteps[call.name] else {
                throw MigrationError.customStepFailed(version: version.version, name: call.name, type: call.type, key: "-", underlying: "no closure is registered under this name")
            }
            try wrap(version) { try CustomStepRunner(call: call, version: version, body: body).run(on: connection) }
        case .normalize(let definition, let rowsRewritten):
            report("checking the definition of \(definition.name)")
            do {
                try wrap(version) { try TableDefinitionNormalizer.normalize(connection, to: definition, rowsRewritten: rowsRewritten) }
            } catch let mismatch as TableDefinitionNormalizer.Mismatch {
                throw MigrationError.layout(version: version.version, "\(mismatch)")
            }
        case .retype(let table, let column, let type):
            report("declaring \(table).\(column) \(type.rawValue)")
            do {
                try wrap(version) { try TableDefinitionNormalizer.retypeColumn(connection, table: table, column: column, to: type) }
            } catch let mismatch as TableDefinitionNormalizer.Mismatch {
                throw MigrationError.layout(version: version.version, "\(mismatch)")
            }
        case .foreignKeyCheck:
            report("checking links")
            let (links, count) = try wrap(version) { try ForeignKeyCheck.danglingLinks(connection, layout: try StoreLayout(storing: version.schema), limit: 5) }
            if count > 0 {
                let details = links.map(Self.describe)
                throw MigrationError.danglingLinks(version: version.version, details: details + (count > details.count ? ["and \(count - details.count) more"] : []))
            }
        }
        return nil
    }

    /// A dangling link in the terms of the schema: `Dog "d1" links through 'owner' to a
    /// missing Person "p9"`.
    private static func describe(_ link: DanglingLink) -> String {
        "\(link.type) \(link.key?.readable ?? "(row \(link.rowid))") links through '\(link.property)' to a missing \(link.target) \(link.targetKey.readable)"
    }

    private func wrap<T>(_ version: VersionPlan, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw MigrationError.sqlite(version: version.version, error)
        }
    }

    /// Records a version as the store's schema and in the applied-migrations table.
    private func record(_ version: VersionPlan, duration: Duration, connection: Connection) throws {
        let milliseconds = Int64(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
        try wrap(version) {
            try StoreMetadata.writeSchema(connection, text: version.schemaText, hash: version.schemaHash, version: version.version)
            // What code of older versions needs to know to open the store (a store that
            // recorded nothing yet counts every version before as not backward-readable).
            var incompatible = try StoreMetadata.incompatibleVersions(connection) ?? Array(2..<max(2, version.version))
            let hasSteps = version.changes.contains { if case .step = $0.subject { true } else { false } }
            if !SchemaDiff.isBackwardReadable(from: version.previousSchema, to: version.schema, hasSteps: hasSteps) { incompatible.append(version.version) }
            try StoreMetadata.writeIncompatibleVersions(connection, incompatible.filter { $0 <= version.version })
            try StoreMetadata.recordMigration(
                connection, version: version.version, name: version.name, checksum: version.checksum, appliedAt: Date(), durationMilliseconds: milliseconds)
        }
    }

    /// Objects per table of `schema`.
    private func counts(_ connection: Connection, schema: Schema?) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for object in schema?.objects ?? [] where !object.isEmbedded {
            if case .integer(let count) = try connection.scalar("SELECT count(*) FROM \(SQLiteRenderer.identifier(object.name))") {
                result[object.name] = Int(count)
            }
        }
        return result
    }

    package static func shorten(_ sql: String) -> String {
        let line = sql.split(separator: "\n").first.map(String.init) ?? sql
        return line.count > 72 ? String(line.prefix(71)) + "…" : line
    }
}
