import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore

extension HistoryTest {
    /// The smallest part of `set` that still fails with `failure` (same version, step, type,
    /// property and problem): the objects the failure names (else halves of all of them)
    /// with the objects they link to, then each property made empty or null where that keeps
    /// the failure. `nil` when even the whole set no longer fails so.
    func minimize(_ set: DataSet, failingWith failure: MigrationError, in folder: String) -> JSONValue? {
        guard let schema = migrator.history.schema(at: set.version), case .object(let members) = set.document else { return nil }
        var data = ObjectGraph(schema: schema, members: members)
        var trial = 0
        func fails(_ graph: ObjectGraph, _ core: [ObjectGraph.ID]) -> Bool {
            trial += 1
            let path = FilePaths.join(folder, "minimize-\(trial).store")
            defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) } }
            guard importProblem(graph.document(holding: graph.closure(of: core)), version: set.version, at: path, source: set.name) == nil,
                let error = migrationError(at: path, running: plans.direct(from: set.version))
            else { return false }
            return Self.sameFailure(error, failure)
        }
        // Start from the objects the failure names, when they can be found by their keys.
        let (failingType, named, failingProperty) = Self.objects(namedBy: failure)
        var core = data.ids(ofType: failingType ?? "").filter { id in data.keyText(of: id).map(named.contains) ?? false }
        if core.isEmpty || !fails(data, core) {
            core = data.allIDs
            guard fails(data, core) else { return nil }
        }
        // Halves while one half fails alone, then one object at a time for small sets.
        while core.count > 1 {
            let half = core.count / 2
            let first = Array(core[..<half])
            let second = Array(core[half...])
            if fails(data, first) {
                core = first
            } else if fails(data, second) {
                core = second
            } else {
                break
            }
        }
        // Then without each object in turn (a failure that needs two objects, such as two
        // owners of one object, survives halving only so).
        if core.count > 1 && core.count <= 64 {
            for id in core where core.count > 1 {
                let without = core.filter { $0 != id }
                if fails(data, without) { core = without }
            }
        }
        // Each property of the remaining objects at its simplest, where the failure stays.
        for id in core {
            // The value the failure is about stays, so that the data shows it.
            for property in data.simplifiable(id) where !(data.types[id.type].name == failingType && property == failingProperty) {
                let saved = data.value(of: id, property)
                data.simplify(id, property)
                if !fails(data, core) { data.set(id, property, saved) }
            }
        }
        return data.document(holding: data.closure(of: core))
    }
}

extension HistoryTest {
    /// Whether two migration errors are the same failure: the same check of the same step, or
    /// the same custom step on the same type.
    static func sameFailure(_ error: MigrationError, _ failure: MigrationError) -> Bool {
        switch (error, failure) {
        case (.data(let a), .data(let b)):
            a.version == b.version && a.step == b.step && a.type == b.type && a.property == b.property && a.problem == b.problem
        case (.customStepFailed(let versionA, let nameA, let typeA, _, _), .customStepFailed(let versionB, let nameB, let typeB, _, _)):
            versionA == versionB && nameA == nameB && typeA == typeB
        case (.danglingLinks(let a, _), .danglingLinks(let b, _)):
            a == b
        default:
            false
        }
    }

    /// The type, keys (as the error quotes them) and property of the objects an error names.
    static func objects(namedBy failure: MigrationError) -> (type: String?, keys: Set<String>, property: String?) {
        switch failure {
        case .data(let error): (error.type, Set(error.examples.map(\.key)), error.property)
        case .customStepFailed(_, _, let type, let key, _): (type, [key], nil)
        default: (nil, [], nil)
        }
    }
}

/// The objects of an export document, addressed by type and index, with their links.
struct ObjectGraph {
    struct ID: Hashable {
        var type: Int
        var index: Int
    }

    let schema: Schema
    var types: [(name: String, objects: [[(String, JSONValue)]])]
    private let conversion: StoreValueConversion
    /// Each type's objects by the stored form of their key.
    private var byKey: [String: [String: Int]] = [:]

    init(schema: Schema, members: [(String, JSONValue)]) {
        self.schema = schema
        conversion = StoreValueConversion(schema: schema)
        types = members.map { name, value in
            guard case .array(let list) = value else { return (name, []) }
            return (name, list.map { if case .object(let properties) = $0 { properties } else { [] } })
        }
        for (name, objects) in types {
            guard let keyType = schema.objectType(named: name)?.primaryKeyProperty?.storedType, let key = schema.objectType(named: name)?.primaryKey else { continue }
            for (index, object) in objects.enumerated() {
                if let value = object.first(where: { $0.0 == key })?.1, let stored = try? conversion.stored(value, type: PropertyType(keyType.base)) {
                    byKey[name, default: [:]][stored.description] = index
                }
            }
        }
    }

    var allIDs: [ID] {
        types.enumerated().flatMap { type, entry in entry.objects.indices.map { ID(type: type, index: $0) } }
    }

    func ids(ofType name: String) -> [ID] {
        guard let type = types.firstIndex(where: { $0.name == name }) else { return [] }
        return types[type].objects.indices.map { ID(type: type, index: $0) }
    }

    /// The object's key as migration errors quote it.
    func keyText(of id: ID) -> String? {
        let name = types[id.type].name
        guard let key = schema.objectType(named: name)?.primaryKeyProperty, let keyType = key.storedType,
            let value = types[id.type].objects[id.index].first(where: { $0.0 == key.name })?.1,
            let stored = try? conversion.stored(value, type: PropertyType(keyType.base))
        else { return nil }
        return stored.readable
    }

    /// `ids` and every object they link to, directly or through others and embedded objects.
    func closure(of ids: [ID]) -> Set<ID> {
        var result = Set(ids)
        var pending = ids
        while let id = pending.popLast() {
            guard let type = schema.objectType(named: types[id.type].name) else { continue }
            for target in links(in: .object(types[id.type].objects[id.index]), of: type) where result.insert(target).inserted {
                pending.append(target)
            }
        }
        return result
    }

    /// The objects a value of `type` links to.
    private func links(in value: JSONValue, of type: ObjectType) -> [ID] {
        guard case .object(let properties) = value else { return [] }
        var found: [ID] = []
        for (name, value) in properties {
            guard let propertyType = type.property(named: name)?.storedType, let targetName = propertyType.objectName, let target = schema.objectType(named: targetName) else {
                continue
            }
            var elements: [JSONValue]
            switch value {
            case .array(let list): elements = list
            case .object(let entries) where propertyType.collection == .map: elements = entries.map(\.1)
            default: elements = [value]
            }
            for element in elements where element != .null {
                if target.isEmbedded {
                    found += links(in: element, of: target)
                } else if let keyType = target.primaryKeyProperty?.storedType, let stored = try? conversion.stored(element, type: PropertyType(keyType.base)),
                    let index = byKey[targetName]?[stored.description], let typeIndex = types.firstIndex(where: { $0.name == targetName })
                {
                    found.append(ID(type: typeIndex, index: index))
                }
            }
        }
        return found
    }

    /// An export document of the objects in `ids`, in the original order.
    func document(holding ids: Set<ID>) -> JSONValue {
        .object(
            types.enumerated().map { type, entry in
                (entry.name, .array(entry.objects.indices.filter { ids.contains(ID(type: type, index: $0)) }.map { .object(entry.objects[$0]) }))
            })
    }

    /// The properties of the object that can be made simpler: collections (empty) and
    /// optional values (null), not the key.
    func simplifiable(_ id: ID) -> [String] {
        guard let type = schema.objectType(named: types[id.type].name) else { return [] }
        return types[id.type].objects[id.index].compactMap { name, value in
            guard name != type.primaryKey, let propertyType = type.property(named: name)?.storedType, let simplest = simplest(propertyType), value != simplest else { return nil }
            return name
        }
    }

    func value(of id: ID, _ property: String) -> JSONValue {
        types[id.type].objects[id.index].first { $0.0 == property }?.1 ?? .null
    }

    mutating func set(_ id: ID, _ property: String, _ value: JSONValue) {
        guard let position = types[id.type].objects[id.index].firstIndex(where: { $0.0 == property }) else { return }
        types[id.type].objects[id.index][position].1 = value
    }

    mutating func simplify(_ id: ID, _ property: String) {
        guard let type = schema.objectType(named: types[id.type].name), let propertyType = type.property(named: property)?.storedType,
            let simplest = simplest(propertyType)
        else { return }
        set(id, property, simplest)
    }

    /// Empty, null, or for a required value the first boundary of its type (0, "", false, the
    /// first enum case); `nil` for a required link or embedded object, which stays as it is.
    private func simplest(_ type: PropertyType) -> JSONValue? {
        switch type.collection {
        case .map?: return .object([])
        case .list?, .set?: return .array([])
        case nil:
            if type.isOptional { return .null }
            switch type.base {
            case .scalar(let scalar): return TestDataGenerator.boundaries(scalar).first
            case .enumeration(let name):
                return schema.enumType(named: name)?.cases.first?.rawValue.json
            case .object: return nil
            }
        }
    }
}
