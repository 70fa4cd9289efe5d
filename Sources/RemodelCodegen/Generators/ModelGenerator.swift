import RemodelCore

/// Generates the plain model struct of an object type: stored properties in declaration
/// order, `Identifiable` by primary key, a documented memberwise initialiser.
struct ModelGenerator: Sendable {
    let types: SwiftTypeMapper

    func declaration(for object: ObjectType) -> SwiftDeclaration {
        let stored = object.storedProperties
        var conformances: [SwiftType] = [.name("Hashable"), .name("Codable"), .name("Sendable")]
        var members: [SwiftDeclaration] = stored.map { property in
            .property(SwiftProperty(doc: property.doc, name: property.name, type: types.swiftType(property.storedType!)))
        }
        if let key = object.primaryKeyProperty, let keyType = types.primaryKeyType(of: object) {
            conformances.append(.name("Identifiable"))
            if key.name != "id" {
                members.append(
                    .property(
                        SwiftProperty(
                            doc: "The identity `Identifiable` asks for: the primary key, `\(key.name)`.",
                            name: "id",
                            type: keyType,
                            getter: [.returnValue(.identifier(key.name))]
                        )))
            }
        }
        members.append(.initializer(initializer(for: object, stored: stored)))
        return .structure(SwiftStruct(doc: object.doc, name: object.name, conformances: conformances, members: members))
    }

    private func initializer(for object: ObjectType, stored: [Property]) -> SwiftInitializer {
        var doc = "Creates a new `\(object.name)`."
        if !stored.isEmpty {
            doc += "\n\n- Parameters:"
            for property in stored { doc += "\n  - " + property.name + ": " + parameterDoc(property, in: object) }
        }
        return SwiftInitializer(
            doc: doc,
            parameters: stored.map { property in
                SwiftParameter(name: property.name, type: types.swiftType(property.storedType!), defaultValue: types.defaultExpression(for: property))
            },
            body: stored.map { property in .assignment(.selfMember(property.name), .identifier(property.name)) }
        )
    }

    /// The text after `- name:`: the property's doc, else its schema type; then its default.
    /// Continuation lines are indented to stay inside the parameter's item.
    private func parameterDoc(_ property: Property, in object: ObjectType) -> String {
        let summary = property.doc ?? "`\(property.storedType!.description)`" + (property.name == object.primaryKey ? ", the primary key" : "") + "."
        let defaults = types.defaultDescription(for: property).map { "Defaults to \($0)." }
        // Two plain lines (almost every property) are already what splitting would give.
        if SwiftLiteral.isPlainCommentLine(summary), defaults.map(SwiftLiteral.isPlainCommentLine) ?? true {
            return defaults.map { summary + "\n    " + $0 } ?? summary
        }
        return SwiftLiteral.commentLines(summary + (defaults.map { "\n" + $0 } ?? "")).joined(separator: "\n    ")
    }
}
