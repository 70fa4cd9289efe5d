import RemodelCore

/// Projections: the projected object, key paths, and the result types of transforms.
extension SchemaValidator {
    func resolveProjections() -> [Projection] {
        var projections: [Projection] = []
        for declaration in syntax.projections {
            let name = declaration.name.value
            guard declaredNames[name] == declaration.name.location else { continue }
            guard let of = declaration.of else { continue }
            guard let model = objectsByName[of.value] else {
                if objectDeclarations[of.value] == nil {
                    let hint =
                        Suggestion.closest(to: of.value, in: syntax.objects.map(\.name.value)).map { "did you mean '\($0)'?" }
                        ?? "a projection reads an object type declared under 'objects:'"
                    log.error("unknown-type", "projection '\(name)' is of unknown object '\(of.value)'", at: of.location, hint: hint)
                }
                continue
            }
            var properties: [Projection.Property] = []
            var names: [String: SourceLocation] = [:]
            for property in declaration.properties {
                guard checkName(property.name, kind: .property, noun: "projection property", stored: false) else { continue }
                if let first = names[property.name.value] {
                    log.error(
                        "duplicate-property", "projection '\(name)' has property '\(property.name.value)' more than once", at: property.name.location,
                        hint: "remove or rename one of them", notes: [.init("'\(property.name.value)' first declared here", at: first)]
                    )
                    continue
                }
                names[property.name.value] = property.name.location
                guard let resolved = resolve(property, of: model, projection: name) else { continue }
                properties.append(resolved)
            }
            if declaration.properties.isEmpty {
                log.error(
                    "empty-declaration", "projection '\(name)' has no properties", at: declaration.name.location, hint: "add at least one 'name: keyPath' line under 'properties:'")
            }
            projections.append(Projection(name: name, of: of.value, properties: properties, doc: declaration.doc))
        }
        return projections
    }

    private func resolve(_ property: ProjectionDeclaration.Property, of model: ObjectType, projection: String) -> Projection.Property? {
        let text = property.keyPath.scalar?.text ?? ""
        let what = "'\(projection).\(property.name.value)'"
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var offset = 0
        for component in components {
            if !SwiftNames.isIdentifier(component) {
                log.error(
                    "invalid-key-path", "key path '\(text)' of projection property \(what) has an invalid component '\(component)'",
                    at: location(in: property.keyPath, offset: offset),
                    hint: "write property names separated by '.', e.g. 'lastName.first'"
                )
                return nil
            }
            offset += component.unicodeScalars.count + 1
        }
        guard let first = components.first, model.property(named: first) != nil else {
            let head = components.first ?? ""
            // A declared property whose type could not be resolved was already reported.
            if objectDeclarations[model.name]?.properties.contains(where: { $0.name.value == head }) == true { return nil }
            let hint =
                Suggestion.closest(to: head, in: model.properties.map(\.name)).map { "did you mean '\($0)'?" }
                ?? "the key path starts with a property of '\(model.name)': \(model.properties.prefix(8).map(\.name).joined(separator: ", "))"
            log.error(
                "projection-unknown-property", "projection property \(what) reads '\(head)', which is not a property of '\(model.name)'", at: property.keyPath.location,
                hint: hint
            )
            return nil
        }
        if components.count > 1, property.type == nil {
            log.error(
                "projection-needs-type", "projection property \(what) transforms '\(first)' with '\(text)' but has no 'type'", at: property.keyPath.location,
                hint: "write '{ keyPath: \(text), type: … }' with the Swift type the key path produces, e.g. 'Character?'"
            )
            return nil
        }
        return Projection.Property(name: property.name.value, keyPath: text, type: property.type?.value, doc: property.doc)
    }
}
