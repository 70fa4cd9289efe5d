import RemodelCore

/// Embedded objects: used somewhere, and not containing themselves.
///
/// Embedded objects become Swift structs held by value, so a chain of to-one embedded
/// properties that leads back to where it started (`Address.geo: Geo?`, `Geo.address:
/// Address?`) would make a struct contain itself, which Swift refuses. Lists, sets and maps
/// break the chain (they store their elements out of line), and links hold keys, not values.
extension SchemaValidator {
    /// Warns about embedded objects no property holds: they can never be stored.
    func checkUnusedEmbeddedObjects() {
        var held: Set<String> = []
        for object in objects {
            for property in object.properties {
                if let name = property.storedType?.objectName { held.insert(name) }
            }
        }
        for object in objects where object.isEmbedded && !held.contains(object.name) {
            log.warning(
                "embedded-unused", "embedded object '\(object.name)' is not held by any property, so it can never be stored", at: objectDeclarations[object.name]?.name.location,
                hint: "hold it in a property of another object (e.g. 'home: \(object.name)?'), or remove 'embedded: true'"
            )
        }
    }

    func checkEmbeddedCycles() {
        // Edges: embedded object → (property, embedded object it holds by value).
        var edges: [String: [(property: String, target: String)]] = [:]
        for object in objects where object.isEmbedded {
            for property in object.properties {
                guard let type = property.storedType, type.collection == nil, let target = type.objectName,
                    objectsByName[target]?.isEmbedded == true
                else { continue }
                edges[object.name, default: []].append((property.name, target))
            }
        }
        var reported: Set<String> = []
        for start in objects where start.isEmbedded && edges[start.name] != nil {
            // Depth-first search with an explicit stack of (object, path of "Type.property").
            var stack: [(name: String, path: [String])] = [(start.name, [])]
            var visited: Set<String> = []
            while let (name, path) = stack.popLast() {
                for edge in edges[name] ?? [] {
                    let step = path + ["\(name).\(edge.property)"]
                    if edge.target == start.name {
                        let cycle = Set(step)
                        guard reported.isDisjoint(with: cycle) else { continue }
                        reported.formUnion(cycle)
                        let last = step.last!.split(separator: ".").map(String.init)
                        let node = typeNode(of: last[0], property: last[1])
                        log.error(
                            "embedded-cycle", "embedded objects contain each other by value: \(step.joined(separator: " → ")) → \(start.name)", at: node?.location,
                            hint: "hold one side in a list (e.g. 'list<\(edge.target)>'), or make one of the types a linked object with a primary key"
                        )
                    } else if visited.insert(edge.target).inserted {
                        stack.append((edge.target, step))
                    }
                }
            }
        }
    }
}
