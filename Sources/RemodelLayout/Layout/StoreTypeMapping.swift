import RemodelCore

/// How schema types are stored: the SQLite column type of each.
///
/// | schema type              | column  | stored as                                   |
/// |--------------------------|---------|---------------------------------------------|
/// | bool                     | INTEGER | 0 / 1                                       |
/// | int, int8 … int64        | INTEGER |                                             |
/// | float, double            | REAL    |                                             |
/// | string, url              | TEXT    | URL: its absolute string                    |
/// | data                     | BLOB    |                                             |
/// | date                     | INTEGER | microseconds since 1970-01-01T00:00:00Z     |
/// | decimal128               | TEXT    | Foundation `Decimal`'s description          |
/// | uuid                     | BLOB    | 16 bytes                                    |
/// | objectId                 | BLOB    | 12 bytes                                    |
/// | enum                     | TEXT / INTEGER | its raw value                        |
/// | embedded object          | TEXT    | JSON                                        |
/// | link                     | the target's key type | the target's primary key      |
package enum StoreTypeMapping {
    /// What one value of a property type is stored as, on any engine: the one place that
    /// resolves enums to their raw type, embedded objects to JSON and links to their target's
    /// key. Each engine's column types follow from it (`sqlType(of:)`, `PostgresLayout`).
    package enum StoredKind: Hashable, Sendable {
        case scalar(ScalarType)
        /// An enum, stored as its raw value: `int` or `string`.
        case enumeration(rawType: ScalarType)
        /// An embedded object, stored as JSON.
        case embedded
        /// A link: the target's primary key, of scalar type `key`.
        case link(table: String, column: String, key: ScalarType)
    }

    /// What one value of `type` (its collection ignored) is stored as; throws
    /// `UnsupportedSchema` for an unknown type or a link to a type without a primary key.
    package static func storedKind(of type: PropertyType, in schema: Schema, context: String) throws -> StoredKind {
        switch type.base {
        case .scalar(let scalar):
            return .scalar(scalar)
        case .enumeration(let name):
            guard let enumType = schema.enumType(named: name) else {
                throw UnsupportedSchema("\(context) has unknown enum type '\(name)'")
            }
            return .enumeration(rawType: enumType.rawType == .int ? .int : .string)
        case .object(let name):
            guard let target = schema.objectType(named: name) else {
                throw UnsupportedSchema("\(context) links to unknown object type '\(name)'")
            }
            if target.isEmbedded { return .embedded }
            guard let key = target.primaryKeyProperty, let keyType = key.storedType?.scalar else {
                throw UnsupportedSchema("\(context) links to '\(name)', which has no primary key; give '\(name)' a primaryKey or make it embedded")
            }
            return .link(table: name, column: key.name, key: keyType)
        }
    }

    /// The column type of one value of `type` (its collection ignored), and for a link the
    /// target table and key column.
    package static func columnType(of type: PropertyType, in schema: Schema, context: String) throws -> (sqlType: SQLColumnType, link: (table: String, column: String)?) {
        switch try storedKind(of: type, in: schema, context: context) {
        case .scalar(let scalar): (sqlType(of: scalar), nil)
        case .enumeration(let rawType): (sqlType(of: rawType), nil)
        case .embedded: (.text, nil)
        case .link(let table, let column, let key): (sqlType(of: key), (table, column))
        }
    }

    /// The column type of a scalar.
    package static func sqlType(of scalar: ScalarType) -> SQLColumnType {
        switch scalar {
        case .bool, .int, .int8, .int16, .int32, .int64, .date: .integer
        case .float, .double: .real
        case .string, .url, .decimal128: .text
        case .data, .uuid, .objectId: .blob
        }
    }
}
