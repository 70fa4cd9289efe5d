import Foundation

/// A position in a source file, 1-based as users and editors count.
///
/// The file is kept as an index into a process-wide table of file names, so that copying a
/// location (every YAML node, key and diagnostic holds one) retains and releases nothing.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// A file name entered in the process-wide table: interning it once and building locations
    /// from it skips the table's lock (the YAML parser makes one location per event).
    public struct InternedFile: Hashable, Sendable {
        fileprivate let index: UInt32

        public init(_ file: String) { index = FileTable.shared.index(of: file) }

        public var path: String { FileTable.shared.file(at: index) }
    }

    private var fileIndex: UInt32
    private var storedLine: Int32
    private var storedColumn: Int32

    /// The file's path as the user gave it (relative paths stay relative).
    public var file: String {
        get { FileTable.shared.file(at: fileIndex) }
        set { fileIndex = FileTable.shared.index(of: newValue) }
    }

    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    public init(file: String, line: Int, column: Int) {
        self.init(file: InternedFile(file), line: line, column: column)
    }

    public init(file: InternedFile, line: Int, column: Int) {
        self.fileIndex = file.index
        self.storedLine = Int32(clamping: line)
        self.storedColumn = Int32(clamping: column)
    }

    /// `file:line:column`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.fileIndex != rhs.fileIndex { return lhs.file < rhs.file }
        return (lhs.storedLine, lhs.storedColumn) < (rhs.storedLine, rhs.storedColumn)
    }
}

/// The process-wide table of file names behind ``SourceLocation``; entries are never removed.
private final class FileTable: @unchecked Sendable {
    static let shared = FileTable()

    private let lock = NSLock()
    private var files: [String] = []
    private var indices: [String: UInt32] = [:]

    func index(of file: String) -> UInt32 {
        lock.lock()
        defer { lock.unlock() }
        if let index = indices[file] { return index }
        let index = UInt32(files.count)
        files.append(file)
        indices[file] = index
        return index
    }

    func file(at index: UInt32) -> String {
        lock.lock()
        defer { lock.unlock() }
        return files[Int(index)]
    }
}
