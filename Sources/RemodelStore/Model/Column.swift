/// A typed reference to a column property of `Model`, holding `Value`: the compile-checked
/// key of filters and sort orders. Generated code declares one per stored, non-collection
/// property in the model's `Columns` namespace:
///
/// ```swift
/// extension Person {
///     public enum Columns {
///         public static let firstName = Column<Person, String>("firstName")
///         public static let profileImageUrl = Column<Person, URL?>("profileImageUrl")
///         public static let dogs = CollectionColumn<Person, Dog.ID>("dogs")
///     }
/// }
/// ```
///
/// `Person.Columns.firstName == "Ada"` compiles; `Person.Columns.firstName == 3` does not,
/// and neither does using a `Filter<Person>` on a query of dogs.
public struct Column<Model: PersistentModel, Value: StorableValue>: Sendable {
    /// The property's name in the schema, which is also its column's name.
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    /// Sorts by this column, smallest first (NULLs first).
    public var ascending: Ordering<Model> { Ordering(column: name, descending: false) }

    /// Sorts by this column, largest first (NULLs last).
    public var descending: Ordering<Model> { Ordering(column: name, descending: true) }

    /// Objects whose value is one of `values`.
    public func `in`<S: Sequence>(_ values: S) -> Filter<Model> where S.Element == Value {
        Filter(.in(column: name, values: values.map(\.storeValue)))
    }
}

/// A typed reference to a list, set or map property of `Model` whose elements are `Element`.
public struct CollectionColumn<Model: PersistentModel, Element: StorableValue>: Sendable {
    /// The property's name in the schema.
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    /// Objects whose collection holds no element.
    public var isEmpty: Filter<Model> { Filter(.collectionIsEmpty(property: name)) }

    /// Objects whose collection holds `element` (for a map: as one of its values).
    public func contains(_ element: Element) -> Filter<Model> {
        Filter(.collectionContains(property: name, value: element.storeValue))
    }
}

// MARK: - Comparisons

public func == <Model, Value>(column: Column<Model, Value>, value: Value) -> Filter<Model> {
    Filter(value.storeValue.isNull ? .isNull(column: column.name) : .compare(column: column.name, .equal, value.storeValue))
}

public func != <Model, Value>(column: Column<Model, Value>, value: Value) -> Filter<Model> {
    value.storeValue.isNull ? Filter(.not(.isNull(column: column.name))) : Filter(.compare(column: column.name, .notEqual, value.storeValue))
}

public func < <Model, Value>(column: Column<Model, Value>, value: Value) -> Filter<Model> {
    Filter(.compare(column: column.name, .less, value.storeValue))
}

public func <= <Model, Value>(column: Column<Model, Value>, value: Value) -> Filter<Model> {
    Filter(.compare(column: column.name, .lessOrEqual, value.storeValue))
}

public func > <Model, Value>(column: Column<Model, Value>, value: Value) -> Filter<Model> {
    Filter(.compare(column: column.name, .greater, value.storeValue))
}

public func >= <Model, Value>(column: Column<Model, Value>, value: Value) -> Filter<Model> {
    Filter(.compare(column: column.name, .greaterOrEqual, value.storeValue))
}

extension Column where Value: OptionalStorable {
    /// Objects whose value is null.
    public var isNil: Filter<Model> { Filter(.isNull(column: name)) }
}

extension Column where Value == String {
    /// Objects whose text contains `text` (case-sensitive).
    public func contains(_ text: String) -> Filter<Model> { Filter(.contains(column: name, text)) }

    /// Objects whose text starts with `prefix` (case-sensitive).
    public func hasPrefix(_ prefix: String) -> Filter<Model> { Filter(.hasPrefix(column: name, prefix)) }

    /// Objects whose text contains `text` ignoring case and diacritics, as a search field
    /// wants (`"CAFE"` finds `"Café au lait"`), like Foundation's `localizedStandardContains`.
    public func localizedStandardContains(_ text: String) -> Filter<Model> { Filter(.localizedStandardContains(column: name, text)) }
}

extension Column where Value == String? {
    /// Objects whose text contains `text` (case-sensitive); null never matches.
    public func contains(_ text: String) -> Filter<Model> { Filter(.contains(column: name, text)) }

    /// Objects whose text starts with `prefix` (case-sensitive); null never matches.
    public func hasPrefix(_ prefix: String) -> Filter<Model> { Filter(.hasPrefix(column: name, prefix)) }

    /// Objects whose text contains `text` ignoring case and diacritics; null never matches.
    public func localizedStandardContains(_ text: String) -> Filter<Model> { Filter(.localizedStandardContains(column: name, text)) }
}
