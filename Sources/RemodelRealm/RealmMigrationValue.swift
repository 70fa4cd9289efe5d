import Foundation
import RemodelCore

/// The value rules of the migration block Remodel generates for Realm (`remodel generate
/// --realm`): the same rules as a store's migration (`split`, `convert`, `mapValues`, templates,
/// `deleteObjects` conditions), over the `Any?` values Realm's `MigrationObject` subscripts
/// give and take. Kept here, not in the generated code, so that there is one copy of each
/// rule and it is tested once.
public enum RealmMigrationValue {
    /// The parts of `split`: `value` (text; null splits like "") cut into `count` parts at
    /// the first `separator`s, each trimmed, missing parts empty.
    public static func split(_ value: Any?, separator: String, into count: Int) -> [String] {
        let text = value as? String ?? ""
        return (0..<count).map { StepText.splitPart(of: text, separator: separator, index: $0, count: count) }
    }

    /// A value as a template writes it: text as it is, numbers in decimal, booleans as
    /// `true`/`false`, null as "".
    public static func text(_ value: Any?) -> String {
        switch unwrapped(value) {
        case nil: ""
        case let text as String: text
        case let flag as Bool: flag ? "true" : "false"
        case let number as any BinaryInteger: String(describing: number)
        case let number as Double: "\(number)"
        case let number as Float: "\(number)"
        case let other?: String(describing: other)
        }
    }

    /// A whole number converted by `convert`'s rule to an integer type of `range`: text that
    /// is a whole decimal number, numbers that are whole; `nil` when the value does not
    /// convert.
    public static func integer(_ value: Any?, in range: ClosedRange<Int64>) -> Int64? {
        let number: Int64?
        switch unwrapped(value) {
        case let text as String: number = StepText.integer(in: text)
        case let flag as Bool: number = flag ? 1 : 0
        case let whole as any BinaryInteger: number = Int64(exactly: whole)
        case let real as Double: number = real.rounded() == real ? Int64(exactly: real) : nil
        case let real as Float: number = real.rounded() == real ? Int64(exactly: real) : nil
        default: number = nil
        }
        guard let number, range.contains(number) else { return nil }
        return number
    }

    /// A number converted by `convert`'s rule to a real: decimal text (not hexadecimal, NaN or
    /// infinities) or a number, within ±`limit`; `nil` when the value does not convert.
    public static func real(_ value: Any?, limit: Double) -> Double? {
        switch unwrapped(value) {
        case let text as String:
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard DecimalText.isWellFormed(trimmed), let number = Double(trimmed), abs(number) <= limit else { return nil }
            return number
        case let whole as any BinaryInteger: return Double(whole)
        case let real as Double: return abs(real) <= limit || real.isInfinite ? real : nil
        case let real as Float: return Double(real)
        default: return nil
        }
    }

    /// A value converted by `convert`'s rule to a boolean: true/false, yes/no, on/off, 1/0 in
    /// any case, or the integers 0 and 1; `nil` when the value does not convert.
    public static func bool(_ value: Any?) -> Bool? {
        switch unwrapped(value) {
        case let flag as Bool: return flag
        case let text as String:
            let word = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            if ["true", "yes", "on", "1"].contains(word) { return true }
            if ["false", "no", "off", "0"].contains(word) { return false }
            return nil
        case let whole as any BinaryInteger:
            let number = Int64(exactly: whole)
            return number == 0 ? false : number == 1 ? true : nil
        default: return nil
        }
    }

    /// `mapValues`: the mapped value of `value` (by its text), the new raw value when it
    /// already is one (`kept`, by text), else `otherwise`; null stays null when `keepsNull`
    /// (the new property is optional), else becomes `otherwise`.
    public static func mapped(_ value: Any?, _ mapping: [String: Any], kept: [String: Any], otherwise: Any?, keepsNull: Bool = true) -> Any? {
        guard let value = unwrapped(value) else { return keepsNull ? nil : otherwise }
        let key = text(value)
        if let mapped = mapping[key] { return mapped }
        if let raw = kept[key] { return raw }
        return otherwise
    }

    /// Whether `value` is null (nil, an empty optional or `NSNull`).
    public static func isNull(_ value: Any?) -> Bool {
        unwrapped(value) == nil
    }

    /// Whether `value` meets `condition` (a `deleteObjects` or `addTo` condition).
    public static func matches(_ value: Any?, _ condition: RealmCondition) -> Bool {
        let value = unwrapped(value)
        switch condition {
        case .equals(let other): return same(value, other)
        case .notEquals(let other): return !same(value, other)
        case .lessThan(let other): return order(value, other).map { $0 < 0 } ?? false
        case .lessThanOrEqual(let other): return order(value, other).map { $0 <= 0 } ?? false
        case .greaterThan(let other): return order(value, other).map { $0 > 0 } ?? false
        case .greaterThanOrEqual(let other): return order(value, other).map { $0 >= 0 } ?? false
        case .isIn(let values): return values.contains { same(value, $0) }
        case .isNotIn(let values): return !values.contains { same(value, $0) }
        case .contains(let text): return (value as? String)?.contains(text) ?? false
        case .startsWith(let text): return (value as? String)?.hasPrefix(text) ?? false
        case .endsWith(let text): return (value as? String)?.hasSuffix(text) ?? false
        }
    }

    /// `value` with any level of `Optional` and `NSNull` removed.
    static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if value is NSNull { return nil }
        // Realm's dynamic API hands out Objective-C numbers on Apple platforms: a boolean is
        // a number of type `c`, every integer a 64-bit one.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "B": return number.boolValue
            case "f": return number.floatValue
            case "d": return number.doubleValue
            default: return number.int64Value
            }
        }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            return mirror.children.first.flatMap { unwrapped($0.value) }
        }
        return value
    }

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let whole as any BinaryInteger: Double(whole)
        case let real as Double: real
        case let real as Float: Double(real)
        default: nil
        }
    }

    private static func same(_ value: Any?, _ other: Any?) -> Bool {
        let other = unwrapped(other)
        switch (value, other) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        default: break
        }
        if let a = number(value), let b = number(other) { return a == b }
        if let a = value as? AnyHashable, let b = other as? AnyHashable { return a == b }
        return false
    }

    /// -1, 0 or 1 for comparable values of the same kind; `nil` for null or different kinds.
    private static func order(_ value: Any?, _ other: Any?) -> Int? {
        let other = unwrapped(other)
        if let a = number(value), let b = number(other) { return a < b ? -1 : a == b ? 0 : 1 }
        if let a = value as? String, let b = other as? String { return a < b ? -1 : a == b ? 0 : 1 }
        if let a = value as? Date, let b = other as? Date { return a < b ? -1 : a == b ? 0 : 1 }
        // Decimal128 (which this library cannot name) and Decimal compare by their decimal text.
        if let value, let other, let a = Decimal(string: "\(value)"), let b = Decimal(string: "\(other)") { return a < b ? -1 : a == b ? 0 : 1 }
        return nil
    }
}

/// A condition on one property's value, as `deleteObjects` and `addTo` write them; the
/// values are those Realm's dynamic API holds (an enum's raw value, not its case).
public enum RealmCondition {
    case equals(Any?)
    case notEquals(Any?)
    case lessThan(Any)
    case lessThanOrEqual(Any)
    case greaterThan(Any)
    case greaterThanOrEqual(Any)
    case isIn([Any?])
    case isNotIn([Any?])
    case contains(String)
    case startsWith(String)
    case endsWith(String)
}
