/// Access level of a generated declaration.
public enum SwiftAccess: String, Hashable, Sendable {
    case `public`, `internal`, `fileprivate`, `private`
}

/// A generated Swift file: header comment, imports, declarations.
public struct SwiftFile: Hashable, Sendable {
    /// Lines of the `//` header, without the slashes.
    public var header: [String]
    public var imports: [String]
    public var declarations: [SwiftDeclaration]
    /// A compilation condition around the imports and declarations (`canImport(RealmSwift)`).
    public var condition: String?

    public init(header: [String], imports: [String], declarations: [SwiftDeclaration], condition: String? = nil) {
        self.header = header
        self.imports = imports
        self.declarations = declarations
        self.condition = condition
    }
}

/// A declaration: a type, an extension or a member.
public indirect enum SwiftDeclaration: Hashable, Sendable {
    case structure(SwiftStruct)
    case enumeration(SwiftEnum)
    case classType(SwiftClass)
    case extensionOf(SwiftExtension)
    case property(SwiftProperty)
    case initializer(SwiftInitializer)
    case function(SwiftFunction)
    /// `typealias Name = Type`
    case typeAlias(access: SwiftAccess, name: String, type: SwiftType)
    /// `case name = raw`
    case enumCase(doc: String?, name: String, rawValue: SwiftExpression?)
    /// `// MARK: - text`
    case mark(String)
    /// Plain `//` comment lines.
    case comment([String])
}

/// `struct Name: Conformances { members }`, also used for `enum` namespaces.
public struct SwiftStruct: Hashable, Sendable {
    public var doc: String?
    public var access: SwiftAccess
    public var name: String
    public var conformances: [SwiftType]
    public var members: [SwiftDeclaration]

    public init(doc: String? = nil, access: SwiftAccess = .public, name: String, conformances: [SwiftType] = [], members: [SwiftDeclaration]) {
        self.doc = doc
        self.access = access
        self.name = name
        self.conformances = conformances
        self.members = members
    }
}

/// `final class Name: Superclass, Conformances { members }`
public struct SwiftClass: Hashable, Sendable {
    public var doc: String?
    public var access: SwiftAccess
    public var isFinal: Bool
    public var name: String
    /// The superclass first, then protocols.
    public var inherits: [SwiftType]
    public var members: [SwiftDeclaration]

    public init(doc: String? = nil, access: SwiftAccess = .public, isFinal: Bool = true, name: String, inherits: [SwiftType] = [], members: [SwiftDeclaration]) {
        self.doc = doc
        self.access = access
        self.isFinal = isFinal
        self.name = name
        self.inherits = inherits
        self.members = members
    }
}

/// `enum Name: Inherited { members }`
public struct SwiftEnum: Hashable, Sendable {
    public var doc: String?
    public var access: SwiftAccess
    public var name: String
    public var inherits: [SwiftType]
    public var members: [SwiftDeclaration]

    public init(doc: String? = nil, access: SwiftAccess = .public, name: String, inherits: [SwiftType] = [], members: [SwiftDeclaration]) {
        self.doc = doc
        self.access = access
        self.name = name
        self.inherits = inherits
        self.members = members
    }
}

/// `extension Type: Conformances { members }`
public struct SwiftExtension: Hashable, Sendable {
    public var extended: SwiftType
    public var conformances: [SwiftType]
    public var members: [SwiftDeclaration]

    public init(extended: SwiftType, conformances: [SwiftType] = [], members: [SwiftDeclaration]) {
        self.extended = extended
        self.conformances = conformances
        self.members = members
    }
}

/// A stored or computed property.
public struct SwiftProperty: Hashable, Sendable {
    public enum Binding: String, Hashable, Sendable {
        case `let`, `var`
    }

    public var doc: String?
    /// An attribute written before the declaration, without its `@`: `Persisted(primaryKey: true)`.
    public var attribute: SwiftExpression?
    public var access: SwiftAccess
    public var isStatic: Bool
    public var binding: Binding
    public var name: String
    /// The declared type; `nil` lets Swift infer it from `value`.
    public var type: SwiftType?
    /// `= value` for a stored property.
    public var value: SwiftExpression?
    /// A read-only computed property's body.
    public var getter: [SwiftStatement]?

    public init(
        doc: String? = nil,
        attribute: SwiftExpression? = nil,
        access: SwiftAccess = .public,
        isStatic: Bool = false,
        binding: Binding = .var,
        name: String,
        type: SwiftType?,
        value: SwiftExpression? = nil,
        getter: [SwiftStatement]? = nil
    ) {
        self.doc = doc
        self.attribute = attribute
        self.access = access
        self.isStatic = isStatic
        self.binding = binding
        self.name = name
        self.type = type
        self.value = value
        self.getter = getter
    }
}

/// One parameter of an initialiser or function.
public struct SwiftParameter: Hashable, Sendable {
    /// The argument label: `nil` means the same as the name, `"_"` means unlabelled.
    public var label: String?
    public var name: String
    public var type: SwiftType
    public var isInOut: Bool
    public var defaultValue: SwiftExpression?

    public init(label: String? = nil, name: String, type: SwiftType, isInOut: Bool = false, defaultValue: SwiftExpression? = nil) {
        self.label = label
        self.name = name
        self.type = type
        self.isInOut = isInOut
        self.defaultValue = defaultValue
    }
}

/// `convenience init(parameters) throws { body }`
public struct SwiftInitializer: Hashable, Sendable {
    public var doc: String?
    public var access: SwiftAccess
    public var isConvenience: Bool
    /// `init?`
    public var isFailable: Bool = false
    public var parameters: [SwiftParameter]
    public var isThrowing: Bool
    public var body: [SwiftStatement]

    public init(doc: String? = nil, access: SwiftAccess = .public, isConvenience: Bool = false, parameters: [SwiftParameter], isThrowing: Bool = false, body: [SwiftStatement]) {
        self.doc = doc
        self.access = access
        self.isConvenience = isConvenience
        self.parameters = parameters
        self.isThrowing = isThrowing
        self.body = body
    }
}

/// `func name(parameters) throws -> Result { body }`
public struct SwiftFunction: Hashable, Sendable {
    public var doc: String?
    public var access: SwiftAccess
    public var isStatic: Bool
    public var isMutating: Bool
    /// `override class func`: a class method that replaces its superclass's.
    public var isClassOverride: Bool = false
    public var name: String
    public var parameters: [SwiftParameter]
    public var isThrowing: Bool
    public var result: SwiftType?
    public var body: [SwiftStatement]

    public init(
        doc: String? = nil,
        access: SwiftAccess = .public,
        isStatic: Bool = false,
        isMutating: Bool = false,
        name: String,
        parameters: [SwiftParameter],
        isThrowing: Bool = false,
        result: SwiftType? = nil,
        body: [SwiftStatement]
    ) {
        self.doc = doc
        self.access = access
        self.isStatic = isStatic
        self.isMutating = isMutating
        self.name = name
        self.parameters = parameters
        self.isThrowing = isThrowing
        self.result = result
        self.body = body
    }
}
