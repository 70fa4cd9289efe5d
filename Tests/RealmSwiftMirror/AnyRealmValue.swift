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
        guard case let .int(i) = self else { return nil }
        return i
    }

    public var boolValue: Bool? {
        guard case let .bool(b) = self else { return nil }
        return b
    }

    public var floatValue: Float? {
        guard case let .float(f) = self else { return nil }
        return f
    }

    public var doubleValue: Double? {
        guard case let .double(d) = self else { return nil }
        return d
    }

    public var stringValue: String? {
        guard case let .string(s) = self else { return nil }
        return s
    }

    public var dataValue: Data? {
        guard case let .data(d) = self else { return nil }
        return d
    }

    public var dateValue: Date? {
        guard case let .date(d) = self else { return nil }
        return d
    }

    public var objectIdValue: ObjectId? {
        guard case let .objectId(o) = self else { return nil }
        return o
    }

    public var decimal128Value: Decimal128? {
        guard case let .decimal128(d) = self else { return nil }
        return d
    }

    public var uuidValue: UUID? {
        guard case let .uuid(u) = self else { return nil }
        return u
    }

    public func object<T: Object>(_ objectType: T.Type) -> T? {
        guard case let .object(o) = self else { return nil }
        return o as? T
    }

    public var dictionaryValue: Map<String, AnyRealmValue>? {
        guard case let .dictionary(d) = self else { return nil }
        return d
    }

    public var listValue: List<AnyRealmValue>? {
        guard case let .list(l) = self else { return nil }
        return l
    }

    public var dynamicObject: DynamicObject? {
        guard case let .object(o) = self else { return nil }
        return o as? DynamicObject
    }

    public init() {
        self = .none
    }

    public static func fromDictionary(_ dictionary: Dictionary<String, AnyRealmValue>) -> AnyRealmValue {
        let map = Map<String, AnyRealmValue>()
        map.merge(dictionary, uniquingKeysWith: { $1 })
        return AnyRealmValue.dictionary(map)
    }

    public static func fromArray(_ array: Array<AnyRealmValue>) -> AnyRealmValue {
        let list = List<AnyRealmValue>()
        list.append(objectsIn: array)
        return AnyRealmValue.list(list)
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case let .int(i): hasher.combine(i)
        case let .bool(b): hasher.combine(b)
        case let .float(f): hasher.combine(f)
        case let .double(d): hasher.combine(d)
        case let .string(s): hasher.combine(s)
        case let .data(d): hasher.combine(d)
        case let .date(d): hasher.combine(d)
        case let .objectId(o): hasher.combine(o)
        case let .decimal128(d): hasher.combine(d)
        case let .uuid(u): hasher.combine(u)
        case let .object(o): hasher.combine(o)
        case .dictionary: hasher.combine(12)
        case .list: hasher.combine(13)
        case .none: hasher.combine(14)
        }
    }
}
