/// A sort key of a query of `Model`: `Person.Columns.firstName.ascending`.
public struct Ordering<Model: PersistentModel>: Hashable, Sendable {
    /// The column sorted by.
    public let column: String
    /// Largest first.
    public let descending: Bool

    public init(column: String, descending: Bool) {
        self.column = column
        self.descending = descending
    }
}
