import RemodelCore

/// Reads and writes the JSON stored for embedded objects one property at a time, with the
/// store's own conversions (the same rules as `import` and `export`). Migrations use it to
/// reshape embedded objects and to move objects into and out of them, so that a migrated
/// value is exactly what the store itself would write.
///
/// Migrations call it once per property per row, so what depends only on the schema is worked
/// out once, when it is made: the types its properties' descriptions name, each embedded
/// type's stored properties in the order their JSON keys sort. A reshape reads several
/// properties of one value: `parse(embeddedJSON:)` once, then `storedValue(ofProperty:in:)`.
package struct EmbeddedValueCoding: Sendable {
    package let schema: Schema
    /// The types of the schema's properties (and their elements) by their descriptions.
    private let describedTypes: [String: PropertyType]
    /// Each object type's stored properties, sorted by name (the stored text's key order).
    private let members: [String: [Member]]
    private let embeddedNames: Set<String>

    /// A stored property: its position in declaration order (the order of
    /// `jsonText(ofType:values:)`'s values), and whether its value is JSON text (a collection
    /// or an embedded object).
    private struct Member: Sendable {
        var position: Int
        var name: String
        var type: PropertyType
        var isJSON: Bool
    }

    /// An embedded object's JSON, parsed once for reading several of its properties.
    package struct ParsedObject: Sendable {
        fileprivate let members: [(String, JSONValue)]
    }

    package init(schema: Schema) {
        self.schema = schema
        let embeddedNames = Set(schema.objects.filter(\.isEmbedded).map(\.name))
        var described: [String: PropertyType] = [:]
        var members: [String: [Member]] = [:]
        for object in schema.objects {
            var stored: [Member] = []
            for (position, property) in object.storedProperties.enumerated() {
                guard let type = property.storedType else { continue }
                described[type.description] = type
                described[type.element.description] = type.element
                let isJSON = type.collection != nil || type.objectName.map(embeddedNames.contains) == true
                stored.append(Member(position: position, name: property.name, type: type, isJSON: isJSON))
            }
            members[object.name] = stored.sorted { $0.name < $1.name }
        }
        describedTypes = described
        self.members = members
        self.embeddedNames = embeddedNames
    }

    /// Why a stored value cannot be read or written.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Property `name` (of type `type`) of the embedded JSON `text`, in its stored form;
    /// embedded objects and collections stay JSON text. NULL when the property is absent.
    package func storedValue(ofProperty name: String, type: PropertyType, inJSON text: String) throws -> StoreValue {
        try storedValue(ofProperty: name, type: type, in: parse(embeddedJSON: text))
    }

    /// Property `name` (of type `type`) of a parsed embedded object, as
    /// `storedValue(ofProperty:type:inJSON:)` reads it.
    package func storedValue(ofProperty name: String, type: PropertyType, in object: ParsedObject) throws -> StoreValue {
        let member = object.members.first { $0.0 == name }?.1 ?? .null
        if case .null = member { return type.collection == nil ? .null : .text(type.collection == .map ? "{}" : "[]") }
        if type.collection != nil || isEmbedded(type) { return .text(member.canonicalEmbeddedText) }
        do {
            return try StoreValueConversion(schema: schema).stored(member, type: type)
        } catch {
            throw Failure(description: "\(name): \(error.message)")
        }
    }

    /// The stored JSON text of an embedded `typeName` whose stored properties, in declaration
    /// order, have `values` (embedded objects and collections as JSON text). A null optional is
    /// written as `null`, so that a reshaped object keeps every member it had (an export shows
    /// every optional member either way).
    package func jsonText(ofType typeName: String, values: [StoreValue]) throws -> String {
        guard let object = self.members[typeName] else { throw Failure(description: "unknown embedded type \(typeName)") }
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(object.count)
        for member in object where member.position < values.count {
            let value = values[member.position]
            if value.isNull {
                switch member.type.collection {
                case .map?: members.append((member.name, .object([])))
                case .list?, .set?: members.append((member.name, .array([])))
                case nil: members.append((member.name, .null))
                }
                continue
            }
            // What the new schema forbids is refused here, in the row that would hold it. (A
            // nested embedded object was checked when its own JSON was written: not parsed again.)
            if !member.isJSON, let problem = StoredValueRules.problem(value, type: member.type, schema: schema) {
                throw Failure(description: "\(member.name): \(problem)")
            }
            if member.isJSON {
                guard case .text(let text) = value else { throw Failure(description: "\(member.name): expected JSON text, found \(value)") }
                members.append((member.name, try parse(text).sortedKeys))
            } else {
                members.append((member.name, try StoreValueConversion(schema: schema).json(value, type: member.type)))
            }
        }
        // Keys in sorted order already; nested values were sorted above.
        return JSONValue.object(members).description
    }

    /// The type written as `description` (`PropertyType.description`: `list<int?>`, `Address`).
    package func type(described description: String) -> PropertyType? {
        if let type = describedTypes[description] { return type }
        var text = Substring(description)
        var collection: CollectionKind?
        for kind in CollectionKind.allCases where text.hasPrefix(kind.rawValue + "<") && text.hasSuffix(">") {
            collection = kind
            text = text.dropFirst(kind.rawValue.count + 1).dropLast()
        }
        let optional = text.hasSuffix("?")
        if optional { text = text.dropLast() }
        let name = String(text)
        let base: BaseType
        if let scalar = ScalarType(rawValue: name) {
            base = .scalar(scalar)
        } else if schema.enumType(named: name) != nil {
            base = .enumeration(name)
        } else if schema.objectType(named: name) != nil {
            base = .object(name)
        } else {
            return nil
        }
        return PropertyType(base, optional: optional, collection: collection)
    }

    private func isEmbedded(_ type: PropertyType) -> Bool {
        type.objectName.map(embeddedNames.contains) ?? false
    }

    private func parse(_ text: String) throws -> JSONValue {
        var parser = JSONParser(text)
        do { return try parser.parse() } catch { throw Failure(description: "invalid embedded JSON: \(error)") }
    }

    /// Parses the stored JSON of an embedded object.
    package func parse(embeddedJSON text: String) throws -> ParsedObject {
        guard case .object(let members) = try parse(text) else { throw Failure(description: "embedded JSON is not an object") }
        return ParsedObject(members: members)
    }
}
