/// YAML core-schema numbers, as schema defaults, enum raw values and migration step values
/// read them.
package enum IntegerLiteral {
    /// A YAML core-schema integer (`42`, `-7`, `+3`, `0x1F`, `0o17`), or `nil` when the text
    /// is not one or does not fit in 64 bits.
    package static func parse(_ text: String) -> Int64? {
        var body = Substring(text)
        var negative = false
        if body.first == "-" || body.first == "+" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        var radix = 10
        if body.hasPrefix("0x") {
            radix = 16
            body = body.dropFirst(2)
        } else if body.hasPrefix("0o") {
            radix = 8
            body = body.dropFirst(2)
        }
        guard !body.isEmpty, body.allSatisfy({ $0.isHexDigit }) else { return nil }
        guard let magnitude = UInt64(body, radix: radix) else { return nil }
        if negative {
            return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// Whether the text is written like an integer, whatever its size.
    package static func looksLikeInteger(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        return !body.isEmpty && body.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

package enum FloatLiteral {
    /// A YAML core-schema float or integer (`1.5`, `-2e10`, `.inf`, `-.inf`, `.nan`).
    package static func parse(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        if let integer = IntegerLiteral.parse(text) { return Double(integer) }
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }), text.contains(where: \.isNumber) else { return nil }
        return Double(text)
    }

    /// Whether a `float` property can hold `number`: NaN and the infinities, or a finite
    /// value within `Float`'s range (the store refuses the rest rather than round it).
    package static func fitsFloat(_ number: Double) -> Bool {
        !number.isFinite || abs(number) <= Double(Float.greatestFiniteMagnitude)
    }
}

package enum BoolLiteral {
    /// A YAML core-schema boolean (`true`, `True`, `TRUE`, `false`, `False`, `FALSE`).
    package static func parse(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }
}
