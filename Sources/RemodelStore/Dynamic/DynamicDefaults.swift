import Foundation
import RemodelCore

/// The stored value a property takes when a dynamic object leaves it out.
enum DynamicDefaults {
    static func value(for property: Property, type: PropertyType, schema: Schema) throws -> StoreValue {
        guard let defaultValue = property.defaultValue else { return .null }
        switch defaultValue {
        case .null: return .null
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .int(let number): return type.scalar == .float || type.scalar == .double ? .real(Double(number)) : .integer(number)
        case .double(let number): return .real(number)
        case .string(let text):
            switch type.scalar {
            case .date: return StoreDateFormat.microseconds(from: text).map(StoreValue.integer) ?? .text(text)
            case .uuid: return (UUID(uuidString: text)?.storeValue) ?? .text(text)
            case .objectId: return (ObjectID(text)?.storeValue) ?? .text(text)
            default: return .text(text)
            }
        case .enumCase(let name):
            guard let enumName = type.enumName, let enumCase = schema.enumType(named: enumName)?.enumCase(named: name) else { return .text(name) }
            return enumCase.rawValue.storeValue
        case .generated(let generated):
            switch generated {
            case .uuid: return type.scalar == .string ? .text(UUID().uuidString) : UUID().storeValue
            case .objectId: return ObjectID().storeValue
            case .now: return Date().storeValue
            }
        }
    }
}
