/// Reads one object's stored properties from the current row of a statement, sequentially:
/// each call reads the next property in declaration order.
///
/// Column values come straight from the statement (the store selects the columns by name, in
/// declaration order); collections come from their side tables, also in declaration order.
public struct RowDecoder {
    @usableFromInline let statement: StatementHandle
    @usableFromInline let context: RowCodingContext?
    /// The values, when the row comes from another engine (`StoredRow`) instead of a statement.
    @usableFromInline let stored: StoredRow?
    @usableFromInline let isStored: Bool
    @usableFromInline var column: Int32 = 0
    @usableFromInline var collection: Int = 0

    @usableFromInline
    init(statement: StatementHandle, context: RowCodingContext) {
        self.statement = statement
        self.context = context
        stored = nil
        isStored = false
    }

    /// Reads a row of stored values (a PostgreSQL store's, say) with the same generated code.
    package init(stored row: StoredRow) {
        statement = StatementHandle(OpaquePointer(bitPattern: 1)!)  // never read: `isStored`
        context = nil
        stored = row
        isStored = true
    }

    /// Reads the next column property: a scalar, enum, link key, embedded object, or an
    /// optional of those.
    @inlinable
    public mutating func decode<Value: StorableValue>(_ type: Value.Type = Value.self) throws -> Value {
        let index = column
        column += 1
        if _slowPath(isStored) { return try stored!.decode(Value.self, at: Int(index)) }
        do {
            return try Value.read(from: statement, at: index)
        } catch {
            throw context!.invalidValue(error, column: index)
        }
    }

    /// Reads the next collection property, a list, in order.
    public mutating func decodeList<Element: StorableValue>(_ type: [Element].Type = [Element].self) throws -> [Element] {
        if isStored {
            collection += 1
            return try stored!.elements(of: collection - 1).map { try stored!.value(Element.self, $0, collection: collection - 1) }
        }
        var result: [Element] = []
        try readCollection { side in result.append(try Element.read(from: side, at: 0)) }
        return result
    }

    /// Reads the next collection property, a set.
    public mutating func decodeSet<Element: StorableValue & Hashable>(_ type: Set<Element>.Type = Set<Element>.self) throws -> Set<Element> {
        if isStored {
            collection += 1
            return Set(try stored!.elements(of: collection - 1).map { try stored!.value(Element.self, $0, collection: collection - 1) })
        }
        var result: Set<Element> = []
        try readCollection { side in result.insert(try Element.read(from: side, at: 0)) }
        return result
    }

    /// Reads the next collection property, a map with string keys.
    public mutating func decodeMap<Value: StorableValue>(_ type: [String: Value].Type = [String: Value].self) throws -> [String: Value] {
        if isStored {
            collection += 1
            return try stored!.entries(of: collection - 1).mapValues { try stored!.value(Value.self, $0, collection: collection - 1) }
        }
        var result: [String: Value] = [:]
        try readCollection { side in
            let key = try String.read(from: side, at: 1)
            result[key] = try Value.read(from: side, at: 0)
        }
        return result
    }

    private mutating func readCollection(_ row: (StatementHandle) throws -> Void) throws {
        let index = collection
        collection += 1
        try context!.readCollection(index, owner: statement, row)
    }
}

/// One object's stored values, columns and collections in declaration order, for
/// `RowDecoder` when they come from another engine than SQLite.
@usableFromInline
package final class StoredRow {
    package let table: TableLayout
    package let columns: [StoreValue]
    /// `.list` for lists and sets, `.map` for maps.
    package let collections: [StoreValue]

    package init(table: TableLayout, columns: [StoreValue], collections: [StoreValue]) {
        self.table = table
        self.columns = columns
        self.collections = collections
    }

    /// The object's values from a dynamic object of `table`.
    package convenience init(table: TableLayout, object: DynamicObject) {
        self.init(
            table: table, columns: table.columns.map { object[$0.name] ?? .null },
            collections: table.sideTables.map { object[$0.property] ?? $0.kind.emptyValue }
        )
    }

    @usableFromInline
    package func decode<Value: StorableValue>(_ type: Value.Type, at index: Int) throws -> Value {
        let value = index < columns.count ? columns[index] : .null
        do {
            return try Value(storeValue: value)
        } catch {
            throw StoreError.invalidValue(type: table.name, property: index < table.columns.count ? table.columns[index].name : "#\(index)", value: value, reason: "\(error)")
        }
    }

    func elements(of index: Int) -> [StoreValue] {
        if case .list(let elements) = collections[index] { return elements }
        return []
    }

    func entries(of index: Int) -> [String: StoreValue] {
        if case .map(let entries) = collections[index] { return entries }
        return [:]
    }

    func value<Value: StorableValue>(_ type: Value.Type, _ value: StoreValue, collection: Int) throws -> Value {
        do {
            return try Value(storeValue: value)
        } catch {
            throw StoreError.invalidValue(type: table.name, property: table.sideTables[collection].property, value: value, reason: "\(error)")
        }
    }
}
