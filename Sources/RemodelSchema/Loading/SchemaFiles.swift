import Foundation
import RemodelCore

/// Finds the schema files at a path the user gave: the file itself, or every `*.yaml` and
/// `*.yml` file below a directory (hidden ones skipped), sorted by relative path.
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
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else {
            return .failure(.error("file-unreadable", "cannot list the folder '\(path)'", at: nil, hint: "check that it exists and can be read"))
        }
        var relative: [String] = []
        let rootPath = root.standardizedFileURL.path
        // Paths below the root are reported relative to it, joined to the path the user gave.
        for case let url as URL in enumerator where extensions.contains(url.pathExtension) {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            var full = url.standardizedFileURL.path
            if full.hasPrefix(rootPath + "/") { full.removeFirst(rootPath.count + 1) }
            relative.append(full)
        }
        guard !relative.isEmpty else {
            return .failure(
                .error(
                    "no-schema-files", "no *.yaml or *.yml files in '\(path)'", at: nil,
                    hint: "add a schema file such as '\(join(path, "Models.yaml"))' with an 'objects:' section"
                ))
        }
        return .success(relative.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { join(path, $0) })
    }

    /// `directory/file` without doubling a trailing slash.
    static func join(_ directory: String, _ file: String) -> String {
        directory.hasSuffix("/") ? directory + file : directory + "/" + file
    }
}
