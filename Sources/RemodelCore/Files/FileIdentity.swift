import Foundation

/// Which file a path names, as the file system knows it: device and inode. Two paths name the
/// same file (through a symbolic link, a hard link, `..`, another spelling) exactly when their
/// identities are equal.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    /// The identity of the file at `path` (following symbolic links), or `nil` when there is
    /// none.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// The identities of an SQLite database at `path` and the files SQLite keeps next to it
    /// (`-wal`, `-shm`, `-journal`) that exist.
    public static func ofDatabase(at path: String) -> Set<FileIdentity> {
        Set(["", "-wal", "-shm", "-journal"].compactMap { FileIdentity(path: path + $0) })
    }
}
