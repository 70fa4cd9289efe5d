import Foundation

/// A property's default: a literal of its type, an enum case, null, or a value generated
/// when an object is created.
public enum DefaultValue: Hashable, Sendable {
    /// A value made fresh for each new object.
    public enum Generated: String, Hashable, Sendable, CaseIterable {
        /// A new random UUID (for `uuid` properties, or its string form for `string`).
        case uuid = "$uuid"
        /// A new ObjectID (for `objectId` properties).
        case objectId = "$objectId"
        /// The current date and time (for `date` properties).
        case now = "$now"
    }

    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    /// A string literal; also the textual literal of `url`, `decimal128`, `uuid` and
    /// `objectId` properties, ISO 8601 for `date` and base64 for `data`.
    case string(String)
    /// The name of a case of the property's enum.
    case enumCase(String)
    case generated(Generated)
}

extension DefaultValue {
    /// Doubles compare by their bits, so that a schema with a `.nan` default equals itself
    /// (and its snapshot), as `Hashable` requires; `0.0` and `-0.0` are different defaults.
    public static func == (lhs: DefaultValue, rhs: DefaultValue) -> Bool {
        switch (lhs, rhs) {
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.string(let a), .string(let b)), (.enumCase(let a), .enumCase(let b)): a == b
        case (.generated(let a), .generated(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .int(let value):
            hasher.combine(2)
            hasher.combine(value)
        case .double(let value):
            hasher.combine(3)
            hasher.combine(value.bitPattern)
        case .string(let value):
            hasher.combine(4)
            hasher.combine(value)
        case .enumCase(let value):
            hasher.combine(5)
            hasher.combine(value)
        case .generated(let value):
            hasher.combine(6)
            hasher.combine(value)
        }
    }
}
