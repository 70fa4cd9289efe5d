import Foundation

/// Paths split into their folder and name, and joined, as text: relative paths stay as the
/// user wrote them. The one home for it, because Foundation's `NSString` path functions trap
/// on a one-character path (`-o m`) on Linux.
public enum FilePaths {
    /// The folder `path` is in: `.` for a bare name, `/` at the top (`a` for `a/b/`).
    public static func folder(of path: String) -> String {
        let path = withoutTrailingSlashes(path)
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = withoutTrailingSlashes(path[..<slash])
        return folder.isEmpty ? "/" : String(folder)
    }

    /// The last component of `path` (`b` for `a/b/`, `/` for `/`).
    public static func name(of path: String) -> String {
        let path = withoutTrailingSlashes(path)
        guard let slash = path.lastIndex(of: "/"), path != "/" else { return String(path) }
        return String(path[path.index(after: slash)...])
    }

    /// `folder/name`, without doubling a slash that ends `folder`.
    public static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `path` without the slashes that end it, but for a lone `/`.
    private static func withoutTrailingSlashes(_ path: some StringProtocol) -> Substring {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return path
    }

    /// Whether `path` names a folder (following symbolic links).
    public static func isDirectory(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
