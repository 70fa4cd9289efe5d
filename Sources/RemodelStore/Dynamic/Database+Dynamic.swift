import Foundation
import RemodelCore

/// An object read or written without generated code: property name → stored value.
/// Collections are `.list` (lists in order, sets) and `.map`; links hold the target's key;
/// inverse properties are absent.
public typealias DynamicObject = [String: StoreValue]

extension Database {
    /// The object types of the store's schema that have tables, in schema order.
    public var objectTypeNames: [String] {
        layout.tables.map(\.name)
    }

    /// The number of objects of the type named `typeName`.
    public func count(ofType typeName: String) throws -> Int {
        let table = try table(typeName)
        if case .integer(let count) = try connection.scalar("SELECT count(*) FROM \(SQLiteRenderer.identifier(table.name))") { return Int(count) }
        return 0
    }

    /// Every object of the type named `typeName`, in insertion (rowid) order.
    public func dynamicObjects(ofType typeName: String) throws -> [DynamicObject] {
        var result: [DynamicObject] = []
        try forEachDynamicObject(ofType: typeName) { result.append($0) }
        return result
    }

    /// Calls `body` with each object of the type named `typeName`, one at a time.
    public func forEachDynamicObject(ofType typeName: String, _ body: (DynamicObject) throws -> Void) throws {
        let table = try table(typeName)
        let context = dynamicContext(table)
        let statement = try connection.statement("SELECT \(SQLiteRenderer.identifiers(table.columnNames)) FROM \(SQLiteRenderer.identifier(table.name)) ORDER BY rowid")
        while try statement.step() {
            var object: DynamicObject = [:]
            for (index, column) in table.columns.enumerated() {
                object[column.name] = statement.handle.value(Int32(index))
            }
            for (index, side) in table.sideTables.enumerated() {
                var elements: [StoreValue] = []
                var entries: [String: StoreValue] = [:]
                try context.readCollection(index, owner: statement.handle) { row in
                    if side.kind == .map {
                        entries[row.text(1) ?? ""] = row.value(0)
                    } else {
                        elements.append(row.value(0))
                    }
                }
                object[side.property] = side.kind == .map ? .map(entries) : .list(elements)
            }
            try body(object)
        }
    }

    /// The coding context of a table for dynamic reads and writes.
    func dynamicContext(_ table: TableLayout) -> RowCodingContext {
        if let context = connection.dynamicContexts[table.name] { return context }
        let context = RowCodingContext(table: table, connection: connection)
        connection.dynamicContexts[table.name] = context
        return context
    }
}

extension Transaction {
    /// Adds an object of the type named `typeName`. Missing properties take their schema
    /// default (or null, or an empty collection); values must have the stored form of their
    /// property's type. Links are checked at commit.
    public func insert(_ object: DynamicObject, ofType typeName: String) throws {
        try write(object, ofType: typeName, upsert: false)
    }

    /// Adds or replaces (by primary key) an object of the type named `typeName`.
    public func upsert(_ object: DynamicObject, ofType typeName: String) throws {
        try write(object, ofType: typeName, upsert: true)
    }

    /// Deletes every object of the type named `typeName`; returns how many there were.
    @discardableResult
    public func deleteAll(ofType typeName: String) throws -> Int {
        let table = try table(typeName)
        try connection.execute("DELETE FROM \(SQLiteRenderer.identifier(table.name))\(Connection.everyRow)")
        return connection.changeCount
    }

    private func write(_ object: DynamicObject, ofType typeName: String, upsert: Bool) throws {
        let table = try table(typeName)
        for key in object.keys where table.column(named: key) == nil && table.sideTable(property: key) == nil {
            throw StoreError.unknownProperty(type: typeName, property: key)
        }
        for key in object.keys.sorted() {
            if let problem = StoredForm.problem(in: object[key]!) { throw StoreError.invalidInput("cannot write \(typeName).\(key): \(problem)") }
        }
        let context = dynamicContext(table)
        let statement = try context.statement(upsert && table.primaryKey != nil ? .upsert : .insert)
        statement.reset()
        var values: [StoreValue] = []
        for (index, column) in table.columns.enumerated() {
            let value = try object[column.name] ?? DynamicDefaults.value(for: table.object.property(named: column.name)!, type: column.type, schema: layout.schema)
            if value.isNull && !column.type.isOptional {
                throw StoreError.invalidInput("\(typeName).\(column.name) is required but has no value and no default")
            }
            let code = statement.handle.bind(value, Int32(index + 1))
            if code != 0 { throw context.bindFailure(code, parameter: Int32(index + 1)) }
            values.append(value)
        }
        do {
            try statement.run()
        } catch let error as SQLiteError {
            let byColumn = Dictionary(zip(table.columns.map(\.name), values), uniquingKeysWith: { first, _ in first })
            if let storeError = UniqueViolation.storeError(error, table: table, schema: layout.schema, values: byColumn, connection: connection) { throw storeError }
            throw StoreError.sqlite(error)
        }
        guard !table.sideTables.isEmpty, let keyIndex = table.primaryKeyIndex else { return }
        let collections = table.sideTables.map { side in object[side.property] ?? side.kind.emptyValue }
        try context.writeCollections(collections, owner: values[keyIndex], replacing: upsert)
    }
}
