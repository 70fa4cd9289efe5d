/// A Swift value that fits in one SQLite column: the scalars of the schema language, enums
/// (through `StorableEnum`), embedded objects (through `EmbeddedModel`) and optionals of
/// those. Like GRDB's `DatabaseValueConvertible` plus its fast `StatementColumnConvertible`
/// path in one protocol.
///
/// Reads and binds go straight to the statement, with no intermediate value, which is what
/// keeps the generated bridges within a few percent of hand-written C-API code.
public protocol StorableValue: Sendable {
    /// Reads the value at column `index` (0-based) of `statement`'s current row.
    static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> Self

    /// Binds the value to parameter `index` (1-based) of `statement`; returns SQLite's code.
    func bind(to statement: StatementHandle, at index: Int32) -> Int32

    /// The value as SQLite stores it (for filters, dynamic objects and side tables).
    var storeValue: StoreValue { get }

    /// The value from its stored form.
    init(storeValue: StoreValue) throws(ValueConversionError)

    /// Why the value cannot be stored as it is (a NaN, a date out of the supported range),
    /// or `nil`; writes throw `StoreError.invalidValue` with it instead of storing another
    /// value. `nil` unless a type says otherwise.
    var storageProblem: String? { get }
}

extension StorableValue {
    public var storageProblem: String? { nil }
}

/// Why a stored value could not become a Swift value. `RowDecoder` adds the object type and
/// property and throws it as `StoreError.invalidValue`.
public struct ValueConversionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The Swift type that was expected, e.g. `BusinessUnitEnum`.
    public var type: String
    /// The stored value that did not fit.
    public var value: StoreValue
    /// What is wrong, e.g. "not a case of BusinessUnitEnum".
    public var reason: String

    public init(type: String, value: StoreValue, reason: String) {
        self.type = type
        self.value = value
        self.reason = reason
    }

    public var description: String {
        "\(value) is not a valid \(type): \(reason)"
    }
}

extension StorableValue {
    /// The error for a stored value of the wrong shape.
    @inlinable
    public static func mismatch(_ value: StoreValue, expected: String) -> ValueConversionError {
        ValueConversionError(type: String(describing: Self.self), value: value, reason: "expected \(expected)")
    }
}
