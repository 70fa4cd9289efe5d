import Foundation
import RemodelCore

/// Converts one value between its stored form (`StoreValue`) and the JSON form of the data
/// tools (DESIGN.md): dates ISO 8601, data base64, uuid / objectId / decimal128 as strings,
/// links as the target's key, enums as raw values, embedded objects as JSON objects.
package struct StoreValueConversion {
    package let schema: Schema

    package init(schema: Schema) {
        self.schema = schema
    }

    // MARK: - Stored → JSON

    package func json(_ value: StoreValue, type: PropertyType) throws -> JSONValue {
        if let collection = type.collection {
            switch (collection, value) {
            case (.list, .list(let elements)), (.set, .list(let elements)):
                return .array(try elements.map { try json($0, type: type.element) })
            case (.map, .map(let entries)):
                return .object(try entries.keys.sorted().map { ($0, try json(entries[$0]!, type: type.element)) })
            default:
                throw StoreError.invalidInput("expected a \(collection.rawValue), found \(value)")
            }
        }
        if value.isNull { return .null }
        switch type.base {
        case .scalar(let scalar): return try json(value, scalar: scalar)
        case .enumeration:
            switch value {
            case .text(let text): return .string(text)
            case .integer(let number): return .integer(number)
            default: throw StoreError.invalidInput("expected an enum raw value, found \(value)")
            }
        case .object(let name):
            guard let target = schema.objectType(named: name) else { throw StoreError.unknownType(name) }
            if target.isEmbedded {
                guard case .text(let text) = value else { throw StoreError.invalidInput("expected embedded JSON text, found \(value)") }
                var parser = JSONParser(text)
                return exported(try parser.parse(), embedded: target)
            }
            guard let keyType = target.primaryKeyProperty?.storedType else { throw StoreError.unsupportedSchema("'\(name)' has no primary key") }
            return try json(value, type: keyType)
        }
    }

    /// An embedded object as the data format shows it: every optional member present (`null`
    /// where the stored JSON leaves it out) and every collection (`[]` or `{}`), nested embedded
    /// objects alike. The models' encoders leave a nil out while an import and a migration keep
    /// the nulls they are given, so the stored text of one object can differ; its export cannot.
    private func exported(_ json: JSONValue, embedded type: ObjectType) -> JSONValue {
        guard case .object(let members) = json else { return json }
        var result: [(String, JSONValue)] = []
        for (name, member) in members {
            guard let propertyType = type.property(named: name)?.storedType, let target = propertyType.objectName.flatMap(schema.objectType(named:)), target.isEmbedded
            else {
                result.append((name, member))
                continue
            }
            switch member {
            case .array(let elements): result.append((name, .array(elements.map { exported($0, embedded: target) })))
            case .object(let entries) where propertyType.collection == .map: result.append((name, .object(entries.map { ($0.0, exported($0.1, embedded: target)) })))
            default: result.append((name, exported(member, embedded: target)))
            }
        }
        for property in type.storedProperties where json[property.name] == nil {
            guard let propertyType = property.storedType else { continue }
            switch propertyType.collection {
            case .list?, .set?: result.append((property.name, .array([])))
            case .map?: result.append((property.name, .object([])))
            case nil where propertyType.isOptional: result.append((property.name, .null))
            case nil: continue
            }
        }
        return .object(result.sorted { $0.0 < $1.0 })
    }

    private func json(_ value: StoreValue, scalar: ScalarType) throws -> JSONValue {
        switch (scalar, value) {
        case (.bool, .integer(let number)): return .bool(number != 0)
        case (.int, .integer(let number)), (.int8, .integer(let number)), (.int16, .integer(let number)),
            (.int32, .integer(let number)), (.int64, .integer(let number)):
            return .integer(number)
        case (.float, .real(let number)), (.double, .real(let number)): return .double(number)
        case (.float, .integer(let number)), (.double, .integer(let number)): return .double(Double(number))
        case (.string, .text(let text)), (.url, .text(let text)), (.decimal128, .text(let text)): return .string(text)
        case (.data, .blob(let bytes)): return .string(Data(bytes).base64EncodedString())
        case (.date, .integer(let micros)): return .string(StoreDateFormat.string(microseconds: micros))
        case (.uuid, .blob(let bytes)) where bytes.count == 16: return .string(try UUID(storeValue: value).uuidString)
        case (.objectId, .blob(let bytes)) where bytes.count == 12: return .string(ObjectID(bytes: bytes)!.description)
        default: throw StoreError.invalidInput("expected a stored \(scalar.rawValue), found \(value)")
        }
    }

    // MARK: - JSON → stored

    /// The stored value of `json` for a property of `type`; throws a message without the
    /// location, which the caller adds.
    package func stored(_ json: JSONValue, type: PropertyType) throws(ConversionProblem) -> StoreValue {
        if let collection = type.collection {
            switch (collection, json) {
            case (.list, .array(let elements)):
                var values: [StoreValue] = []
                for (index, element) in elements.enumerated() {
                    do { values.append(try stored(element, type: type.element)) } catch { throw error.at("[\(index)]") }
                }
                return .list(values)
            case (.set, .array(let elements)):
                var seen = Set<StoreValue>()
                var values: [StoreValue] = []
                for (index, element) in elements.enumerated() {
                    let value: StoreValue
                    do { value = try stored(element, type: type.element) } catch { throw error.at("[\(index)]") }
                    // A set holds each value once: a repeat is refused, not dropped without a word.
                    guard seen.insert(value).inserted else {
                        throw ConversionProblem("\(Self.shortText(element)) is in the set twice; a set holds each value once: remove the repeat, or make it a list").at(
                            "[\(index)]")
                    }
                    values.append(value)
                }
                return .list(values)
            case (.map, .object(let members)):
                var entries: [String: StoreValue] = [:]
                for (key, element) in members {
                    do { entries[key] = try stored(element, type: type.element) } catch { throw error.at("[\"\(key)\"]") }
                }
                return .map(entries)
            default:
                throw ConversionProblem("expected \(collection == .map ? "an object" : "an array") for \(type), found \(json.kindDescription)")
            }
        }
        if case .null = json {
            guard type.isOptional else { throw ConversionProblem("expected \(type), found null; this property is required") }
            return .null
        }
        switch type.base {
        case .scalar(let scalar):
            return try stored(json, scalar: scalar)
        case .enumeration(let name):
            guard let enumType = schema.enumType(named: name) else { throw ConversionProblem("unknown enum \(name)") }
            let raw: EnumType.RawValue? =
                switch json {
                case .string(let text): .string(text)
                case .integer(let number): .int(number)
                default: nil
                }
            guard let raw, enumType.cases.contains(where: { $0.rawValue == raw }) else {
                let values = enumType.cases.map { $0.rawValue.description }.joined(separator: ", ")
                throw ConversionProblem("\(json) is not a raw value of \(name) (one of: \(values))")
            }
            return raw.storeValue
        case .object(let name):
            guard let target = schema.objectType(named: name) else { throw ConversionProblem("unknown object type \(name)") }
            if target.isEmbedded {
                try checkEmbedded(json, type: target)
                return .text(json.canonicalEmbeddedText)
            }
            guard let keyType = target.primaryKeyProperty?.storedType else { throw ConversionProblem("'\(name)' has no primary key to link to") }
            do { return try stored(json, type: keyType) } catch { throw ConversionProblem("expected the primary key of a \(name): \(error.message)") }
        }
    }

    /// A scalar through `StoredForm`, the conversion defaults and migrations share; the JSON
    /// spellings of non-finite doubles are the strings "+Infinity", "Infinity", "-Infinity"
    /// ("NaN" is refused, as SQLite cannot keep it).
    private func stored(_ json: JSONValue, scalar: ScalarType) throws(ConversionProblem) -> StoreValue {
        let result: Result<StoreValue, ValueProblem>
        switch (scalar, json) {
        case (.bool, .bool(let flag)): return .integer(flag ? 1 : 0)
        case (_, .integer(let number)) where scalar.isInteger || scalar == .float || scalar == .double:
            result = StoredForm.integer(number, as: scalar)
        case (_, .double(let number)) where scalar.isInteger || scalar == .float || scalar == .double:
            result = StoredForm.real(number, as: scalar)
        case (.float, .string(let text)), (.double, .string(let text)):
            switch text {
            case "NaN": result = StoredForm.real(.nan, as: scalar)
            case "+Infinity", "Infinity": return .real(.infinity)
            case "-Infinity": return .real(-.infinity)
            default:
                throw ConversionProblem(
                    "expected a number, found the string \(json); write the number without quotes (\"+Infinity\" and \"-Infinity\" are the only strings a \(scalar.rawValue) takes)"
                )
            }
        case (.decimal128, .integer(let number)): result = StoredForm.integer(number, as: scalar)
        case (_, .string(let text)) where scalar != .bool && !scalar.isInteger:
            result = StoredForm.text(text, as: scalar)
        default:
            throw ConversionProblem("expected \(Self.expectation(scalar)), found \(json.kindDescription)")
        }
        switch result {
        case .success(let value): return value
        case .failure(let problem): throw ConversionProblem("\(Self.shortText(json)) \(problem.sentence)")
        }
    }

    /// The JSON of a value for a message, shortened past 60 characters.
    private static func shortText(_ json: JSONValue) -> String {
        let text = json.description
        return text.count <= 60 ? text : String(text.prefix(57)) + "…"
    }

    private static func expectation(_ scalar: ScalarType) -> String {
        switch scalar {
        case .bool: "true or false"
        case .int, .int8, .int16, .int32, .int64: "an integer (\(scalar.rawValue))"
        case .float, .double: "a number"
        case .string: "a string"
        case .url: "a URL string"
        case .data: "a base64 string"
        case .date: "an ISO 8601 date string"
        case .decimal128: "a decimal number as a string"
        case .uuid: "a UUID string"
        case .objectId: "an ObjectID string"
        }
    }

    /// Checks an embedded object's JSON against its type.
    private func checkEmbedded(_ json: JSONValue, type: ObjectType) throws(ConversionProblem) {
        guard case .object(let members) = json else { throw ConversionProblem("expected an object for the embedded \(type.name), found \(json.kindDescription)") }
        for (key, _) in members where type.property(named: key)?.storedType == nil {
            throw ConversionProblem("the embedded \(type.name) has no property '\(key)'")
        }
        for property in type.storedProperties {
            guard let propertyType = property.storedType else { continue }
            let value = json[property.name] ?? .null
            if case .null = value, propertyType.isOptional || propertyType.collection != nil || property.defaultValue != nil { continue }
            do { _ = try stored(value, type: propertyType) } catch { throw error.at(".\(property.name)") }
        }
    }
}

/// A value that does not fit its property: the message, and a path inside the value
/// (`[2]`, `.street`) when the problem is nested.
package struct ConversionProblem: Error {
    package var message: String
    package var path = ""

    init(_ message: String) {
        self.message = message
    }

    func at(_ component: String) -> ConversionProblem {
        var copy = self
        copy.path = component + copy.path
        return copy
    }
}

extension EnumType.RawValue {
    var storeValue: StoreValue {
        switch self {
        case .string(let text): .text(text)
        case .int(let number): .integer(number)
        }
    }
}

extension JSONValue {
    /// Compact JSON with object keys sorted: the stored text of an embedded object.
    package var canonicalEmbeddedText: String {
        sortedKeys.description
    }

    /// The value with every object's keys sorted.
    var sortedKeys: JSONValue {
        switch self {
        case .array(let elements): .array(elements.map(\.sortedKeys))
        case .object(let members): .object(members.sorted { $0.0 < $1.0 }.map { ($0.0, $0.1.sortedKeys) })
        default: self
        }
    }
}
