/// The value a property will have after a migration, as an SQL expression over the columns
/// the table has *before* it.
///
/// Declarative steps compose by substitution: `split` then `set "{firstName} {lastName}"`
/// becomes one expression, so each table is rewritten at most once per migration.
struct ColumnExpression: Hashable, Sendable {
    var sql: String
    /// Known never to be NULL (no check needed for required properties).
    var isNonNull: Bool
    /// The same value for every row (can become a column DEFAULT instead of an UPDATE).
    var isConstant: Bool
    /// The physical column this is an unchanged copy of, if it is one.
    var sourceColumn: String?

    /// The unchanged value of physical column `name`.
    static func column(_ name: String, nonNull: Bool) -> ColumnExpression {
        ColumnExpression(sql: SQLText.identifier(name), isNonNull: nonNull, isConstant: false, sourceColumn: name)
    }

    /// A constant.
    static func constant(_ sql: String) -> ColumnExpression {
        ColumnExpression(sql: sql, isNonNull: sql != "NULL", isConstant: true, sourceColumn: nil)
    }

    /// A computed value.
    static func computed(_ sql: String, nonNull: Bool) -> ColumnExpression {
        ColumnExpression(sql: sql, isNonNull: nonNull, isConstant: false, sourceColumn: nil)
    }

    static let null = ColumnExpression.constant("NULL")

    /// The expression, parenthesised for use inside another.
    var operand: String {
        sourceColumn != nil || isConstant ? sql : "(\(sql))"
    }
}
