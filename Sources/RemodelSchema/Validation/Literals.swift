/// Parsing of the literal forms the schema language accepts in defaults and raw values.
enum IntegerLiteral {
    /// A YAML core-schema integer (`42`, `-7`, `+3`, `0x1F`, `0o17`), or `nil` when the text
    /// is not one or does not fit in 64 bits.
    static func parse(_ text: String) -> Int64? {
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
    static func looksLikeInteger(_ text: String) -> Bool {
        var body = Substring(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        return !body.isEmpty && body.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

enum FloatLiteral {
    /// A YAML core-schema float or integer (`1.5`, `-2e10`, `.inf`, `-.inf`, `.nan`).
    static func parse(_ text: String) -> Double? {
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
}

enum DateLiteral {
    /// Whether `text` is an ISO 8601 date (`2024-05-01`) or date-time
    /// (`2024-05-01T12:30:00Z`, `2024-05-01T12:30:00.250+02:00`).
    static func isValid(_ text: String) -> Bool {
        let chars = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= chars.count else { return nil }
            var value = 0
            for byte in chars[start..<start + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func isByte(_ index: Int, _ ascii: Character) -> Bool {
            index < chars.count && chars[index] == ascii.asciiValue!
        }
        guard let _ = number(0, 4), isByte(4, "-"), let month = number(5, 2), isByte(7, "-"), let day = number(8, 2),
              (1...12).contains(month), (1...31).contains(day)
        else { return false }
        if chars.count == 10 { return true }
        guard isByte(10, "T") || isByte(10, " "), let hour = number(11, 2), isByte(13, ":"), let minute = number(14, 2),
              hour < 24, minute < 60
        else { return false }
        var index = 16
        if isByte(index, ":") {
            guard let second = number(17, 2), second <= 60 else { return false }
            index = 19
            if isByte(index, ".") {
                index += 1
                let start = index
                while index < chars.count, (48...57).contains(chars[index]) { index += 1 }
                guard index > start else { return false }
            }
        }
        if isByte(index, "Z") { return index + 1 == chars.count }
        guard isByte(index, "+") || isByte(index, "-"), let offsetHour = number(index + 1, 2), offsetHour < 24 else { return false }
        if index + 3 == chars.count { return true }
        guard isByte(index + 3, ":"), let offsetMinute = number(index + 4, 2), offsetMinute < 60 else { return false }
        return index + 6 == chars.count
    }
}
