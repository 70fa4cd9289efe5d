/// An enum persisted as its raw value, adopted with an empty conformance:
///
/// ```swift
/// extension BusinessUnitEnum: StorableEnum {}
/// ```
///
/// A raw value read from the store that is not a case throws; `RowDecoder` reports it as
/// `StoreError.invalidValue` naming the object type, the property and the value.
public protocol StorableEnum: StorableValue, RawRepresentable where RawValue: StorableValue {}

extension StorableEnum {
    @inlinable
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> Self {
        let raw = try RawValue.read(from: statement, at: index)
        guard let value = Self(rawValue: raw) else { throw unknownCase(raw.storeValue) }
        return value
    }

    @inlinable
    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        rawValue.bind(to: statement, at: index)
    }

    public var storeValue: StoreValue { rawValue.storeValue }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        guard let value = Self(rawValue: try RawValue(storeValue: storeValue)) else { throw Self.unknownCase(storeValue) }
        self = value
    }

    @usableFromInline
    static func unknownCase(_ value: StoreValue) -> ValueConversionError {
        let name = String(describing: Self.self)
        return ValueConversionError(type: name, value: value, reason: "not a raw value of any case of \(name)")
    }
}
