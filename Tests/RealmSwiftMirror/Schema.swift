import Foundation

// RealmSwift/Schema.swift
/// The object schemas of a Realm, for migrations and introspection.
@frozen public struct Schema: CustomStringConvertible {
    internal let _objectSchema: [ObjectSchema]

    internal init(_objectSchema: [ObjectSchema]) {
        self._objectSchema = _objectSchema
    }

    /// The `ObjectSchema`s of all object types in the Realm.
    public var objectSchema: [ObjectSchema] {
        return _objectSchema
    }

    public var description: String { "Schema {\n\(_objectSchema.map(\.description).joined(separator: "\n"))\n}" }

    /// The `ObjectSchema` of the given class name, or `nil`.
    public subscript(className: String) -> ObjectSchema? {
        _objectSchema.first { $0.className == className }
    }
}

// RealmSwift/Schema.swift
extension Schema: Equatable {
    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        return lhs._objectSchema == rhs._objectSchema
    }
}

// RealmSwift/ObjectSchema.swift
/// The schema of one model class: its properties and primary key.
@frozen public struct ObjectSchema: CustomStringConvertible {
    internal let _className: String
    internal let _objectClass: AnyClass
    internal let _isEmbedded: Bool
    internal let _properties: [Property]
    internal let _primaryKey: String?

    internal init(_className: String, _objectClass: AnyClass, _isEmbedded: Bool, _properties: [Property], _primaryKey: String?) {
        self._className = _className
        self._objectClass = _objectClass
        self._isEmbedded = _isEmbedded
        self._properties = _properties
        self._primaryKey = _primaryKey
    }

    /// The managed properties of the class (linking objects are computed, not among them).
    public var properties: [Property] {
        return _properties
    }

    /// The name of the class the schema describes.
    public var className: String { return _className }

    /// The class the schema describes (`DynamicObject` for the old schema of a migration).
    public var objectClass: AnyClass { return _objectClass }

    /// Whether the class is an embedded object type.
    public var isEmbedded: Bool { return _isEmbedded }

    /// Whether the class is an asymmetric object type (never, in the mirror).
    public var isAsymmetric: Bool { return false }

    /// The primary key property, or `nil`.
    public var primaryKeyProperty: Property? {
        _primaryKey.flatMap { self[$0] }
    }

    public var description: String {
        "\(_className) {\n\(_properties.map { "\t\($0.description)" }.joined(separator: "\n"))\n}"
    }

    /// The property of the given name, or `nil`.
    public subscript(propertyName: String) -> Property? {
        _properties.first { $0.name == propertyName }
    }
}

// RealmSwift/ObjectSchema.swift
extension ObjectSchema: Equatable {
    public static func == (lhs: ObjectSchema, rhs: ObjectSchema) -> Bool {
        return lhs._className == rhs._className && lhs._properties == rhs._properties
            && lhs._primaryKey == rhs._primaryKey && lhs._isEmbedded == rhs._isEmbedded
    }
}

// RealmSwift/Property.swift
/// A property of an object schema.
@frozen public struct Property: CustomStringConvertible {
    internal let _name: String
    internal let _type: PropertyType
    internal let _isArray: Bool
    internal let _isSet: Bool
    internal let _isMap: Bool
    internal let _isIndexed: Bool
    internal let _isOptional: Bool
    internal let _objectClassName: String?

    internal init(name: String, shape: MirrorShape, isIndexed: Bool) {
        _name = name
        _isIndexed = isIndexed
        var element = shape
        var kind: MirrorCollectionKind?
        if case .collection(let collectionKind, let inner) = shape {
            kind = collectionKind
            element = inner
        }
        _isArray = kind == .list || element.isLinkingObjects
        _isSet = kind == .set
        _isMap = kind == .map
        switch element {
        case .value(let type, let optional):
            (_type, _isOptional, _objectClassName) = (type, optional, nil)
        case .object(let name, let optional):
            (_type, _isOptional, _objectClassName) = (.object, optional, name)
        case .linkingObjects(let name):
            (_type, _isOptional, _objectClassName) = (.linkingObjects, false, name)
        case .collection, .unknown, .unsupported:
            (_type, _isOptional, _objectClassName) = (.any, true, nil)
        }
    }

    /// The name of the property.
    public var name: String { return _name }

    /// The column name of the property (the mirror does not apply `propertiesMapping`).
    public var columnName: String { return _name }

    /// The type of the property (of its elements, for a collection).
    public var type: PropertyType { return _type }

    /// Whether this property is a `List`.
    public var isArray: Bool { return _isArray }

    /// Whether this property is a `MutableSet`.
    public var isSet: Bool { return _isSet }

    /// Whether this property is a `Map`.
    public var isMap: Bool { return _isMap }

    /// Whether this property is indexed (primary keys are).
    public var isIndexed: Bool { return _isIndexed }

    /// Whether this property is optional (its elements, for a collection).
    public var isOptional: Bool { return _isOptional }

    /// The name of the linked class, for object and linking objects properties.
    public var objectClassName: String? { return _objectClassName }

    public var description: String {
        "\(_name) { type = \(mirrorTypeName(_type)); objectClassName = \(_objectClassName ?? "(null)"); indexed = \(_isIndexed ? "YES" : "NO"); isPrimary = NO; array = \(_isArray ? "YES" : "NO"); set = \(_isSet ? "YES" : "NO"); dictionary = \(_isMap ? "YES" : "NO"); optional = \(_isOptional ? "YES" : "NO"); }"
    }
}

// RealmSwift/Property.swift
extension Property: Equatable {
    public static func == (lhs: Property, rhs: Property) -> Bool {
        lhs._name == rhs._name && lhs._type == rhs._type && lhs._isArray == rhs._isArray && lhs._isSet == rhs._isSet
            && lhs._isMap == rhs._isMap && lhs._isIndexed == rhs._isIndexed && lhs._isOptional == rhs._isOptional
            && lhs._objectClassName == rhs._objectClassName
    }
}

extension MirrorObjectSchema {
    /// This class's `ObjectSchema`.
    var objectSchema: ObjectSchema {
        ObjectSchema(
            _className: className, _objectClass: type, _isEmbedded: isEmbedded,
            _properties: storedProperties.map { Property(name: $0.name, shape: $0.shape, isIndexed: $0.isIndexed) },
            _primaryKey: primaryKey?.name
        )
    }
}
