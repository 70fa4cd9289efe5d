import Foundation
import RemodelFileCommands
import RemodelGeneration
import RemodelMigrate
import RemodelPostgres
import RemodelStore

extension MigrateCommand {
    /// The phases of an online migration (`--online`, `--complete`, `--abort`).
    enum OnlinePhase {
        case expand, complete, abort
    }

    /// The phase the flags ask for, if any; a usage error for two at once, for a store file,
    /// and for what they cannot be combined with.
    static func onlinePhase(_ arguments: ParsedArguments, location: StoreCommandSupport.Location, target: Int?) throws -> OnlinePhase? {
        let chosen: [(String, OnlinePhase)] = [("--online", .expand), ("--complete", .complete), ("--abort", .abort)].filter { flag, _ in
            arguments.flag(flag == "--online" ? Self.online : flag == "--complete" ? Self.complete : Self.abort)
        }
        guard let (flag, phase) = chosen.first else { return nil }
        if chosen.count > 1 { throw UsageError("\(chosen.map(\.0).joined(separator: " and ")) are phases of one online migration: give one of them") }
        if case .file = location {
            throw UsageError("\(flag) applies to PostgreSQL stores (postgresql://…); a store file is migrated in one transaction that readers never wait for (WAL)")
        }
        if arguments.flag(Self.dryRun) { throw UsageError("\(flag) cannot be combined with --dry-run: rehearse the migration with 'remodel migrate --store URL --dry-run'") }
        if phase != .expand, target != nil { throw UsageError("\(flag) finishes the online migration in progress, to its own version: leave out --to") }
        return phase
    }

    func migrateOnline(_ database: PostgresTarget, phase: OnlinePhase, migrator: Migrator, to target: Int?, quiet: Bool, lock: PostgresLockPolicy) throws -> Int32 {
        let postgres = PostgresMigrator(migrator)
        do {
            let report = try ProgressReporter.run(finished: phase == .expand ? "expanded" : phase == .complete ? "completed" : "aborted", quiet: quiet) { progress in
                let waiting: @Sendable (PostgresLockWait) -> Void = { progress.note("Waiting: " + $0.description) }
                switch phase {
                case .expand:
                    return try postgres.expand(
                        at: database, to: target, lock: lock, onLockWait: waiting,
                        progress: { step in
                            progress.update(verb: "backfilling", unit: "pages", done: step.pagesDone, total: step.pagesTotal, detail: "\(step.table): \(step.rows) objects")
                        })
                case .complete: return try postgres.complete(at: database, lock: lock, onLockWait: waiting)
                case .abort: return try postgres.abort(at: database, lock: lock, onLockWait: waiting)
                }
            }
            Console.write(Self.text(of: report))
            return ExitStatus.success
        } catch {
            Console.writeError("Error: \(error)\n")
            return ExitStatus.failure
        }
    }

    static func text(of report: PostgresOnlineReport) -> String {
        let store = report.store
        let seconds = String(format: "%.3f", Double(report.duration.components.seconds) + Double(report.duration.components.attoseconds) / 1e18)
        switch report.outcome {
        case .upToDate:
            return "\(store) is already at version \(report.fromVersion), the newest; nothing to do\n"
        case .alreadyExpanded:
            return
                "\(store): the expand phase to version \(report.toVersion) had finished; nothing to do. Apps of versions \(report.fromVersion) and \(report.toVersion) both use the store; once none of version \(report.fromVersion) runs: remodel migrate --store URL --complete\n"
        case .expanded:
            var text =
                "Expanded \(store) from version \(report.fromVersion) to \(report.toVersion) in \(seconds) s: the store is still at version \(report.fromVersion) for its apps, and apps of version \(report.toVersion) read and write it through the views in schema '\(report.viewSchema)'.\n"
            for (table, rows) in report.backfilled { text += "  \(table): \(rows) objects backfilled\n" }
            text += "Next, once no app of version \(report.fromVersion) runs: remodel migrate --store URL --complete (or --abort to undo)\n"
            return text
        case .completed:
            return "Completed \(store): the store is at version \(report.toVersion), the old columns and tables are gone (\(seconds) s)\n"
        case .aborted:
            return
                "Aborted the online migration of \(store) to version \(report.fromVersion): the store is at version \(report.toVersion) as before, with every object either app wrote (\(seconds) s)\n"
        }
    }
}
