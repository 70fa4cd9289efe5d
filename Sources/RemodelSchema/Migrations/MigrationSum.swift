import Foundation
import RemodelCore

/// `Migrations/remodel.sum`: a hash of every migration file and snapshot (`FileDigest`:
/// SHA-256 over its chunks' SHA-256), and one over all of them, so that an edited released migration, a deleted snapshot or two
/// branches adding the same version fail `remodel check` with the file named (in the
/// spirit of `atlas.sum`: the hash over all makes two such branches conflict in Git).
///
/// ```
/// remodel-sum 1
/// total 5d41…
/// 0001-initial.yaml 2c26…
/// snapshots/v1.yaml 9f86…
/// ```
///
/// Written by `remodel migration new`, `migration amend` and `migration hash`; never by hand.
public struct MigrationSum: Hashable, Sendable {
    /// The file's name inside the migrations folder.
    public static let fileName = "remodel.sum"
    /// The format this version writes and reads (the first line's number).
    public static let formatVersion = 1
    static let magic = "remodel-sum"

    /// The rule IDs of what `verify` finds (`remodel check` tunes them by these IDs).
    public enum Rule {
        public static let missing = "sum-missing"
        public static let fileChanged = "sum-file-changed"
        public static let fileDeleted = "sum-file-deleted"
        public static let fileUnrecorded = "sum-file-unrecorded"
        /// A file of a version still under review differs from the sum (a warning).
        public static let unreleasedOutdated = "sum-unreleased-outdated"
    }

    /// One hashed file: its path inside the migrations folder and its SHA-256.
    public struct Entry: Hashable, Sendable {
        public var path: String
        public var hash: String

        public init(path: String, hash: String) {
            self.path = path
            self.hash = hash
        }
    }

    /// In version order: each version's migration file, then its snapshot.
    public var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The hash over every entry, as the `total` line holds it.
    public var total: String {
        SHA256.hexDigest(of: entries.map { "\($0.path) \($0.hash)\n" }.joined())
    }

    /// The file's text.
    public var text: String {
        "\(Self.magic) \(Self.formatVersion)\ntotal \(total)\n" + entries.map { "\($0.path) \($0.hash)\n" }.joined()
    }

    /// The path of the sum in the migrations folder `migrations`.
    public static func path(in migrations: String) -> String {
        MigrationFolder.join(migrations, fileName)
    }

    /// The sum of the files in the migrations folder `migrations`: every migration file and
    /// snapshot whose name follows the rules, in version order, as they are now, or as they
    /// will be once `pending` (full paths as written to, and their new contents) is written,
    /// for writing remodel.sum together with them. `hashes`: digests already computed, by
    /// path (`MigrationHistoryLoadResult.fileHashes`).
    public static func current(of migrations: String, hashes: [String: String] = [:], pending: [(path: String, contents: Data)] = []) -> MigrationSum {
        let (files, snapshots) = MigrationFolder.list(migrations, log: DiagnosticLog())
        var known = hashes
        var paths = files.map(\.path) + snapshots.map(\.path)
        let prefix = migrations.hasSuffix("/") ? migrations : migrations + "/"
        for file in pending where file.path.hasPrefix(prefix) && version(ofPath: String(file.path.dropFirst(prefix.count))) != nil {
            known[file.path] = FileDigest.hex(of: file.contents)
            if !paths.contains(file.path) { paths.append(file.path) }
        }
        let entries = paths.map { String($0.dropFirst(prefix.count)) }
            .sorted { (version(ofPath: $0) ?? 0, isSnapshot($0) ? 1 : 0, $0) < (version(ofPath: $1) ?? 0, isSnapshot($1) ? 1 : 0, $1) }
            .concurrentMap { path in
                let file = prefix + path
                return Entry(path: path, hash: known[file] ?? FileDigest.hex(ofFile: file) ?? FileDigest.hex(of: Data()))
            }
        return MigrationSum(entries: entries)
    }

    /// Reads the sum file at `path`: the sum, or the problem with the file (located).
    public static func read(_ path: String) -> Result<MigrationSum, Diagnostic> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(.error("sum-unreadable", "cannot read '\(path)'", at: SourceLocation(file: path, line: 1, column: 1), hint: "check that the file is readable"))
        }
        let hint = "remodel.sum is written by remodel; restore it from version control, or run 'remodel migration hash' to write it again from the files as they are"
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        func problem(_ message: String, line: Int) -> Result<MigrationSum, Diagnostic> {
            .failure(.error("sum-invalid", message, at: SourceLocation(file: path, line: line, column: 1), hint: hint))
        }
        if let conflict = lines.firstIndex(where: { $0.hasPrefix("<<<<<<<") || $0.hasPrefix(">>>>>>>") }) {
            return .failure(
                .error(
                    "sum-conflict", "'\(path)' has Git conflict markers: two branches each changed the history (most likely each added a version)",
                    at: SourceLocation(file: path, line: conflict + 1, column: 1),
                    hint:
                        "keep one branch's versions: take the other branch's migration files and snapshots out, resolve remodel.sum to its side ('git checkout --theirs' or '--ours'), then make those changes again as a new version with 'remodel migration new NAME'"
                ))
        }
        let header = lines.first.map { $0.split(separator: " ") } ?? []
        guard header.count == 2, header[0] == magic, let format = Int(header[1]) else {
            return problem("'\(path)' is not a remodel.sum file: its first line is not '\(magic) \(formatVersion)'", line: 1)
        }
        guard format == formatVersion else {
            return .failure(
                .error(
                    "sum-format", "'\(path)' has format \(format), and this remodel reads format \(formatVersion)", at: SourceLocation(file: path, line: 1, column: 1),
                    hint: format > formatVersion ? "a newer remodel wrote it: use that version (or newer)" : hint
                ))
        }
        guard lines.count >= 2, lines[1].hasPrefix("total "), lines[1].count == 6 + 64 else {
            return problem("the second line of '\(path)' is not 'total' and a SHA-256 hash", line: 2)
        }
        var entries: [Entry] = []
        for (index, line) in lines.enumerated().dropFirst(2) where !line.isEmpty {
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts[1].count == 64, parts[1].allSatisfy(\.isHexDigit) else {
                return problem("line \(index + 1) of '\(path)' is not a file and its SHA-256 hash", line: index + 1)
            }
            entries.append(Entry(path: String(parts[0]), hash: String(parts[1])))
        }
        let sum = MigrationSum(entries: entries)
        guard String(lines[1].dropFirst(6)) == sum.total else {
            return problem("the total in '\(path)' does not match its lines: the file was edited or merged by hand (two branches may each have added a version)", line: 2)
        }
        return .success(sum)
    }

    /// The hash remodel.sum records for each file of `migrations`, by its path as
    /// `MigrationFolder` lists it; empty without a readable sum.
    static func recordedHashes(in migrations: String) -> [String: String] {
        guard case .success(let sum) = read(path(in: migrations)) else { return [:] }
        return Dictionary(sum.entries.map { (MigrationFolder.join(migrations, $0.path), $0.hash) }, uniquingKeysWith: { first, _ in first })
    }

    /// Compares the files of `migrations` with its remodel.sum: every file changed, deleted
    /// or added since the sum was written is an error naming it, except in the versions
    /// `unreleased` (still under review, so still edited: a warning to re-hash before the
    /// merge). No sum is a warning (a history from before remodel.sum); no folder, nothing.
    public static func verify(migrations: String, hashes: [String: String] = [:], unreleased: Set<Int> = []) -> [Diagnostic] {
        guard MigrationFolder.isDirectory(migrations) else { return [] }
        let sumPath = path(in: migrations)
        let current = current(of: migrations, hashes: hashes)
        guard FileManager.default.fileExists(atPath: sumPath) else {
            guard !current.entries.isEmpty else { return [] }
            return [
                .warning(
                    Rule.missing, "'\(migrations)' has no remodel.sum, so an edited released migration or a deleted snapshot would go unnoticed",
                    at: nil, hint: "run 'remodel migration hash' to write '\(sumPath)' from the files as they are, and commit it"
                )
            ]
        }
        let recorded: MigrationSum
        switch read(sumPath) {
        case .success(let sum): recorded = sum
        case .failure(let problem): return [problem]
        }
        return differences(recorded: recorded, current: current, migrations: migrations, sumPath: sumPath).map { diagnostic in
            guard let version = diagnostic.version, unreleased.contains(version) else { return diagnostic }
            var outdated = diagnostic
            outdated.rule = Rule.unreleasedOutdated
            outdated.severity = .warning
            outdated.message += " (version \(version) is new, so it may still change)"
            outdated.hint = "run 'remodel migration hash' to record it once its review is done, before it is merged"
            return outdated
        }
    }

    /// The files that differ between the sum as recorded and as it is now.
    static func differences(recorded: MigrationSum, current: MigrationSum, migrations: String, sumPath: String) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let now = Dictionary(current.entries.map { ($0.path, $0.hash) }, uniquingKeysWith: { first, _ in first })
        let then = Dictionary(recorded.entries.map { ($0.path, $0.hash) }, uniquingKeysWith: { first, _ in first })
        let rehash = "if no store has applied this version yet (it is not released), run 'remodel migration hash' to record the edit"
        for (index, entry) in recorded.entries.enumerated() {
            let file = MigrationFolder.join(migrations, entry.path)
            let line = SourceLocation(file: sumPath, line: index + 3, column: 1)
            let version = version(ofPath: entry.path)
            guard let hash = now[entry.path] else {
                diagnostics.append(
                    .error(
                        Rule.fileDeleted,
                        "'\(file)' is recorded in remodel.sum but is missing: \(isSnapshot(entry.path) ? "a snapshot" : "a migration file") of a version was deleted",
                        at: line,
                        hint:
                            "restore it from version control (stores and generated code rely on every version); if the version was never released, remove it completely and run 'remodel migration hash'",
                        notes: [], version: version
                    ))
                continue
            }
            if hash != entry.hash {
                diagnostics.append(
                    .error(
                        Rule.fileChanged, "'\(file)' changed since remodel.sum recorded it: a migration or snapshot of version \(version.map(String.init) ?? "?") was edited",
                        at: SourceLocation(file: file, line: 1, column: 1),
                        hint:
                            "a released version must not change (stores that applied it would disagree with it): restore it from version control and put the change in a new migration ('remodel migration new NAME'); \(rehash)",
                        notes: [.init("recorded here", at: line)], version: version
                    ))
            }
        }
        for entry in current.entries where then[entry.path] == nil {
            let file = MigrationFolder.join(migrations, entry.path)
            let version = version(ofPath: entry.path)
            let rival = isSnapshot(entry.path) ? nil : recorded.entries.first { other in self.version(ofPath: other.path) == version && !isSnapshot(other.path) }
            diagnostics.append(
                .error(
                    Rule.fileUnrecorded,
                    rival.map {
                        "'\(file)' is not recorded in remodel.sum, which has '\(MigrationFolder.join(migrations, $0.path))' as version \(version ?? 0): two branches added the same version"
                    }
                        ?? "'\(file)' is not recorded in remodel.sum: it was added without 'remodel migration new' (or by a branch merged without its remodel.sum)",
                    at: SourceLocation(file: file, line: 1, column: 1),
                    hint: rival != nil
                        ? "renumber one branch's migration after the other's: remove its files, merge, and run 'remodel migration new NAME' again"
                        : "create versions with 'remodel migration new NAME'; if this file is intended, run 'remodel migration hash' to record it",
                    // Two files of one version belong to neither branch's version alone: no
                    // version, so that it is never taken for the newest version's draft edits.
                    notes: [], version: rival == nil ? version : nil
                ))
        }
        return diagnostics
    }

    /// Whether a sum path is a snapshot's (`snapshots/v2.yaml`).
    public static func isSnapshot(_ path: String) -> Bool {
        path.hasPrefix(MigrationFolder.snapshotsFolder + "/")
    }

    /// The version a sum path belongs to: `0002-x.yaml` → 2, `snapshots/v2.yaml` → 2.
    public static func version(ofPath path: String) -> Int? {
        if isSnapshot(path) {
            return MigrationFolder.parseSnapshotFileName(String(path.dropFirst(MigrationFolder.snapshotsFolder.count + 1)))
        }
        return MigrationFolder.parseMigrationFileName(path)?.version
    }
}
