/// Reads the objects of a query one at a time by stepping its statement, so that iterating a
/// million objects needs the memory of one. Valid only inside the `read`/`write` closure
/// that created it.
///
/// `next()` throws (a damaged row, an unknown enum value) instead of silently ending, which
/// is why this is a cursor rather than a `Sequence`; `Query.forEach` wraps it in a loop.
public final class ObjectCursor<Model: PersistentModel> {
    @usableFromInline let statement: Statement
    @usableFromInline let context: RowCodingContext
    @usableFromInline var done = false

    init(statement: Statement, context: RowCodingContext) {
        self.statement = statement
        self.context = context
    }

    deinit {
        // A finished cursor already reset its statement, which another cursor may now use.
        if !done { statement.reset() }
    }

    /// The next object, or `nil` after the last one.
    @inlinable
    public func next() throws -> Model? {
        guard !done else { return nil }
        guard try statement.step() else {
            done = true
            statement.reset()
            return nil
        }
        var decoder = RowDecoder(statement: statement.handle, context: context)
        return try Model(row: &decoder)
    }
}
