/// Writes one object's stored properties, sequentially: each call writes the next property
/// in declaration order.
///
/// Column values are bound straight to the store's prepared statement; collections are kept
/// and written to their side tables once the row itself is written.
public struct RowEncoder {
    @usableFromInline let statement: StatementHandle
    @usableFromInline let context: RowCodingContext!
    /// The primary key's parameter number, when the type has collections (whose rows need
    /// the key); 0 otherwise. Kept here so that binding reads no other object.
    @usableFromInline let ownerKeyParameter: Int32
    /// Set when values are kept (for another engine) instead of bound.
    @usableFromInline let recording: Recording?
    @usableFromInline var parameter: Int32 = 1
    /// The primary key's stored value, kept only when the type has collections to write.
    @usableFromInline var ownerKey: StoreValue?
    /// Collection values, in declaration order.
    package private(set) var collections: [StoreValue] = []

    /// What a recording encoder keeps.
    @usableFromInline
    final class Recording {
        let table: TableLayout
        var values: [StoreValue] = []

        init(table: TableLayout) {
            self.table = table
        }
    }

    init(statement: StatementHandle, context: RowCodingContext) {
        self.statement = statement
        self.context = context
        ownerKeyParameter = context.hasCollections ? context.primaryKeyParameter : 0
        recording = nil
    }

    /// Keeps the values of an object of `table` instead of binding them, for a store on
    /// another engine; read them from `recorded` and `collections`.
    package init(recording table: TableLayout) {
        statement = StatementHandle(OpaquePointer(bitPattern: 1)!)  // never bound: `recording`
        context = nil
        ownerKeyParameter = 0
        recording = Recording(table: table)
    }

    /// The column values, in declaration order, of a recording encoder.
    package var recorded: [StoreValue] { recording?.values ?? [] }

    private var recordingTable: TableLayout? { recording?.table }

    /// Writes the next column property: a scalar, enum, link key, embedded object, or an
    /// optional of those.
    @inlinable
    public mutating func encode<Value: StorableValue>(_ value: Value) throws {
        let index = parameter
        parameter += 1
        if _slowPath(recording != nil) { return try record(value, at: Int(index) - 1) }
        if let problem = value.storageProblem { throw context.unstorable(problem, parameter: index) }
        let code = value.bind(to: statement, at: index)
        if code != 0 { throw context.bindFailure(code, parameter: index) }
        if index == ownerKeyParameter { ownerKey = value.storeValue }
    }

    @usableFromInline
    func record<Value: StorableValue>(_ value: Value, at index: Int) throws {
        guard let recording else { return }
        if let problem = value.storageProblem {
            let table = recording.table
            throw StoreError.invalidValue(
                type: table.name, property: index < table.columns.count ? table.columns[index].name : "#\(index)", value: value.storeValue, reason: problem)
        }
        recording.values.append(value.storeValue)
    }

    private func unstorable(collection index: Int, _ problem: String) -> StoreError {
        if let table = recordingTable {
            return StoreError.invalidValue(
                type: table.name, property: index < table.sideTables.count ? table.sideTables[index].property : "#\(index)", value: .null, reason: problem)
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
