import Foundation
import RemodelCore
import RemodelStore

/// An object as a custom migration step sees it: its values before the version and its
/// values now, which the step may change, and the other objects it declared it reads.
public struct MigrationObject: Sendable {
    /// The object type (its new name).
    public let type: String
    /// Property values as they were before this version (old property names), lists and sets
    /// as `.list`, maps as `.map`.
    public let old: [String: StoreValue]
    /// Property values after the version's declarative steps (new names): scalars, enums,
    /// to-one links (the target's key), embedded objects as JSON text, lists and sets as
    /// `.list`, maps as `.map` (elements that are links hold their targets' keys). Changes are
    /// written back, collections included.
    public var new: [String: StoreValue]
    /// Objects of the old store, as they were before this version: the step's own type and
    /// the types its `reads:` names.
    public let oldObjects: OldObjects
    /// The objects `create` asked for, in order.
    package private(set) var created: [(type: String, values: [String: StoreValue])] = []

    package init(type: String, old: [String: StoreValue], new: [String: StoreValue], oldObjects: OldObjects) {
        self.type = type
        self.old = old
        self.new = new
        self.oldObjects = oldObjects
    }

    /// Creates an object of `type` (a type of the new version) once every object has been
    /// visited: `values` by property name in their stored form, collections as `.list` or
    /// `.map`; what it leaves out takes its schema default (a `$uuid` key a new UUID), or null.
    /// Link to it by its key, from `new` (`new["tags"] = .list([.text("work")])`). Of the
    /// objects the step creates with one primary key only the first is made, so each visit
    /// may create what it links to; a key an object had before the step fails the migration.
    public mutating func create(_ type: String, _ values: [String: StoreValue]) {
        created.append((type, values))
    }
}

/// Read access to the objects of the old store (before the version) for a custom step, by
/// old type name. Valid only while the step runs.
public final class OldObjects: @unchecked Sendable {
    /// Every object of an old type from the engine's copy of it, nil for an undeclared type.
    private let load: (String) throws -> [[String: StoreValue]]?
    /// The primary key's name of each declared old type.
    private let keys: [String: String]
    private var loaded: [String: [[String: StoreValue]]] = [:]

    /// Old objects read from the copies `snapshots` names, by `load` (one engine's way).
    package init(keys: [String: String], load: @escaping (String) throws -> [[String: StoreValue]]?) {
        self.keys = keys
        self.load = load
    }

    convenience init(connection: Connection, snapshots: [String: CustomSnapshot]) {
        self.init(keys: snapshots.compactMapValues(\.layout.key)) { type in
            guard let snapshot = snapshots[type] else { return nil }
            return try Self.objects(of: snapshot, connection: connection)
        }
    }

    /// Every object of `type` (its name before the version), collections included.
    public func all(_ type: String) throws -> [[String: StoreValue]] {
        if let objects = loaded[type] { return objects }
        guard let objects = try load(type) else {
            throw CustomStepError(message: "the custom step reads '\(type)' but does not declare it; add it to the step: reads: [\(type)]")
        }
        loaded[type] = objects
        return objects
    }

    /// The objects of a SQLite copy, in rowid order.
    private static func objects(of snapshot: CustomSnapshot, connection: Connection) throws -> [[String: StoreValue]] {
        let layout = snapshot.layout
        let rows = try connection.query("SELECT \(SQLiteRenderer.identifiers(layout.columns)) FROM temp.\(SQLiteRenderer.identifier(snapshot.table)) ORDER BY rowid")
        var objects = rows.map { row in Dictionary(uniqueKeysWithValues: zip(layout.columns, row)) }
        if let key = layout.key {
            let collections = try collectionsByOwner(layout.sideTables, schema: "temp.", connection: connection)
            for index in objects.indices {
                let owner = objects[index][key] ?? .null
                for (property, side) in layout.sideTables {
                    objects[index][property] = collections[owner]?[property] ?? side.kind.emptyValue
                }
            }
        }
        return objects
    }

    /// The elements of `sideTables` (property → table, in `schema`: `temp.` or the main one)
    /// by owner key and property: lists in order, maps by key.
    static func collectionsByOwner(_ sideTables: [String: SideTableSnapshot], schema: String, connection: Connection) throws -> [StoreValue: [String: StoreValue]] {
        var result: [StoreValue: [String: StoreValue]] = [:]
        for (property, side) in sideTables.sorted(by: { $0.key < $1.key }) {
            let order = side.kind == .list ? "\"owner\", \"position\"" : side.kind == .map ? "\"owner\", \"key\"" : "\"owner\", rowid"
            let keyColumn = side.kind == .map ? ", \"key\"" : ""
            var elements: [StoreValue: [StoreValue]] = [:]
            var entries: [StoreValue: [String: StoreValue]] = [:]
            for row in try connection.query("SELECT \"owner\", \"value\"\(keyColumn) FROM \(schema)\(SQLiteRenderer.identifier(side.table)) ORDER BY \(order)") {
                if side.kind == .map, case .text(let name) = row[2] {
                    entries[row[0], default: [:]][name] = row[1]
                } else {
                    elements[row[0], default: []].append(row[1])
                }
            }
            for (owner, list) in elements { result[owner, default: [:]][property] = .list(list) }
            for (owner, map) in entries { result[owner, default: [:]][property] = .map(map) }
        }
        return result
    }

    /// The object of `type` (old name) whose primary key is `key`.
    public func object(_ type: String, key: StoreValue) throws -> [String: StoreValue]? {
        guard let keyName = keys[type] else { return nil }
        return try all(type).first { $0[keyName] == key }
    }
}

/// A custom step that reads objects it has not declared.
package struct CustomStepError: Error, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}

/// A custom step: called once per object of its type, inside the migration's transaction.
/// Throwing aborts the whole migration.
public typealias CustomStep = @Sendable (inout MigrationObject) throws -> Void

extension CustomCall {
    /// Calls the step's closure on one object (every engine's runner does it this way): the
    /// values it leaves in `new`, and the objects it asked to create; a throw becomes
    /// `MigrationError.customStepFailed`.
    package func visit(
        _ body: CustomStep, version: Int, key: StoreValue, old: [String: StoreValue], new: [String: StoreValue], oldObjects: OldObjects
    ) throws -> (new: [String: StoreValue], created: [(type: String, values: [String: StoreValue])]) {
        var object = MigrationObject(type: type, old: old, new: new, oldObjects: oldObjects)
        do {
            try body(&object)
        } catch {
            throw MigrationError.customStepFailed(version: version, name: name, type: type, key: key.readable, underlying: "\(error)")
        }
        // Objects are matched by key before and after: a closure cannot change it.
        guard object.new[self.key] == new[self.key] else {
            throw MigrationError.customStepFailed(
                version: version, name: name, type: type, key: key.readable,
                underlying:
                    "it changed the primary key '\(self.key)' to \((object.new[self.key] ?? .null).readable); a custom step keeps keys (change them in a version of their own, with a set or convert step)"
            )
        }
        return (object.new, object.created)
    }

    /// Refuses a value the closure set that the new schema forbids (a raw value that is no
    /// case, an integer out of range, embedded JSON that is not an object of its type),
    /// naming the object and the property.
    package func check(_ new: [String: StoreValue], against values: [String: StoreValue], object: ObjectType, schema: Schema, version: Int, key: StoreValue) throws {
        for (name, value) in new.sorted(by: { $0.key < $1.key }) where value != values[name] {
            guard let type = object.property(named: name)?.storedType, let problem = StoredValueRules.problem(inProperty: value, type: type, schema: schema) else { continue }
            throw MigrationError.customStepFailed(
                version: version, name: self.name, type: self.type, key: key.readable, underlying: "it set \(name) to a value version \(version) forbids: \(problem)")
        }
    }

    /// Writes what a closure gave back, through the store's dynamic writer of the new schema:
    /// first the objects it created (their defaults filled in; of several with one primary
    /// key, the first), then the collections it changed. A value the store refuses, or a key
    /// an object had before the step, fails the migration naming the object.
    package func write(
        created: [(owner: StoreValue, type: String, values: [String: StoreValue])], collections: [(key: StoreValue, values: [String: StoreValue])], version: Int,
        primaryKey: (String) -> String?, insert: (String, [String: StoreValue]) throws -> Void, replaceCollections: (StoreValue, [String: StoreValue]) throws -> Void
    ) throws {
        var keys = Set<[StoreValue]>()
        for object in created {
            if let name = primaryKey(object.type), let key = object.values[name], !keys.insert([.text(object.type), key]).inserted { continue }
            do { try insert(object.type, object.values) } catch {
                throw MigrationError.customStepFailed(
                    version: version, name: name, type: type, key: object.owner.readable, underlying: "it created a \(object.type) that cannot be stored: \(error)")
            }
        }
        for change in collections {
            do { try replaceCollections(change.key, change.values) } catch {
                throw MigrationError.customStepFailed(version: version, name: name, type: type, key: change.key.readable, underlying: "\(error)")
            }
        }
    }
}

/// Visits every object of a type for a custom step, writing back what it changes.
struct CustomStepRunner {
    var call: CustomCall
    var version: VersionPlan
    var body: CustomStep

    func run(on connection: Connection) throws {
        let table = SQLiteRenderer.identifier(call.type)
        let columns = try connection.query("SELECT name FROM pragma_table_info(?)", [.text(call.type)]).compactMap { row -> String? in
            if case .text(let name) = row[0] { name } else { nil }
        }
        let reader = OldObjects(connection: connection, snapshots: call.snapshots)
        let oldByKey = Dictionary(try reader.all(call.oldType).map { ($0[call.oldKey] ?? .null, $0) }, uniquingKeysWith: { first, _ in first })
        let layout = try StoreLayout(schema: version.schema)
        let sideTables = Dictionary(
            uniqueKeysWithValues: (layout.table(named: call.type)?.sideTables ?? []).map { ($0.property, SideTableSnapshot(table: $0.name, kind: $0.kind)) })
        let collections = try OldObjects.collectionsByOwner(sideTables, schema: "", connection: connection)
        let select = try connection.statement("SELECT \(SQLiteRenderer.identifiers(columns)) FROM \(table)")
        let assignments = columns.filter { $0 != call.key }.map { "\(SQLiteRenderer.identifier($0)) = ?" }.joined(separator: ", ")
        let update = assignments.isEmpty ? nil : try connection.statement("UPDATE \(table) SET \(assignments) WHERE \(SQLiteRenderer.identifier(call.key)) = ?")
        var pending: [(key: StoreValue, values: [StoreValue])] = []
        var changedCollections: [(key: StoreValue, values: [String: StoreValue])] = []
        var created: [(owner: StoreValue, type: String, values: [String: StoreValue])] = []
        while try select.step() {
            var values: [String: StoreValue] = [:]
            for (index, column) in columns.enumerated() { values[column] = select.handle.value(Int32(index)) }
            let key = values[call.key] ?? .null
            for (property, side) in sideTables { values[property] = collections[key]?[property] ?? side.kind.emptyValue }
            let result = try call.visit(body, version: version.version, key: key, old: oldByKey[key] ?? [:], new: values, oldObjects: reader)
            let new = result.new
            if let object = version.schema.objectType(named: call.type) {
                try call.check(new, against: values, object: object, schema: version.schema, version: version.version, key: key)
            }
            created += result.created.map { (key, $0.type, $0.values) }
            if columns.contains(where: { new[$0] != values[$0] }) {
                pending.append((key, columns.filter { $0 != call.key }.map { new[$0] ?? .null }))
            }
            if sideTables.keys.contains(where: { new[$0] != values[$0] }) { changedCollections.append((key, new)) }
        }
        select.reset()
        // Written after the scan, so the scan never sees its own writes.
        if let update {
            for change in pending {
                try update.bind(change.values + [change.key])
                try update.run()
            }
        }
        guard !created.isEmpty || !changedCollections.isEmpty else { return }
        try connection.writingDynamically(layout: layout) { writer in
            try call.write(
                created: created, collections: changedCollections, version: version.version, primaryKey: { layout.table(named: $0)?.primaryKey?.name },
                insert: { try writer.insert($1, ofType: $0) },
                replaceCollections: { try writer.replaceCollections(of: $0, ofType: call.type, with: $1) })
        }
    }
}
