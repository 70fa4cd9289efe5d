import Foundation

/// The text form of `decimal128` values — the one rule behind schema defaults, `import`,
/// migration steps and `convert`, and the generated Swift.
///
/// Accepted: an optional sign, decimal digits with an optional `.` fraction, and an optional
/// exponent (`12`, `-0.5`, `.5`, `1.25e-3`, `1E6`). At most 38 significant digits, within
/// Foundation `Decimal`'s exponent range (about 1e-128 to 1e165). Refused: hexadecimal,
/// spaces, digit separators, `NaN` and infinities — text Foundation's `Decimal(string:)`
/// would read as a different number or not at all. The stored form is `Decimal`'s
/// `description` (`"1.50"` is stored as `"1.5"`), which is what generated code writes.
package enum DecimalText {
    /// The largest number of significant digits a decimal keeps exactly.
    package static let maximumDigits = 38

    /// The decimal `text` stands for, or why it is not one: a sentence without the text.
    package static func parse(_ text: String) -> Result<Decimal, ValueProblem> {
        func fail(_ description: String) -> Result<Decimal, ValueProblem> { .failure(ValueProblem(description)) }
        let form = "is not a decimal number: write digits with an optional sign, '.' fraction and exponent, such as 12.50 or -1.5e3"
        guard let digits = significantDigits(text) else { return fail(form) }
        guard digits <= maximumDigits else {
            return fail("has \(digits) significant digits; decimal128 keeps at most \(maximumDigits): round it")
        }
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !value.isNaN else {
            return fail("is out of the range of decimal128 (exponents from about -128 to 165)")
        }
        return .success(value)
    }

    /// Whether `text` is written as a decimal number — an optional sign, digits with an
    /// optional `.` fraction, an optional exponent — whatever its size: the form `convert`
    /// reads doubles and decimals in.
    package static func isWellFormed(_ text: String) -> Bool {
        significantDigits(text) != nil
    }

    /// The number of significant digits of `text` when it is well formed.
    private static func significantDigits(_ text: String) -> Int? {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let isDigit: (UInt8) -> Bool = { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        let integer = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(integer.count)
        var fraction = bytes.prefix(0)
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit)
            bytes = bytes.dropFirst(fraction.count)
        }
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            let exponent = bytes.prefix(while: isDigit)
            guard !exponent.isEmpty else { return nil }
            bytes = bytes.dropFirst(exponent.count)
        }
        guard bytes.isEmpty else { return nil }
        return (Array(integer) + Array(fraction)).drop { $0 == UInt8(ascii: "0") }.reversed().drop { $0 == UInt8(ascii: "0") }.count
    }

    /// The stored text of decimal `text` (`Decimal`'s description), or why it is not one.
    package static func stored(_ text: String) -> Result<String, ValueProblem> {
        parse(text).map(\.description)
    }
}
