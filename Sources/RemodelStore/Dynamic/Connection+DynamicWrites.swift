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
        try Self.check(object, of: try transaction.table(type), schema: transaction.layout.schema)
        try transaction.insert(object, ofType: type)
    }

    /// Refuses an object a value of which the schema forbids beyond its stored form (an enum
    /// raw value that is no case, an integer out of its sized type's range), as any engine
    /// writes one for a migration.
    package static func check(_ object: DynamicObject, of table: TableLayout, schema: Schema) throws {
        let type = table.name
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            guard let propertyType = table.object.property(named: name)?.storedType,
                let problem = StoredValueRules.problem(inProperty: value, type: propertyType, schema: schema)
            else { continue }
            throw StoreError.invalidInput("cannot write \(type).\(name): \(problem)")
        }
    }

    /// Replaces the elements of every collection of the `type` object keyed `owner` with those
    /// in `object` (absent ones become empty).
    package func replaceCollections(of owner: StoreValue, ofType type: String, with object: DynamicObject) throws {
        let table = try transaction.table(type)
        let values = table.sideTables.map { object[$0.property] ?? $0.kind.emptyValue }
        for (side, value) in zip(table.sideTables, values) {
            if let problem = StoredForm.problem(in: value) { throw StoreError.invalidInput("cannot write \(type).\(side.property): \(problem)") }
        }
        try transaction.dynamicContext(table).writeCollections(values, owner: owner, replacing: true)
    }
}
