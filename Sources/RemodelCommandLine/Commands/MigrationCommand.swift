import Foundation
import RemodelCore
import RemodelSchema

/// `remodel migration`: manages the migration history (`new`, `amend`).
struct MigrationCommand: Command {
    let name = "migration"
    let abstract = "Manage the migration history in the migrations folder."
    let subcommands: [any Command] = [MigrationNewCommand(), MigrationAmendCommand()]
}

/// `remodel migration new NAME`: freezes the current schema as the next version.
struct MigrationNewCommand: Command {
    let name = "new"
    let abstract = "Freeze the current schema as the next version and write a migration file for it."
    let discussion = """
        Writes snapshots/vN.yaml (the schema's canonical form) and NNNN-NAME.yaml, pre-filled \
        with the changes found since the newest snapshot: each change as a comment with its \
        impact, a convert step for each retype that can reject values, and commented questions \
        where a removed and an added type or property look like a rename, or removed text \
        properties like parts of a new one (a set template). Then it checks the new version as \
        `remodel migrate` would plan it and says at once what the draft still needs. On an \
        unchanged schema it writes a data-only version (steps, no schema change). With no \
        migrations folder, the current schema becomes version 1, the baseline (0001-NAME.yaml, \
        no steps; conventionally NAME is 'initial'). Refuses an invalid schema and never \
        overwrites a file. Exit status: 0 written, 1 refused, 64 usage error.
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
        guard let (schema, loaded) = MigrationFiles.loadForWriting(schemasPath: schemasPath, migrationsPath: migrationsPath, action: "freezing a new version") else {
            return ExitStatus.failure
        }

        let version: Int
        let migrationText: String
        var dataOnly = false
        if let history = loaded.history {
            let newest = history.snapshots.last!
            dataOnly = newest.storageHash == schema.storageHash
            version = history.currentVersion + 1
            migrationText = MigrationDraft.text(version: version, name: migrationName, from: newest, to: schema)
        } else {
            version = 1
            migrationText = MigrationDraft.baseline(name: migrationName)
        }

        let snapshotPath = MigrationFiles.snapshotPath(migrationsPath, version: version)
        let migrationPath = MigrationFolder.join(migrationsPath, MigrationFolder.migrationFileName(version: version, name: migrationName))
        for path in [snapshotPath, migrationPath] where FileManager.default.fileExists(atPath: path) {
            Console.writeError("Error: '\(path)' already exists; it is never overwritten. Remove it if it is a leftover, or check the folder.\n")
            return ExitStatus.failure
        }
        try FileManager.default.createDirectory(atPath: MigrationFolder.join(migrationsPath, MigrationFolder.snapshotsFolder), withIntermediateDirectories: true)
        try Data(CanonicalYAML.text(of: schema).utf8).write(to: Paths.url(snapshotPath), options: .withoutOverwriting)
        do {
            try Data(migrationText.utf8).write(to: Paths.url(migrationPath), options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(atPath: snapshotPath)
            throw error
        }
        let what = version == 1 ? "the baseline (no steps)"
            : dataOnly ? "a data-only version (the schema did not change): write the steps it runs"
            : "the steps from version \(version - 1); review them"
        Console.write("\(snapshotPath): the schema of version \(version)\n\(migrationPath): \(what)\n")
        MigrationFiles.reportReadiness(arguments, version: version, file: migrationPath)
        return ExitStatus.success
    }
}

/// `remodel migration amend`: re-freezes the newest version from the current schema.
struct MigrationAmendCommand: Command {
    let name = "amend"
    let abstract = "Re-freeze the newest version from the current schema, keeping its migration's steps."
    let discussion = """
        For a version that no store has applied yet: after editing the schema files (say, to give \
        a new property a default that its draft asked for), writes snapshots/vN.yaml again from \
        them and renews the comment block at the top of the newest migration file (the changes \
        found), keeping its description and steps as they are; questions for changes the file \
        does not handle yet are added at its end, commented. Then it checks the version as \
        `remodel migrate` would plan it. A store already at version N was written with the old \
        snapshot, and is refused after an amend (schema mismatch): amend only unreleased \
        versions. Exit status: 0 amended (or nothing to amend), 1 refused, 64 usage error.
        """
    let options: [OptionSpec] = [CommonOptions.schemas, CommonOptions.migrations]

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let migrationsPath = arguments.migrationsPath
        guard let (schema, loaded) = MigrationFiles.loadForWriting(schemasPath: arguments.schemasPath, migrationsPath: migrationsPath, action: "amending the newest version") else {
            return ExitStatus.failure
        }
        guard let history = loaded.history, let file = loaded.files[history.currentVersion] else {
            Console.writeError("Error: there is no version to amend in '\(migrationsPath)'; create the first one with 'remodel migration new initial'\n")
            return ExitStatus.failure
        }
        let version = history.currentVersion
        let snapshotPath = loaded.snapshotFiles[version] ?? MigrationFiles.snapshotPath(migrationsPath, version: version)
        let snapshot = CanonicalYAML.text(of: schema)
        let existing = try String(contentsOfFile: file, encoding: .utf8)
        let migration = version == 1 ? existing : MigrationDraft.amended(existing, steps: history.migrations.last?.steps ?? [], version: version, from: history.snapshots[version - 2], to: schema)
        let oldSnapshot = FileManager.default.contents(atPath: snapshotPath).map { String(decoding: $0, as: UTF8.self) }
        guard oldSnapshot != snapshot || migration != existing else {
            Console.write("\(snapshotPath): version \(version) already freezes '\(arguments.schemasPath)'; nothing to amend\n")
            MigrationFiles.reportReadiness(arguments, version: version, file: file)
            return ExitStatus.success
        }
        try Data(snapshot.utf8).write(to: Paths.url(snapshotPath), options: .atomic)
        try Data(migration.utf8).write(to: Paths.url(file), options: .atomic)
        Console.write("\(snapshotPath): the schema of version \(version), frozen again from '\(arguments.schemasPath)'\n\(file): its list of changes renewed; its description and steps kept\n")
        Console.writeError("Note: amend only a version no store has applied yet: a store already at version \(version) keeps the old snapshot's schema and will be refused (schema mismatch)\n")
        MigrationFiles.reportReadiness(arguments, version: version, file: file)
        return ExitStatus.success
    }
}

/// What `migration new` and `migration amend` share.
enum MigrationFiles {
    /// The valid current schema and the loaded history, or `nil` after printing why not.
    static func loadForWriting(schemasPath: String, migrationsPath: String, action: String) -> (Schema, MigrationHistoryLoadResult)? {
        let schemaResult = SchemaLoader.load(path: schemasPath)
        DiagnosticsOutput.print(schemaResult.diagnostics)
        guard let schema = schemaResult.schema else {
            Console.writeError("Error: the schema in '\(schemasPath)' is invalid; fix it before \(action)\n")
            return nil
        }
        let loaded = MigrationHistoryLoader.load(migrations: migrationsPath)
        DiagnosticsOutput.print(loaded.diagnostics)
        guard !loaded.diagnostics.containsErrors else {
            Console.writeError("Error: the migration history in '\(migrationsPath)' has errors; fix them before \(action)\n")
            return nil
        }
        return (schema, loaded)
    }

    static func snapshotPath(_ migrationsPath: String, version: Int) -> String {
        MigrationFolder.join(MigrationFolder.join(migrationsPath, MigrationFolder.snapshotsFolder), MigrationFolder.snapshotFileName(version: version))
    }

    /// Checks the history as `migrate` would plan it and says what the new (or amended)
    /// version still needs, with the file and line of each problem.
    static func reportReadiness(_ arguments: ParsedArguments, version: Int, file: String) {
        let input = HistoryInput.read(arguments)
        let problems = input.diagnostics.filter { $0.severity == .error }
        // Unanswered questions decide whether data is kept: say so, as a plan would not.
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        let questions = text.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("# Question:") }.count
        let open = questions == 0 ? "" : "; it asks \(questions) question\(questions == 1 ? "" : "s"): answer each by uncommenting its step, or delete it (left as they are, the changes they ask about run as the draft lists them)"
        guard !problems.isEmpty else {
            Console.write("Version \(version) can run as written\(open); check it with 'remodel migrate --store FILE --dry-run'\n")
            return
        }
        DiagnosticsOutput.print(input.diagnostics)
        let schemaFix = problems.contains { $0.location.map { !$0.file.hasPrefix(arguments.migrationsPath) } ?? false }
        var advice = "Version \(version) cannot run yet: fix the problems above in '\(file)'"
        if schemaFix { advice += " or in '\(arguments.schemasPath)' (then run 'remodel migration amend' to freeze the schema again)" }
        Console.writeError(advice + ", and check with 'remodel validate'\n")
    }
}
