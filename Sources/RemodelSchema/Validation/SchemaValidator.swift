import RemodelCore

/// Resolves the declarations of every schema file into one `Schema`, checking every rule of
/// the schema language and reporting all problems at once.
///
/// The work is split by concern across `SchemaValidator+*.swift`: names, enums, objects and
/// properties, links and inverses, projections. Each check reports and carries on, so one
/// run lists every problem; the schema is returned only when there are no errors.
final class SchemaValidator {
    let syntax: SchemaSyntax
    let log: DiagnosticLog
    /// Where the schema starts (the first file), for problems with no better place.
    let origin: SourceLocation?

    /// The first declaration of each enum, object and projection name.
    var enumDeclarations: [String: EnumDeclaration] = [:]
    var objectDeclarations: [String: ObjectDeclaration] = [:]
    var declaredNames: [String: SourceLocation] = [:]
    /// The first declaration of each name under `StoreNames.foldedKey` (letter case ignored).
    var foldedTypeNames: [String: Located<String>] = [:]

    /// Resolved enums and objects, by name and in declaration order.
    var enums: [EnumType] = []
    var enumsByName: [String: EnumType] = [:]
    var objects: [ObjectType] = []
    var objectsByName: [String: ObjectType] = [:]

    init(syntax: SchemaSyntax, log: DiagnosticLog, origin: SourceLocation?) {
        self.syntax = syntax
        self.log = log
        self.origin = origin
    }

    /// A validator for some of `parent`'s object types, with its registered declarations and
    /// resolved enums and a log of its own (`resolveObjects`).
    init(resolvingObjectsFor parent: SchemaValidator) {
        self.syntax = parent.syntax
        self.log = DiagnosticLog()
        self.origin = parent.origin
        self.enumDeclarations = parent.enumDeclarations
        self.objectDeclarations = parent.objectDeclarations
        self.declaredNames = parent.declaredNames
        self.foldedTypeNames = parent.foldedTypeNames
        self.enums = parent.enums
        self.enumsByName = parent.enumsByName
    }

    /// Checks everything and returns the schema, or `nil` when any error was reported.
    func validate() -> Schema? {
        registerDeclarations()
        resolveEnums()
        resolveObjects()
        checkObjectRelationships()
        checkEmbeddedCycles()
        checkUnusedEmbeddedObjects()
        let projections = resolveProjections()
        // Only when nothing else is wrong: a misshapen section also leaves the schema empty.
        if syntax.enums.isEmpty, syntax.objects.isEmpty, syntax.projections.isEmpty, !log.hasErrors {
            log.error(
                "empty-schema", "the schema declares no enums, objects or projections", at: origin,
                hint: "add an 'objects:' section with at least one object type"
            )
        }
        guard !log.hasErrors else { return nil }
        return Schema(enums: enums, objects: objects, projections: projections)
    }

    /// Where a property's type (or inverse origin) was written: the first declaration of the
    /// object and of the property, the ones that were resolved.
    func typeNode(of object: String, property: String) -> YAMLNode? {
        guard let declaration = objectDeclarations[object]?.properties.first(where: { $0.name.value == property }) else { return nil }
        switch declaration.kind {
        case .stored(let node), .inverse(let node): return node
        case .missing: return nil
        }
    }

    /// The location of the character at `offset` of a scalar node's text.
    func location(in node: YAMLNode, offset: Int) -> SourceLocation {
        guard let scalar = node.scalar else { return node.location }
        var location = node.location
        location.column = scalar.column(ofOffset: offset, scalarColumn: location.column)
        return location
    }

    /// Every name a type reference may use: scalar types, enums and objects.
    var typeNames: [String] {
        ScalarType.allCases.map(\.rawValue) + syntax.enums.map(\.name.value) + syntax.objects.map(\.name.value)
    }
}
