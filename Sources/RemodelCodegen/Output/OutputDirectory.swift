import Foundation

/// Brings a folder of generated files up to date: writes files whose content changed,
/// deletes files this generator wrote earlier that no longer correspond to a type
/// (recognised by `CodeGenerator.headerPrefix`), and leaves every other file alone.
public struct OutputDirectory: Sendable {
    /// One change to the folder.
    public enum Change: Hashable, Sendable {
        case create(name: String, contents: String)
        case update(name: String, old: String, new: String)
        case delete(name: String, old: String)

        public var name: String {
            switch self {
            case .create(let name, _), .update(let name, _, _), .delete(let name, _): name
            }
        }
    }

    /// A generated file name that is not a plain file name inside the folder.
    public struct UnsafeFileName: Error, CustomStringConvertible {
        public var name: String
        public var description: String { "refusing to write '\(name)': generated file names must be plain names inside the output folder" }
    }

    public var path: String

    public init(path: String) {
        self.path = path
    }

    /// The changes that would make the folder hold exactly `files` (plus any file not
    /// written by the generator), sorted by file name.
    public func changes(toMatch files: [GeneratedFile]) throws -> [Change] {
        var changes: [Change] = []
        var wanted: Set<String> = []
        for file in files {
            guard Self.isPlainFileName(file.name) else { throw UnsafeFileName(name: file.name) }
            wanted.insert(file.name)
            let url = fileURL(file.name)
            if let data = FileManager.default.contents(atPath: url.path) {
                // Compare bytes first: decoding megabytes of unchanged files as text is wasted.
                guard data != Data(file.contents.utf8) else { continue }
                changes.append(.update(name: file.name, old: String(decoding: data, as: UTF8.self), new: file.contents))
            } else {
                changes.append(.create(name: file.name, contents: file.contents))
            }
        }
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in existing.sorted() where name.hasSuffix(".swift") && !wanted.contains(name) {
            guard let data = FileManager.default.contents(atPath: fileURL(name).path) else { continue }
            let old = String(decoding: data, as: UTF8.self)
            if CodeGenerator.isGenerated(old) { changes.append(.delete(name: name, old: old)) }
        }
        return changes.sorted { $0.name < $1.name }
    }

    /// Applies `changes`, creating the folder if needed. Files are replaced atomically.
    public func apply(_ changes: [Change]) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for change in changes {
            guard Self.isPlainFileName(change.name) else { throw UnsafeFileName(name: change.name) }
            switch change {
            case .create(let name, let contents), .update(let name, _, let contents):
                try Data(contents.utf8).write(to: fileURL(name), options: .atomic)
            case .delete(let name, _):
                try FileManager.default.removeItem(at: fileURL(name))
            }
        }
    }

    /// A unified diff of `changes`, as `git diff` shows them (`a/` old, `b/` new).
    public func diff(_ changes: [Change]) -> String {
        changes.map { change in
            switch change {
            case .create(let name, let contents): UnifiedDiff.make(old: "", new: contents, oldName: "/dev/null", newName: "b/" + name)
            case .update(let name, let old, let new): UnifiedDiff.make(old: old, new: new, oldName: "a/" + name, newName: "b/" + name)
            case .delete(let name, let old): UnifiedDiff.make(old: old, new: "", oldName: "a/" + name, newName: "/dev/null")
            }
        }.joined()
    }

    /// Whether `name` is a file name with no folder part that cannot point outside the folder.
    public static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\\") && !name.contains("\0")
    }

    private func fileURL(_ name: String) -> URL {
        URL(fileURLWithPath: path, isDirectory: true).appendingPathComponent(name)
    }
}
