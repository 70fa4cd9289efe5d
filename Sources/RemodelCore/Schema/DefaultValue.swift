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
