/// A condition on objects of `Model`, built from `Column`s and combined with `&&`, `||` and
/// `!`. The store turns it into SQL with bound parameters.
public struct Filter<Model: PersistentModel>: Sendable {
    /// The condition, independent of the model type.
    public let expression: FilterExpression

    public init(_ expression: FilterExpression) {
        self.expression = expression
    }

    /// A filter every object matches.
    public static var all: Filter { Filter(.constant(true)) }

    public static func && (lhs: Filter, rhs: Filter) -> Filter { Filter(.and(lhs.expression, rhs.expression)) }
    public static func || (lhs: Filter, rhs: Filter) -> Filter { Filter(.or(lhs.expression, rhs.expression)) }
    public static prefix func ! (filter: Filter) -> Filter { Filter(.not(filter.expression)) }

    /// `\.dogs.isEmpty == false` reads as `!dogs.isEmpty`.
    public static func == (filter: Filter, value: Bool) -> Filter { value ? filter : !filter }
    public static func != (filter: Filter, value: Bool) -> Filter { value ? !filter : filter }
}

/// The untyped form of a filter, also used by the dynamic (schema-only) API.
public indirect enum FilterExpression: Hashable, Sendable {
    /// How a column compares with a value.
    public enum Comparison: Hashable, Sendable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual

        /// The SQL operator that performs the comparison (its text has one home, the renderer's operators).
        package var sqlOperator: SQLOperator {
            switch self {
            case .equal: .equal
            case .notEqual: .notEqual
            case .less: .less
            case .lessOrEqual: .lessOrEqual
            case .greater: .greater
            case .greaterOrEqual: .greaterOrEqual
            }
        }
    }

    case constant(Bool)
    case compare(column: String, Comparison, StoreValue)
    case `in`(column: String, values: [StoreValue])
    case isNull(column: String)
    case contains(column: String, String)
    case hasPrefix(column: String, String)
    /// Text containing the given text, ignoring case and diacritics (`TextFolding`).
    case localizedStandardContains(column: String, String)
    case collectionIsEmpty(property: String)
    case collectionContains(property: String, value: StoreValue)
    case and(FilterExpression, FilterExpression)
    case or(FilterExpression, FilterExpression)
    case not(FilterExpression)
}
