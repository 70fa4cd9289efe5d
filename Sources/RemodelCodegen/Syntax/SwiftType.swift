import RemodelCore

/// A Swift type as generated code writes it: `String`, `Dog.ID`, `[Dog.ID]`, `Set<Int?>`.
///
/// Names are identifiers checked before generation; the renderer escapes keywords.
public enum SwiftType: Hashable, Sendable {
    /// A named type, optionally with generic arguments: `String`, `Set<Int>`.
    case named(String, generics: [SwiftType] = [])
    /// A member type: `Dog.ID`.
    indirect case member(SwiftType, String)
    /// `T?`
    indirect case optional(SwiftType)
    /// `[T]`
    indirect case array(SwiftType)
    /// `[K: V]`
    indirect case dictionary(SwiftType, SwiftType)
    /// `any P.Type`
    indirect case existentialMetatype(SwiftType)

    /// A plain named type.
    public static func name(_ name: String) -> SwiftType { .named(name) }

    /// The type made optional (an optional stays as it is).
    public var optional: SwiftType {
        if case .optional = self { return self }
        return .optional(self)
    }

    /// Whether the type is written with a trailing `?`.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }
}

extension SwiftType {
    /// Parses the small type syntax a schema may state for a projection's transform
    /// (`Character?`, `[String: Int]`, `Set<Foo.Bar>`); `nil` for anything else, so that a
    /// schema cannot put arbitrary text into generated code.
    public init?(parsing text: String) {
        var parser = TypeParser(text)
        guard let type = parser.parseType(), parser.atEnd else { return nil }
        self = type
    }
}

private struct TypeParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    var atEnd: Bool {
        var copy = self
        copy.skipSpaces()
        return copy.index == copy.scalars.count
    }

    mutating func skipSpaces() {
        while index < scalars.count, scalars[index] == " " { index += 1 }
    }

    mutating func accept(_ scalar: Unicode.Scalar) -> Bool {
        skipSpaces()
        guard index < scalars.count, scalars[index] == scalar else { return false }
        index += 1
        return true
    }

    mutating func parseType() -> SwiftType? {
        depth += 1
        defer { depth -= 1 }
        guard depth < 32 else { return nil }
        guard var type = parsePrimary() else { return nil }
        while accept("?") { type = .optional(type) }
        return type
    }

    mutating func parsePrimary() -> SwiftType? {
        if accept("[") {
            guard let element = parseType() else { return nil }
            if accept(":") {
                guard let value = parseType(), accept("]") else { return nil }
                return .dictionary(element, value)
            }
            return accept("]") ? .array(element) : nil
        }
        guard let name = parseIdentifier() else { return nil }
        var generics: [SwiftType] = []
        if accept("<") {
            repeat {
                guard let argument = parseType() else { return nil }
                generics.append(argument)
            } while accept(",")
            guard accept(">") else { return nil }
        }
        var type = SwiftType.named(name, generics: generics)
        while accept(".") {
            guard let member = parseIdentifier() else { return nil }
            type = .member(type, member)
        }
        return type
    }

    mutating func parseIdentifier() -> String? {
        skipSpaces()
        let start = index
        while index < scalars.count, scalars[index] == "_" || (scalars[index].isASCII && (scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]))) {
            index += 1
        }
        var name = String.UnicodeScalarView()
        name.append(contentsOf: scalars[start..<index])
        let text = String(name)
        return SwiftNames.isIdentifier(text) ? text : nil
    }
}
