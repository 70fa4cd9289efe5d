import Foundation
import RemodelCore

/// The one conversion of scalar values to their stored form, shared by `import` (JSON),
/// schema defaults of dynamic writes (`DynamicDefaults`) and migration literals (defaults of
/// added properties, step values), so that a value is stored the same whichever way it
/// arrives — and the same as generated Swift stores it.
///
/// Each function returns the stored value, or a `ValueProblem` whose sentence follows the
/// value in a message (`1e+39 is out of range for float …`).
package enum StoredForm {
    /// Why NaN is refused: SQLite stores a NaN REAL as NULL, so it would come back as null
    /// (or break a required column).
    package static let notANumber = ValueProblem("cannot be stored: SQLite stores NaN as NULL", hint: "leave the value out, or use null on an optional property")
    /// `notANumber` in one sentence.
    package static let notANumberProblem = notANumber.sentence

    /// A number (`Double`) for a property of `scalar`: float and double refuse NaN, float
    /// refuses finite numbers beyond ±Float.greatestFiniteMagnitude, integer types refuse
    /// fractions and numbers out of their range.
    package static func real(_ number: Double, as scalar: ScalarType) -> Result<StoreValue, ValueProblem> {
        switch scalar {
        case .double, .float:
            if number.isNaN { return .failure(notANumber) }
            if scalar == .float, !FloatLiteral.fitsFloat(number) {
                return .failure(ValueProblem("is out of range for float (±\(Float.greatestFiniteMagnitude))", hint: "write a smaller value, or make the property a double"))
            }
            if scalar == .float, number != 0, Float(number) == 0 {
                return .failure(
                    ValueProblem("is too small for a float (about ±1.4e-45): it would be stored as 0", hint: "write 0 if 0 is meant, or make the property a double"))
            }
            return .success(.real(number))
        case _ where scalar.isInteger:
            guard number.isFinite, number.rounded(.towardZero) == number else {
                return .failure(ValueProblem("is not a whole number (\(scalar.rawValue))", hint: "write a whole number, or make the property a double"))
            }
            guard number >= -9.223372036854775808e18, number < 9.223372036854775808e18, scalar.integerRange!.contains(Int64(number)) else {
                return .failure(outOfRange(scalar))
            }
            let inexact = abs(number) > 9_007_199_254_740_992 ? " (beyond 2^53 it may not be the number written)" : ""
            return .failure(ValueProblem("is a floating-point number, not an \(scalar.rawValue)\(inexact)", hint: "write \(Int64(number)), without a decimal point or exponent"))
        default:
            return .failure(ValueProblem("is a number, not a \(scalar.rawValue)"))
        }
    }

    /// An integer for a property of `scalar`: range-checked for integer types; float and
    /// double keep it when the double is exact; decimal128 keeps its digits.
    package static func integer(_ number: Int64, as scalar: ScalarType) -> Result<StoreValue, ValueProblem> {
        switch scalar {
        case _ where scalar.isInteger:
            guard scalar.integerRange!.contains(number) else { return .failure(outOfRange(scalar)) }
            return .success(.integer(number))
        case .double, .float:
            let real = Double(number)
            guard real >= -9.223372036854775808e18, real < 9.223372036854775808e18, Int64(real) == number else {
                return .failure(
                    ValueProblem(
                        "cannot be stored exactly in a \(scalar.rawValue) (the nearest is \(Int64(exactly: real).map(String.init) ?? "\(real)"))",
                        hint: "write it with an exponent to accept the rounding, or make the property an int64"))
            }
            return .success(.real(real))
        case .decimal128:
            return .success(.text(String(number)))
        default:
            return .failure(ValueProblem("is an integer, not a \(scalar.rawValue)"))
        }
    }

    /// Text for a property of `scalar`: the types written as text (string, url, decimal128,
    /// data in base64, date in ISO 8601, uuid, objectId), checked and in their stored form.
    package static func text(_ text: String, as scalar: ScalarType) -> Result<StoreValue, ValueProblem> {
        switch scalar {
        case .string:
            return .success(.text(text))
        case .url:
            guard !text.isEmpty, URL(string: text) != nil else { return .failure(ValueProblem("is not a URL", hint: "write an absolute URL such as https://example.com")) }
            return .success(.text(text))
        case .decimal128:
            return DecimalText.stored(text).map(StoreValue.text)
        case .data:
            guard let data = Data(base64Encoded: text) else { return .failure(ValueProblem("is not base64 data", hint: "write the bytes in base64, e.g. \"AAEC\"")) }
            return .success(.blob([UInt8](data)))
        case .date:
            return ISODateText.parse(text).map(StoreValue.integer)
        case .uuid:
            guard let uuid = UUID(uuidString: text) else { return .failure(ValueProblem("is not a UUID", hint: "write one such as E621E1F8-C36C-495A-93FC-0C247A3E6E5F")) }
            return .success(Self.uuid(uuid))
        case .objectId:
            guard let id = ObjectID(text) else { return .failure(ValueProblem("is not an ObjectID", hint: "write 24 hexadecimal digits, e.g. 65a1b2c3d4e5f60718293a4b")) }
            return .success(Self.objectID(id))
        default:
            return .failure(ValueProblem("is text, not a \(scalar.rawValue)"))
        }
    }

    /// A UUID as it is stored: its 16 bytes.
    package static func uuid(_ uuid: UUID) -> StoreValue {
        .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) })
    }

    /// An ObjectID as it is stored: its 12 bytes.
    package static func objectID(_ id: ObjectID) -> StoreValue {
        .blob(id.byteArray)
    }

    /// What is wrong with a stored value that SQLite would not keep as it is (a NaN, also
    /// inside a collection), or `nil`.
    package static func problem(in value: StoreValue) -> String? {
        switch value {
        case .real(let number) where number.isNaN: "NaN " + notANumberProblem
        case .list(let elements): elements.lazy.compactMap(problem(in:)).first
        case .map(let entries): entries.values.lazy.compactMap(problem(in:)).first
        default: nil
        }
    }

    private static func outOfRange(_ scalar: ScalarType) -> ValueProblem {
        let range = scalar.integerRange!
        return ValueProblem("is out of range for \(scalar.rawValue) (\(range.lowerBound)...\(range.upperBound))", hint: "write a value in range, or use a wider type such as int64")
    }
}
