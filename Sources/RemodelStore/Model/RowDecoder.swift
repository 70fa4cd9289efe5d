/// Reads one object's stored properties from the current row of a statement, sequentially:
/// each call reads the next property in declaration order.
///
/// Column values come straight from the statement (the store selects the columns by name, in
/// declaration order); collections come from their side tables, also in declaration order.
public struct RowDecoder {
    @usableFromInline let statement: StatementHandle
    @usableFromInline let context: RowCodingContext
    @usableFromInline var column: Int32 = 0
    @usableFromInline var collection: Int = 0

    @usableFromInline
    init(statement: StatementHandle, context: RowCodingContext) {
        self.statement = statement
        self.context = context
    }

    /// Reads the next column property: a scalar, enum, link key, embedded object, or an
    /// optional of those.
    @inlinable
    public mutating func decode<Value: StorableValue>(_ type: Value.Type = Value.self) throws -> Value {
        let index = column
        column += 1
        do {
            return try Value.read(from: statement, at: index)
        } catch {
            throw context.invalidValue(error, column: index)
        }
    }

    /// Reads the next collection property, a list, in order.
    public mutating func decodeList<Element: StorableValue>(_ type: [Element].Type = [Element].self) throws -> [Element] {
        var result: [Element] = []
        try readCollection { side in result.append(try Element.read(from: side, at: 0)) }
        return result
    }

    /// Reads the next collection property, a set.
    public mutating func decodeSet<Element: StorableValue & Hashable>(_ type: Set<Element>.Type = Set<Element>.self) throws -> Set<Element> {
        var result: Set<Element> = []
        try readCollection { side in result.insert(try Element.read(from: side, at: 0)) }
        return result
    }

    /// Reads the next collection property, a map with string keys.
    public mutating func decodeMap<Value: StorableValue>(_ type: [String: Value].Type = [String: Value].self) throws -> [String: Value] {
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
        try context.readCollection(index, owner: statement, row)
    }
}
