/// Writes one object's stored properties, sequentially: each call writes the next property
/// in declaration order.
///
/// Column values are bound straight to the store's prepared statement; collections are kept
/// and written to their side tables once the row itself is written.
public struct RowEncoder {
    @usableFromInline let statement: StatementHandle
    @usableFromInline let context: RowCodingContext
    @usableFromInline var parameter: Int32 = 1
    /// The primary key's stored value, kept only when the type has collections to write.
    @usableFromInline var ownerKey: StoreValue?
    /// Collection values, in declaration order.
    var collections: [StoreValue] = []

    init(statement: StatementHandle, context: RowCodingContext) {
        self.statement = statement
        self.context = context
    }

    /// Writes the next column property: a scalar, enum, link key, embedded object, or an
    /// optional of those.
    @inlinable
    public mutating func encode<Value: StorableValue>(_ value: Value) throws {
        let index = parameter
        parameter += 1
        if let problem = value.storageProblem { throw context.unstorable(problem, parameter: index) }
        let code = value.bind(to: statement, at: index)
        if code != 0 { throw context.bindFailure(code, parameter: index) }
        if index == context.primaryKeyParameter, context.hasCollections { ownerKey = value.storeValue }
    }

    /// Writes the next collection property, a list, keeping its order.
    public mutating func encodeList<Element: StorableValue>(_ values: [Element]) throws {
        if let problem = values.lazy.compactMap(\.storageProblem).first { throw context.unstorable(collection: collections.count, problem) }
        collections.append(.list(values.map(\.storeValue)))
    }

    /// Writes the next collection property, a set.
    public mutating func encodeSet<Element: StorableValue & Hashable>(_ values: Set<Element>) throws {
        if let problem = values.lazy.compactMap(\.storageProblem).first { throw context.unstorable(collection: collections.count, problem) }
        collections.append(.list(values.map(\.storeValue)))
    }

    /// Writes the next collection property, a map with string keys.
    public mutating func encodeMap<Value: StorableValue>(_ values: [String: Value]) throws {
        if let problem = values.values.lazy.compactMap(\.storageProblem).first { throw context.unstorable(collection: collections.count, problem) }
        collections.append(.map(values.mapValues(\.storeValue)))
    }
}
