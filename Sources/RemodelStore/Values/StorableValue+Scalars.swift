import CSQLite
import Foundation
import RemodelCore

// The schema language's scalars. Required columns are declared NOT NULL, so the integer and
// real readers need no NULL check; text and blob readers get one for free from the pointer.

extension Bool: StorableValue {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> Bool {
        statement.int64(index) != 0
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        statement.bind(Int64(self ? 1 : 0), index)
    }

    public var storeValue: StoreValue { .integer(self ? 1 : 0) }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        guard case .integer(let value) = storeValue, value == 0 || value == 1 else { throw Self.mismatch(storeValue, expected: "0 or 1") }
        self = value != 0
    }
}

/// The integer types share one implementation: INTEGER columns, range-checked on read.
public protocol StorableInteger: StorableValue, FixedWidthInteger {}

extension StorableInteger {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> Self {
        let value = statement.int64(index)
        guard let result = Self(exactly: value) else { throw mismatch(.integer(value), expected: "an integer in \(Self.min)...\(Self.max)") }
        return result
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        statement.bind(Int64(self), index)
    }

    public var storeValue: StoreValue { .integer(Int64(self)) }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        guard case .integer(let value) = storeValue, let result = Self(exactly: value) else {
            throw Self.mismatch(storeValue, expected: "an integer in \(Self.min)...\(Self.max)")
        }
        self = result
    }
}

extension Int: StorableInteger {}
extension Int8: StorableInteger {}
extension Int16: StorableInteger {}
extension Int32: StorableInteger {}
extension Int64: StorableInteger {}

extension Double: StorableValue {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> Double {
        statement.double(index)
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        statement.bind(self, index)
    }

    public var storeValue: StoreValue { .real(self) }

    /// NaN cannot be stored: SQLite keeps it as NULL.
    public var storageProblem: String? { isNaN ? "NaN " + StoredForm.notANumberProblem : nil }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        switch storeValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: throw Self.mismatch(storeValue, expected: "a number")
        }
    }
}

extension Float: StorableValue {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> Float {
        Float(statement.double(index))
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        statement.bind(Double(self), index)
    }

    public var storeValue: StoreValue { .real(Double(self)) }

    /// NaN cannot be stored: SQLite keeps it as NULL.
    public var storageProblem: String? { isNaN ? "NaN " + StoredForm.notANumberProblem : nil }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        self = Float(try Double(storeValue: storeValue))
    }
}

extension String: StorableValue {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> String {
        guard let text = statement.text(index) else { throw mismatch(.null, expected: "text") }
        return text
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        statement.bind(self, index)
    }

    public var storeValue: StoreValue { .text(self) }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        guard case .text(let value) = storeValue else { throw Self.mismatch(storeValue, expected: "text") }
        self = value
    }
}

extension Data: StorableValue {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> Data {
        guard let data = statement.withBlob(index, { $0.map { Data($0) } }) else { throw mismatch(.null, expected: "a blob") }
        return data
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        withUnsafeBytes { statement.bind(bytes: $0, index) }
    }

    public var storeValue: StoreValue { .blob([UInt8](self)) }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        guard case .blob(let bytes) = storeValue else { throw Self.mismatch(storeValue, expected: "a blob") }
        self = Data(bytes)
    }
}

extension Date: StorableValue {
    /// Dates outside years -9999 through 9999 (or with a NaN interval) cannot be stored.
    public var storageProblem: String? {
        guard ISODateText.microseconds(secondsSince1970: timeIntervalSince1970) == nil else { return nil }
        return "the date \(timeIntervalSince1970) seconds after 1970 is out of range: dates are supported for \(ISODateText.rangeDescription)"
    }

    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> Date {
        Date(storeMicroseconds: statement.int64(index))
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        statement.bind(storeMicroseconds, index)
    }

    public var storeValue: StoreValue { .integer(storeMicroseconds) }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        guard case .integer(let value) = storeValue else { throw Self.mismatch(storeValue, expected: "microseconds since 1970 (an integer)") }
        self.init(storeMicroseconds: value)
    }
}

extension Decimal: StorableValue {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> Decimal {
        let text = statement.text(index)
        return try Decimal(storeValue: text.map(StoreValue.text) ?? .null)
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        statement.bind(description, index)
    }

    public var storeValue: StoreValue { .text(description) }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        guard case .text(let text) = storeValue, let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw Self.mismatch(storeValue, expected: "a decimal number as text")
        }
        self = value
    }
}

extension UUID: StorableValue {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> UUID {
        let uuid: UUID? = statement.withBlob(index) { bytes in
            guard let bytes, bytes.count == 16 else { return nil }
            var value = nullUUIDBytes
            withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: bytes) }
            return UUID(uuid: value)
        }
        guard let uuid else { throw mismatch(statement.value(index), expected: "a 16-byte blob") }
        return uuid
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        withUnsafeBytes(of: uuid) { statement.bind(bytes: $0, index) }
    }

    public var storeValue: StoreValue { StoredForm.uuid(self) }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        guard case .blob(let bytes) = storeValue, bytes.count == 16 else { throw Self.mismatch(storeValue, expected: "a 16-byte blob") }
        var value = nullUUIDBytes
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes) }
        self.init(uuid: value)
    }
}

/// Sixteen zero bytes, the starting point for reading a UUID.
@usableFromInline
let nullUUIDBytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

extension ObjectID: StorableValue {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> ObjectID {
        let id: ObjectID? = statement.withBlob(index) { bytes in bytes.flatMap { ObjectID(bytes: $0) } }
        guard let id else { throw mismatch(statement.value(index), expected: "a 12-byte blob") }
        return id
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        withUnsafeBytes(of: bytes) { statement.bind(bytes: $0, index) }
    }

    public var storeValue: StoreValue { StoredForm.objectID(self) }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        guard case .blob(let bytes) = storeValue, let id = ObjectID(bytes: bytes) else { throw Self.mismatch(storeValue, expected: "a 12-byte blob") }
        self = id
    }
}

extension URL: StorableValue {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> URL {
        let text = statement.text(index)
        return try URL(storeValue: text.map(StoreValue.text) ?? .null)
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        statement.bind(absoluteString, index)
    }

    public var storeValue: StoreValue { .text(absoluteString) }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        guard case .text(let text) = storeValue, let url = URL(string: text) else { throw Self.mismatch(storeValue, expected: "a URL as text") }
        self = url
    }
}

extension Optional: StorableValue where Wrapped: StorableValue {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> Wrapped? {
        if statement.isNull(index) { return nil }
        return try Wrapped.read(from: statement, at: index)
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        switch self {
        case .none: statement.bindNull(index)
        case .some(let value): value.bind(to: statement, at: index)
        }
    }

    public var storeValue: StoreValue { self?.storeValue ?? .null }

    public var storageProblem: String? { self?.storageProblem }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        if storeValue.isNull { self = nil } else { self = try Wrapped(storeValue: storeValue) }
    }
}

/// Optional values, so that filters can offer `isNil` only on optional columns.
public protocol OptionalStorable: StorableValue {}

extension Optional: OptionalStorable where Wrapped: StorableValue {}
