import RemodelCore

/// Generates a projection: a read-only value built from its model with an unlabelled
/// initialiser, `Profile(person)`.
struct ProjectionGenerator: Sendable {
    let types: SwiftTypeMapper

    func declaration(for projection: Projection) -> SwiftDeclaration {
        let model = types.schema.objectType(named: projection.of)
        let parameter = Self.parameterName(for: projection.of)
        var members: [SwiftDeclaration] = []
        var body: [SwiftStatement] = []
        for property in projection.properties {
            let components = property.keyPathComponents
            let type: SwiftType
            if let stated = property.type.flatMap(SwiftType.init(parsing:)) {
                type = stated
            } else if let storedType = model?.property(named: components[0])?.storedType {
                type = types.swiftType(storedType)
            } else {
                type = .name("Never")  // unreachable after the checks
            }
            let doc = property.doc ?? "`\(projection.of).\(property.keyPath)`."
            members.append(.property(SwiftProperty(doc: doc, binding: .let, name: property.name, type: type)))
            let value = components.reduce(SwiftExpression.identifier(parameter)) { .member($0, $1) }
            body.append(.assignment(.selfMember(property.name), value))
        }
        members.append(
            .initializer(
                SwiftInitializer(
                    doc: "Creates the `\(projection.name)` of `\(parameter)`.",
                    parameters: [SwiftParameter(label: "_", name: parameter, type: .name(projection.of))],
                    body: body
                )))
        let doc = projection.doc ?? "A read-only view of `\(projection.of)`."
        return .structure(SwiftStruct(doc: doc, name: projection.name, conformances: [.name("Hashable"), .name("Sendable")], members: members))
    }

    /// `Person` → `person`, `URLRecord` → `urlRecord`.
    static func parameterName(for typeName: String) -> String {
        let scalars = Array(typeName.unicodeScalars)
        var upper = 0
        while upper < scalars.count, scalars[upper].properties.isUppercase { upper += 1 }
        let lowered = upper <= 1 || upper == scalars.count ? upper : upper - 1
        var view = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            view.append(contentsOf: index < max(lowered, 1) ? String(scalar).lowercased().unicodeScalars : String(scalar).unicodeScalars)
        }
        return String(view)
    }
}
