/// Writes one object's stored properties, sequentially: each call writes the next property
/// in declaration order.
///
/// Column values are bound straight to the store's prepared statement; collections are kept
/// and written to their side tables once the row itself is written.
public struct RowEncoder {
    @usableFromInline let statement: StatementHandle
    @usableFromInline let context: RowCodingContext!
    /// Whether values are kept in `recorded` (for another engine) instead of bound.
    @usableFromInline let isRecording: Bool
    /// The column values, in declaration order, when recording.
    @usableFromInline package private(set) var recorded: [StoreValue] = []
    @usableFromInline var parameter: Int32 = 1
    /// The primary key's stored value, kept only when the type has collections to write.
    @usableFromInline var ownerKey: StoreValue?
    /// Collection values, in declaration order.
    package private(set) var collections: [StoreValue] = []
    /// The table, for messages, when recording.
    private let recordingTable: TableLayout?

    init(statement: StatementHandle, context: RowCodingContext) {
        self.statement = statement
        self.context = context
        isRecording = false
        recordingTable = nil
    }

    /// Keeps the values of an object of `table` instead of binding them, for a store on
    /// another engine; read them from `recorded` and `collections`.
    package init(recording table: TableLayout) {
        statement = StatementHandle(OpaquePointer(bitPattern: 1)!)   // never bound: `isRecording`
        context = nil
        isRecording = true
        recordingTable = table
    }

    /// Writes the next column property: a scalar, enum, link key, embedded object, or an
    /// optional of those.
    @inlinable
    public mutating func encode<Value: StorableValue>(_ value: Value) throws {
        let index = parameter
        parameter += 1
        if _slowPath(isRecording) { return try record(value, at: Int(index) - 1) }
        if let problem = value.storageProblem { throw context.unstorable(problem, parameter: index) }
        let code = value.bind(to: statement, at: index)
        if code != 0 { throw context.bindFailure(code, parameter: index) }
        if index == context.primaryKeyParameter, context.hasCollections { ownerKey = value.storeValue }
    }

    @usableFromInline
    mutating func record<Value: StorableValue>(_ value: Value, at index: Int) throws {
        if let problem = value.storageProblem, let table = recordingTable {
            throw StoreError.invalidValue(type: table.name, property: index < table.columns.count ? table.columns[index].name : "#\(index)", value: value.storeValue, reason: problem)
        }
        recorded.append(value.storeValue)
    }

    private func unstorable(collection index: Int, _ problem: String) -> StoreError {
        if let table = recordingTable {
            return StoreError.invalidValue(type: table.name, property: index < table.sideTables.count ? table.sideTables[index].property : "#\(index)", value: .null, reason: problem)
        }
        return context.unstorable(collection: index, problem)
    }

    /// Writes the next collection property, a list, keeping its order.
    public mutating func encodeList<Element: StorableValue>(_ values: [Element]) throws {
        if let problem = values.lazy.compactMap(\.storageProblem).first { throw unstorable(collection: collections.count, problem) }
        collections.append(.list(values.map(\.storeValue)))
    }

    /// Writes the next collection property, a set.
    public mutating func encodeSet<Element: StorableValue & Hashable>(_ values: Set<Element>) throws {
        if let problem = values.lazy.compactMap(\.storageProblem).first { throw unstorable(collection: collections.count, problem) }
        collections.append(.list(values.map(\.storeValue)))
    }

    /// Writes the next collection property, a map with string keys.
    public mutating func encodeMap<Value: StorableValue>(_ values: [String: Value]) throws {
        if let problem = values.values.lazy.compactMap(\.storageProblem).first { throw unstorable(collection: collections.count, problem) }
        collections.append(.map(values.mapValues(\.storeValue)))
    }
}
