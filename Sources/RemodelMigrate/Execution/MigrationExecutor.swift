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
}

/// Progress of a running migration, for a progress bar or log.
public struct MigrationProgress: Sendable {
    public var version: Int
    /// 1-based index of the statement about to run, over all versions.
    public var completed: Int
    public var total: Int
    /// What runs now, e.g. `UPDATE "Person" SET …` shortened.
    public var activity: String
}

/// Runs a plan on an open connection, in one transaction.
package struct MigrationExecutor {
    package var plan: MigrationPlan
    package var customSteps: [String: CustomStep]
    package var dryRun: Bool
    package var progress: (@Sendable (MigrationProgress) -> Void)?

    package init(plan: MigrationPlan, customSteps: [String: CustomStep], dryRun: Bool, progress: (@Sendable (MigrationProgress) -> Void)?) {
        self.plan = plan
        self.customSteps = customSteps
        self.dryRun = dryRun
        self.progress = progress
    }

    /// Migrates the database behind `connection`, which nothing else may use meanwhile.
    /// Commits everything or nothing.
    package func run(on connection: Connection) throws -> MigrationReport {
        let started = ContinuousClock.now
        // Row-level change tracking is for app notifications; a migration would pay for it
        // per row.
        sqlite3_update_hook(connection.pointer, nil, nil)
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        let before = (try? counts(connection, schema: nil)) ?? [:]
        try connection.execute("BEGIN IMMEDIATE")
        var finished = false
        defer { if !finished { try? connection.execute("ROLLBACK") } }
        var report = try runInTransaction(on: connection)
        if let last = plan.versions.last {
            // Committing writes the journal: a full disk shows up here.
            try wrap(last) {
                try connection.execute("PRAGMA user_version = \(last.version)")
                try connection.execute(dryRun ? "ROLLBACK" : "COMMIT")
            }
        } else {
            try connection.execute("ROLLBACK")
        }
        finished = true
        report.countsBefore = before
        report.renamedTypes = plan.renamedTypes
        report.duration = ContinuousClock.now - started
        return report
    }

    /// Runs the plan inside the caller's transaction (foreign keys must be off), recording
    /// each version in the store's metadata. Does not commit.
    package func runInTransaction(on connection: Connection) throws -> MigrationReport {
        let started = ContinuousClock.now
        try MigrationFunctions.register(on: connection.pointer)
        try connection.execute("PRAGMA legacy_alter_table = OFF")
        var versions: [MigrationReport.Version] = []
        let total = plan.versions.reduce(0) { $0 + $1.items.count }
        var completed = 0
        for version in plan.versions {
            let versionStart = ContinuousClock.now
            for item in version.items {
                completed += 1
                try perform(item, version: version, connection: connection, completed: completed, total: total)
            }
            let duration = ContinuousClock.now - versionStart
            try record(version, duration: duration, connection: connection)
            versions.append(.init(version: version.version, name: version.name, duration: duration))
        }
        connection.clearCaches()
        let after = try counts(connection, schema: plan.versions.last?.schema)
        return MigrationReport(
            fromVersion: plan.fromVersion, toVersion: plan.toVersion, versions: versions,
            countsBefore: [:], countsAfter: after, dryRun: dryRun, duration: ContinuousClock.now - started
        )
    }

    private func perform(_ item: PlanItem, version: VersionPlan, connection: Connection, completed: Int, total: Int) throws {
        switch item {
        case .sql(let sql):
            progress?(MigrationProgress(version: version.version, completed: completed, total: total, activity: Self.shorten(sql)))
            if sql == "PRAGMA foreign_key_check" {
                let rows = try wrap(version) { try connection.query(sql) }
                if !rows.isEmpty {
                    let details = rows.prefix(5).map { row in
                        "\(row[0]) row \(row[1]) links to a missing \(row.count > 2 ? row[2].description : "object")"
                    }
                    throw MigrationError.danglingLinks(version: version.version, details: details + (rows.count > 5 ? ["and \(rows.count - 5) more"] : []))
                }
                return
            }
            try wrap(version) { try connection.execute(sql) }
        case .check(let check):
            progress?(MigrationProgress(version: version.version, completed: completed, total: total, activity: "checking \(check.type)\(check.property.map { ".\($0)" } ?? "")"))
            let rows = try wrap(version) { try connection.query(check.query) }
            guard !rows.isEmpty else { return }
            let count = try wrap(version) { try connection.scalar(check.countQuery) }
            var countValue = rows.count
            if case .integer(let number) = count { countValue = Int(number) }
            throw MigrationError.data(.init(
                version: version.version, migrationName: version.name, type: check.type, property: check.property, step: check.step,
                problem: check.problem, hint: check.hint,
                examples: rows.map { MigrationError.Example(key: $0[0].readable, value: $0.count > 1 ? $0[1].readable : "") },
                count: countValue
            ))
        case .custom(let call):
            progress?(MigrationProgress(version: version.version, completed: completed, total: total, activity: "custom step \(call.name) on \(call.type)"))
            guard let body = customSteps[call.name] else {
                throw MigrationError.customStepFailed(version: version.version, name: call.name, type: call.type, key: "-", underlying: "no closure is registered under this name")
            }
            try CustomStepRunner(call: call, version: version, body: body).run(on: connection)
        }
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
        let metadata = SQL.quote(StoreFormat.metadataTable)
        try wrap(version) {
            try connection.execute("INSERT INTO \(metadata) (\"key\", \"value\") VALUES (?, ?) ON CONFLICT(\"key\") DO UPDATE SET \"value\" = excluded.\"value\"", [.text(StoreFormat.Key.schema), .text(CanonicalYAML.text(of: version.schema))])
            try connection.execute("INSERT INTO \(metadata) (\"key\", \"value\") VALUES (?, ?) ON CONFLICT(\"key\") DO UPDATE SET \"value\" = excluded.\"value\"", [.text(StoreFormat.Key.schemaHash), .text(version.schema.storageHash)])
            try connection.execute(
                "INSERT OR REPLACE INTO \(SQL.quote(StoreFormat.migrationsTable)) (\"version\", \"name\", \"checksum\", \"applied_at\", \"duration_ms\") VALUES (?, ?, ?, ?, ?)",
                [.integer(Int64(version.version)), .text(version.name), .text(version.checksum), .text(StoreDateFormat.string(from: Date())), .integer(milliseconds)]
            )
        }
    }

    /// Objects per table of `schema` (or of every user table when `nil`).
    private func counts(_ connection: Connection, schema: Schema?) throws -> [String: Int] {
        let names: [String]
        if let schema {
            names = schema.objects.filter { !$0.isEmbedded }.map(\.name)
        } else {
            names = try connection.query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_remodel\\_%' ESCAPE '\\' AND instr(name, '.') = 0").compactMap {
                if case .text(let name) = $0[0] { name } else { nil }
            }
        }
        var result: [String: Int] = [:]
        for name in names {
            if case .integer(let count) = try connection.scalar("SELECT count(*) FROM \(SQL.quote(name))") {
                result[name] = Int(count)
            }
        }
        return result
    }

    static func shorten(_ sql: String) -> String {
        let line = sql.split(separator: "\n").first.map(String.init) ?? sql
        return line.count > 72 ? String(line.prefix(71)) + "…" : line
    }
}
