/// A column type of a PostgreSQL store: what `PostgresLayout` declares, what the plan
/// renderer follows through a version's statements, and what `PostgresValueCoding` reads and
/// writes. One value per type, so that no text of a type is parsed back.
package enum PostgresColumnType: String, Hashable, Sendable, CaseIterable {
    case boolean, smallint, integer, bigint, real
    case doublePrecision = "double precision"
    /// Text compared byte by byte, as SQLite compares it (its BINARY collation), whatever the
    /// database's locale: keys, uniqueness and order are the same on both engines.
    case text = "text COLLATE \"C\""
    case bytea, timestamptz, numeric, uuid, jsonb

    /// As a column declaration writes it.
    package var sql: String { rawValue }

    /// As a cast writes it (`::text`: a collation is no part of a cast's type).
    package var castName: String { self == .text ? "text" : rawValue }
}
