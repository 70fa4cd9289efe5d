import Foundation

// RealmSwift/Impl/ObjcBridgeable.swift
// realm-swift converts values to and from their Objective-C form with these; the mirror
// keeps Swift values and uses them to convert the `Any` values of the dynamic API
// (`object["name"] = value`, `init(value:)`, migrations) into a property's type.
/// A type which can be converted from and to the dynamic API's values.
public protocol _ObjcBridgeable {
    static func _rlmFromObjc(_ value: Any, insideOptional: Bool) -> Self?
    var _rlmObjcValue: Any { get }
}

// RealmSwift/Impl/ObjcBridgeable.swift
internal protocol DefaultObjcBridgeable: _ObjcBridgeable {}

extension DefaultObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any, insideOptional: Bool) -> Self? { value as? Self }
    public var _rlmObjcValue: Any { self }
}

// RealmSwift/Impl/ObjcBridgeable.swift
internal protocol BuiltInObjcBridgeable: _ObjcBridgeable {
    static func _rlmFromObjc(_ value: Any) -> Self?
}

extension BuiltInObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any, insideOptional: Bool) -> Self? {
        return _rlmFromObjc(value)
    }
}

extension Bool: DefaultObjcBridgeable {}
extension Date: DefaultObjcBridgeable {}
extension String: DefaultObjcBridgeable {}
extension Data: DefaultObjcBridgeable {}
extension ObjectId: DefaultObjcBridgeable {}
extension UUID: DefaultObjcBridgeable {}

// Numbers: realm-swift goes through NSNumber, which takes any number of the right kind; the
// mirror does the same with Swift's number types.
extension Int: BuiltInObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any) -> Self? { mirrorInteger(value, as: Self.self) }
    public var _rlmObjcValue: Any { self }
}

extension Int8: BuiltInObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any) -> Self? { mirrorInteger(value, as: Self.self) }
    public var _rlmObjcValue: Any { self }
}

extension Int16: BuiltInObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any) -> Self? { mirrorInteger(value, as: Self.self) }
    public var _rlmObjcValue: Any { self }
}

extension Int32: BuiltInObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any) -> Self? { mirrorInteger(value, as: Self.self) }
    public var _rlmObjcValue: Any { self }
}

extension Int64: BuiltInObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any) -> Self? { mirrorInteger(value, as: Self.self) }
    public var _rlmObjcValue: Any { self }
}

extension Double: BuiltInObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any) -> Self? { mirrorReal(value).map { Double($0) } }
    public var _rlmObjcValue: Any { self }
}

extension Float: BuiltInObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any) -> Self? { mirrorReal(value).map { Float($0) } }
    public var _rlmObjcValue: Any { self }
}

extension ObjectBase: BuiltInObjcBridgeable {
    /// The object itself; a dictionary, an array or another object makes a new unmanaged
    /// object from its values, as `init(value:)` does.
    public class func _rlmFromObjc(_ value: Any) -> Self? {
        if let value = value as? Self {
            return value
        }
        if value is [String: Any] || value is [Any] || value is ObjectBase {
            let object = self.init()
            object._mirrorSetValues(from: value)
            return object
        }
        return nil
    }

    public var _rlmObjcValue: Any { self }
}

extension Optional: BuiltInObjcBridgeable, _ObjcBridgeable where Wrapped: _ObjcBridgeable {
    /// `.some(nil)` for nil or NSNull, `.some(value)` for a value of the wrapped type, `nil`
    /// for anything else.
    public static func _rlmFromObjc(_ value: Any) -> Self? {
        guard let value = mirrorFlatten(value) else {
            return .some(Self.none)
        }
        if let value = Wrapped._rlmFromObjc(value, insideOptional: true) {
            return .some(value)
        }
        return nil
    }

    public var _rlmObjcValue: Any {
        if let value = self {
            return value._rlmObjcValue
        }
        return NSNull()
    }
}

extension Decimal128: BuiltInObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any) -> Decimal128? {
        if let value = value as? Decimal128 {
            return .some(value)
        }
        if let decimal = value as? Decimal {
            return Decimal128(decimal: decimal)
        }
        if let string = value as? String {
            return .some((try? Decimal128(string: string)) ?? Decimal128(decimal: .nan))
        }
        if let number = mirrorReal(value) {
            return Decimal128(decimal: Decimal(number))
        }
        return .none
    }

    public var _rlmObjcValue: Any {
        return self
    }
}

extension AnyRealmValue: BuiltInObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any) -> Self? {
        if let any = value as? Self {
            return any
        }
        guard let value = mirrorFlatten(value) else {
            return AnyRealmValue.none
        }
        switch value {
        case let value as Int: return .int(value)
        case let value as Bool: return .bool(value)
        case let value as Float: return .float(value)
        case let value as Double: return .double(value)
        case let value as String: return .string(value)
        case let value as Data: return .data(value)
        case let value as Date: return .date(value)
        case let value as Object: return .object(value)
        case let value as ObjectId: return .objectId(value)
        case let value as Decimal128: return .decimal128(value)
        case let value as UUID: return .uuid(value)
        case let value as Map<String, AnyRealmValue>: return .dictionary(value)
        case let value as List<AnyRealmValue>: return .list(value)
        case let value as any BinaryInteger: return Int(exactly: value).map { .int($0) }
        default: return Self?.none
        }
    }

    public var _rlmObjcValue: Any {
        switch self {
        case .none: return NSNull()
        case .int(let value): return value
        case .bool(let value): return value
        case .float(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .data(let value): return value
        case .date(let value): return value
        case .object(let value): return value
        case .objectId(let value): return value
        case .decimal128(let value): return value
        case .uuid(let value): return value
        case .dictionary(let value): return value
        case .list(let value): return value
        }
    }
}

// realm-swift: `extension RealmCollectionImpl { _rlmObjcValue, _rlmFromObjc }` and
// `extension Map: BuiltInObjcBridgeable`. The mirror's collections convert from another
// collection or a Swift sequence of convertible elements (a dictionary for `Map`).
extension List: _ObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any, insideOptional: Bool) -> Self? {
        if let list = value as? Self {
            return list
        }
        guard let elements = mirrorConvertElements(value, to: Element.self) else { return nil }
        let list = Self()
        list._elements = elements
        return list
    }

    public var _rlmObjcValue: Any { self }
}

extension MutableSet: _ObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any, insideOptional: Bool) -> Self? {
        if let set = value as? Self {
            return set
        }
        guard let elements = mirrorConvertElements(value, to: Element.self) else { return nil }
        let set = Self()
        for element in elements where !set._elements.contains(element) {
            set._elements.append(element)
        }
        return set
    }

    public var _rlmObjcValue: Any { self }
}

extension Map: BuiltInObjcBridgeable {
    public var _rlmObjcValue: Any { self }

    public static func _rlmFromObjc(_ value: Any) -> Self? {
        if let map = value as? Self {
            return map
        }
        guard let entries = mirrorConvertEntries(value, keys: Key.self, values: Value.self) else { return nil }
        let map = Self()
        for (key, value) in entries {
            map._store(value, forKey: key)
        }
        return map
    }
}

extension LinkingObjects: _ObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any, insideOptional: Bool) -> Self? { value as? Self }
    public var _rlmObjcValue: Any { self }
}

extension Results: _ObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any, insideOptional: Bool) -> Self? { value as? Self }
    public var _rlmObjcValue: Any { self }
}

extension Projection: BuiltInObjcBridgeable {
    public static func _rlmFromObjc(_ value: Any) -> Self? {
        return (value as? Root).map(Self.init(projecting:))
    }

    public var _rlmObjcValue: Any {
        self.rootObject
    }
}

// MARK: - Conversions shared by the conformances above (mirror internals)

/// An integer of type `T` from any integer that fits (not a Bool).
internal func mirrorInteger<T: FixedWidthInteger>(_ value: Any, as type: T.Type) -> T? {
    if let value = value as? T {
        return value
    }
    if let value = value as? any BinaryInteger {
        return T(exactly: value)
    }
    return nil
}

/// A number of any of Swift's number types, as a Double.
internal func mirrorReal(_ value: Any) -> Double? {
    switch value {
    case let value as Double: return value
    case let value as Float: return Double(value)
    case let value as any BinaryInteger: return Double(value)
    default: return nil
    }
}

/// The elements of a sequence (not a string or dictionary), each converted to `Element`, or
/// `nil` when `value` is not a sequence or an element does not convert.
internal func mirrorConvertElements<Element: _ObjcBridgeable>(_ value: Any, to type: Element.Type) -> [Element]? {
    guard !(value is String), !(value is [String: Any]), let sequence = value as? any Sequence else { return nil }
    var converted: [Element] = []
    for element in mirrorAnyElements(sequence) {
        guard let element = Element._rlmFromObjc(mirrorFlatten(element) ?? NSNull(), insideOptional: false) else { return nil }
        converted.append(element)
    }
    return converted
}

/// The entries of a dictionary or `Map` with keys and values converted, in key order for a
/// dictionary, or `nil` when a key or value does not convert.
internal func mirrorConvertEntries<Key: _ObjcBridgeable, Value: _ObjcBridgeable>(_ value: Any, keys: Key.Type, values: Value.Type) -> [(Key, Value)]? {
    let raw: [(Any, Any?)]
    if let map = value as? any _MirrorMapContents {
        raw = map._mirrorEntries
    } else if let dictionary = value as? [String: Any?] {
        raw = dictionary.keys.sorted().map { ($0, dictionary[$0] ?? nil) }
    } else {
        return nil
    }
    var converted: [(Key, Value)] = []
    for (key, value) in raw {
        guard let key = Key._rlmFromObjc(key, insideOptional: false),
            let value = Value._rlmFromObjc(mirrorFlatten(value) ?? NSNull(), insideOptional: false)
        else { return nil }
        converted.append((key, value))
    }
    return converted
}

/// The elements of any sequence as `Any`.
internal func mirrorAnyElements<S: Sequence>(_ sequence: S) -> [Any] {
    sequence.map { $0 as Any }
}
