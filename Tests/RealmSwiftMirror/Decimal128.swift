import Foundation

// RealmSwift/Decimal128.swift: `public final class Decimal128: RLMDecimal128, Decodable, @unchecked Sendable`
// (Realm/RLMDecimal128.h). The mirror holds a Foundation `Decimal` (38 significant digits
// where Realm's IEEE 754-2008 decimal128 has 34), NaN as `Decimal.nan`.
/// A 128-bit IEEE 754-2008 decimal floating point number.
public final class Decimal128: Decodable, @unchecked Sendable {
    internal var _value: Decimal

    internal init(decimal: Decimal) {
        _value = decimal
    }

    /// Creates a new zero-initialized Decimal128.
    public required init() {
        _value = 0
    }

    /// Converts the given value to a Decimal128: a number, a numeric string or a Decimal128
    /// (anything else is NaN).
    public required init(value: Any) {
        _value = Decimal128._rlmFromObjc(value, insideOptional: false)?._value ?? .nan
    }

    /// Converts the given number to a Decimal128.
    public required init(number: NSNumber) {
        _value = number.decimalValue
    }

    /// Parses the given string as a Decimal128; throws if it is not a number ("NaN" is).
    public required init(string: String) throws {
        let trimmed = string.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased() == "nan" || trimmed.lowercased() == "+nan" || trimmed.lowercased() == "-nan" {
            _value = .nan
            return
        }
        guard mirrorIsDecimalText(trimmed), let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) else {
            throw RealmMirrorError("Invalid Decimal128 string '\(string)'")
        }
        _value = value
    }

    public required convenience init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let strValue = try? container.decode(String.self) {
            try self.init(string: strValue)
        } else if let intValue = try? container.decode(Int64.self) {
            self.init(decimal: Decimal(intValue))
        } else if let doubleValue = try? container.decode(Double.self) {
            self.init(decimal: Decimal(doubleValue))
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Cannot convert value to Decimal128")
        }
    }

    /// The value as a Double.
    public var doubleValue: Double { NSDecimalNumber(decimal: _value).doubleValue }

    /// The value as a Foundation Decimal.
    public var decimalValue: Decimal { _value }

    /// The value as a string ("NaN" for NaN).
    public var stringValue: String { _value.isNaN ? "NaN" : _value.description }

    /// Whether the value is NaN.
    public var isNaN: Bool { _value.isNaN }

    /// Negates the value in place.
    public func negate() {
        _value.negate()
    }

    public func decimalNumber(byAdding decimalNumber: Decimal128) -> Decimal128 { Decimal128(decimal: _value + decimalNumber._value) }
    public func decimalNumber(byDividingBy decimalNumber: Decimal128) -> Decimal128 { Decimal128(decimal: _value / decimalNumber._value) }
    public func decimalNumber(bySubtracting decimalNumber: Decimal128) -> Decimal128 { Decimal128(decimal: _value - decimalNumber._value) }
    public func decimalNumberByMultiplying(by decimalNumber: Decimal128) -> Decimal128 { Decimal128(decimal: _value * decimalNumber._value) }

    public func isGreaterThan(_ decimalNumber: Decimal128?) -> Bool { decimalNumber.map { _value > $0._value } ?? false }
    public func isGreaterThanOrEqual(to decimalNumber: Decimal128?) -> Bool { decimalNumber.map { _value >= $0._value } ?? false }
    public func isLessThan(_ decimalNumber: Decimal128?) -> Bool { decimalNumber.map { _value < $0._value } ?? false }
    public func isLessThanOrEqual(to decimalNumber: Decimal128?) -> Bool { decimalNumber.map { _value <= $0._value } ?? false }
}

// RealmSwift/Decimal128.swift
extension Decimal128: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}

// RealmSwift/Decimal128.swift
extension Decimal128: ExpressibleByIntegerLiteral {
    public convenience init(integerLiteral value: Int64) {
        self.init(decimal: Decimal(value))
    }
}

// RealmSwift/Decimal128.swift
extension Decimal128: ExpressibleByFloatLiteral {
    public convenience init(floatLiteral value: Double) {
        self.init(decimal: Decimal(value))
    }
}

// RealmSwift/Decimal128.swift
extension Decimal128: ExpressibleByStringLiteral {
    public convenience init(stringLiteral value: String) {
        try! self.init(string: value)
    }
}

// RealmSwift/Decimal128.swift
extension Decimal128: Comparable {
    public static func == (lhs: Decimal128, rhs: Decimal128) -> Bool {
        lhs._value == rhs._value
    }

    public static func < (lhs: Decimal128, rhs: Decimal128) -> Bool {
        lhs.isLessThan(rhs)
    }

    public static func <= (lhs: Decimal128, rhs: Decimal128) -> Bool {
        lhs.isLessThanOrEqual(to: rhs)
    }

    public static func >= (lhs: Decimal128, rhs: Decimal128) -> Bool {
        lhs.isGreaterThanOrEqual(to: rhs)
    }

    public static func > (lhs: Decimal128, rhs: Decimal128) -> Bool {
        lhs.isGreaterThan(rhs)
    }
}

// NSObject's Hashable and CustomStringConvertible, by value.
extension Decimal128: Hashable, CustomStringConvertible {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(_value)
    }

    public var description: String { stringValue }
}

// RealmSwift/Decimal128.swift
extension Decimal128: Numeric {
    public convenience init?<T>(exactly source: T) where T: BinaryInteger {
        self.init(value: source)
    }

    public typealias Magnitude = Decimal128

    public var magnitude: Magnitude {
        Decimal128(decimal: _value.magnitude)
    }

    public static func + (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        lhs.decimalNumber(byAdding: rhs)
    }

    public static func - (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        lhs.decimalNumber(bySubtracting: rhs)
    }

    public static func * (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        lhs.decimalNumberByMultiplying(by: rhs)
    }

    public static func *= (lhs: inout Decimal128, rhs: Decimal128) {
        lhs = lhs * rhs
    }

    public static func / (lhs: Decimal128, rhs: Decimal128) -> Decimal128 {
        lhs.decimalNumber(byDividingBy: rhs)
    }
}

// RealmSwift/Decimal128.swift
extension Decimal128 {
    public typealias Stride = Decimal128

    public func distance(to other: Decimal128) -> Decimal128 {
        other.decimalNumber(bySubtracting: self)
    }

    public func advanced(by n: Decimal128) -> Decimal128 {
        decimalNumber(byAdding: n)
    }
}

// RealmSwift/Decimal128.swift
extension Decimal128 {
    public var isSignaling: Bool {
        self.isNaN
    }

    public var isSignalingNaN: Bool {
        self.isSignaling
    }
}

/// Whether `text` is a decimal number: an optional sign, digits with an optional point, an
/// optional exponent.
private func mirrorIsDecimalText(_ text: String) -> Bool {
    var characters = Substring(text)
    if characters.first == "+" || characters.first == "-" { characters = characters.dropFirst() }
    let mantissa = characters.prefix { $0 != "e" && $0 != "E" }
    let exponent = characters.dropFirst(mantissa.count)
    let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), parts.contains(where: { !$0.isEmpty }),
        parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
    else { return false }
    if exponent.isEmpty { return true }
    var digits = exponent.dropFirst()
    if digits.first == "+" || digits.first == "-" { digits = digits.dropFirst() }
    return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
}
