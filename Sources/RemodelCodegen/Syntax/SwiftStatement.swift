/// A statement in the body of a generated initialiser, function or accessor.
public enum SwiftStatement: Hashable, Sendable {
    /// An expression evaluated for its effect.
    case expression(SwiftExpression)
    /// `target = value`
    case assignment(SwiftExpression, SwiftExpression)
    /// `return value`
    case returnValue(SwiftExpression)
    /// `let name: Type = value` (type optional)
    case constant(String, SwiftType?, SwiftExpression)
    /// `switch subject { case .a: … }`
    case switchOver(SwiftExpression, [SwiftSwitchCase])
    /// `// text`
    case comment(String)
    /// `var name: Type = value` (type optional)
    case variable(String, SwiftType?, SwiftExpression)
    /// `if condition { body }`
    case ifThen(SwiftExpression, [SwiftStatement])
    /// `guard condition else { body }`
    case guardElse(SwiftExpression, [SwiftStatement])
    /// `for pattern in sequence { body }`
    case forIn(String, SwiftExpression, [SwiftStatement])
    /// `callee(arguments) { parameters in body }`: a call with a trailing closure.
    case callWithClosure(SwiftExpression, [SwiftArgument], parameters: [String], body: [SwiftStatement])
    /// `return`
    case returnVoid
    /// `throw value`
    case throwError(SwiftExpression)
}

/// One `case` of a switch: its patterns (empty for `default`) and body.
public struct SwiftSwitchCase: Hashable, Sendable {
    /// Patterns such as `.a` or `"a"`; empty means `default:`.
    public var patterns: [SwiftExpression]
    public var body: [SwiftStatement]

    public init(_ patterns: [SwiftExpression], _ body: [SwiftStatement]) {
        self.patterns = patterns
        self.body = body
    }
}
