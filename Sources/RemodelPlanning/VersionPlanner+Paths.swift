import RemodelCore
import RemodelLayout

/// Property paths in steps: `name`, and through to-one links and embedded objects
/// `owner.name` or `home.street`, read at the step's point of the migration.
extension VersionPlanner {
    /// What a path reads: the property it starts with (current name) and the value at its end.
    struct PathRead {
        var path: [String]
        var name: String
        var value: RowValue
    }

    /// The value of `path` in `scope` (the rows of `target`), or an error at the step. A value
    /// read through a link into the target's own table is kept before the table is rewritten,
    /// unless `beforeRewrites` (a deletion's condition, evaluated before any rewrite).
    mutating func read(_ path: String, in scope: PropertyScope, target: StepTarget, step: Int, field: StepField, beforeRewrites: Bool = false) -> PathRead? {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = components.first, let start = scope.value(named: first) else {
            unreadable(components.first ?? path, of: scope.typeName, in: scope, step: step, field: field)
            return nil
        }
        var value = start.value
        var walked = [first]
        for component in components.dropFirst() {
            let schema = schema(of: value)
            guard let objectName = value.type.objectName, value.type.collection == nil, let object = schema.objectType(named: objectName) else {
                error(
                    "migration-invalid-step", "'\(walked.joined(separator: "."))' is \(value.type), so '\(path)' cannot read '\(component)' through it",
                    at: .step(step, field: field),
                    hint: value.type.collection != nil
                        ? "paths go through to-one links and embedded objects, not collections" : "paths go through to-one links and embedded objects")
                return nil
            }
            if object.isEmbedded {
                guard let property = object.property(named: component), let type = property.storedType else {
                    error(
                        "migration-unknown-property", "the embedded '\(object.name)' has no property '\(component)'", at: .step(step, field: field),
                        hint: Self.suggestion(component, in: object.storedProperties.map(\.name)))
                    return nil
                }
                value = RowValue(
                    expression: .function(.embeddedGet, [value.expression, .text(component), .text(type.description)]), type: type, isNew: value.isNew, isNonNull: false)
            } else {
                let linkedName = value.isNew ? continuedTableOfNewType[objectName] : tableOfOldType[objectName]
                guard let linkedName, let table = tables[linkedName], let key = table.keyColumn else {
                    error(
                        "migration-invalid-step", "'\(walked.joined(separator: "."))' links to '\(objectName)', which has no stored objects to read in this version",
                        at: .step(step, field: field))
                    return nil
                }
                let current = linkedName == rowTable(target) ? scope : table.scope
                guard let read = current.value(named: component) else {
                    unreadable(component, of: objectName, in: current, step: step, field: field)
                    return nil
                }
                let expression = SQLExpression.linked(SQLLinkedRead(table: linkedName, key: key, link: value.expression, value: read.value.expression))
                value = RowValue(expression: expression, type: read.value.type, isNew: read.value.isNew, isNonNull: false)
                if case .table(let reader) = target {
                    if linkedName != reader {
                        tables[reader]?.reads.insert(linkedName)
                    } else if !beforeRewrites {
                        // A table's own rewrite must not see rows it has already rewritten: the
                        // linked values are kept before it starts.
                        let change =
                            changes.lastIndex { if case .step(step, _) = $0.subject { true } else { false } }
                            ?? record(.plan(type: reader), .additive, "keep values of \(reader) read through links")
                        value = keep(value, table: reader, change: change)
                    }
                }
            }
            walked.append(component)
        }
        return PathRead(path: components, name: start.name, value: value)
    }

    /// Reports a path part that names no value of `scope` at this point: a collection (or an
    /// inverse relationship), which has no single value to read, or an unknown name.
    private mutating func unreadable(_ name: String, of typeName: String, in scope: PropertyScope, step: Int, field: StepField) {
        if let property = scope.newObject?.property(named: name) ?? scope.oldObject.property(named: name), property.storedType?.collection != nil || property.storedType == nil {
            let what = property.storedType.map { "\($0)" } ?? "an inverse relationship"
            error(
                "migration-invalid-step", "'\(scope.typeName).\(name)' is \(what): steps read single values (and to-one links), not collections", at: .step(step, field: field),
                hint: "compare or copy single values; to work on collections, use a custom step")
            return
        }
        let known = scope.values.keys.filter { !$0.hasSuffix("__remodel_removed") }.sorted()
        error(
            "migration-unknown-property", "'\(typeName)' has no property '\(name)' at this point of the migration", at: .step(step, field: field),
            hint: Self.suggestion(name, in: known) ?? "known properties: \(known.joined(separator: ", "))")
    }

    /// Moves the statements that fill the temporary tables `names` (planned in the
    /// `materialize` phase), and those of the tables their values read, to `phase`, in the
    /// order they were planned.
    mutating func moveMaterializations(of names: Set<String>, to phase: Phase) {
        guard !names.isEmpty else { return }
        var names = names
        for operation in scheduled[.materialize, default: []].reversed() {
            if case .statement(.materialize(let name, _, let value, let condition)) = operation.operation, names.contains(name) {
                names.formUnion(value.materializedTables.union(condition?.materializedTables ?? []))
            }
        }
        let fills = { (operation: ScheduledOperation) -> Bool in
            if case .statement(.materialize(let name, _, _, _)) = operation.operation { names.contains(name) } else { false }
        }
        let moved = scheduled[.materialize, default: []].filter(fills)
        scheduled[.materialize]?.removeAll(where: fills)
        scheduled[phase, default: []] += moved
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
