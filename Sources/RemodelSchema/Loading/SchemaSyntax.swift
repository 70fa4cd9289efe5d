import RemodelCore

/// The declarations of the schema files as written, with their locations, before names are
/// resolved and rules checked. The validator turns it into a `Schema`.
struct SchemaSyntax {
    var enums: [EnumDeclaration] = []
    var objects: [ObjectDeclaration] = []
    var projections: [ProjectionDeclaration] = []

    mutating func append(_ other: SchemaSyntax) {
        enums += other.enums
        objects += other.objects
        projections += other.projections
    }

    /// Where each object type, enum, projection, property and case is declared (the first
    /// declaration of a name, when it is declared twice).
    var source: SchemaSource {
        let (objects, enums, projections) = (objects, enums, projections)
        return SchemaSource {
            var declarations: [String: DeclarationSource] = [:]
            declarations.reserveCapacity(objects.count + enums.count + projections.count)
            func add(_ name: Located<String>, members: [Located<String>]) {
                guard declarations[name.value] == nil else { return }
                var offsets: [String: DeclarationSource.Offset] = [:]
                offsets.reserveCapacity(members.count)
                for member in members where offsets[member.value] == nil {
                    offsets[member.value] = DeclarationSource.Offset(lines: member.location.line - name.location.line, column: member.location.column)
                }
                declarations[name.value] = DeclarationSource(location: name.location, memberOffsets: offsets)
            }
            for object in objects { add(object.name, members: object.properties.map(\.name)) }
            for enumType in enums { add(enumType.name, members: enumType.cases.map(\.name)) }
            for projection in projections { add(projection.name, members: projection.properties.map(\.name)) }
            return declarations
        }
    }
}

struct EnumDeclaration {
    struct Case {
        var name: Located<String>
        /// The raw value as written; `nil` when the cases are a list of names.
        var raw: YAMLNode?
    }

    var name: Located<String>
    /// `type:` as written; `nil` means `string`.
    var rawType: Located<String>?
    var cases: [Case]
    var casesLocation: SourceLocation
    var renamedFrom: Located<String>?
    var doc: String?
}

struct ObjectDeclaration {
    var name: Located<String>
    var primaryKey: Located<String>?
    var embedded: Located<Bool>?
    var properties: [PropertyDeclaration]
    /// `unique: [[a, b]]` and `indexes: [[a, b]]` as written: each group's names, located.
    var uniqueGroups: [[Located<String>]] = []
    var indexes: [[Located<String>]] = []
    var renamedFrom: Located<String>?
    var doc: String?

    var isEmbedded: Bool { embedded?.value ?? false }
}

struct PropertyDeclaration {
    enum Kind {
        /// A stored property; the node is the type scalar (`list<Dog>`).
        case stored(YAMLNode)
        /// An inverse relationship; the node is the origin scalar (`Person.dogs`).
        case inverse(YAMLNode)
        /// Neither a type nor an inverse was given (already reported).
        case missing
    }

    var name: Located<String>
    var kind: Kind
    var defaultValue: YAMLNode?
    var isPrimaryKey: Located<Bool>?
    var indexed: Located<Bool>?
    var unique: Located<Bool>?
    var renamedFrom: Located<String>?
    var doc: String?
}

struct ProjectionDeclaration {
    struct Property {
        var name: Located<String>
        /// The key-path scalar (`lastName.localizedCapitalized.first`).
        var keyPath: YAMLNode
        var type: Located<String>?
        var doc: String?
    }

    var name: Located<String>
    var of: Located<String>?
    var properties: [Property]
    var doc: String?
}
