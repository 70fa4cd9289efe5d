import RemodelCore

/// A value as SQLite stores it, plus the collection shapes of side tables: the dynamic
/// currency of filters, of `DynamicObject` and of the data tools.
///
/// Scalars map one to one to SQLite's storage classes. Lists and sets are `.list`, maps
/// `.map`; they never appear in a column, only in a property of a `DynamicObject`.
public enum StoreValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    /// The elements of a list (in order) or a set.
    case list([StoreValue])
    /// The entries of a map.
    case map([String: StoreValue])

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension StoreValue: CustomStringConvertible {
    /// A short, readable form used in error messages.
    public var description: String {
        switch self {
        case .null: "null"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "\"\(value)\""
        case .blob(let bytes):
            "x'"
                + bytes.map { byte in
                    let digits = String(byte, radix: 16)
                    return digits.count == 1 ? "0" + digits : digits
                }.joined() + "'"
        case .list(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .map(let entries):
            "{" + entries.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

extension CollectionKind {
    /// A collection of this kind with no elements, as stored values carry it (`.map([:])`
    /// for maps, `.list([])` for lists and sets): what an absent collection reads as.
    package var emptyValue: StoreValue { self == .map ? .map([:]) : .list([]) }
}
