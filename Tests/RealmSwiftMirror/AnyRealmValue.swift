import Foundation

// RealmSwift/AnyRealmValue.swift
/// A value of any of the types Realm stores (a mixed property): `@Persisted var value: AnyRealmValue`.
/// Not optional: nil is `.none`.
public enum AnyRealmValue: Hashable {
    case none
    case int(Int)
    case bool(Bool)
    case float(Float)
    case double(Double)
    case string(String)
    case data(Data)
    case date(Date)
    case object(Object)
    case objectId(ObjectId)
    case decimal128(Decimal128)
    case uuid(UUID)
    case dictionary(Map<String, AnyRealmValue>)
    case list(List<AnyRealmValue>)

    public var intValue: Int? {
        guard case .int(let i) = self else { return nil }
        return i
    }

    public var boolValue: Bool? {
        guard case .bool(let b) = self else { return nil }
        return b
    }

    public var floatValue: Float? {
        guard case .float(let f) = self else { return nil }
        return f
    }

    public var doubleValue: Double? {
        guard case .double(let d) = self else { return nil }
        return d
    }

    public var stringValue: String? {
        guard case .string(let s) = self else { return nil }
        return s
    }

    public var dataValue: Data? {
        guard case .data(let d) = self else { return nil }
        return d
    }

    public var dateValue: Date? {
        guard case .date(let d) = self else { return nil }
        return d
    }

    public var objectIdValue: ObjectId? {
        guard case .objectId(let o) = self else { return nil }
        return o
    }

    public var decimal128Value: Decimal128? {
        guard case .decimal128(let d) = self else { return nil }
        return d
    }

    public var uuidValue: UUID? {
        guard case .uuid(let u) = self else { return nil }
        return u
    }

    public func object<T: Object>(_ objectType: T.Type) -> T? {
        guard case .object(let o) = self else { return nil }
        return o as? T
    }

    public var dictionaryValue: Map<String, AnyRealmValue>? {
        guard case .dictionary(let d) = self else { return nil }
        return d
    }

    public var listValue: List<AnyRealmValue>? {
        guard case .list(let l) = self else { return nil }
        return l
    }

    public var dynamicObject: DynamicObject? {
        guard case .object(let o) = self else { return nil }
        return o as? DynamicObject
    }

    public init() {
        self = .none
    }

    public static func fromDictionary(_ dictionary: [String: AnyRealmValue]) -> AnyRealmValue {
        let map = Map<String, AnyRealmValue>()
        map.merge(dictionary, uniquingKeysWith: { $1 })
        return AnyRealmValue.dictionary(map)
    }

    public static func fromArray(_ array: [AnyRealmValue]) -> AnyRealmValue {
        let list = List<AnyRealmValue>()
        list.append(objectsIn: array)
        return AnyRealmValue.list(list)
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .int(let i): hasher.combine(i)
        case .bool(let b): hasher.combine(b)
        case .float(let f): hasher.combine(f)
        case .double(let d): hasher.combine(d)
        case .string(let s): hasher.combine(s)
        case .data(let d): hasher.combine(d)
        case .date(let d): hasher.combine(d)
        case .objectId(let o): hasher.combine(o)
        case .decimal128(let d): hasher.combine(d)
        case .uuid(let u): hasher.combine(u)
        case .object(let o): hasher.combine(o)
        case .dictionary: hasher.combine(12)
        case .list: hasher.combine(13)
        case .none: hasher.combine(14)
        }
    }
}
