import RemodelCore

/// Reads and writes the JSON stored for embedded objects one property at a time, with the
/// store's own conversions (the same rules as `import` and `export`). Migrations use it to
/// reshape embedded objects and to move objects into and out of them, so that a migrated
/// value is exactly what the store itself would write.
package struct EmbeddedValueCoding: Sendable {
    package let schema: Schema

    package init(schema: Schema) {
        self.schema = schema
    }

    /// Why a stored value cannot be read or written.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Property `name` (of type `type`) of the embedded JSON `text`, in its stored form;
    /// embedded objects and collections stay JSON text. NULL when the property is absent.
    package func storedValue(ofProperty name: String, type: PropertyType, inJSON text: String) throws -> StoreValue {
        let member = try object(text)[name] ?? .null
        if case .null = member { return type.collection == nil ? .null : .text(type.collection == .map ? "{}" : "[]") }
        if type.collection != nil || isEmbedded(type) { return .text(member.canonicalEmbeddedText) }
        do {
            return try StoreValueConversion(schema: schema).stored(member, type: type)
        } catch {
            throw Failure(description: "\(name): \(error.message)")
        }
    }

    /// The stored JSON text of an embedded `typeName` whose stored properties, in declaration
    /// order, have `values` (embedded objects and collections as JSON text). Null optionals are
    /// left out, as the generated models' encoders leave them out.
    package func jsonText(ofType typeName: String, values: [StoreValue]) throws -> String {
        guard let object = schema.objectType(named: typeName) else { throw Failure(description: "unknown embedded type \(typeName)") }
        var members: [(String, JSONValue)] = []
        for (property, value) in zip(object.storedProperties, values) {
            guard let type = property.storedType else { continue }
            if value.isNull {
                if type.collection != nil { members.append((property.name, type.collection == .map ? .object([]) : .array([]))) }
                continue
            }
            if type.collection != nil || isEmbedded(type) {
                guard case .text(let text) = value else { throw Failure(description: "\(property.name): expected JSON text, found \(value)") }
                members.append((property.name, try parse(text)))
            } else {
                members.append((property.name, try StoreValueConversion(schema: schema).json(value, type: type)))
            }
        }
        return JSONValue.object(members).canonicalEmbeddedText
    }

    /// One stored element as JSON text, for a collection's JSON array.
    package func jsonText(of value: StoreValue, type: PropertyType) throws -> String {
        try StoreValueConversion(schema: schema).json(value, type: type.element).canonicalEmbeddedText
    }

    /// The type written as `description` (`PropertyType.description`: `list<int?>`, `Address`).
    package func type(described description: String) -> PropertyType? {
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
        type.objectName.flatMap(schema.objectType(named:))?.isEmbedded ?? false
    }

    private func parse(_ text: String) throws -> JSONValue {
        var parser = JSONParser(text)
        do { return try parser.parse() } catch { throw Failure(description: "invalid embedded JSON: \(error)") }
    }

    private func object(_ text: String) throws -> JSONValue {
        let value = try parse(text)
        guard case .object = value else { throw Failure(description: "embedded JSON is not an object") }
        return value
    }
}
