/// A position in a source file, 1-based as users and editors count.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file's path as the user gave it (relative paths stay relative).
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
