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
    /// The column type of one value of `type` (its collection ignored), and for a link the
    /// target table and key column.
    package static func columnType(of type: PropertyType, in schema: Schema, context: String) throws -> (sqlType: SQLColumnType, link: (table: String, column: String)?) {
        switch type.base {
        case .scalar(let scalar):
            return (sqlType(of: scalar), nil)
        case .enumeration(let name):
            guard let enumType = schema.enumType(named: name) else {
                throw UnsupportedSchema("\(context) has unknown enum type '\(name)'")
            }
            return (enumType.rawType == .int ? .integer : .text, nil)
        case .object(let name):
            guard let target = schema.objectType(named: name) else {
                throw UnsupportedSchema("\(context) links to unknown object type '\(name)'")
            }
            if target.isEmbedded { return (.text, nil) }
            guard let key = target.primaryKeyProperty, let keyType = key.storedType?.scalar else {
                throw UnsupportedSchema("\(context) links to '\(name)', which has no primary key; give '\(name)' a primaryKey or make it embedded")
            }
            return (sqlType(of: keyType), (name, key.name))
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
