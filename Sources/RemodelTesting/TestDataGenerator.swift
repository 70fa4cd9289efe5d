import Foundation
import RemodelCore
import RemodelStore

/// Objects that exercise a schema, as an export document (the JSON `remodel import` reads):
/// every type and property, boundary values of every kind (empty, long, Unicode and
/// combining text, whitespace, zero, negative and extreme numbers, far dates, null where
/// allowed), every enum case, empty and large collections, links with cycles and shared
/// targets, embedded objects — and values aimed at the steps of the migration that will read
/// them (`aim(at:)`): text that is no number for a `convert`, no separator for a `split`,
/// unmapped values for a `mapValues`.
///
/// The same schema, seed and aims give the same document on every machine.
public struct TestDataGenerator: Sendable {
    /// What a property's values are aimed at, besides its boundaries.
    enum Aim: Hashable, Sendable {
        /// These values (kept where they are valid for the property).
        case values([JSONValue])
        /// The primary keys of the objects of this type, as text (a value becoming a link by key).
        case keysOf(String)
    }

    /// The schema of the version the data is for.
    public let schema: Schema
    /// Makes the data; the same seed makes the same document.
    public let seed: UInt64
    /// The fewest objects made of each type; a type gets more when one of its properties has
    /// more boundary values, so that each appears.
    public let minimumObjects: Int
    private(set) var aims: [PropertyPath: [Aim]] = [:]
    /// Types the next version embeds: a history that embeds a type says each of its objects
    /// has one owner (no step could split a shared one), so the data links each once at most.
    private(set) var becomingEmbedded: Set<String> = []
    /// Per type, groups of properties some objects share values of (see `aim(at:next:)`).
    private(set) var collisions: [String: [[String]]] = [:]
    private let conversion: StoreValueConversion

    struct PropertyPath: Hashable, Sendable {
        var type: String
        var property: String
    }

    /// A generator for `schema`'s data; aim it at the next version's steps with `aim(at:next:)`.
    public init(schema: Schema, seed: UInt64, minimumObjects: Int = 20) {
        self.schema = schema
        self.seed = seed
        self.minimumObjects = max(1, minimumObjects)
        conversion = StoreValueConversion(schema: schema)
    }

    /// Adds values aimed at the steps of `migration` (the one from this generator's schema
    /// to `next`), and at the changes between the two schemas that read values: a value
    /// becoming a link gets keys that exist and keys that do not.
    public mutating func aim(at migration: Migration, next: Schema) {
        // Steps after a renameType name the type by its new name; aim at the old one too.
        var oldTypeName: [String: String] = [:]
        var oldPropertyName: [PropertyPath: String] = [:]
        func add(_ type: String, _ property: String, _ aim: Aim) {
            let old = oldTypeName[type] ?? type
            let path = PropertyPath(type: old, property: oldPropertyName[PropertyPath(type: old, property: property)] ?? property)
            aims[path, default: []].append(aim)
        }
        // Objects that share the values of `properties` (a group becoming unique, or one
        // `deduplicate` groups by), as old names.
        func collide(_ type: String, _ properties: [String]) {
            let old = oldTypeName[type] ?? type
            let group = properties.map { oldPropertyName[PropertyPath(type: old, property: $0)] ?? $0 }
            if !collisions[old, default: []].contains(group) { collisions[old, default: []].append(group) }
        }
        for step in migration.steps {
            switch step {
            case .renameType(let from, let to):
                oldTypeName[to] = oldTypeName[from] ?? from
            case .renameProperty(let type, let from, let to):
                let old = oldTypeName[type] ?? type
                oldPropertyName[PropertyPath(type: old, property: to)] = oldPropertyName[PropertyPath(type: old, property: from)] ?? from
            case .convert(let type, let property, let to, _):
                add(type, property, .values(Self.conversionProbes(to)))
            case .split(let type, let property, _, let separator):
                let s = separator
                let probes = ["a\(s)b", "no separator", s, "a\(s)b\(s)c", "\(s)leading", "trailing\(s)", "", "\(s)\(s)", " a \(s) b "]
                add(type, property, .values(probes.map(JSONValue.string)))
            case .mapValues(let type, let property, let values, _):
                var probes: [JSONValue] = [.string("unmapped value"), .string("")]
                for mapping in values {
                    probes += [.string(mapping.from), .string(mapping.from.uppercased()), .string(mapping.from + " "), .string(" " + mapping.from)]
                    if let number = Int64(mapping.from) { probes += [.integer(number), .integer(number &+ 1), .integer(number &- 1)] }
                }
                add(type, property, .values(probes))
            case .deleteObjects(let type, let matches):
                for match in matches where !match.property.contains(".") { add(type, match.property, .values(Self.probes(match.condition))) }
            case .createObjects(_, _, let target?):
                for match in target.where where !match.property.contains(".") {
                    // Twice the value: a condition that selects more than one object.
                    add(target.type, match.property, .values(Self.probes(match.condition) + Self.probes(match.condition)))
                }
            case .deduplicate(let type, let by, _, _):
                collide(type, by)
            case .set, .custom, .createObjects:
                break
            }
        }
        // Groups the next version makes unique: stored objects that share their values are what
        // such a version must handle (a deduplicate step, or a data error).
        for nextType in next.objects where !nextType.isEmbedded {
            let oldName = oldTypeName[nextType.name] ?? nextType.name
            guard let type = schema.objectType(named: oldName) else { continue }
            for group in nextType.uniquenessGroups {
                let old = group.map { oldPropertyName[PropertyPath(type: oldName, property: $0)] ?? $0 }
                guard old.allSatisfy({ type.property(named: $0)?.storedType != nil }), !type.uniquenessGroups.contains(old) else { continue }
                collide(nextType.name, group)
            }
        }
        becomingEmbedded = Set(schema.objects.filter { !$0.isEmbedded && next.objectType(named: $0.name)?.isEmbedded == true }.map(\.name))
        // A value (or a list of values) that becomes a link by key: keys that name an object and
        // text that names none.
        for type in schema.objects {
            guard let nextType = next.objectType(named: type.name) else { continue }
            for property in type.storedProperties {
                guard let oldType = property.storedType, oldType.scalar != nil,
                    let newType = nextType.property(named: property.name)?.storedType, let target = newType.objectName,
                    schema.objectType(named: target)?.primaryKey != nil
                else { continue }
                aims[PropertyPath(type: type.name, property: property.name), default: []] += [.keysOf(target), .values([.string("no such key"), .integer(-7)])]
            }
        }
    }

    // MARK: - The document

    /// The objects, one array per top-level type, in the schema's order.
    public func document() -> JSONValue {
        let types = schema.objects.filter { !$0.isEmbedded }
        // The values of each property, worked out once: first without keys (to count the
        // objects and make the keys), then with them.
        let unkeyed = candidateTable(keys: [:])
        var counts: [String: Int] = [:]
        for type in types {
            let widest = type.storedProperties.map { unkeyed[PropertyPath(type: type.name, property: $0.name)]?.count ?? 0 }.max() ?? 0
            // Two more objects per colliding group, sharing the first two objects' values.
            counts[type.name] = max(minimumObjects, widest) + 2 * (collisions[type.name]?.count ?? 0)
        }
        var keys: [String: [JSONValue]] = [:]
        for type in types {
            guard let key = type.primaryKeyProperty, let keyType = key.storedType else { continue }
            keys[type.name] = uniqueKeys(count: counts[type.name]!, type: keyType, candidates: unkeyed[PropertyPath(type: type.name, property: key.name)] ?? [])
        }
        // A unique property (or the first of a unique group) holds a value no other object of
        // its type holds, as the store requires; null, where allowed, once the values run out.
        var distinct: [PropertyPath: [JSONValue]] = [:]
        for type in types {
            for group in type.uniquenessGroups {
                guard let property = type.property(named: group[0]), property.name != type.primaryKey, let propertyType = property.storedType, propertyType.scalar != nil
                else { continue }
                let path = PropertyPath(type: type.name, property: property.name)
                distinct[path] = uniqueKeys(count: counts[type.name]!, type: propertyType, candidates: unkeyed[path] ?? [])
            }
        }
        // Only values aimed at a link's keys change once the keys are known.
        var table = unkeyed
        for (path, aimed) in aims where aimed.contains(where: { if case .keysOf = $0 { true } else { false } }) {
            guard let type = schema.objectType(named: path.type), let property = type.property(named: path.property) else { continue }
            table[path] = candidates(for: property, in: type, keys: keys)
        }
        var owners = OwnerPool(unused: keys.filter { becomingEmbedded.contains($0.key) })
        var members: [(String, JSONValue)] = []
        for type in types {
            var random = SeededRandom(seed: seed, "objects", type.name)
            let offsets = type.storedProperties.map { _ in Int.random(in: 0..<997, using: &random) }
            var objects: [JSONValue] = []
            for index in 0..<counts[type.name]! {
                var object: [(String, JSONValue)] = []
                for (position, property) in type.storedProperties.enumerated() {
                    if property.name == type.primaryKey {
                        object.append((property.name, keys[type.name]![index]))
                    } else if let values = distinct[PropertyPath(type: type.name, property: property.name)] {
                        object.append((property.name, index < values.count ? values[index] : .null))
                    } else {
                        object.append((property.name, value(of: property, in: type, index: index, offset: offsets[position], keys: keys, table: table, depth: 0, owners: &owners)))
                    }
                }
                objects.append(.object(object))
            }
            for (position, group) in (collisions[type.name] ?? []).enumerated() {
                for copy in 0..<2 where objects.count > 2 {
                    let index = objects.count - 2 * ((collisions[type.name]?.count ?? 0) - position) + copy
                    guard case .object(let source) = objects[copy], case .object(var object) = objects[index] else { continue }
                    for (slot, member) in object.enumerated() where group.contains(member.0) {
                        object[slot].1 = source.first { $0.0 == member.0 }?.1 ?? member.1
                    }
                    objects[index] = .object(object)
                }
            }
            members.append((type.name, .array(objects)))
        }
        return .object(members)
    }

    /// `count` distinct primary keys: the key property's candidates first, then made-up ones.
    private func uniqueKeys(count: Int, type: PropertyType, candidates: [JSONValue]) -> [JSONValue] {
        var seen = Set<String>()
        var keys: [JSONValue] = []
        func add(_ key: JSONValue) {
            guard keys.count < count, key != .null, let stored = try? conversion.stored(key, type: PropertyType(type.base)), seen.insert(stored.description).inserted else {
                return
            }
            keys.append(key)
        }
        candidates.forEach(add)
        var random = SeededRandom(seed: seed, "keys", type.description)
        var attempt = 0
        while keys.count < count {
            attempt += 1
            switch type.scalar {
            case .string?: add(.string("key \(attempt)"))
            case .uuid?: add(.string(random.uuid().uuidString))
            case .objectId?: add(.string(random.objectID().description))
            default:
                let range = type.scalar?.integerRange ?? Int64.min...Int64.max
                add(.integer(Int64.random(in: range, using: &random)))
            }
            if attempt > count * 1000 { break }
        }
        return keys
    }

    /// The value of `property` for the object at `index`.
    private func value(
        of property: Property, in type: ObjectType, index: Int, offset: Int, keys: [String: [JSONValue]], table: [PropertyPath: [JSONValue]], depth: Int,
        owners: inout OwnerPool
    ) -> JSONValue {
        guard let propertyType = property.storedType else { return .null }
        if let target = propertyType.objectName, becomingEmbedded.contains(target) {
            // Each object of a type the next version embeds gets one owner at most.
            let count = propertyType.collection == nil ? 1 : (index + offset) % 3
            let taken = (0..<count).compactMap { _ in owners.take(target) }
            if propertyType.collection == nil { return taken.first ?? (propertyType.isOptional ? .null : keys[target]?.first ?? .null) }
            if propertyType.collection == .map { return .object(taken.enumerated().map { ("key \($0.offset)", $0.element) }) }
            return .array(taken)
        }
        let options = linkCandidates(for: propertyType, in: type, keys: keys, index: index) ?? table[PropertyPath(type: type.name, property: property.name)] ?? []
        func pick(_ shift: Int) -> JSONValue { options.isEmpty ? .null : options[(index + offset + shift) % options.count] }
        if let target = propertyType.objectName, let targetType = schema.objectType(named: target), targetType.isEmbedded {
            return embedded(targetType, type: propertyType, index: index + offset, keys: keys, table: table, depth: depth, owners: &owners)
        }
        guard let collection = propertyType.collection else { return pick(0) }
        let unique = collection == .set ? distinct(options, type: propertyType.element) : options
        // Empty, one value, every value, and a large one (the short values many times, for
        // lists: long ones make every store of the test larger, not the collection longer).
        // Every shape appears among eight objects; the long ones once each, so that every store
        // of the test stays small.
        let shape = (index + offset) % 8
        var elements: [JSONValue]
        switch shape {
        case 0, 4, 6: elements = []
        case 1, 5, 7: elements = unique.isEmpty ? [] : [unique[(index + offset) % unique.count]]
        case 2: elements = unique
        default:
            let short = unique.filter { if case .string(let text) = $0 { text.utf8.count <= 64 } else { true } }
            elements = collection == .list ? Array(Array(repeating: short, count: max(1, 40 / max(1, short.count))).joined()) : unique
        }
        if collection == .map {
            let mapKeys = ["", "key", "ключ", "with space", "🔑", "e\u{301}"]
            return .object(elements.enumerated().map { (mapKeys[$0.offset % mapKeys.count] + ($0.offset < mapKeys.count ? "" : " \($0.offset)"), $0.element) })
        }
        return .array(elements)
    }

    /// An embedded object (or a collection or null of them) for a property of `type`.
    private func embedded(
        _ target: ObjectType, type: PropertyType, index: Int, keys: [String: [JSONValue]], table: [PropertyPath: [JSONValue]], depth: Int, owners: inout OwnerPool
    ) -> JSONValue {
        func make(_ index: Int) -> JSONValue {
            var random = SeededRandom(seed: seed, "objects", target.name)
            let offsets = target.storedProperties.map { _ in Int.random(in: 0..<997, using: &random) }
            return .object(
                target.storedProperties.enumerated().map { position, property in
                    (property.name, value(of: property, in: target, index: index, offset: offsets[position], keys: keys, table: table, depth: depth + 1, owners: &owners))
                })
        }
        // Deep enough to nest each embedded type in another; an empty or null value below that.
        guard depth < 3 else { return type.collection == nil ? (type.isOptional ? .null : make(index)) : (type.collection == .map ? .object([]) : .array([])) }
        switch type.collection {
        case nil: return type.isOptional && index % 3 == 0 ? .null : make(index)
        case .map?: return .object(index % 2 == 0 ? [] : [("a", make(index)), ("b", make(index + 1))])
        case .list?, .set?: return .array((0..<(index % 3 == 0 ? 0 : index % 3 == 1 ? 1 : 3)).map { make(index + $0) })
        }
    }

    /// The keys of the objects of types the next version embeds that no object links to yet.
    struct OwnerPool {
        var unused: [String: [JSONValue]]

        mutating func take(_ type: String) -> JSONValue? {
            guard var keys = unused[type], !keys.isEmpty else { return nil }
            let key = keys.removeFirst()
            unused[type] = keys
            return key
        }
    }

    /// The values each property's objects take in turn (links aside): boundaries, aimed
    /// values and null when allowed, each valid for the property and once.
    private func candidateTable(keys: [String: [JSONValue]]) -> [PropertyPath: [JSONValue]] {
        var table: [PropertyPath: [JSONValue]] = [:]
        for type in schema.objects {
            for property in type.storedProperties {
                table[PropertyPath(type: type.name, property: property.name)] = candidates(for: property, in: type, keys: keys)
            }
        }
        return table
    }

    /// For a link, the keys of the target an object at `index` takes in turn: itself (a
    /// cycle), the first (a shared target), the next; `nil` for other properties.
    private func linkCandidates(for type: PropertyType, in owner: ObjectType, keys: [String: [JSONValue]], index: Int) -> [JSONValue]? {
        guard let name = type.objectName, schema.objectType(named: name)?.isEmbedded == false else { return nil }
        guard let targetKeys = keys[name], !targetKeys.isEmpty else { return type.isOptional ? [.null] : [] }
        let own = name == owner.name ? targetKeys[index % targetKeys.count] : targetKeys[(index * 7) % targetKeys.count]
        return [own, targetKeys[0], targetKeys[(index + 1) % targetKeys.count]] + (type.isOptional && type.collection == nil ? [.null] : [])
    }

    private func candidates(for property: Property, in type: ObjectType, keys: [String: [JSONValue]]) -> [JSONValue] {
        guard let propertyType = property.storedType else { return [] }
        var values: [JSONValue] = []
        switch propertyType.base {
        case .scalar(let scalar): values = Self.boundaries(scalar)
        case .enumeration(let name):
            values = (schema.enumType(named: name)?.cases ?? []).map(\.rawValue.json)
        case .object:
            return []
        }
        for aim in aims[PropertyPath(type: type.name, property: property.name)] ?? [] {
            switch aim {
            case .values(let aimed): values += aimed
            case .keysOf(let target):
                values += (keys[target] ?? []).prefix(3).map { key in
                    if case .string = key { key } else if propertyType.scalar == .string { .string(key.description) } else { key }
                }
            }
        }
        if propertyType.isOptional { values.append(.null) }
        // Only values the property can hold at this version, each once (a few dozen values:
        // compared, not hashed, as a JSON value hashes its text).
        var kept: [JSONValue] = []
        for value in values where !kept.contains(value) {
            if value == .null ? propertyType.isOptional : (try? conversion.stored(value, type: propertyType.element)) != nil { kept.append(value) }
        }
        return kept
    }

    /// Values of `options` whose stored forms differ: the elements a set can hold together.
    private func distinct(_ options: [JSONValue], type: PropertyType) -> [JSONValue] {
        var seen = Set<String>()
        return options.filter { value in
            guard let stored = try? conversion.stored(value, type: type) else { return false }
            return seen.insert(stored.description).inserted
        }
    }

    // MARK: - Boundary values

    /// Text people type and programs store: empty, blank, padded, long, scripts, combining
    /// marks, emoji sequences, right-to-left, control characters, look-alikes of other types.
    static let texts: [String] = [
        "", " ", "  padded  ", "a", "Zoë", "e\u{301}", "日本語のテキスト", "שלום עולם", "👩‍👩‍👧 🐶", "line one\nline two\ttabbed",
        "\"quoted\" 'single' \\back\\", "null", "0", "-1", "12.5", "true", String(repeating: "long text ", count: 200), "nul\u{0}byte",
        "\u{200B}zero width", "Ⅻ", "İstanbul",
    ]

    /// The boundary values of a scalar type, as the export format writes them.
    static func boundaries(_ scalar: ScalarType) -> [JSONValue] {
        switch scalar {
        case .bool: return [.bool(false), .bool(true)]
        case .int, .int8, .int16, .int32, .int64:
            let range = scalar.integerRange!
            return [0, 1, -1, 42, range.lowerBound, range.upperBound, range.lowerBound + 1, range.upperBound - 1].map(JSONValue.integer)
        case .float:
            return [
                0, 1, -1.5, 0.1, Double(Float.greatestFiniteMagnitude), -Double(Float.greatestFiniteMagnitude), Double(Float.leastNonzeroMagnitude),
                Double(Float.leastNormalMagnitude),
            ]
            .map(JSONValue.double) + [.string("+Infinity"), .string("-Infinity")]
        case .double:
            return [0, 1, -1.5, 0.1, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.leastNonzeroMagnitude, 1e-300, 123_456_789.125]
                .map(JSONValue.double) + [.string("+Infinity"), .string("-Infinity")]
        case .string: return texts.map(JSONValue.string)
        case .url:
            return [
                "https://example.com", "https://例え.jp/パス?q=1&r=ü#fragment", "file:///tmp/a%20b.txt", "mailto:someone@example.com", "x:y",
                "https://example.com/" + String(repeating: "p", count: 500),
            ]
            .map(JSONValue.string)
        case .data:
            return [[], [0], [0xFF, 0x00, 0xFE], Array(0...255), Array(repeating: 0xAB, count: 1024)].map { JSONValue.string(Data($0).base64EncodedString()) }
        case .date:
            return ["1970-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", "2000-02-29T12:00:00.5Z", "1969-12-31T23:59:59.999999Z", "2024-03-31T01:30:00Z"]
                .map(JSONValue.string)
        case .decimal128:
            return ["0", "1", "-1", "3.14159", "1E+30", "-1E-30", "1234567890123456789012345678901234", "0.000001"].map(JSONValue.string)
        case .uuid:
            return ["00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"].map(JSONValue.string)
        case .objectId:
            return ["000000000000000000000000", "ffffffffffffffffffffffff", "65a1b2c3d4e5f60718293a4b"].map(JSONValue.string)
        }
    }

    /// What a `convert` to `target` may meet: text that is and is not the target's form,
    /// numbers at and past its range, fractions.
    static func conversionProbes(_ target: PropertyType) -> [JSONValue] {
        var probes: [JSONValue] = [
            "", " ", "n/a", "12", "12.5", " 42 ", "0x1F", "1e3", "+7", "-0", "007", "9223372036854775808", "-9223372036854775809", "١٢٣", "NaN", "Infinity",
            "true", "yes", "2024-02-30", "2024-01-15T10:30:00Z", "not-a-uuid", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "65a1b2c3d4e5f60718293a4b",
            "https://example.com", "not a url", "3.4e39",
        ].map(JSONValue.string)
        probes += [.double(1.5), .double(-1.5), .double(1e20), .double(0.1), .bool(true), .integer(Int64.max), .integer(Int64.min)]
        if let range = target.scalar?.integerRange {
            if range.lowerBound > Int64.min { probes += [.integer(range.lowerBound - 1), .string(String(range.lowerBound - 1))] }
            if range.upperBound < Int64.max { probes += [.integer(range.upperBound + 1), .string(String(range.upperBound + 1))] }
            probes += [.integer(range.lowerBound), .integer(range.upperBound)]
        }
        return probes
    }

    /// The values a condition compares with, and their neighbours.
    static func probes(_ condition: MigrationStep.Condition) -> [JSONValue] {
        func json(_ value: DefaultValue) -> [JSONValue] {
            switch value {
            case .null: [.null]
            case .bool(let flag): [.bool(flag), .bool(!flag)]
            case .int(let number): [.integer(number), .integer(number &+ 1), .integer(number &- 1)]
            case .double(let number): [.double(number), .double(number + 1), .double(number - 1)]
            case .string(let text): [.string(text), .string(text.uppercased()), .string(text + " ")]
            case .enumCase, .generated: []
            }
        }
        switch condition {
        case .equals(let value), .notEquals(let value), .lessThan(let value), .lessThanOrEqual(let value), .greaterThan(let value), .greaterThanOrEqual(let value):
            return json(value)
        case .isIn(let values), .isNotIn(let values): return values.flatMap(json)
        case .contains(let text), .startsWith(let text), .endsWith(let text): return [.string(text), .string("x" + text + "x"), .string("")]
        }
    }
}

extension EnumType.RawValue {
    /// The raw value as the export format writes it.
    var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .int(let number): .integer(number)
        }
    }
}
