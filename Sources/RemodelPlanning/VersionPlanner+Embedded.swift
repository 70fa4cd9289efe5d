import RemodelCore
import RemodelLayout

/// An embedded type (in either version) during the planning of a version: how the JSON stored
/// for it in its owners changes.
///
/// Its properties' values are expressions over the JSON value, `.column(EmbeddedState.container)`,
/// and are placed into every owner column or side table that holds one.
struct EmbeddedState {
    /// How the type changes.
    enum Kind {
        /// Embedded before and after: its JSON is rewritten if its shape or a step changes it.
        case reshape
        /// A table before, embedded after: its rows become JSON in the objects that link to
        /// them (the table's `TableState` holds the values).
        case fromTable(String)
        /// Embedded before, a table after: its values become rows of the new table.
        case toTable
    }

    /// The pseudo-column that stands for the embedded JSON value in `scope`'s expressions.
    static let container = "\u{1}embedded"

    var kind: Kind
    var scope: PropertyScope
    /// Whether the stored JSON must change (shape, steps or a nested type's change).
    var changesJSON = false
}

/// Values of an embedded type that become objects of their own: where they are, and the
/// temporary table holding the key each one gets.
struct Unembedding {
    var container: VersionPlanner.Container
    /// The embedded JSON, in the container's rows.
    var json: SQLExpression
    var keys: String
    var change: Int
    /// Whether the key is a value of the embedded type's own (not generated), so that two
    /// values may claim the same key.
    var ownKey: Bool
}

extension VersionPlanner {
    mutating func prepareEmbedded() {
        for newObject in new.objects {
            guard let originName = diff.types.old(for: newObject.name), let oldObject = old.objectType(named: originName) else { continue }
            let properties = diff.properties[newObject.name] ?? RenameMap()
            switch (oldObject.isEmbedded, newObject.isEmbedded) {
            case (false, false):
                continue
            case (false, true):
                guard let table = embeddingTable(of: originName) else { continue }
                embedded[newObject.name] = EmbeddedState(
                    kind: .fromTable(table), scope: PropertyScope(oldObject: oldObject, newObject: newObject, properties: properties), changesJSON: true)
            case (true, _):
                var scope = PropertyScope(oldObject: oldObject, newObject: newObject, properties: properties)
                for property in oldObject.storedProperties {
                    guard let type = property.storedType else { continue }
                    let key = properties.new(for: property.name) ?? property.name
                    if scope.values[key] != nil { continue }
                    let read = SQLExpression.function(.embeddedGet, [.column(EmbeddedState.container), .text(property.name), .text(type.description)])
                    scope.values[key] = RowValue(expression: read, type: type, isNew: false, isNonNull: !type.isOptional && type.collection == nil && property.defaultValue == nil)
                }
                // The JSON keys are the property names: a rename alone changes it.
                let shapeChanged = Self.storageShape(oldObject) != Self.storageShape(newObject)
                embedded[newObject.name] = EmbeddedState(kind: newObject.isEmbedded ? .reshape : .toTable, scope: scope, changesJSON: shapeChanged || !newObject.isEmbedded)
            }
        }
    }

    /// What of a type affects its stored JSON: the names (its keys) and types of its stored
    /// properties. (A renamed nested type compares as changed: rewriting is then merely
    /// unnecessary, never wrong.)
    static func storageShape(_ object: ObjectType) -> [String] {
        object.storedProperties.map { "\($0.name):\($0.storedType!.description)" }.sorted()
    }

    /// Whether the JSON of embedded type `name` (new name) changes in this version, through
    /// its own changes or a nested type's.
    func embeddedChanges(_ name: String, visited: Set<String> = []) -> Bool {
        guard let state = embedded[name], !visited.contains(name) else { return false }
        if state.changesJSON { return true }
        return state.scope.newObject?.storedProperties.contains { property in
            property.storedType?.objectName.map { embeddedChanges($0, visited: visited.union([name])) } ?? false
        } ?? false
    }

    /// The new JSON of an embedded value whose old JSON is `container` (in the owner's row),
    /// or `container` itself when the type does not change.
    func reshapedJSON(_ name: String, container: SQLExpression) -> SQLExpression {
        guard embeddedChanges(name), let state = embedded[name], let newObject = state.scope.newObject else { return container }
        let values = newObject.storedProperties.map { property -> SQLExpression in
            let value = jsonArgument(property, scope: state.scope)
            return value.replacingColumns { $0 == EmbeddedState.container ? container : .column($0) }
        }
        let json = SQLExpression.function(.embeddedJSON, [.text(newObject.name)] + values)
        return .caseWhen(operand: nil, branches: [SQLCaseBranch(.isNull(container), .null)], otherwise: json)
    }

    /// One property's value as `embeddedJSON` takes it: its stored form in the finished scope,
    /// where a nested embedded value is already reshaped (once: reshaping it again would apply
    /// its steps twice).
    func jsonArgument(_ property: Property, scope: PropertyScope) -> SQLExpression {
        scope.values[property.name]?.expression ?? .null
    }
}
