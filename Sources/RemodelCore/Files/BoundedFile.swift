import Foundation

/// Reads a whole file that must be small, with memory bounded by `limit`: at most `limit + 1`
/// bytes are read, so a file too large, a device that never ends (`/dev/zero`) or a file
/// growing while it is read is refused after that much, not read whole first.
public enum BoundedFile {
    /// Why the bytes could not be read.
    public enum Failure: Error, Sendable {
        /// The file cannot be opened or read; `reason` says why.
        case unreadable(reason: String)
        /// The file holds more than `limit` bytes (`size` when the file system knows it).
        case tooLarge(size: Int?)
    }

    public static func read(_ path: String, limit: Int) -> Result<[UInt8], Failure> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(.unreadable(reason: errno == 0 ? "it cannot be opened" : String(cString: strerror(errno))))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else {
                var info = stat()
                let size = stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
                return .failure(.tooLarge(size: size))
            }
            return .success([UInt8](data))
        } catch {
            return .failure(.unreadable(reason: (error as NSError).localizedDescription))
        }
    }

    /// "12 MB", or "more than 5 MB" when the size is not known.
    public static func describe(size: Int?, limit: Int) -> String {
        size.map { "\(max($0 / 1_000_000, 1)) MB" } ?? "more than \(limit / 1_000_000) MB"
    }
}
