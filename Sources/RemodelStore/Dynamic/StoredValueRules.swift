import RemodelCore

/// What a schema allows of a value already in its stored form (`StoredForm` checks the form):
/// a raw value that is a case of its enum, an integer within its sized type's range, embedded
/// JSON that is an object of its type (members, required ones present, each value allowed).
/// Migrations check what they write with it: objects a custom step creates or changes, and the
/// embedded objects a reshape writes.
package enum StoredValueRules {
    /// Why `value` (a whole property's value: a collection's every element) is not a value of
    /// `type`, or `nil`.
    package static func problem(inProperty value: StoreValue, type: PropertyType, schema: Schema) -> String? {
        switch value {
        case .list(let elements): elements.lazy.compactMap { problem($0, type: type.element, schema: schema) }.first
        case .map(let entries): entries.keys.sorted().lazy.compactMap { problem(entries[$0]!, type: type.element, schema: schema) }.first
        default: problem(value, type: type.element, schema: schema)
        }
    }

    /// Why `value` is not a value of `type` (one element of a collection), or `nil`.
    package static func problem(_ value: StoreValue, type: PropertyType, schema: Schema) -> String? {
        switch (type.base, value) {
        case (_, .null):
            return nil
        case (.enumeration(let name), .text), (.enumeration(let name), .integer):
            guard let enumType = schema.enumType(named: name), !enumType.cases.contains(where: { $0.rawValue.storeValue == value }) else { return nil }
            return "\(value) is no case of \(name) (\(enumType.cases.map { $0.rawValue.description }.joined(separator: ", ")))"
        case (.scalar(let scalar), .integer(let number)) where scalar.isInteger:
            if case .failure(let problem) = StoredForm.integer(number, as: scalar) { return "\(number) \(problem.sentence)" }
            return nil
        case (.object(let name), .text(let text)) where schema.objectType(named: name)?.isEmbedded == true:
            var parser = JSONParser(text)
            do {
                _ = try StoreValueConversion(schema: schema).stored(try parser.parse(), type: PropertyType(type.base, optional: true))
                return nil
            } catch let problem as ConversionProblem {
                return "not an embedded \(name): \(problem.path.isEmpty ? "" : problem.path + ": ")\(problem.message)"
            } catch {
                return "not an embedded \(name): \(error)"
            }
        default:
            return nil
        }
    }
}
