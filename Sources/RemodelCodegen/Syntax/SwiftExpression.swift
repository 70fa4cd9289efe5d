/// A Swift expression in generated code. Strings become escaped literals and names escaped
/// identifiers only when rendered, so no schema text reaches the output unescaped.
/// Only the cases that hold an expression directly are `indirect` (boxed): names, tokens and
/// literals, the most numerous nodes, are stored inline.
public enum SwiftExpression: Hashable, Sendable {
    /// A name, escaped when it is a keyword: `identifier`, `` `default` ``.
    case identifier(String)
    /// Text that is already a valid Swift token: a number, `nil`, `true`, `self`.
    case token(String)
    /// A string literal meaning exactly this text.
    case string(String)
    /// `base.name`
    indirect case member(SwiftExpression, String)
    /// `.name`
    case implicitMember(String)
    /// `callee(label: value, …)`
    indirect case call(SwiftExpression, [SwiftArgument])
    /// `[a, b]`
    case array([SwiftExpression])
    /// `[k: v]`
    case dictionary([SwiftDictionaryElement])
    /// `value!`
    indirect case forceUnwrap(SwiftExpression)
    /// `try value`
    indirect case tryExpression(SwiftExpression)
    /// `try! value`, for calls the generator has proven cannot fail.
    indirect case forcedTry(SwiftExpression)
    /// `&value`
    indirect case inOut(SwiftExpression)
    /// `lhs op rhs`
    indirect case binary(SwiftExpression, String, SwiftExpression)
    /// `Type.self`
    case metatype(SwiftType)
    /// A type used as a value: `Note(…)`'s callee.
    case type(SwiftType)
    /// `value as? Type` (`as!` when forced)
    indirect case cast(SwiftExpression, SwiftType, forced: Bool)
    /// `base[arguments]`
    indirect case subscripted(SwiftExpression, [SwiftArgument])
    /// `\Root.a.b`
    case keyPath(SwiftType, [String])
    /// `{ parameters in body }` with a single expression (`{ $0.name }` with no parameters).
    indirect case closure([String], SwiftExpression)
    /// `base?`, for optional chaining: `base?.name`
    indirect case optionalChain(SwiftExpression)
    /// `(value)`
    indirect case parenthesized(SwiftExpression)

    /// `callee(arguments)`
    public static func call(_ callee: SwiftExpression, _ arguments: SwiftArgument...) -> SwiftExpression {
        .call(callee, arguments)
    }

    /// `self.name`
    public static func selfMember(_ name: String) -> SwiftExpression {
        .member(.token("self"), name)
    }

    /// An integer literal.
    public static func int<I: BinaryInteger>(_ value: I) -> SwiftExpression {
        .token(String(value))
    }

    /// A `Float` literal for `value` as a Float property stores it.
    public static func float(_ value: Double) -> SwiftExpression {
        let float = Float(value)
        if float.isFinite, float.isSubnormal || (float == 0 && value != 0) {
            return .call(.identifier("Float"), [SwiftArgument("bitPattern", .token("0x" + String(float.bitPattern, radix: 16)))])
        }
        return double(value)
    }

    /// `true` or `false`.
    public static func bool(_ value: Bool) -> SwiftExpression {
        .token(value ? "true" : "false")
    }

    /// `nil`
    public static let `nil` = SwiftExpression.token("nil")

    /// A floating-point literal (or `.nan`, `.infinity`, `-.infinity`) that reads back as
    /// exactly `value`.
    public static func double(_ value: Double) -> SwiftExpression {
        if value.isNaN { return .implicitMember("nan") }
        if value.isInfinite { return .token(value < 0 ? "-.infinity" : ".infinity") }
        // Subnormal literals compile with an "underflows" warning: write their bits instead.
        if value.isSubnormal {
            return .call(.identifier("Double"), [SwiftArgument("bitPattern", .token("0x" + String(value.bitPattern, radix: 16)))])
        }
        let text = "\(value)"
        return .token(text.contains(".") || text.contains("e") ? text : text + ".0")
    }
}

/// One argument of a call: `label: value`, or `value` with no label.
public struct SwiftArgument: Hashable, Sendable {
    public var label: String?
    public var value: SwiftExpression

    public init(_ label: String?, _ value: SwiftExpression) {
        self.label = label
        self.value = value
    }

    /// An unlabelled argument.
    public static func unlabelled(_ value: SwiftExpression) -> SwiftArgument {
        SwiftArgument(nil, value)
    }
}

/// One `key: value` of a dictionary literal.
public struct SwiftDictionaryElement: Hashable, Sendable {
    public var key: SwiftExpression
    public var value: SwiftExpression

    public init(_ key: SwiftExpression, _ value: SwiftExpression) {
        self.key = key
        self.value = value
    }
}
