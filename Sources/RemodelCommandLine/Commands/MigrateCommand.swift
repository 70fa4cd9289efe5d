import Foundation
import RemodelCore
import RemodelFileCommands
import RemodelGeneration
import RemodelMigrate
import RemodelPostgres
import RemodelSchema
import RemodelStore

/// `remodel migrate`: upgrades a store file through the migration history, in one
/// transaction, after printing the plan and making a backup.
struct MigrateCommand: Command {
    let name = "migrate"
    let abstract = "Upgrade a store to the newest schema version (or --to N), in one transaction."
    let discussion = """
        Reads the history in the migrations folder, checks that the schema folder is its newest \
        snapshot, and plans the upgrade from the version the store records. Prints the plan on \
        stdout: each version, each change classed additive, data-dependent or destructive with \
        the step or schema change it comes from, the data checks, and the SQL that runs. Then \
        copies the store next to itself with SQLite's backup API (STORE.vN-backup-TIMESTAMP, \
        never overwritten; --no-backup skips it), runs every version in one transaction, and \
        prints the objects per type and the time each version took. Progress goes to stderr: a \
        bar on a terminal (statements done of all, rate, time left), a line now and then \
        otherwise, nothing with --quiet. \
        Any failure — a value a step cannot convert, a duplicate primary key, a null left in a \
        required property — rolls everything back: the store file is unchanged. With --dry-run \
        the migration runs inside the transaction and is rolled back: counts and data errors \
        are reported, no backup is made. A store already at the target version is left as it \
        is; the version is read again once the write lock is held, so two migrations started \
        together migrate the store once (the second says another process did it). A store \
        newer than the history is refused (superseded). Exit status: 0 migrated or already \
        current, 1 nothing changed because of an error, 64 usage error. On a postgresql:// URL \
        the same plan runs as PostgreSQL statements in one transaction under an advisory lock on \
        the schema (instances starting together migrate once); no backup is made: a failure \
        rolls everything back, and the database's own backups are the copy. There each \
        statement waits at most --lock-timeout for a table lock that a session of the app \
        holds; the try is then rolled back and tried again after a pause, five times in all, \
        and the error names the sessions holding the locks. \
        With --online a PostgreSQL store is migrated in two phases while the app runs: the \
        expand phase adds the new version's columns and tables beside the old ones, fills them \
        in batches of about 100 ms with pauses between them, keeps both shapes in step with \
        triggers, and builds indexes and constraints without blocking writes; apps of both \
        versions then use the store (the new version's through views, which its \
        PostgresModelStore finds itself). Once no app of the previous version runs, --complete \
        drops the old shape in one short transaction and sets the new version; --abort instead \
        removes the new shape. Killed at any moment, each phase is run again to go on. \
        'remodel status' shows the phase and the backfill's progress. A version whose steps read \
        other objects (links found by value, collections rebuilt, custom steps) is refused with \
        the step, and migrates with the default mode.
        """
    static let store = OptionSpec.option(
        "store", value: "STORE", required: true,
        help: "The store file to migrate, or a PostgreSQL database as a libpq URL (postgresql://user@host:5432/db, ?schema=NAME for a schema other than public)."
    )
    static let to = OptionSpec.option("to", value: "N", help: "The version to migrate to (default: the newest).")
    static let dryRun = OptionSpec.flag("dry-run", help: "Run the migration inside a transaction and roll it back: report counts and data errors, change nothing.")
    static let noBackup = OptionSpec.flag("no-backup", help: "Do not copy the store before migrating.")
    static let lockTimeout = OptionSpec.option(
        "lock-timeout", value: "DURATION",
        help:
            "PostgreSQL: how long each statement waits for a table lock (250ms, 5s, 1m; default 5s) before the try is rolled back and, after a pause, tried again (5 tries in all); the app's queries on that table wait as long."
    )

    static let online = OptionSpec.flag(
        "online",
        help:
            "PostgreSQL: the expand phase of a migration that never stops the app: the new version's columns and tables beside the old ones, filled in small batches, kept in step both ways while apps of both versions run. Run it again to go on after an interruption."
    )
    static let complete = OptionSpec.flag(
        "complete", help: "PostgreSQL: the contract phase, once no app of the previous version runs: the old columns and tables go, and the store is at the new version.")
    static let abort = OptionSpec.flag(
        "abort", help: "PostgreSQL: undo an expand phase that was not completed; the store stays at the previous version with everything either app wrote.")

    var options: [OptionSpec] {
        [
            Self.store, Self.to, Self.dryRun, Self.noBackup, Self.lockTimeout, Self.online, Self.complete, Self.abort, ProgressReporter.quietOption,
            CommonOptions.migrations, CommonOptions.schemas,
        ]
    }

    /// `--lock-timeout`: a number of milliseconds, seconds or minutes (`250ms`, `5s`, `1m`; a
    /// bare number is seconds).
    static func lockPolicy(_ arguments: ParsedArguments) throws -> PostgresLockPolicy {
        guard let text = arguments.value(Self.lockTimeout) else { return .standard }
        let units: [(suffix: String, unit: Duration)] = [("ms", .milliseconds(1)), ("s", .seconds(1)), ("m", .seconds(60)), ("", .seconds(1))]
        for (suffix, unit) in units where text.hasSuffix(suffix) {
            // PostgreSQL's lock_timeout holds whole milliseconds up to 2^31 − 1 (about 24 days).
            guard let number = Double(text.dropLast(suffix.count)), number.isFinite, number > 0,
                (1...Double(Int32.max)).contains(number * (unit / .milliseconds(1)))
            else { break }
            return PostgresLockPolicy(timeout: unit * number)
        }
        throw UsageError("--lock-timeout needs a duration from 1ms to 24 days, such as 250ms, 5s or 1m, found '\(text)'")
    }

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let location = try StoreCommandSupport.storeLocation(arguments, option: Self.store)
        var target: Int?
        if let text = arguments.value(Self.to) {
            guard let number = Int(text), number > 0 else { throw UsageError("--to needs a version number (1, 2, …), found '\(text)'") }
            target = number
        }
        let dryRun = arguments.flag(Self.dryRun)
        let quiet = arguments.flag(ProgressReporter.quietOption)
        let lock = try Self.lockPolicy(arguments)
        if case .file = location, arguments.value(Self.lockTimeout) != nil {
            throw UsageError("--lock-timeout applies to PostgreSQL stores (postgresql://…); a store file is migrated under SQLite's write lock, which waits for other writers")
        }
        let phase = try Self.onlinePhase(arguments, location: location, target: target)

        guard let checked = HistoryInput.load(arguments) else { return ExitStatus.failure }
        var migrator = arguments.tool.migrator(for: checked.history)
        migrator.sources = checked.sources
        let store: String
        switch location {
        case .file(let path): store = path
        case .postgres(let database):
            if let phase {
                return try migrateOnline(database, phase: phase, migrator: migrator, to: target, quiet: quiet, lock: lock)
            }
            return try migrateDatabase(database, checked: checked, migrator: migrator, to: target, dryRun: dryRun, quiet: quiet, lock: lock, arguments)
        }

        let state = try migrator.inspect(storeAt: store)
        try RemodelStore.checkWritable(path: store)
        let edited = Self.warnAboutEditedMigrations(state.appliedMigrations, migrator: migrator, checked: checked)
        do {
            try migrator.check(state)
        } catch StoreError.schemaMismatch(let path, let version, let storeHash, let codeHash) where checked.input.loaded.history != nil {
            // `Schemas/` is the newest snapshot (HistoryInput checked it), so this is not a
            // schema edited without a version, which a new version would fix: the snapshot of
            // the store's version changed after the store was written (`migration amend`),
            // whether the store applied that version's file (its checksum differs) or was
            // created at that version (`init`, nothing recorded to compare).
            Console.writeError(Self.restoreAdvice(checked, edited: edited, path: path, version: version, storeHash: storeHash, codeHash: codeHash, arguments: arguments))
            return ExitStatus.failure
        }
        let now = Date()
        let plan: MigrationPlan
        do {
            plan = try migrator.plan(from: state.version, to: target, now: now)
        } catch let error as MigrationPlanningError {
            DiagnosticsOutput.print(error.diagnostics)
            Console.writeError("Error: cannot plan the migration of '\(store)' from version \(state.version); the store is unchanged\n")
            return ExitStatus.failure
        }
        guard !plan.isEmpty else {
            Console.write("'\(store)' is already at version \(state.version)\(target == nil ? ", the newest" : ""); nothing to do\n")
            return ExitStatus.success
        }
        Console.write(MigrationPlanRenderer.text(of: plan, store: store) + "\n")

        var backup: String?
        if !dryRun && !arguments.flag(Self.noBackup) {
            // The migration checks the store's integrity under the write lock, before any
            // change; a backup of a store it finds damaged is removed below (it would be
            // damaged too), so the check runs once.
            backup = try StoreBackup.make(ofStoreAt: store, version: state.version, date: now)
            if !quiet { Console.write("Backup: \(backup!)\n") }
        }
        do {
            let (_, report) = try ProgressReporter.run(finished: dryRun ? "migrated (dry run)" : "migrated", quiet: quiet) { progress in
                try migrator.migrate(storeAt: store, to: target, dryRun: dryRun, now: now, progress: progress.migration)
            }
            if report.outcome == .migratedByAnotherProcess, let backup {
                // The backup holds the version this run found; the store moved on without it.
                try? FileManager.default.removeItem(atPath: backup)
            }
            Console.write(MigrationPlanRenderer.text(of: report, store: store, backup: report.outcome == .migratedByAnotherProcess ? nil : backup))
            return ExitStatus.success
        } catch {
            var message = "Error: \(error)\n"
            if let backup {
                if case StoreError.damaged = error {
                    try? FileManager.default.removeItem(atPath: backup)
                    message += "The store is unchanged; the backup made before the check was removed (it is damaged too).\n"
                } else {
                    message += "The store is unchanged; the backup '\(backup)' is intact.\n"
                }
            }
            Console.writeError(message)
            return ExitStatus.failure
        }
    }
}

extension MigrateCommand {
    /// `migrate` on a store in a PostgreSQL schema: the same checks, plan and report.
    private func migrateDatabase(
        _ database: PostgresTarget, checked: CheckedHistory, migrator: Migrator, to target: Int?, dryRun: Bool, quiet: Bool, lock: PostgresLockPolicy,
        _ arguments: ParsedArguments
    ) throws -> Int32 {
        let postgres = PostgresMigrator(migrator)
        let info = try postgres.state(at: database)
        let name = info.name
        let edited = Self.warnAboutEditedMigrations(info.appliedMigrations, migrator: migrator, checked: checked)
        do {
            try postgres.check(info, target: database)
        } catch StoreError.schemaMismatch(let path, let version, let storeHash, let codeHash) where checked.input.loaded.history != nil {
            Console.writeError(Self.restoreAdvice(checked, edited: edited, path: path, version: version, storeHash: storeHash, codeHash: codeHash, arguments: arguments))
            return ExitStatus.failure
        }
        let now = Date()
        let plan: PostgresMigrationPlan
        do {
            plan = try postgres.plan(from: info.version, to: target, schemaName: database.schema, now: now)
        } catch let error as MigrationPlanningError {
            DiagnosticsOutput.print(error.diagnostics)
            Console.writeError("Error: cannot plan the migration of \(name) from version \(info.version); the store is unchanged\n")
            return ExitStatus.failure
        } catch let error as PostgresPlanRenderer.Unsupported {
            Console.writeError(
                "Error: cannot migrate \(name) from version \(info.version) on PostgreSQL: \(error); the store is unchanged. Migrate a SQLite copy instead (remodel export, import into a file, migrate, export, import)\n"
            )
            return ExitStatus.failure
        }
        guard !plan.plan.isEmpty else {
            Console.write("\(name) is already at version \(info.version)\(target == nil ? ", the newest" : ""); nothing to do\n")
            return ExitStatus.success
        }
        Console.write(plan.text(store: name) + "\n")
        if !dryRun && !quiet {
            Console.write(
                "No backup: on PostgreSQL the migration is one transaction, which any failure rolls back; take the database's own backup (pg_dump) if you want a copy of version \(info.version)\n"
            )
        }
        do {
            let (_, report) = try ProgressReporter.run(finished: dryRun ? "migrated (dry run)" : "migrated", quiet: quiet) { progress in
                try postgres.migrate(
                    at: database, plan: plan, dryRun: dryRun, now: now, lock: lock, onLockWait: { progress.note("Waiting: " + $0.description) },
                    progress: progress.migration)
            }
            Console.write(MigrationPlanRenderer.text(of: report, store: name))
            return ExitStatus.success
        } catch {
            Console.writeError("Error: \(error)\n")
            return ExitStatus.failure
        }
    }

    /// The error for a store whose version's snapshot changed after the store was written:
    /// the files to restore as they were released, and where the change belongs instead.
    static func restoreAdvice(
        _ checked: CheckedHistory, edited: [(applied: AppliedMigration, now: Migration)], path: String, version: Int, storeHash: String, codeHash: String,
        arguments: ParsedArguments
    ) -> String {
        let editedFiles = edited.map { "'\(checked.files[$0.now.version] ?? $0.applied.name)'" }
        var restore = editedFiles
        if let file = checked.files[version], !restore.contains("'\(file)'") { restore.append("'\(file)'") }
        restore.append("'\(checked.snapshotFiles[version] ?? MigrationFolder.snapshotPath(in: arguments.migrationsPath, version: version))'")
        var message = "Error: the store '\(path)' is at schema version \(version) but was written with a different schema (store hash \(storeHash), expected \(codeHash)): "
        if editedFiles.isEmpty {
            message +=
                "the schema of version \(version) in '\(arguments.migrationsPath)' was changed after the store was written ('remodel migration amend' rewrites a version's file and snapshot). "
                + "Restore \(MessageText.list(restore)) as \(restore.count == 1 ? "it was" : "they were") released (from version control), "
        } else {
            message +=
                "its history was changed after the store applied it (\(MessageText.list(editedFiles)), the warning above; 'remodel migration amend' rewrites a version's file and snapshot). "
                + "Restore \(MessageText.list(restore)) as \(restore.count == 1 ? "it was" : "they were") when the store applied version \(version) (from version control), "
        }
        return message + "then make the change in a new version (`\(arguments.command("migration new NAME"))`); the store is unchanged\n"
    }

    /// Warns (on stderr) about each migration `applied` records whose file has changed since;
    /// returns them.
    @discardableResult
    static func warnAboutEditedMigrations(_ applied: [AppliedMigration], migrator: Migrator, checked: CheckedHistory) -> [(applied: AppliedMigration, now: Migration)] {
        let edited = migrator.editedMigrations(applied)
        for edited in edited {
            Console.writeError(editedWarning(edited.applied, file: checked.files[edited.now.version]))
        }
        return edited
    }

    /// The warning for a migration file edited after the store applied it.
    static func editedWarning(_ applied: AppliedMigration, file: String?) -> String {
        "Warning: migration \(applied.version) (\(file ?? applied.name)) has changed since this store applied it on \(applied.appliedAt) (its checksum differs); a released migration must not be edited: restore the file, and make the change in a new migration (remodel migration new NAME)\n"
    }
}
