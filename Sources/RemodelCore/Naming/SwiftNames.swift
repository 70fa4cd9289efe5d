/// Facts about Swift identifiers, kept in one place for the validator and the emitter.
public enum SwiftNames {
    /// Words that must be written in backticks to be used as a name.
    public static let keywords: Set<String> = [
        // Declarations
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        // Statements
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "throw", "switch", "where", "while",
        // Expressions and types
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        // Pattern and type contexts
        "_",
    ]

    /// Names that are keywords only as members (`Foo.Type`, `x.self`), which the emitter also
    /// escapes so that every use compiles.
    public static let memberKeywords: Set<String> = ["Type", "Protocol", "init", "self"]

    /// Whether `name` needs backticks wherever it is written as an identifier.
    public static func needsEscaping(_ name: String) -> Bool {
        keywords.contains(name) || memberKeywords.contains(name)
    }

    /// `name`, in backticks when it is a keyword.
    public static func escaped(_ name: String) -> String {
        needsEscaping(name) ? "`\(name)`" : name
    }

    /// Whether `name` is a plain Swift identifier: a letter or underscore, then letters,
    /// digits or underscores (ASCII only, so that the name is also a valid column name and
    /// JSON key everywhere).
    public static func isIdentifier(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first), name != "_" else { return false }
        return utf8.allSatisfy(isIdentifierByte)
    }

    /// Whether `byte` may appear in a plain identifier: an ASCII letter, digit or `_`.
    public static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
