import Foundation
import RemodelCore

/// Loads a schema's version history from a `Migrations/` folder: `NNNN-name.yaml` migration
/// files and `snapshots/vN.yaml` canonical schemas, checked for a complete chain (versions
/// 1…N, no gaps or duplicates, one snapshot per version), every problem a located diagnostic.
///
/// ```swift
/// let loaded = MigrationHistoryLoader.load(migrations: "Migrations")
/// guard let history = loaded.history else { print(loaded.diagnostics); return }
/// var migrator = Migrator(history: history)
/// migrator.sources = loaded.sources
/// ```
public enum MigrationHistoryLoader {
    /// Loads the folder at `path`. With no folder there is no history (the schema is
    /// version 1): `history` is `nil` and there are no diagnostics. Never throws.
    public static func load(migrations path: String) -> MigrationHistoryLoadResult {
        guard FileManager.default.fileExists(atPath: path) else {
            return MigrationHistoryLoadResult(history: nil, diagnostics: [], folderExists: false)
        }
        guard MigrationFolder.isDirectory(path) else {
            return MigrationHistoryLoadResult(
                history: nil,
                diagnostics: [
                    .error(
                        "migrations-not-a-folder", "'\(path)' is a file, but the migration history is a folder", at: nil,
                        hint: "pass the folder holding NNNN-name.yaml files and snapshots/ with --migrations DIR"
                    )
                ])
        }
        let log = DiagnosticLog()
        let (migrationFiles, snapshotFiles) = MigrationFolder.list(path, log: log)
        if migrationFiles.isEmpty && snapshotFiles.isEmpty && !log.hasErrors {
            return MigrationHistoryLoadResult(history: nil, diagnostics: log.diagnostics)
        }

        // The chain of versions: 1…N, each once.
        var byVersion: [Int: MigrationFolder.MigrationFile] = [:]
        for file in migrationFiles {
            if let first = byVersion[file.version] {
                log.error(
                    "migration-duplicate-version", "two migration files have version \(file.version): '\(first.path)' and '\(file.path)'",
                    at: location(file.path),
                    hint:
                        "give this migration the next free number (two branches may have added the same version: renumber one of them and re-create its snapshot with 'remodel migration new')",
                    notes: [.init("'\(first.path)' has version \(file.version) too", at: location(first.path))]
                )
            } else {
                byVersion[file.version] = file
            }
        }
        let versions = byVersion.keys.sorted()
        for (previous, next) in zip(versions, versions.dropFirst()) where next != previous + 1 {
            let before = byVersion[previous]!.path
            let after = byVersion[next]!.path
            let missing = next == previous + 2 ? "version \(previous + 1) is" : "versions \(previous + 1) to \(next - 1) are"
            log.error(
                "migration-gap", "\(missing) missing: the history jumps from '\(before)' (version \(previous)) to '\(after)' (version \(next))",
                at: location(after),
                hint:
                    "renumber '\(after)' to \(MigrationFolder.migrationFileName(version: previous + 1, name: byVersion[next]!.name)) (and its snapshot), or restore the missing file",
                notes: [.init("the previous version is here", at: location(before))]
            )
        }

        // Snapshots: one per version, no more.
        var snapshotPaths: [Int: String] = [:]
        for snapshot in snapshotFiles {
            if let first = snapshotPaths[snapshot.version] {
                log.error(
                    "snapshot-duplicate-version", "two snapshots have version \(snapshot.version): '\(first)' and '\(snapshot.path)'", at: location(snapshot.path),
                    hint: "keep only snapshots/v\(snapshot.version).yaml")
            } else if byVersion[snapshot.version] == nil {
                log.error(
                    "snapshot-without-migration",
                    "'\(snapshot.path)' is the snapshot of version \(snapshot.version), but there is no migration file for version \(snapshot.version)",
                    at: location(snapshot.path),
                    hint: "restore the migration file \(MigrationFolder.migrationFileName(version: snapshot.version, name: "NAME")), or delete this snapshot"
                )
            } else {
                snapshotPaths[snapshot.version] = snapshot.path
            }
        }
        var snapshots: [Int: Schema] = [:]
        var sources = HistorySources()
        let attested = MigrationSum.recordedHashes(in: path)
        let reader = SnapshotReader()
        // Every file's hash (`FileDigest`), for remodel.sum.
        var fileHashes: [String: String] = [:]
        /// Reads and validates a snapshot as any schema file.
        func loadFully(_ version: Int, _ snapshotPath: String, _ bytes: [UInt8]?) {
            let loaded = SchemaLoader.load(path: snapshotPath)
            log.add(contentsOf: loaded.diagnostics)
            guard let schema = loaded.schema else { return }
            snapshots[version] = schema
            sources.schemas[version] = loaded.source
            if let bytes, String(decoding: bytes, as: UTF8.self) != CanonicalYAML.text(of: schema) {
                log.warning(
                    "snapshot-not-canonical", "'\(snapshotPath)' is not in canonical form: it was edited after the tool wrote it",
                    at: location(snapshotPath), hint: "snapshots record released schemas and are written only by 'remodel migration new'; restore it from version control"
                )
            }
        }
        for version in versions {
            let file = byVersion[version]!
            guard let snapshotPath = snapshotPaths[version] else {
                let expected = MigrationFolder.snapshotPath(in: path, version: version)
                log.error(
                    "migration-without-snapshot", "version \(version) ('\(file.path)') has no snapshot: '\(expected)' is missing",
                    at: location(file.path), hint: "snapshots are written by 'remodel migration new'; restore the file from version control"
                )
                continue
            }
            // A snapshot remodel.sum records is what remodel wrote from a schema it validated:
            // read it (sharing what the versions before declared alike), not validated again,
            // once its hash confirms it (below).
            let bytes: [UInt8]?
            switch BoundedFile.read(snapshotPath, limit: Self.snapshotLimit) {
            case .success(let read): bytes = read
            case .failure(.tooLarge(let size)):
                log.error(
                    "file-too-large",
                    "the snapshot is \(BoundedFile.describe(size: size, limit: Self.snapshotLimit)); snapshots are limited to \(Self.snapshotLimit / 1_000_000) MB, and read whole",
                    at: location(snapshotPath), hint: "restore it from version control: 'remodel migration new' writes snapshots far smaller")
                continue
            case .failure(.unreadable): bytes = nil
            }
            if let bytes, let recorded = attested[snapshotPath], let read = reader.read(String(decoding: bytes, as: UTF8.self), file: snapshotPath) {
                fileHashes[snapshotPath] = read.digest
                if read.digest == recorded {
                    snapshots[version] = read.schema
                    sources.schemas[version] = read.source
                    continue
                }
            } else if let bytes {
                fileHashes[snapshotPath] = FileDigest.hex(of: bytes)
            }
            // Edited since the sum was written, or never recorded: read it as any schema file.
            loadFully(version, snapshotPath, bytes)
        }

        // Migration files.
        var squashedFrom: Located<Int>?
        var migrations: [Migration] = []
        var acceptances: [Int: [ChangeAcceptance]] = [:]
        var files: [Int: String] = [:]
        for version in versions {
            let file = byVersion[version]!
            files[version] = file.path
            guard let bytes = read(file.path, log: log) else { continue }
            // The store records the file's plain SHA-256; remodel.sum its `FileDigest`.
            let checksum = SHA256.hexDigest(of: bytes)
            fileHashes[file.path] = FileDigest.hex(of: bytes)
            let (root, problems) = YAMLParser(file: file.path, document: .migration).parse(bytes)
            log.add(contentsOf: problems)
            guard problems.isEmpty else { continue }
            var contents = MigrationFileReader.Contents()
            if let root, !root.isNull {
                contents = MigrationFileReader(log: log, target: snapshots[version]).read(root, file: file.path)
            } else {
                // As for an empty schema file: nothing in it is most likely a mistake (a file
                // truncated, or created by hand and never written).
                log.warning(
                    "empty-file", "the migration file of version \(version) is empty: it has no description and no steps", at: location(file.path),
                    hint: version == versions.first
                        ? "write 'description: …' and 'steps: []' in it (the baseline has no steps), or restore it from version control"
                        : "write 'description: …' and its 'steps:' ('steps: []' for none), or restore it from version control"
                )
            }
            if version == versions.first, let first = contents.sources.first?.location {
                log.error(
                    "migration-baseline-steps",
                    "version \(version) is the baseline: its migration file cannot have steps (there is nothing older to migrate from)",
                    at: first, hint: "move these steps into a new migration ('remodel migration new NAME')"
                )
            }
            if version == versions.first {
                squashedFrom = contents.squashedFrom
            } else if let squashed = contents.squashedFrom {
                log.error(
                    "migration-squash-not-first", "only the first version of a history can be a squashed baseline, and version \(version) is not the first",
                    at: squashed.location, hint: "remove 'squashedFrom', or restore the files 'remodel migration squash' removed")
            }
            sources.migrations[version] = MigrationSource(file: file.path, steps: contents.sources, stepsLocation: contents.stepsLocation)
            if !contents.acceptances.isEmpty { acceptances[version] = contents.acceptances }
            migrations.append(Migration(version: version, name: file.name, description: contents.description, steps: contents.steps, checksum: checksum))
        }

        // A history starts at version 1, or at the baseline a squash left.
        if let first = versions.first, let file = byVersion[first] {
            if first != 1 && squashedFrom == nil {
                log.error(
                    "migration-gap", "the history starts at version \(first) ('\(file.path)'); it must start at version 1, the baseline",
                    at: location(file.path),
                    hint:
                        "add '\(MigrationFolder.join(path, MigrationFolder.migrationFileName(version: 1, name: "initial")))' with its snapshot, or renumber the files from 0001 (a history squashed with 'remodel migration squash' starts at its baseline, which says 'squashedFrom:')"
                )
            } else if let squashed = squashedFrom, squashed.value >= first {
                log.error(
                    "migration-squash-invalid", "the baseline of version \(first) says it folds the versions from \(squashed.value), which is not older than itself",
                    at: squashed.location, hint: "restore '\(file.path)' as 'remodel migration squash' wrote it")
            }
        }
        // The versions a squash kept for older stores (`upgrade/`): read, not planned or checked.
        var upgradePath: MigrationHistory?
        let upgradeFolder = MigrationFolder.join(path, MigrationFolder.upgradeFolder)
        if let first = versions.first, first > 1, MigrationFolder.isDirectory(upgradeFolder) {
            let upgrade = load(migrations: upgradeFolder)
            log.add(contentsOf: upgrade.diagnostics)
            if let older = upgrade.history {
                if older.currentVersion != first || older.schema(at: first)?.storageHash != snapshots[first]?.storageHash {
                    log.error(
                        "migration-upgrade-path",
                        "'\(upgradeFolder)' ends at version \(older.currentVersion), not at the baseline \(first) this history starts from with the same schema",
                        at: location(upgradeFolder), hint: "restore the folder as 'remodel migration squash --keep-upgrade-path' wrote it")
                } else {
                    upgradePath = older
                }
            }
        }
        var history: MigrationHistory?
        if !log.hasErrors {
            history = MigrationHistory(snapshots: versions.map { snapshots[$0]! }, migrations: migrations, baseVersion: versions.first ?? 1, upgradePath: upgradePath)
        }
        var result = MigrationHistoryLoadResult(
            history: history, diagnostics: log.diagnostics.sortedByLocation(), sources: sources,
            files: files, snapshotFiles: snapshotPaths, acceptances: acceptances, fileHashes: fileHashes
        )
        result.squashedFrom = squashedFrom?.value
        return result
    }

    /// The rule of the error for a schema that differs from the newest snapshot.
    public static let schemaNotSnapshottedRule = "schema-not-snapshotted"

    /// Checks that `schema` (the current `Schemas/`) is the newest snapshot of `history`, as
    /// far as stored data goes: a schema edited without a new migration gets
    /// `schema-not-snapshotted`. `nil` when they agree or there is no history.
    /// `source`: where the schema's declarations are, so that the error points at the first
    /// changed one (a pull request's annotation lands on the edited line).
    public static func checkSnapshotted(schema: Schema, schemasPath: String, history: MigrationHistory?, migrationsPath: String, source: SchemaSource? = nil) -> Diagnostic? {
        guard let history, let newest = history.snapshots.last, newest.storageHash != schema.storageHash else { return nil }
        let snapshot = MigrationFolder.snapshotPath(in: migrationsPath, version: history.currentVersion)
        let diff = SchemaDiff(from: newest, to: schema)
        let changes = diff.changes.prefix(3).map(\.description)
        let summary = changes.isEmpty ? "" : " (\(changes.joined(separator: "; "))\(diff.changes.count > 3 ? "; …" : ""))"
        let location = source.flatMap { source in
            diff.changes.lazy.compactMap { change -> SourceLocation? in
                let (type, member) = change.kind.declaration
                return schema.objectType(named: type) != nil || schema.enumType(named: type) != nil ? source.location(of: type, member: member) : nil
            }.first
        }
        return .error(
            schemaNotSnapshottedRule,
            "the schema in '\(schemasPath)' differs from the newest snapshot '\(snapshot)' (version \(history.currentVersion))\(summary): the schema changed without a new migration",
            at: location, hint: "run 'remodel migration new NAME' to freeze it as version \(history.currentVersion + 1)"
        )
    }

    /// The largest snapshot read: a snapshot holds one whole schema (every schema file's
    /// declarations, written canonically), so it may be larger than one schema file.
    static let snapshotLimit = 256_000_000

    private static func location(_ file: String) -> SourceLocation {
        SourceLocation(file: file, line: 1, column: 1)
    }

    private static func read(_ file: String, log: DiagnosticLog, limits: YAMLLimits = .standard) -> [UInt8]? {
        switch BoundedFile.read(file, limit: limits.maxFileSize) {
        case .success(let bytes):
            return bytes
        case .failure(.unreadable(let reason)):
            log.error("file-unreadable", "cannot read '\(file)': \(reason)", at: location(file), hint: "check that the file exists and is readable")
        case .failure(.tooLarge(let size)):
            log.error(
                "file-too-large",
                "the migration file is \(BoundedFile.describe(size: size, limit: limits.maxFileSize)); migration files are limited to \(limits.maxFileSize / 1_000_000) MB, and read whole",
                at: location(file), hint: "check that this is the right file")
        }
        return nil
    }
}
