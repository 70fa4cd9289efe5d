import Foundation
import RemodelCore
import RemodelGeneration
import RemodelMigrate
import RemodelSchema

/// `remodel migration`: manages the migration history (`new`, `amend`).
package struct MigrationCommand: Command {
    package let name = "migration"
    package let abstract = "Manage the migration history in the migrations folder."
    package let subcommands: [any Command] = [MigrationNewCommand(), MigrationAmendCommand(), MigrationHashCommand(), MigrationSquashCommand()]
}

/// `remodel migration new NAME`: freezes the current schema as the next version.
package struct MigrationNewCommand: Command {
    package let name = "new"
    package let abstract = "Freeze the current schema as the next version and write a migration file for it."
    package let discussion = """
        Writes snapshots/vN.yaml (the schema's canonical form) and NNNN-NAME.yaml, pre-filled \
        with the changes found since the newest snapshot: each change as a comment with its \
        impact, a convert step for each retype that can reject values, and commented questions \
        where a removed and an added type or property look like a rename, or removed text \
        properties like parts of a new one (a set template). Then it checks the new version as \
        `remodel migrate` would plan it and says at once what the draft still needs. On an \
        unchanged schema it writes a data-only version (steps, no schema change). With no \
        migrations folder, the current schema becomes version 1, the baseline (0001-NAME.yaml, \
        no steps; conventionally NAME is 'initial'). Refuses an invalid schema, and a history \
        whose versions cannot run yet (naming the file to fix first); never overwrites a file. \
        Exit status: 0 written, 1 refused, 64 usage error.
        """
    package let arguments = [
        ArgumentSpec(
            "NAME", help: "The migration's name, without its number (remodel chooses it): letters, digits, '-', '_' or '.' (e.g. split-person-name).",
            example: "remodel migration new split-person-name"
        )
    ]
    package let options: [OptionSpec] = [CommonOptions.schemas, CommonOptions.migrations]

    package func run(_ arguments: ParsedArguments) throws -> Int32 {
        // The parser has made sure NAME is there.
        let givenName = arguments.positionals[0]
        guard MigrationFolder.isValidName(givenName) else {
            throw UsageError("'\(givenName)' cannot be a migration name: use letters, digits, '-', '_' or '.', starting with a letter or digit")
        }
        let migrationsPath = arguments.migrationsPath
        guard let (input, schema) = MigrationFiles.loadForWriting(arguments, command: "migration new", writes: "a new version") else {
            return ExitStatus.failure
        }
        let migrationName = try Self.name(givenName, forVersion: (input.loaded.history?.currentVersion ?? 0) + 1)
        guard MigrationFiles.existingVersionsCanRun(input, arguments: arguments, retry: arguments.command("migration new \(migrationName)")),
            MigrationFiles.sumMatches(arguments, input: input, exceptVersion: nil, command: "migration new \(migrationName)")
        else {
            return ExitStatus.failure
        }

        let version: Int
        let migrationText: String
        var dataOnly = false
        if let history = input.loaded.history {
            let newest = history.snapshots.last!
            dataOnly = newest.storageHash == schema.storageHash
            version = history.currentVersion + 1
            migrationText = MigrationDraft.text(version: version, name: migrationName, from: newest, to: schema)
        } else {
            version = 1
            migrationText = MigrationDraft.baseline(name: migrationName)
        }

        let snapshotPath = MigrationFolder.snapshotPath(in: migrationsPath, version: version)
        let migrationPath = MigrationFolder.join(migrationsPath, MigrationFolder.migrationFileName(version: version, name: migrationName))
        for path in [snapshotPath, migrationPath] where FileManager.default.fileExists(atPath: path) {
            Console.writeError("Error: '\(path)' already exists; it is never overwritten. Remove it if it is a leftover, or check the folder.\n")
            return ExitStatus.failure
        }
        try FileManager.default.createDirectory(atPath: MigrationFolder.join(migrationsPath, MigrationFolder.snapshotsFolder), withIntermediateDirectories: true)
        let leftover = "remove it if it is a leftover, or check the folder"
        try MigrationFiles.write(
            [
                (OutputFile(path: snapshotPath, existing: .refuse, advice: leftover), CanonicalYAML.text(of: schema)),
                (OutputFile(path: migrationPath, existing: .refuse, advice: leftover), migrationText),
            ], hashingInto: migrationsPath, hashes: input.loaded.fileHashes)
        let what =
            version == 1
            ? "the baseline (no steps)"
            : dataOnly
                ? "a data-only version (the schema did not change): write the steps it runs"
                : "the steps from version \(version - 1); review them"
        Console.write("\(snapshotPath): the schema of version \(version)\n\(migrationPath): \(what)\n")
        MigrationFiles.reportReadiness(arguments, version: version, file: migrationPath)
        return ExitStatus.success
    }

    /// The name to write for version `version`: `name` itself, or `name` without the version
    /// number it starts with (`0003-x` → `x` for version 3), so that the file is not named
    /// `0003-0003-x.yaml`. Another number is refused: the tool chooses it.
    package static func name(_ name: String, forVersion version: Int) throws -> String {
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, name.dropFirst(digits.count).first == "-" else { return name }
        let rest = String(name.dropFirst(digits.count + 1))
        if Int(digits) == version, MigrationFolder.isValidName(rest) { return rest }
        let example = MigrationFolder.isValidName(rest) ? rest : "split-person-name"
        throw UsageError(
            "'\(name)' starts with the version number \(digits), but remodel chooses the number: the next version is \(version), "
                + "so pass the name alone ('remodel migration new \(example)' writes '\(MigrationFolder.migrationFileName(version: version, name: example))')"
        )
    }
}

/// `remodel migration amend`: re-freezes the newest version from the current schema.
package struct MigrationAmendCommand: Command {
    package let name = "amend"
    package let abstract = "Re-freeze the newest version from the current schema, keeping its migration's steps."
    package let discussion = """
        For a version that no store has applied yet: after editing the schema files (say, to give \
        a new property a default that its draft asked for), writes snapshots/vN.yaml again from \
        them and renews the comment block at the top of the newest migration file (the changes \
        found), keeping its description and steps as they are; questions for changes the file \
        does not handle yet are added at its end, commented. Then it checks the version as \
        `remodel migrate` would plan it. A store already at version N was written with the old \
        snapshot, and is refused after an amend (schema mismatch): amend only unreleased \
        versions. Exit status: 0 amended (or nothing to amend), 1 refused, 64 usage error.
        """
    package let options: [OptionSpec] = [CommonOptions.schemas, CommonOptions.migrations]

    package func run(_ arguments: ParsedArguments) throws -> Int32 {
        let migrationsPath = arguments.migrationsPath
        guard let (input, schema) = MigrationFiles.loadForWriting(arguments, command: "migration amend", writes: "the newest version again") else {
            return ExitStatus.failure
        }
        guard let history = input.loaded.history, let file = input.files[history.currentVersion] else {
            Console.writeError("Error: there is no version to amend in '\(migrationsPath)'; create the first one with '\(arguments.command("migration new initial"))'\n")
            return ExitStatus.failure
        }
        let version = history.currentVersion
        guard MigrationFiles.sumMatches(arguments, input: input, exceptVersion: version, command: "migration amend") else { return ExitStatus.failure }
        let snapshotPath = input.loaded.snapshotFiles[version] ?? MigrationFolder.snapshotPath(in: migrationsPath, version: version)
        let snapshot = CanonicalYAML.text(of: schema)
        let existing = try String(contentsOfFile: file, encoding: .utf8)
        let migration =
            version == history.baseVersion
            ? existing : MigrationDraft.amended(existing, steps: history.migrations.last?.steps ?? [], version: version, from: history.schema(at: version - 1)!, to: schema)
        let oldSnapshot = FileManager.default.contents(atPath: snapshotPath).map { String(decoding: $0, as: UTF8.self) }
        guard oldSnapshot != snapshot || migration != existing else {
            Console.write("\(snapshotPath): version \(version) already freezes '\(arguments.schemasPath)'; nothing to amend\n")
            // Nothing written: what was read is what `migrate` would read.
            MigrationFiles.reportReadiness(arguments, version: version, file: file, input: input)
            return ExitStatus.success
        }
        try MigrationFiles.write(
            [
                (OutputFile(path: snapshotPath, existing: .replace), snapshot),
                (OutputFile(path: file, existing: .replace), migration),
            ], hashingInto: migrationsPath, hashes: input.loaded.fileHashes)
        Console.write(
            "\(snapshotPath): the schema of version \(version), frozen again from '\(arguments.schemasPath)'\n\(file): its list of changes renewed; its description and steps kept\n"
        )
        Console.writeError(
            "Note: amend only a version no store has applied yet: a store already at version \(version) keeps the old snapshot's schema and will be refused (schema mismatch)\n")
        MigrationFiles.reportReadiness(arguments, version: version, file: file)
        return ExitStatus.success
    }
}

/// What `migration new` and `migration amend` share.
package enum MigrationFiles {
    /// Writes the snapshot and the migration file both or neither, with the migrations
    /// folder's remodel.sum updated to match: all are written beside their names and flushed
    /// first, then put in place (a failure, such as a full disk, changes none). `hashes`: the
    /// digests of the folder's files as the history was loaded.
    package static func write(_ files: [(file: OutputFile, text: String)], hashingInto migrations: String, hashes: [String: String]) throws {
        let sum = MigrationSum.current(of: migrations, hashes: hashes, pending: files.map { ($0.file.path, Data($0.text.utf8)) })
        let files = files + [(OutputFile(path: MigrationSum.path(in: migrations), existing: .replace), sum.text)]
        var staged: [OutputFile.Staged] = []
        do {
            for entry in files { staged.append(try entry.file.stage(Data(entry.text.utf8))) }
        } catch {
            for file in staged { file.discard() }
            if let fault = StorageFault(of: error), let failed = error as? OutputFileError {
                throw StorageFaults.Failure(
                    description: fault.message(cannot: "write '\(failed.path)'", intact: "no migration file or snapshot was written or changed"))
            }
            throw error
        }
        var committed: [OutputFile.Staged] = []
        for (index, file) in staged.enumerated() {
            do {
                try file.commit()
                committed.append(file)
            } catch {
                for rest in staged[(index + 1)...] { rest.discard() }
                // A new file already in place goes again, so that no half version is left.
                if case .refuse = files[index].file.existing { for done in committed { unlink(done.target) } }
                throw error
            }
        }
    }

    /// Whether remodel.sum (when there is one) matches every file of the versions other
    /// than `exceptVersion` (the one the command rewrites); if not, prints the files and why
    /// nothing is written: a new version must not record an unreviewed edit of a released one.
    package static func sumMatches(_ arguments: ParsedArguments, input: HistoryInput, exceptVersion: Int?, command: String) -> Bool {
        let unreleased = exceptVersion.map { Set([$0]) } ?? []
        let problems = MigrationSum.verify(migrations: arguments.migrationsPath, hashes: input.loaded.fileHashes, unreleased: unreleased).filter { $0.severity == .error }
        guard !problems.isEmpty else { return true }
        DiagnosticsOutput.print(problems)
        Console.writeError(
            "Error: the files of '\(arguments.migrationsPath)' do not match its remodel.sum (the problems above), so nothing was written. "
                + "Restore released versions from version control; if the edits are intended (no store has applied those versions), run '\(arguments.command("migration hash"))', then '\(arguments.command(command))' again\n"
        )
        return false
    }

    /// The history and the current schema (valid), loaded once and every version planned, for
    /// `remodel COMMAND` to freeze the schema as WRITES (a new version, the newest one again);
    /// `nil` after printing why not. The schema may store other data than the newest snapshot:
    /// that is what the command freezes.
    package static func loadForWriting(_ arguments: ParsedArguments, command: String, writes: String) -> (input: HistoryInput, schema: Schema)? {
        let input = HistoryInput.read(arguments, requireSchema: true, schemaMayBeAhead: true)
        DiagnosticsOutput.print(input.loading)
        guard let schema = input.schema?.schema, !input.loading.containsErrors else {
            // A schema path that does not exist, and nothing else: its diagnostic says all.
            let onlyNoSchema = !FileManager.default.fileExists(atPath: arguments.schemasPath) && input.loading.filter { $0.severity == .error }.count == 1
            if !onlyNoSchema {
                let need = "`remodel \(command)` freezes \(writes) only from a valid schema, on top of a history that loads; nothing was written"
                Console.writeError(input.failure(arguments, need: need))
            }
            return nil
        }
        return (input, schema)
    }

    /// Whether every version of the history can run, as `migrate` would plan it; if not,
    /// prints the problems and names the migration files to fix before a new version is
    /// frozen on top of them. A version frozen on a broken one could not run either, and the
    /// readiness check after writing would blame the new draft for the old file's problems.
    package static func existingVersionsCanRun(_ input: HistoryInput, arguments: ParsedArguments, retry: String) -> Bool {
        let problems = input.planned.filter { $0.severity == .error }
        guard let history = input.loaded.history, !problems.isEmpty else { return true }
        DiagnosticsOutput.print(input.planned)
        let loaded = input.loaded
        let versions = Self.versions(of: problems, in: loaded, newest: history.currentVersion)
        let files = versions.compactMap { loaded.files[$0] }.map { "'\($0)'" }
        let subject = versions.count == 1 ? "version \(versions[0]) cannot run" : "versions \(MessageText.list(versions.map(String.init))) cannot run"
        var advice = "Error: \(subject) yet (the problems above), so no version \(history.currentVersion + 1) was written: fix \(MessageText.list(files)) first"
        let schemaProblem = problems.contains { problem in
            guard let file = problem.location?.file else { return false }
            return file != loaded.files[history.currentVersion] && Self.versions(of: [problem], in: loaded, newest: history.currentVersion) == [history.currentVersion]
        }
        if schemaProblem {
            advice +=
                " (or, for a problem in the schema of version \(history.currentVersion), fix '\(arguments.schemasPath)' and run '\(arguments.command("migration amend"))' to freeze it again)"
        }
        Console.writeError(advice + ", check with 'remodel validate', then run '\(retry)' again\n")
        return false
    }

    /// The versions `diagnostics` are problems of, in order: the version a diagnostic names
    /// (`Diagnostic.version`, which the planner sets even when a problem points at the
    /// declaration in the version before); else the version of the migration file or
    /// snapshot it points at; else (the schema folder, or no location) the newest version.
    package static func versions(of diagnostics: [Diagnostic], in loaded: MigrationHistoryLoadResult, newest: Int) -> [Int] {
        let versions = diagnostics.map { diagnostic -> Int in
            if let version = diagnostic.version { return version }
            if let file = diagnostic.location?.file {
                if let version = loaded.files.first(where: { $0.value == file })?.key { return version }
                if let version = loaded.snapshotFiles.first(where: { $0.value == file })?.key { return version }
            }
            return newest
        }
        return Set(versions).sorted()
    }

    /// Checks the history as `migrate` would plan it and says what the new (or amended)
    /// version still needs, with the file and line of each problem.
    /// `input`: the history as read before, when nothing was written since.
    package static func reportReadiness(_ arguments: ParsedArguments, version: Int, file: String, input: HistoryInput? = nil) {
        let input = input ?? HistoryInput.read(arguments)
        let problems = input.diagnostics.filter { $0.severity == .error }
        // Unanswered questions decide whether data is kept: say so, as a plan would not.
        var questions = 0
        if let history = input.history, let steps = history.migrations.first(where: { $0.version == version })?.steps,
            let old = history.schema(at: version - 1), let new = history.schema(at: version), let text = try? String(contentsOfFile: file, encoding: .utf8)
        {
            questions = MigrationDraft.openQuestions(in: text, steps: steps, from: old, to: new).count
        }
        let open =
            questions == 0
            ? ""
            : "; it asks \(questions) question\(questions == 1 ? "" : "s"): answer each by uncommenting its step, or delete it (left as they are, the changes they ask about run as the draft lists them)"
        guard !problems.isEmpty else {
            let review = version >= 2 ? ", and run 'remodel check' for the changes a reviewer must accept" : ""
            Console.write("Version \(version) can run as written\(open); check it with 'remodel migrate --store FILE --dry-run'\(review)\n")
            return
        }
        DiagnosticsOutput.print(input.diagnostics)
        // Problems in the files of earlier versions are not this draft's: name those files.
        let earlier = versions(of: problems, in: input.loaded, newest: version).filter { $0 < version }
        if !earlier.isEmpty {
            let files = earlier.compactMap { input.files[$0] }.map { "'\($0)'" }
            Console.writeError(
                "Version \(version) cannot run yet: \(earlier.count == 1 ? "version" : "versions") \(MessageText.list(earlier.map(String.init))) before it \(earlier.count == 1 ? "has" : "have") the problems above: fix \(MessageText.list(files)) first, and check with 'remodel validate'\n"
            )
            return
        }
        // A problem in the schema files (which are the newest version's declarations).
        let schemaFiles = Set(input.schema?.files ?? [])
        let schemaFix = problems.contains { $0.location.map { schemaFiles.contains($0.file) } ?? false }
        var advice = "Version \(version) cannot run yet: fix the problems above in '\(file)'"
        if schemaFix { advice += " or in '\(arguments.schemasPath)' (then run '\(arguments.command("migration amend"))' to freeze the schema again)" }
        Console.writeError(advice + ", and check with 'remodel validate'\n")
    }
}

/// `remodel migration hash`: writes remodel.sum from the files as they are.
package struct MigrationHashCommand: Command {
    package let name = "hash"
    package let abstract = "Write Migrations/remodel.sum from the migration files and snapshots as they are."
    package let discussion = """
        remodel.sum holds a hash of every migration file and snapshot (SHA-256 over the SHA-256 \
        of each declaration), and one over all; \
        `remodel check` fails naming any file that differs from it. `migration new` and \
        `migration amend` keep it up to date; run `migration hash` after an intended edit of a \
        version no store has applied yet (a comment, an acceptance, a step of an unreleased \
        version), and once for a history made before remodel.sum existed. It records only a \
        history that loads and whose versions can all be planned. Never re-hash to silence an \
        edit of a released version: restore that file and make the change in a new version. \
        Exit status: 0 written (or already up to date), 1 refused, 64 usage error.
        """
    package let options: [OptionSpec] = [CommonOptions.schemas, CommonOptions.migrations]

    package func run(_ arguments: ParsedArguments) throws -> Int32 {
        let migrations = arguments.migrationsPath
        guard MigrationFolder.isDirectory(migrations) else {
            Console.writeError("Error: there is no migrations folder at '\(migrations)'; create the first version with '\(arguments.command("migration new initial"))'\n")
            return ExitStatus.failure
        }
        let input = HistoryInput.read(arguments, schemaMayBeAhead: true)
        guard !input.hasErrors, input.loaded.history != nil else {
            DiagnosticsOutput.print(input.diagnostics)
            Console.writeError(
                "Error: remodel.sum records only a history that loads and whose versions can all be planned; fix the problems above (check with 'remodel validate'), then run it again. Nothing was written\n"
            )
            return ExitStatus.failure
        }
        let path = MigrationSum.path(in: migrations)
        let sum = MigrationSum.current(of: migrations, hashes: input.loaded.fileHashes)
        let previous = FileManager.default.fileExists(atPath: path) ? try? MigrationSum.read(path).get() : nil
        if previous == sum {
            Console.write("\(path): up to date (\(sum.entries.count) files)\n")
            return ExitStatus.success
        }
        let before = Dictionary((previous?.entries ?? []).map { ($0.path, $0.hash) }, uniquingKeysWith: { first, _ in first })
        let changed = sum.entries.filter { before[$0.path] != nil && before[$0.path] != $0.hash }.map(\.path)
        let added = sum.entries.filter { before[$0.path] == nil }.map(\.path)
        try OutputFile(path: path, existing: .replace).write(Data(sum.text.utf8))
        var what = "\(sum.entries.count) files"
        if previous != nil {
            if !changed.isEmpty { what += "; re-hashed \(MessageText.list(changed))" }
            if !added.isEmpty { what += "; added \(MessageText.list(added))" }
        }
        Console.write("\(path): written (\(what))\n")
        let newest = sum.entries.compactMap { MigrationSum.version(ofPath: $0.path) }.max() ?? 0
        let older = Set(changed.compactMap(MigrationSum.version(ofPath:))).filter { $0 < newest }.sorted()
        if !older.isEmpty {
            let which = older.count == 1 ? "version \(older[0]) is" : "versions \(MessageText.list(older.map(String.init))) are"
            Console.writeError(
                "Warning: \(which) older than the newest (\(newest)): if any store has applied \(older.count == 1 ? "it" : "them"), the edit never reaches that store; restore the files from version control ('git checkout -- \(arguments.migrationsPath)') and make the change in a new version instead\n"
            )
        } else if !changed.isEmpty {
            Console.writeError("Note: re-hash only versions no store has applied yet: a store that applied an edited version keeps what it ran\n")
        }
        return ExitStatus.success
    }
}

/// `remodel migration squash --through N`: folds the oldest versions into one baseline.
package struct MigrationSquashCommand: Command {
    package let name = "squash"
    package let abstract = "Fold the versions up to N into one baseline version N, for a history grown long."
    package let discussion = """
        Rewrites N's migration file as a baseline (no steps, 'squashedFrom:' naming the first \
        version it folds), removes the older versions' migration files and snapshots, and \
        writes remodel.sum again: every command then reads, plans and checks the history from \
        version N. Stores at version N or later migrate as before; an older store is refused \
        with the versions it needs (upgrade it with a release built before the squash). \
        N's snapshot is kept as it is, so stores at N and the generated code do not change. \
        Refuses a history that does not load or plan, or whose files differ from remodel.sum. \
        `remodel check --base REF` does not count the squash as an edit of released versions, \
        but does count any later edit of the baseline. Exit status: 0 squashed, 1 refused, 64 \
        usage error.
        """
    package static let through = OptionSpec.option(
        "through", value: "N", required: true, help: "The newest version to fold: versions up to N become the baseline N (the oldest store it still upgrades).")
    package static let keepUpgradePath = OptionSpec.flag(
        "keep-upgrade-path",
        help:
            "Keep the folded versions in Migrations/upgrade/ (a history of their own, ending at N): older stores still upgrade through them, which are read but not planned or checked on every build."
    )
    package let options: [OptionSpec] = [MigrationSquashCommand.through, MigrationSquashCommand.keepUpgradePath, CommonOptions.schemas, CommonOptions.migrations]

    package func run(_ arguments: ParsedArguments) throws -> Int32 {
        guard let text = arguments.value(Self.through), let through = Int(text), through >= 1 else {
            throw UsageError("--through needs a version number (2, 3, …), found '\(arguments.value(Self.through) ?? "")'")
        }
        let migrations = arguments.migrationsPath
        let input = HistoryInput.read(arguments, schemaMayBeAhead: true)
        guard !input.hasErrors, let history = input.loaded.history else {
            DiagnosticsOutput.print(input.diagnostics)
            Console.writeError(
                "Error: 'migration squash' folds only a history that loads and whose versions can all be planned; fix the problems above, then run it again. Nothing was changed\n")
            return ExitStatus.failure
        }
        guard history.versions.contains(through), through > history.baseVersion, let file = input.loaded.files[through] else {
            Console.writeError(
                "Error: the history has versions \(history.baseVersion) to \(history.currentVersion), so there is nothing to fold through version \(through): pass a version from \(history.baseVersion + 1) to \(history.currentVersion). Nothing was changed\n"
            )
            return ExitStatus.failure
        }
        guard MigrationFiles.sumMatches(arguments, input: input, exceptVersion: nil, command: "migration squash --through \(through)") else { return ExitStatus.failure }
        let first = input.loaded.squashedFrom ?? history.baseVersion
        let migration = history.migration(to: through)
        var baseline = "# Versions \(first) to \(through), squashed into one baseline by 'remodel migration squash --through \(through)'.\n"
        baseline += "# A store older than version \(through) is refused: upgrade it first with a release built before the squash.\n"
        baseline += "description: " + CanonicalYAML.scalar(migration?.description ?? "Versions \(first) to \(through), squashed") + "\n"
        baseline += "squashedFrom: \(first)\nsteps: []\n"
        let keep = arguments.flag(Self.keepUpgradePath)
        if keep {
            // The folded versions, N's own file and snapshot included, as a history of their own.
            let upgrade = MigrationFolder.join(migrations, MigrationFolder.upgradeFolder)
            try FileManager.default.createDirectory(atPath: MigrationFolder.join(upgrade, MigrationFolder.snapshotsFolder), withIntermediateDirectories: true)
            for version in history.baseVersion...through {
                for path in [input.loaded.files[version], input.loaded.snapshotFiles[version]].compactMap({ $0 }) {
                    let relative = String(path.dropFirst(migrations.count).drop { $0 == "/" })
                    let copy = MigrationFolder.join(upgrade, relative)
                    if !FileManager.default.fileExists(atPath: copy) { try FileManager.default.copyItem(atPath: path, toPath: copy) }
                }
            }
            let upgradeSum = MigrationSum.current(of: upgrade)
            try OutputFile(path: MigrationSum.path(in: upgrade), existing: .replace).write(Data(upgradeSum.text.utf8))
        }
        try OutputFile(path: file, existing: .replace).write(Data(baseline.utf8))
        var removed: [String] = []
        for version in history.baseVersion..<through {
            for path in [input.loaded.files[version], input.loaded.snapshotFiles[version]].compactMap({ $0 }) where unlink(path) == 0 {
                removed.append(path)
            }
        }
        let sum = MigrationSum.current(of: migrations)
        try OutputFile(path: MigrationSum.path(in: migrations), existing: .replace).write(Data(sum.text.utf8))
        Console.write(
            "Squashed versions \(history.baseVersion) to \(through) into the baseline '\(file)' (removed \(removed.count) files); '\(MigrationSum.path(in: migrations))' written. "
                + (keep
                    ? "Older stores still upgrade through '\(MigrationFolder.join(migrations, MigrationFolder.upgradeFolder))', which commands read but do not plan or check\n"
                    : "Stores at version \(through) or later migrate as before; older ones are refused: upgrade them first with a release built before the squash\n"))
        return ExitStatus.success
    }
}
