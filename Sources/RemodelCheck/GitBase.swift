import Foundation
import RemodelCore
import RemodelSchema

/// The migrations folder as a Git revision has it (`remodel check --base REF`, typically the
/// branch a pull request merges into): the versions it already has are released, so the
/// change rules judge only the versions added since, and the released ones must not differ.
public struct GitBase: Sendable {
    /// Why the revision cannot be read: not a repository, an unknown revision, no `git`.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public var ref: String
    /// Each file of the folder at `ref` (path inside the folder) and its Git blob ID.
    public var blobs: [String: String]

    /// The versions whose migration file `ref` has.
    public var versions: Set<Int> {
        Set(blobs.keys.compactMap { MigrationFolder.parseMigrationFileName($0)?.version })
    }

    /// Reads the migrations folder `migrations` at `ref` with `git`.
    public static func read(ref: String, migrations: String) throws -> GitBase {
        let folder = URL(fileURLWithPath: migrations, isDirectory: true)
        let repository = MigrationFolder.isDirectory(migrations) ? migrations : folder.deletingLastPathComponent().path
        let commit = try git(
            ["rev-parse", "--verify", "--quiet", "\(ref)^{commit}"], in: repository,
            failure:
                "'\(ref)' is not a commit, branch or tag that the Git repository holding '\(migrations)' has: pass one it has (e.g. origin/main), or fetch it first (CI checkouts are often shallow: 'git fetch origin \(ref)', or 'fetch-depth: 0' in actions/checkout)"
        )
        guard MigrationFolder.isDirectory(migrations) else { return GitBase(ref: ref, blobs: [:]) }
        let listing = try git(
            ["ls-tree", "-r", "-z", commit.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines), "--", "."], in: migrations,
            failure: "cannot list '\(migrations)' at '\(ref)'")
        var blobs: [String: String] = [:]
        for record in listing.split(separator: "\0") {
            // <mode> blob <id>\t<path>
            guard let tab = record.firstIndex(of: "\t") else { continue }
            let fields = record[..<tab].split(separator: " ")
            guard fields.count == 3, fields[1] == "blob" else { continue }
            blobs[String(record[record.index(after: tab)...])] = String(fields[2])
        }
        return GitBase(ref: ref, blobs: blobs)
    }

    /// The released files (migration files and snapshots `ref` has) that differ now or are
    /// gone, each an error naming the file.
    /// `squashedThrough`: the first version of a history `remodel migration squash` folded
    /// into one baseline (1 when it did not); the versions it removed are not edits, nor is
    /// its baseline's file, unless `ref` already had that baseline.
    public func releasedEdits(migrations: String, squashedThrough: Int = 1) throws -> [Diagnostic] {
        var released = blobs.keys.filter { MigrationSum.version(ofPath: $0) != nil }.sorted()
        if squashedThrough > 1 {
            released.removeAll { path in
                guard let version = MigrationSum.version(ofPath: path) else { return false }
                if version < squashedThrough { return true }
                guard version == squashedThrough, !MigrationSum.isSnapshot(path), let blob = blobs[path] else { return false }
                // The squash rewrote this file; once `ref` has the squashed baseline, it is released too.
                let text = (try? Self.git(["cat-file", "-p", blob], in: migrations, failure: "cannot read '\(path)' at '\(ref)'")) ?? ""
                return !text.split(separator: "\n").contains { $0.hasPrefix("squashedFrom:") }
            }
        }
        let present = released.filter { FileManager.default.fileExists(atPath: MigrationFolder.join(migrations, $0)) }
        var now: [String: String] = [:]
        if !present.isEmpty {
            let ids = try Self.git(["hash-object", "--"] + present, in: migrations, failure: "cannot hash the files of '\(migrations)'")
                .split(separator: "\n").map(String.init)
            now = Dictionary(uniqueKeysWithValues: zip(present, ids))
        }
        var diagnostics: [Diagnostic] = []
        for path in released {
            let file = MigrationFolder.join(migrations, path)
            let version = MigrationSum.version(ofPath: path)
            guard let id = now[path] else {
                diagnostics.append(
                    .error(
                        CheckRules.releasedVersionEdited.id, "'\(file)' of version \(version ?? 0), released in '\(ref)', is deleted",
                        at: nil, hint: "restore it ('git checkout \(ref) -- \(file)'): stores and generated code rely on every released version", version: version
                    ))
                continue
            }
            if id != blobs[path] {
                diagnostics.append(
                    .error(
                        CheckRules.releasedVersionEdited.id, "'\(file)' of version \(version ?? 0) differs from '\(ref)', where it is released: a released version must not change",
                        at: SourceLocation(file: file, line: 1, column: 1),
                        hint:
                            "restore it ('git checkout \(ref) -- \(file)') and make the change in a new version ('remodel migration new NAME'): stores that applied version \(version ?? 0) would not get it",
                        version: version
                    ))
            }
        }
        return diagnostics
    }

    /// Runs `git ARGUMENTS` in `directory`; its output, or `Failure(failure)` (with git's own
    /// message) when it fails.
    static func git(_ arguments: [String], in directory: String, failure: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory, isDirectory: true)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run git (\(error.localizedDescription)); --base needs git on the PATH")
        }
        // Read before waiting: a full pipe would block git.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: failure + (message.isEmpty ? "" : " (git: \(message))"))
        }
        return String(decoding: data, as: UTF8.self)
    }
}
