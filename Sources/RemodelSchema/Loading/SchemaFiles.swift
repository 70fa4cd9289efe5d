import Foundation
import RemodelCore

/// Finds the schema files at a path the user gave: the file itself, or every `*.yaml` and
/// `*.yml` file below a directory (hidden ones skipped, symbolic links followed), sorted by
/// relative path.
enum SchemaFiles {
    static let extensions: Set<String> = ["yaml", "yml"]

    /// The files as the user would write them (`Schemas/Person.yaml`), or a diagnostic.
    static func find(at path: String) -> Result<[String], Diagnostic> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(
                .error(
                    "file-unreadable", "'\(path)' does not exist", at: nil,
                    hint: "run from the package folder, or pass the schema folder with --schemas DIR"
                ))
        }
        guard isDirectory.boolValue else { return .success([path]) }
        let root = URL(fileURLWithPath: path, isDirectory: true).resolvingSymlinksInPath()
        var relative: [String] = []
        var visited: Set<String> = [root.standardizedFileURL.path]
        if let problem = collect(in: root, under: "", shownAs: path, into: &relative, visited: &visited) { return .failure(problem) }
        guard !relative.isEmpty else {
            return .failure(
                .error(
                    "no-schema-files", "no *.yaml or *.yml files in '\(path)'", at: nil,
                    hint: "add a schema file such as '\(join(path, "Models.yaml"))' with an 'objects:' section"
                ))
        }
        return .success(relative.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { join(path, $0) })
    }

    /// Adds the schema files below `folder` (as paths relative to the root, `prefix` being
    /// `folder`'s) to `files`. Symbolic links are followed, to files and to folders (each folder
    /// once, so a link to an enclosing folder ends); a link to nothing is an error, not a file
    /// silently left out of the schema.
    private static func collect(in folder: URL, under prefix: String, shownAs path: String, into files: inout [String], visited: inout Set<String>) -> Diagnostic? {
        let keys: [URLResourceKey] = [.isRegularFileKey, .isDirectoryKey, .isSymbolicLinkKey]
        guard let entries = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]) else {
            return .error("file-unreadable", "cannot list the folder '\(join(path, prefix))'", at: nil, hint: "check that it exists and can be read")
        }
        for entry in entries {
            let name = prefix.isEmpty ? entry.lastPathComponent : prefix + "/" + entry.lastPathComponent
            var target = entry
            if (try? entry.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) == true {
                target = entry.resolvingSymlinksInPath()
                guard FileManager.default.fileExists(atPath: target.path) else {
                    guard extensions.contains(entry.pathExtension) else { continue }
                    let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: entry.path)) ?? "?"
                    return .error(
                        "file-unreadable", "'\(join(path, name))' is a symbolic link to '\(destination)', which does not exist", at: nil,
                        hint: "point the link at the schema file, or remove it")
                }
            }
            let values = try? target.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
            if values?.isDirectory == true {
                guard visited.insert(target.standardizedFileURL.path).inserted else { continue }
                if let problem = collect(in: target, under: name, shownAs: path, into: &files, visited: &visited) { return problem }
            } else if extensions.contains(entry.pathExtension) {
                guard values?.isRegularFile == true else {
                    return .error(
                        "file-unreadable", "'\(join(path, name))' is not a regular file (a device, a pipe or a socket), so it cannot be a schema file", at: nil,
                        hint: "remove it from the schema folder, or replace it with the schema file")
                }
                files.append(name)
            }
        }
        return nil
    }

    /// `directory/file` without doubling a trailing slash.
    static func join(_ directory: String, _ file: String) -> String {
        directory.hasSuffix("/") ? directory + file : directory + "/" + file
    }
}
