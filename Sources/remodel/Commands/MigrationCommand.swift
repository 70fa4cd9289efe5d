import Foundation
import RemodelCore
import RemodelSchema

/// `remodel migration`: manages the migration history (`remodel migration new NAME`).
struct MigrationCommand: Command {
    let name = "migration"
    let abstract = "Manage the migration history in the migrations folder."
    let subcommands: [any Command] = [MigrationNewCommand()]
}

/// `remodel migration new NAME`: freezes the current schema as the next version.
struct MigrationNewCommand: Command {
    let name = "new"
    let abstract = "Freeze the current schema as the next version and write a migration file for it."
    let discussion = """
        Writes snapshots/vN.yaml (the schema's canonical form) and NNNN-NAME.yaml, pre-filled \
        with the changes found since the newest snapshot: each change as a comment with its \
        impact, a convert step for each retype that can reject values, and a commented \
        renameProperty question where a removed and an added property of the same type look \
        like a rename. Edit the migration file before committing it. With no migrations folder, \
        the current schema becomes version 1, the baseline (0001-NAME.yaml, no steps; \
        conventionally NAME is 'initial'). Refuses an invalid schema or one that has not \
        changed since the newest snapshot, and never overwrites a file. Exit status: 0 written, \
        1 refused, 64 usage error.
        """
    let arguments = [ArgumentSpec("NAME", help: "The migration's name: letters, digits, '-', '_' or '.' (e.g. split-person-name).")]
    let options: [OptionSpec] = [CommonOptions.schemas, CommonOptions.migrations]

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let migrationName = arguments.positional(0) else { throw UsageError("missing NAME, e.g. 'remodel migration new split-person-name'") }
        guard MigrationFolder.isValidName(migrationName) else {
            throw UsageError("'\(migrationName)' cannot be a migration name: use letters, digits, '-', '_' or '.', starting with a letter or digit")
        }
        let migrationsPath = arguments.migrationsPath
        let schemasPath = arguments.schemasPath

        let schemaResult = SchemaLoader.load(path: schemasPath)
        DiagnosticsOutput.print(schemaResult.diagnostics)
        guard let schema = schemaResult.schema else {
            Console.writeError("Error: the schema in '\(schemasPath)' is invalid; fix it before freezing a new version\n")
            return ExitStatus.failure
        }
        let loaded = MigrationHistoryLoader.load(migrations: migrationsPath)
        DiagnosticsOutput.print(loaded.diagnostics)
        guard !loaded.diagnostics.containsErrors else {
            Console.writeError("Error: the migration history in '\(migrationsPath)' has errors; fix them before adding a version\n")
            return ExitStatus.failure
        }

        let version: Int
        let migrationText: String
        if let history = loaded.history {
            let newest = history.snapshots.last!
            guard newest.storageHash != schema.storageHash else {
                Console.writeError("Error: the schema in '\(schemasPath)' stores the same data as version \(history.currentVersion) (\(loaded.snapshotFiles[history.currentVersion] ?? "its snapshot")); there is nothing to freeze. Change the schema first (documentation and projections need no new version).\n")
                return ExitStatus.failure
            }
            version = history.currentVersion + 1
            migrationText = MigrationDraft.text(version: version, name: migrationName, from: newest, to: schema)
        } else {
            version = 1
            migrationText = MigrationDraft.baseline(name: migrationName)
        }

        let snapshotsPath = MigrationFolder.join(migrationsPath, MigrationFolder.snapshotsFolder)
        let snapshotPath = MigrationFolder.join(snapshotsPath, MigrationFolder.snapshotFileName(version: version))
        let migrationPath = MigrationFolder.join(migrationsPath, MigrationFolder.migrationFileName(version: version, name: migrationName))
        for path in [snapshotPath, migrationPath] where FileManager.default.fileExists(atPath: path) {
            Console.writeError("Error: '\(path)' already exists; it is never overwritten. Remove it if it is a leftover, or check the folder.\n")
            return ExitStatus.failure
        }
        try FileManager.default.createDirectory(atPath: snapshotsPath, withIntermediateDirectories: true)
        try Data(CanonicalYAML.text(of: schema).utf8).write(to: Paths.url(snapshotPath), options: .withoutOverwriting)
        do {
            try Data(migrationText.utf8).write(to: Paths.url(migrationPath), options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(atPath: snapshotPath)
            throw error
        }
        Console.write("\(snapshotPath): the schema of version \(version)\n\(migrationPath): \(version == 1 ? "the baseline (no steps)" : "the steps from version \(version - 1); review them")\n")
        return ExitStatus.success
    }
}
