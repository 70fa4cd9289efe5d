import Foundation
import RemodelCore

/// The JSON data format of `remodel import` / `remodel export` (DESIGN.md): one key per
/// object type, in schema order, holding an array of its objects; each object's properties
/// in declaration order, in their JSON form (see `StoreValueConversion`).
///
/// Export then import round-trips exactly: dates to the microsecond, Unicode, binary data,
/// empty and null values, 64-bit integers, list order.
public enum StoreJSON {
    /// The whole store as a JSON document. `progress` hears of the objects read (counted
    /// first, in the same snapshot, when there is a callback).
    public static func export(_ db: Database, progress: (@Sendable (DataTransferProgress) -> Void)? = nil) throws -> JSONValue {
        let conversion = StoreValueConversion(schema: db.layout.schema)
        let total = progress == nil ? 0 : try db.objectTypeNames.reduce(0) { $0 + (try db.count(ofType: $1)) }
        var counter = DataTransferCounter(.reading, total: total, progress: progress)
        var members: [(String, JSONValue)] = []
        for table in db.layout.tables {
            counter.begin(table.name)
            var objects: [JSONValue] = []
            try db.forEachDynamicObject(ofType: table.name) { object in
                objects.append(try document(of: object, in: table, conversion: conversion))
                counter.advance()
            }
            members.append((table.name, .array(objects)))
        }
        counter.finish()
        return .object(members)
    }

    /// An export document as the text `remodel export` writes (its `prettyText`); `progress`
    /// hears of the objects written.
    public static func text(of document: JSONValue, progress: (@Sendable (DataTransferProgress) -> Void)? = nil) -> String {
        guard let progress else { return document.prettyText }
        var counter = DataTransferCounter(.writing, total: objectCount(of: document), progress: progress)
        let text = document.prettyText { type in
            if let type { counter.begin(type) } else { counter.advance() }
        }
        counter.finish()
        return text
    }

    /// One object as the export writes it: its properties in declaration order, in their JSON
    /// form. Shared by every store that exports (SQLite's, PostgreSQL's).
    package static func document(of object: DynamicObject, in table: TableLayout, conversion: StoreValueConversion) throws -> JSONValue {
        var properties: [(String, JSONValue)] = []
        for property in table.object.storedProperties {
            guard let type = property.storedType else { continue }
            let value = object[property.name] ?? .null
            do {
                properties.append((property.name, try conversion.json(value, type: type)))
            } catch {
                throw StoreError.invalidValue(type: table.name, property: property.name, value: value, reason: "\(error)")
            }
        }
        return .object(properties)
    }

    /// Validates a whole JSON document against the store's schema and, only if every object
    /// is valid, adds all of them in one transaction. Errors name the object type, the
    /// object's index in its array and the property; up to `maximumProblems` are reported
    /// at once. Links between imported objects may point either way; links to objects that
    /// exist in neither the store nor the document fail the commit, naming both ends.
    /// `progress` hears of the objects checked, then of those written. Returns the number of
    /// objects imported per type.
    @discardableResult
    public static func importDocument(
        _ document: JSONValue, into store: RemodelStore, source: String = "the data", maximumProblems: Int = 20,
        progress: (@Sendable (DataTransferProgress) -> Void)? = nil
    ) throws -> [(type: String, count: Int)] {
        let checked = try CheckedDocument(
            schema: store.schema,
            batches: validate(document, schema: store.schema, layout: store.layout, source: source, maximumProblems: maximumProblems, progress: progress),
            source: source
        )
        return try importDocument(checked, into: store, progress: progress)
    }

    /// Adds the objects of a document `check` found valid for the store's schema, in one
    /// transaction, without checking them again (as `importDocument(_:into:)` does after its
    /// check). `progress` hears of the objects written. Throws `StoreError.invalidInput` for a
    /// document checked against another schema.
    @discardableResult
    public static func importDocument(
        _ document: CheckedDocument, into store: RemodelStore, progress: (@Sendable (DataTransferProgress) -> Void)? = nil
    ) throws -> [(type: String, count: Int)] {
        guard document.schema == store.schema else {
            throw StoreError.invalidInput("the document was checked against another schema than the store's; check it against the store's schema (StoreJSON.check(_:schema:))")
        }
        let source = document.source
        func refused(_ problems: [String]) -> StoreError {
            .invalidInput("cannot import \(source); nothing was imported:\n" + problems.map { "  \(source): \($0)" }.joined(separator: "\n"))
        }
        func refused(_ problem: String) -> StoreError { refused([problem]) }
        do {
            return try store.write { tx in
                var counter = DataTransferCounter(.importing, total: document.objectCount, progress: progress)
                // A colliding insert writes nothing and the transaction goes on, so that every
                // collision is named (up to a limit) before the whole import is rolled back.
                var collisions: [String] = []
                for batch in document.batches {
                    counter.begin(batch.type)
                    let table = store.layout.table(named: batch.type)
                    // The place in the file of each object written so far, by its key.
                    var places: [String: Int] = [:]
                    for (index, object) in batch.objects.enumerated() {
                        do {
                            try tx.insert(object, ofType: batch.type)
                            if let key = table?.primaryKey, let value = object[key.name], let table { places[table.keyDescription(value)] = index }
                        } catch StoreError.duplicateKey(let type, let key) {
                            let keyName = table?.primaryKey?.name ?? "key"
                            collisions.append(
                                places[key].map { "\(type)[\(index)].\(keyName): \(type)[\($0)] has the key \(key) too (its primary key); leave one out" }
                                    ?? "\(type)[\(index)].\(keyName): the store already holds \(type) \(key) (its primary key); remove it from the file, or import into a new store"
                            )
                        } catch StoreError.notUnique(let type, let properties, let values, let holder) {
                            let names = properties.count == 1 ? properties[0] : "(" + properties.joined(separator: ", ") + ")"
                            let rule = properties.count == 1 ? "it is unique" : "together they are unique"
                            let place = places[holder].map { "\(type)[\($0)] of the file (\(type) \(holder))" } ?? "\(type) \(holder) in the store"
                            collisions.append("\(type)[\(index)].\(names): \(values) is already held by \(place) (\(rule)); change one of them, or leave one out")
                        }
                        guard collisions.count < Self.maximumCollisions else { throw refused(collisions + ["(stopped after \(Self.maximumCollisions) collisions)"]) }
                        counter.advance()
                    }
                }
                if !collisions.isEmpty { throw refused(collisions) }
                counter.finish()
                return document.counts
            }
        } catch StoreError.danglingLink(let from, let property, let fromKey, let to, let toKey) {
            // Found at commit, by keys: named by its place in the file, the first object of
            // that type whose link (or collection element) holds the missing key.
            let target = store.layout.table(named: to)
            func names(_ value: StoreValue) -> Bool { target?.keyDescription(value) == toKey }
            var place = "\(from) \(fromKey), '\(property)'"
            for (index, object) in (document.batches.first { $0.type == from }?.objects ?? []).enumerated() {
                switch object[property] {
                case .list(let elements)?:
                    guard let position = elements.firstIndex(where: names) else { continue }
                    place = "\(from)[\(index)].\(property)[\(position)]"
                case let value? where names(value):
                    place = "\(from)[\(index)].\(property)"
                default:
                    continue
                }
                break
            }
            throw refused("\(place): links to \(to) \(toKey), which is neither in the store nor in the file; add that \(to) to the file, or remove the link")
        }
    }

    /// How many keys and values held twice an import names before it stops.
    static let maximumCollisions = 20

    /// Checks a document against `schema` without any store: what `importDocument` checks
    /// before writing. Throws `StoreError.invalidInput` listing every problem found; returns
    /// the objects, ready to import into a store of `schema`. `progress` hears of the
    /// objects checked.
    @discardableResult
    public static func check(
        _ document: JSONValue, schema: Schema, source: String = "the data", maximumProblems: Int = 20,
        progress: (@Sendable (DataTransferProgress) -> Void)? = nil
    ) throws -> CheckedDocument {
        CheckedDocument(
            schema: schema,
            batches: try validate(document, schema: schema, layout: try StoreLayout(storing: schema), source: source, maximumProblems: maximumProblems, progress: progress),
            source: source
        )
    }

    /// A document `check` found valid for a schema: its objects in their stored form, per
    /// type, ready to be imported into a store of that schema.
    public struct CheckedDocument: Sendable {
        /// The schema the document was checked against.
        public let schema: Schema
        package let batches: [(type: String, objects: [DynamicObject])]
        /// What the document is called in messages (its file).
        package let source: String

        /// The number of objects per type, in document order.
        public var counts: [(type: String, count: Int)] { batches.map { ($0.type, $0.objects.count) } }

        /// The number of objects of every type.
        public var objectCount: Int { batches.reduce(0) { $0 + $1.objects.count } }
    }

    /// The number of objects per type of an export document: the elements of each array it
    /// holds, in document order.
    public static func counts(of document: JSONValue) -> [(type: String, count: Int)] {
        guard case .object(let members) = document else { return [] }
        return members.compactMap { member in
            if case .array(let elements) = member.1 { (member.0, elements.count) } else { nil }
        }
    }

    /// The number of objects of an export document, of every type.
    private static func objectCount(of document: JSONValue) -> Int {
        counts(of: document).reduce(0) { $0 + $1.count }
    }

    /// The objects of a document, converted and checked; throws `StoreError.invalidInput`
    /// listing every problem found (up to `maximumProblems`).
    private static func validate(
        _ document: JSONValue, schema: Schema, layout: StoreLayout, source: String, maximumProblems: Int, progress: (@Sendable (DataTransferProgress) -> Void)?
    ) throws -> [(type: String, objects: [DynamicObject])] {
        guard case .object(let members) = document else {
            throw StoreError.invalidInput("\(source): the document must be a JSON object with one key per object type, found \(document.kindDescription)")
        }
        var counter = DataTransferCounter(.checking, total: progress == nil ? 0 : objectCount(of: document), progress: progress)
        let conversion = StoreValueConversion(schema: schema)
        var problems: [String] = []
        var batches: [(type: String, objects: [DynamicObject])] = []
        var seenKeys: [String: Set<StoreValue>] = [:]
        func problem(_ text: String) {
            if problems.count < maximumProblems { problems.append(text) } else if problems.count == maximumProblems { problems.append("… (more problems not shown)") }
        }
        for (typeName, value) in members {
            guard let table = layout.table(named: typeName) else {
                let hint = Suggestion.closest(to: typeName, in: layout.tables.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
                problem("\(source): '\(typeName)' is not an object type of the store's schema\(hint)")
                continue
            }
            guard case .array(let elements) = value else {
                problem("\(source): \(typeName) must be an array of objects, found \(value.kindDescription)")
                continue
            }
            counter.begin(typeName)
            var objects: [DynamicObject] = []
            for (index, element) in elements.enumerated() {
                counter.advance()
                let place = "\(typeName)[\(index)]"
                guard case .object(let properties) = element else {
                    problem("\(source): \(place) must be an object, found \(element.kindDescription)")
                    continue
                }
                var object: DynamicObject = [:]
                for (name, json) in properties {
                    guard let property = table.object.property(named: name), let type = property.storedType else {
                        let hint = Suggestion.closest(to: name, in: table.object.storedProperties.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
                        problem("\(source): \(place).\(name): \(typeName) has no stored property '\(name)'\(hint)")
                        continue
                    }
                    do {
                        object[name] = try conversion.stored(json, type: type)
                    } catch {
                        problem("\(source): \(place).\(name)\(error.path): \(error.message)")
                    }
                }
                for property in table.object.storedProperties where object[property.name] == nil {
                    guard let type = property.storedType, type.collection == nil, !type.isOptional, property.defaultValue == nil else { continue }
                    problem("\(source): \(place).\(property.name): missing; this property is required and has no default")
                }
                if let key = table.primaryKey, let keyValue = object[key.name] {
                    if !seenKeys[typeName, default: []].insert(keyValue).inserted {
                        problem("\(source): \(place).\(key.name): the primary key \(keyValue) appears twice in \(typeName)")
                    }
                }
                objects.append(object)
            }
            batches.append((typeName, objects))
        }
        if !problems.isEmpty {
            throw StoreError.invalidInput("cannot import \(source); nothing was imported:\n  " + problems.joined(separator: "\n  "))
        }
        counter.finish()
        return batches
    }
}
