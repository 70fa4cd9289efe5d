import Foundation
import RemodelCore
import RemodelFileCommands
import RemodelGeneration
import RemodelMigrate
import RemodelPostgres
import RemodelSchema
import RemodelStore

/// `remodel status`: what a store holds and whether it needs migrating.
struct StatusCommand: Command {
    let name = "status"
    let abstract = "Show a store's schema version and hash, object counts, pending migrations and size."
    let discussion = """
        Reads the store's own description (PRAGMA user_version, the recorded schema and its \
        hash, the migrations applied) without changing it. Pending migrations are the versions \
        of the migrations folder newer than the store; a store newer than the folder is \
        reported as superseded. A postgresql:// URL reads the store in the URL's schema the \
        same way. Exit status: 0 read, 1 error, 64 usage error.
        """
    var options: [OptionSpec] { [StoreCommandSupport.storeOrDatabase, CommonOptions.schemas, CommonOptions.migrations] }

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let path: String
        switch try StoreCommandSupport.storeLocation(arguments) {
        case .file(let file): path = file
        case .postgres(let database): return try postgresStatus(database, arguments)
        }
        let info = try RemodelStore.inspect(path: path)
        let store = try StoreCommandSupport.openExisting(path, readOnly: true)
        var lines = [
            "Store:           \(path)",
            "Schema version:  \(info.version)",
            "Schema hash:     \(info.schemaHash)",
            "Size:            \(Self.size(info.size))",
        ]
        let counts = try store.read { db in try db.objectTypeNames.map { ($0, try db.count(ofType: $0)) } }
        lines += Self.objectLines(counts)
        let applied = info.appliedMigrations
        lines.append(Self.migrationsLine(applied.map { ($0.version, $0.name, $0.appliedAt) }, createdAt: info.version))
        let (foldersFound, checked) = history(arguments)
        lines.append("Pending migrations: " + pending(version: info.version, schemaHash: info.schemaHash, store: path, checked, foldersFound: foldersFound, tool: arguments.tool))
        Console.write(lines.joined(separator: "\n") + "\n")
        if let checked {
            MigrateCommand.warnAboutEditedMigrations(applied, migrator: Migrator(history: checked.history), checked: checked)
        }
        return ExitStatus.success
    }

    /// The versions of the history newer than the store, when a history can be read here.
    /// `HistoryInput.load` has planned every version already; what is left to say is whether
    /// this program can run them (custom steps it does not register).
    /// `store` is what to pass to `remodel migrate --store`.
    private func pending(version: Int, schemaHash: String, store: String, _ checked: CheckedHistory?, foldersFound: Bool, tool: ToolSettings) -> String {
        guard foldersFound else { return "unknown (no migrations or schemas folder here; pass --migrations DIR)" }
        guard let checked else { return "unknown (the history has errors, listed above; fix them and run `remodel validate`)" }
        let history = checked.history
        if version > history.currentVersion { return "none — the store is newer than the history (version \(history.currentVersion)): superseded" }
        guard history.currentVersion > version else {
            if let hash = history.schema(at: version)?.storageHash, hash != schemaHash {
                return "none, but the store's schema hash differs from version \(version) of the history"
            }
            return "none (up to date)"
        }
        let names = ((version + 1)...history.currentVersion).map { version in
            history.migrations.first { $0.version == version }.map { "\(version) \($0.name)" } ?? String(version)
        }
        let listed = "\(names.count): " + names.joined(separator: ", ")
        // The plain tool has no custom steps: say so instead of recommending a run that stops.
        let unavailable = HistoryCheck.unregisteredCustomSteps(in: history, registered: tool.registeredStepNames, sources: checked.sources)
            .filter { ($0.version ?? history.currentVersion) > version }
        guard unavailable.isEmpty else {
            let places = unavailable.map { step in step.location.map { "\($0.file):\($0.line)" } ?? "version \(step.version ?? history.currentVersion)" }
            return listed + " (they have custom steps this program does not register, in \(MessageText.list(places)); "
                + "run them with the app, or a remodel built with RemodelTool that registers them; the manual's 'Migration files and steps': custom)"
        }
        return listed + " (run `remodel migrate --store \(store)`)"
    }

    /// `status` of a store in a PostgreSQL database: the same lines but the size, which a
    /// schema of a shared database does not have.
    private func postgresStatus(_ database: PostgresTarget, _ arguments: ParsedArguments) throws -> Int32 {
        let (foldersFound, checked) = history(arguments)
        let info = try PostgresStore.info(at: database, recordedSchema: StoreCommandSupport.recordedSchema(of: database))
        var lines = [
            "Store:           schema '\(info.schemaName)' of \(info.database)",
            "Schema version:  \(info.version)",
            "Schema hash:     \(info.schemaHash)",
        ]
        if info.objectCounts.isEmpty {
            lines.append("Objects:         unknown (the schema the store records does not load; it may come from a newer remodel)")
        } else {
            lines += Self.objectLines(info.objectCounts.map { ($0.type, $0.count) })
        }
        let applied = info.appliedMigrations
        lines.append(Self.migrationsLine(applied.map { ($0.version, $0.name, $0.appliedAt) }, createdAt: info.version))
        // Quoted: a URL's '?' and '&' mean something to the shell.
        lines.append(
            "Pending migrations: "
                + pending(version: info.version, schemaHash: info.schemaHash, store: "'\(database.storeArgument)'", checked, foldersFound: foldersFound, tool: arguments.tool))
        if let online = try PostgresOnlineState.read(at: database), online.phase != .complete {
            lines += Self.onlineLines(online)
        }
        Console.write(lines.joined(separator: "\n") + "\n")
        if let checked {
            MigrateCommand.warnAboutEditedMigrations(applied, migrator: Migrator(history: checked.history), checked: checked)
        }
        return ExitStatus.success
    }

    /// An online migration in progress: its phase, what the apps of each version use, and how
    /// far the backfill is.
    static func onlineLines(_ online: PostgresOnlineState) -> [String] {
        var lines: [String] = []
        switch online.phase {
        case .expanding:
            lines.append(
                "Online migration: expanding from version \(online.fromVersion) to \(online.toVersion); apps of version \(online.fromVersion) use the store, those of version \(online.toVersion) once it is expanded (run 'remodel migrate --store URL --online' to go on if it stopped)"
            )
        case .expanded:
            lines.append(
                "Online migration: expanded from version \(online.fromVersion) to \(online.toVersion); apps of both versions use the store (version \(online.toVersion) through schema '\(online.viewSchema)'); next: 'remodel migrate --store URL --complete' once no app of version \(online.fromVersion) runs, or '--abort'"
            )
        case .complete:
            break
        }
        for entry in online.backfill {
            let percent = entry.total == 0 ? 100 : entry.done * 100 / entry.total
            lines.append("  backfill \(entry.table): \(percent)% (\(entry.done) of \(entry.total) pages, \(entry.rows) objects)")
        }
        return lines
    }

    /// Whether a migrations or schemas folder is here, and the history they hold when it
    /// loads and checks (its diagnostics printed).
    private func history(_ arguments: ParsedArguments) -> (foldersFound: Bool, checked: CheckedHistory?) {
        let foldersFound = FileManager.default.fileExists(atPath: arguments.migrationsPath) || FileManager.default.fileExists(atPath: arguments.schemasPath)
        return (foldersFound, foldersFound ? HistoryInput.load(arguments) : nil)
    }

    /// `Objects:` and a line per type, the counts aligned.
    private static func objectLines(_ counts: [(type: String, count: Int)]) -> [String] {
        let width = counts.map(\.type.count).max() ?? 0
        return ["Objects:"] + counts.map { "  \($0.type.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.count)" }
    }

    /// `Migrations applied: 2 split-person-name (…), …`, or when the store was created at.
    private static func migrationsLine(_ applied: [(version: Int, name: String, appliedAt: String)], createdAt version: Int) -> String {
        "Migrations applied: " + (applied.isEmpty ? "none (created at version \(version))" : applied.map { "\($0.version) \($0.name) (\($0.appliedAt))" }.joined(separator: ", "))
    }

    static func size(_ bytes: Int64) -> String {
        let formatter = ByteCountFormatter()
        formatter.countStyle = .file
        return "\(formatter.string(fromByteCount: bytes)) (\(bytes) bytes)"
    }
}
