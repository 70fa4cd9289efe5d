import Foundation
import RemodelCore

/// The stored value a property takes when a dynamic object leaves it out: its schema default
/// through `StoredForm`, the conversion imported values and migrations use.
package enum DynamicDefaults {
    package static func value(for property: Property, type: PropertyType, schema: Schema) throws -> StoreValue {
        guard let defaultValue = property.defaultValue else { return .null }
        let result: Result<StoreValue, ValueProblem>
        switch defaultValue {
        case .null: return .null
        case .enumCase(let name):
            return try enumRaw(name, property: property, value: defaultValue, type: type, schema: schema)
        case .string(let name) where type.enumName != nil:
            return try enumRaw(name, property: property, value: defaultValue, type: type, schema: schema)
        case .generated(let generated):
            switch generated {
            case .uuid: return type.scalar == .string ? .text(UUID().uuidString) : UUID().storeValue
            case .objectId: return ObjectID().storeValue
            case .now: return Date().storeValue
            }
        case .bool(let flag):
            guard type.scalar == .bool else { throw invalid(property, defaultValue, ValueProblem("is not a \(type)")) }
            return .integer(flag ? 1 : 0)
        case .int(let number):
            guard let scalar = type.scalar else { throw invalid(property, defaultValue, ValueProblem("is not a \(type)")) }
            result = StoredForm.integer(number, as: scalar)
        case .double(let number):
            guard let scalar = type.scalar else { throw invalid(property, defaultValue, ValueProblem("is not a \(type)")) }
            result = StoredForm.real(number, as: scalar)
        case .string(let text):
            guard let scalar = type.scalar else { throw invalid(property, defaultValue, ValueProblem("is not a \(type)")) }
            result = StoredForm.text(text, as: scalar)
        }
        switch result {
        case .success(let value): return value
        case .failure(let problem): throw invalid(property, defaultValue, problem)
        }
    }

    private static func enumRaw(_ name: String, property: Property, value: DefaultValue, type: PropertyType, schema: Schema) throws -> StoreValue {
        guard let enumName = type.enumName, let enumCase = schema.enumType(named: enumName)?.enumCase(named: name) else {
            throw invalid(property, value, ValueProblem("is not a case of \(type.enumName ?? "the property's enum")"))
        }
        return enumCase.rawValue.storeValue
    }

    private static func invalid(_ property: Property, _ value: DefaultValue, _ problem: ValueProblem) -> StoreError {
        .invalidInput("the default \(CanonicalYAML.literal(value)) of '\(property.name)' \(problem.sentence); fix it in the schema")
    }
}
