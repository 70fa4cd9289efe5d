import RemodelCore
import RemodelStore

/// Property paths in steps: `name`, and through to-one links and embedded objects
/// `owner.name` or `home.street`, read at the step's point of the migration.
extension VersionPlanner {
    /// What a path reads: the property it starts with (current name) and the value at its end.
    struct PathRead {
        var path: [String]
        var name: String
        var value: RowValue
    }

    /// The value of `path` in `scope` (the rows of `target`), or an error at the step.
    mutating func read(_ path: String, in scope: PropertyScope, target: StepTarget, step: Int, field: String) -> PathRead? {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = components.first, let start = scope.value(named: first) else {
            if collectionError(components.first ?? path, in: scope, step: step, field: field) { return nil }
            let known = scope.values.keys.filter { !$0.hasSuffix("__remodel_removed") }.sorted()
            error("migration-unknown-property", "'\(scope.typeName)' has no property '\(components.first ?? path)' at this point of the migration", at: .step(step, field: field),
                  hint: Self.suggestion(components.first ?? path, in: known) ?? "known properties: \(known.joined(separator: ", "))")
            return nil
        }
        var value = start.value
        var walked = [first]
        for component in components.dropFirst() {
            let schema = schema(of: value)
            guard let objectName = value.type.objectName, value.type.collection == nil, let object = schema.objectType(named: objectName) else {
                error("migration-invalid-step", "'\(walked.joined(separator: "."))' is \(value.type), so '\(path)' cannot read '\(component)' through it", at: .step(step, field: field),
                      hint: value.type.collection != nil ? "paths go through to-one links and embedded objects, not collections" : "paths go through to-one links and embedded objects")
                return nil
            }
            if object.isEmbedded {
                guard let property = object.property(named: component), let type = property.storedType else {
                    error("migration-unknown-property", "the embedded '\(object.name)' has no property '\(component)'", at: .step(step, field: field),
                          hint: Self.suggestion(component, in: object.storedProperties.map(\.name)))
                    return nil
                }
                value = RowValue(expression: .function(.embeddedGet, [value.expression, .text(component), .text(type.description)]), type: type, isNew: value.isNew, isNonNull: false)
            } else {
                let linked = tables.first { value.isNew ? ($0.value.role == .continued && $0.value.newObject?.name == objectName) : $0.value.oldObject.name == objectName }
                guard let (linkedName, table) = linked, let key = table.keyColumn else {
                    error("migration-invalid-step", "'\(walked.joined(separator: "."))' links to '\(objectName)', which has no stored objects to read in this version", at: .step(step, field: field))
                    return nil
                }
                let current = linkedName == rowTable(target) ? scope : table.scope
                guard let read = current.value(named: component) else {
                    if collectionError(component, in: current, step: step, field: field) { return nil }
                    let known = current.values.keys.filter { !$0.hasSuffix("__remodel_removed") }.sorted()
                    error("migration-unknown-property", "'\(objectName)' has no property '\(component)' at this point of the migration", at: .step(step, field: field),
                          hint: Self.suggestion(component, in: known) ?? "known properties: \(known.joined(separator: ", "))")
                    return nil
                }
                let expression = SQLExpression.linked(SQLLinkedRead(table: linkedName, key: key, link: value.expression, value: read.value.expression))
                value = RowValue(expression: expression, type: read.value.type, isNew: read.value.isNew, isNonNull: false)
                if case .table(let reader) = target {
                    if linkedName == reader {
                        // A table's own rewrite must not see rows it has already rewritten: the
                        // linked values are kept before it starts.
                        let change = changes.lastIndex { if case .step(step, _) = $0.subject { true } else { false } }
                            ?? record(.plan(type: reader), .additive, "keep values of \(reader) read through links")
                        value = keep(value, table: reader, change: change)
                    } else {
                        tables[reader]?.reads.insert(linkedName)
                    }
                }
            }
            walked.append(component)
        }
        return PathRead(path: components, name: start.name, value: value)
    }

    /// Reports a path that names a collection (or an inverse relationship), which has no
    /// single value to read; `false` when `name` is no such property.
    private mutating func collectionError(_ name: String, in scope: PropertyScope, step: Int, field: String) -> Bool {
        guard let property = scope.newObject?.property(named: name) ?? scope.oldObject.property(named: name), property.storedType?.collection != nil || property.storedType == nil else {
            return false
        }
        let what = property.storedType.map { "\($0)" } ?? "an inverse relationship"
        error("migration-invalid-step", "'\(scope.typeName).\(name)' is \(what): steps read single values (and to-one links), not collections", at: .step(step, field: field),
              hint: "compare or copy single values; to work on collections, use a custom step")
        return true
    }

    /// `value` kept in a temporary table, keyed by the rows of `table`, computed before any
    /// table is rewritten.
    mutating func keep(_ value: RowValue, table: String, change: Int) -> RowValue {
        let name = temporaryName("value")
        schedule(.statement(.materialize(name: name, table: table, value: value.expression, where: nil)), in: .materialize, for: change)
        schedule(.statement(.dropTemporaryTable(name)), in: .cleanup, for: change)
        var kept = value
        kept.expression = .materialized(table: name)
        return kept
    }
}
