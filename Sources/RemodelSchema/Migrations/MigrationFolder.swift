import Foundation
import RemodelCore

/// The files of a `Migrations/` folder: `NNNN-name.yaml` migration files and
/// `snapshots/vN.yaml` snapshots, with their numbers, as paths the user would write them.
public enum MigrationFolder {
    /// The folder holding the snapshots, inside the migrations folder.
    public static let snapshotsFolder = "snapshots"
    /// Where `remodel migration squash --keep-upgrade-path` keeps the versions it folds: a
    /// history of its own, ending at the baseline.
    public static let upgradeFolder = "upgrade"
    /// `remodel check`'s configuration, kept with the history (not a migration file).
    public static let checkConfigurationFileName = "remodel-check.yaml"

    /// A migration file found in the folder.
    struct MigrationFile {
        var version: Int
        var name: String
        var path: String
    }

    /// A snapshot file found in the folder.
    struct SnapshotFile {
        var version: Int
        var path: String
    }

    /// `0002-split-person-name.yaml` → (2, "split-person-name"); `nil` for other names.
    public static func parseMigrationFileName(_ fileName: String) -> (version: Int, name: String)? {
        guard let stem = stem(fileName) else { return nil }
        let digits = stem.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, stem.dropFirst(digits.count).first == "-", let version = Int(digits), version > 0 else { return nil }
        let name = String(stem.dropFirst(digits.count + 1))
        guard isValidName(name) else { return nil }
        return (version, name)
    }

    /// `v3.yaml` → 3; `nil` for other names.
    public static func parseSnapshotFileName(_ fileName: String) -> Int? {
        guard let stem = stem(fileName), stem.first == "v" else { return nil }
        let digits = stem.dropFirst()
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let version = Int(digits), version > 0 else { return nil }
        return version
    }

    /// Whether `name` can be a migration name: letters, digits, `-`, `_` and `.`, starting
    /// with a letter or digit.
    public static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || ("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
    }

    /// The file name of version `version`'s migration: `0002-split-person-name.yaml`.
    public static func migrationFileName(version: Int, name: String) -> String {
        let number = String(version)
        return String(repeating: "0", count: max(0, 4 - number.count)) + number + "-" + name + ".yaml"
    }

    /// The snapshot file name of `version`: `v2.yaml`.
    public static func snapshotFileName(version: Int) -> String {
        "v\(version).yaml"
    }

    /// Where the snapshot of `version` is in the migrations folder `migrations`:
    /// `Migrations/snapshots/v2.yaml`.
    /// The migrations folder that goes with the schemas at `schemas` (a folder or one file):
    /// `Migrations` beside it, so that `other/Schemas` reads `other/Migrations`, never the
    /// working directory's. Relative paths stay relative, as the user wrote them.
    public static func path(besideSchemas schemas: String) -> String {
        var trimmed = schemas
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        let last = FilePaths.name(of: trimmed)
        if trimmed.isEmpty || last == "." || last == ".." {
            // The schemas folder named by a path that ends in a dot: resolve it to find its parent.
            let folder = URL(fileURLWithPath: trimmed.isEmpty ? "." : trimmed).standardizedFileURL
            return folder.deletingLastPathComponent().appendingPathComponent(defaultName).path
        }
        guard trimmed.contains("/") else { return defaultName }
        return join(FilePaths.folder(of: trimmed), defaultName)
    }

    /// The name of the migrations folder beside the schemas.
    public static let defaultName = "Migrations"

    public static func snapshotPath(in migrations: String, version: Int) -> String {
        join(join(migrations, snapshotsFolder), snapshotFileName(version: version))
    }

    /// `directory/file` without doubling a trailing slash.
    public static func join(_ directory: String, _ file: String) -> String {
        FilePaths.join(directory, file)
    }

    private static func stem(_ fileName: String) -> Substring? {
        if fileName.hasSuffix(".yaml") { return fileName.dropLast(5) }
        if fileName.hasSuffix(".yml") { return fileName.dropLast(4) }
        return nil
    }

    /// Lists the folder: migration files, snapshot files, and diagnostics for YAML files whose
    /// names do not follow the rules.
    static func list(_ path: String, log: DiagnosticLog) -> (migrations: [MigrationFile], snapshots: [SnapshotFile]) {
        var migrations: [MigrationFile] = []
        var snapshots: [SnapshotFile] = []
        for entry in visibleEntries(path) {
            let full = join(path, entry)
            if entry == snapshotsFolder, isDirectory(full) {
                for snapshot in visibleEntries(full) where stem(snapshot) != nil {
                    let file = join(full, snapshot)
                    if let version = parseSnapshotFileName(snapshot) {
                        snapshots.append(SnapshotFile(version: version, path: file))
                    } else {
                        log.error(
                            "snapshot-file-name", "'\(file)' is not named vN.yaml, so it is not a snapshot of any version", at: SourceLocation(file: file, line: 1, column: 1),
                            hint: "snapshots are written by 'remodel migration new' as snapshots/v1.yaml, v2.yaml, …; remove or rename this file"
                        )
                    }
                }
                continue
            }
            guard stem(entry) != nil, entry != checkConfigurationFileName, !isDirectory(full) else { continue }
            if let (version, name) = parseMigrationFileName(entry) {
                migrations.append(MigrationFile(version: version, name: name, path: full))
            } else {
                log.error(
                    "migration-file-name", "'\(full)' is not named NNNN-name.yaml (a version number, a dash, a name of letters, digits, '-', '_' or '.')",
                    at: SourceLocation(file: full, line: 1, column: 1),
                    hint: "rename it, e.g. '\(migrationFileName(version: 2, name: "add-dog-details"))', or move it out of the migrations folder"
                )
            }
        }
        migrations.sort { ($0.version, $0.path) < ($1.version, $1.path) }
        snapshots.sort { ($0.version, $0.path) < ($1.version, $1.path) }
        return (migrations, snapshots)
    }

    package static func isDirectory(_ path: String) -> Bool {
        FilePaths.isDirectory(path)
    }

    private static func visibleEntries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }
}
