import RemodelCore

extension Connection {
    /// Writes dynamic objects of `layout`'s schema on a bare connection, as `Transaction` does
    /// for a store: for a migration's custom steps, which run inside the migration's own
    /// transaction while tables change shape. Prepared state is dropped before and after, so
    /// nothing prepared for another version's tables is reused.
    package func writingDynamically<Result>(layout: StoreLayout, _ body: (DynamicWriter) throws -> Result) throws -> Result {
        clearCaches()
        defer { clearCaches() }
        return try body(DynamicWriter(transaction: Transaction(connection: self, layout: layout, path: path)))
    }
}

/// Inserts objects and replaces collections of one schema's tables through the dynamic API.
package struct DynamicWriter {
    let transaction: Transaction

    /// Adds `object` to `type`'s table: what it leaves out takes its schema default (or null,
    /// or an empty collection).
    package func insert(_ object: DynamicObject, ofType type: String) throws {
        try transaction.insert(object, ofType: type)
    }

    /// Replaces the elements of every collection of the `type` object keyed `owner` with those
    /// in `object` (absent ones become empty).
    package func replaceCollections(of owner: StoreValue, ofType type: String, with object: DynamicObject) throws {
        let table = try transaction.table(type)
        let values = table.sideTables.map { object[$0.property] ?? ($0.kind == .map ? .map([:]) : .list([])) }
        for (side, value) in zip(table.sideTables, values) {
            if let problem = StoredForm.problem(in: value) { throw StoreError.invalidInput("cannot write \(type).\(side.property): \(problem)") }
        }
        try transaction.dynamicContext(table).writeCollections(values, owner: owner, replacing: true)
    }
}
