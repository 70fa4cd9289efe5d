import RemodelCore

/// Links between objects: keys of link targets, optional to-one links, links inside embedded
/// objects, and inverse relationships.
extension SchemaValidator {
    func checkObjectRelationships() {
        for object in objects {
            for property in object.properties where property.storedType?.objectName != nil || property.inverseOrigin != nil {
                // Where it was written, and what it is called in messages: only a problem reads them.
                func node() -> YAMLNode? { typeNode(of: object.name, property: property.name) }
                var what: String { "'\(object.name).\(property.name)'" }
                switch property.kind {
                case .stored(let type):
                    guard let targetName = type.objectName, let target = objectsByName[targetName] else { continue }
                    var targetLocation: SourceLocation? { node().map { nameLocation(in: $0, name: targetName) } }
                    if target.isEmbedded { continue }
                    if object.isEmbedded {
                        log.error(
                            "link-in-embedded", "embedded object '\(object.name)' cannot link to '\(targetName)' (property \(what))", at: targetLocation,
                            hint: "embedded objects are stored as JSON in their owner's row: move the link to the owner, or make '\(targetName)' embedded"
                        )
                        continue
                    }
                    if target.primaryKey == nil {
                        log.error(
                            "primary-key-missing", "property \(what) links to '\(targetName)', which has no primary key", at: targetLocation,
                            hint: "give '\(targetName)' a primary key (e.g. 'primaryKey: _id' with '_id: { type: uuid, default: $uuid }'), "
                                + "or mark it 'embedded: true' to store it inside '\(object.name)'; a Realm class without a key keeps its links: "
                                + "the Realm migration that `remodel generate --realm` writes gives each existing object a key of its own"
                        )
                    }
                    if type.collection == nil, !type.isOptional {
                        log.error(
                            "link-not-optional", "to-one link \(what) to '\(targetName)' must be optional", at: node()?.location,
                            hint: "write '\(targetName)?': the linked object can be deleted, which sets the link to null"
                        )
                    }
                case .inverse(let originType, let originProperty):
                    guard let node = node() else { continue }
                    checkInverse(of: object, property: property.name, origin: (originType, originProperty), node: node, what: what)
                }
            }
        }
    }

    /// The location of `name` in a type scalar such as `list<Dog?>`.
    private func nameLocation(in node: YAMLNode, name: String) -> SourceLocation {
        guard case .success(let expression) = TypeExpression.parse(node.scalar?.text ?? ""), expression.name == name else { return node.location }
        return location(in: node, offset: expression.nameOffset)
    }

    /// `Person.dogs` → ("Person", "dogs"), reporting anything else.
    func parseInverse(_ node: YAMLNode, what: @autoclosure () -> String) -> (type: String, property: String)? {
        let text = node.scalar?.text ?? ""
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        guard parts.count == 2, SwiftNames.isIdentifier(parts[0]), SwiftNames.isIdentifier(parts[1]) else {
            log.error(
                "inverse-syntax", "inverse of property \(what()) must be written 'Type.property', found '\(text)'", at: node.location,
                hint: "name the link it inverts, e.g. 'inverse: Person.dogs'"
            )
            return nil
        }
        return (parts[0], parts[1])
    }

    private func checkInverse(of object: ObjectType, property: String, origin: (type: String, property: String), node: YAMLNode, what: String) {
        if object.isEmbedded {
            log.error(
                "link-in-embedded", "embedded object '\(object.name)' cannot have an inverse relationship (property \(what))", at: node.location,
                hint: "embedded objects are stored as JSON in their owner's row and cannot be linked to: remove the property"
            )
            return
        }
        guard let originObject = objectsByName[origin.type] else {
            let hint = Suggestion.closest(to: origin.type, in: objects.map(\.name)).map { "did you mean '\($0)'?" } ?? "name an object type declared in the schema"
            log.error("unknown-type", "inverse of property \(what) names unknown object '\(origin.type)'", at: node.location, hint: hint)
            return
        }
        let propertyOffset = origin.type.unicodeScalars.count + 1
        guard let originProperty = originObject.property(named: origin.property) else {
            // A declared property whose type could not be resolved was already reported.
            if objectDeclarations[origin.type]?.properties.contains(where: { $0.name.value == origin.property }) == true { return }
            let links = originObject.properties.filter { $0.storedType?.objectName == object.name }.map(\.name)
            let hint =
                (Suggestion.closest(to: origin.property, in: originObject.properties.map(\.name)) ?? (links.count == 1 ? links[0] : nil))
                .map { "did you mean '\(origin.type).\($0)'?" } ?? "name a property of '\(origin.type)' that links to '\(object.name)'"
            log.error(
                "inverse-origin-unknown", "inverse of property \(what) names '\(origin.type).\(origin.property)', which does not exist",
                at: location(in: node, offset: propertyOffset),
                hint: hint
            )
            return
        }
        let type = originProperty.storedType
        guard let type, type.objectName == object.name, type.collection != .map else {
            let written = type.map { "'\($0)'" } ?? "an inverse relationship"
            log.error(
                "inverse-origin-not-link",
                "inverse of property \(what) names '\(origin.type).\(origin.property)', which is \(written), not a link to '\(object.name)'",
                at: location(in: node, offset: propertyOffset),
                hint: "an inverse names a property of type '\(object.name)?', 'list<\(object.name)>' or 'set<\(object.name)>'"
            )
            return
        }
    }
}
