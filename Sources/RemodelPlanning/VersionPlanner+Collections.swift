import RemodelCore
import RemodelLayout

/// `convert` of a list or set between values and objects: `tags: list<string>` becomes
/// `list<Tag>` (each element a link to the `Tag` whose primary key is the value; with
/// `onError: create` a `Tag` is made for each distinct value no `Tag` has), and back (each link
/// becomes its target's primary key). A list keeps its order; the side table is rewritten once.
extension VersionPlanner {
    mutating func convertElements(_ property: String, to: PropertyType, onError: MigrationStep.ConversionFailure, target: StepTarget, step index: Int, change: Int) {
        let scope = scope(of: target)
        let typeName = scope.typeName
        guard case .table(let name) = target, let table = tables[name], let newObject = table.newObject else {
            error(
                "migration-unsupported-step", "'\(typeName)' is embedded, and an embedded object's collections hold values only", at: .step(index, field: .key(.type)),
                hint: "convert the collections of object types")
            return
        }
        guard let declared = newObject.property(named: property)?.storedType, let newSide = table.newTable?.sideTable(property: property) else {
            error(
                "migration-unknown-property", "'\(typeName)' has no collection '\(property)' in version \(version)", at: .step(index, field: .key(.property)),
                hint: Self.suggestion(property, in: newObject.storedProperties.filter { $0.storedType?.collection != nil }.map(\.name)) ?? "add '\(property)' to the schema first")
            return
        }
        guard declared == to else {
            error(
                "migration-convert-mismatch", "the step converts '\(typeName).\(property)' to \(to), but version \(version) declares it \(declared)",
                at: .step(index, field: .key(.to)),
                hint: "make the step's `to:` match the schema")
            return
        }
        guard let oldSide = table.oldSideTable(forNew: property) else {
            error(
                "migration-unknown-property", "'\(typeName).\(property)' is new in version \(version), so it has no elements to convert", at: .step(index, field: .key(.property)),
                hint: "rename the old collection to it first (renameProperty or renamedFrom)")
            return
        }
        guard oldSide.kind == newSide.kind else {
            error(
                "migration-unsupported-change",
                "'\(typeName).\(property)' changes from a \(oldSide.kind.rawValue) to a \(newSide.kind.rawValue); convert keeps the collection's kind",
                at: .step(index, field: .key(.to)), hint: Self.customWritesHint(type: typeName, property: property))
            return
        }
        let element = RowValue.column("value", type: oldSide.type.element)
        let from = oldSide.type.element
        let into = PropertyType(to.base)
        let value: SQLExpression
        switch (from.objectName.flatMap { old.objectType(named: $0) }, into.objectName.flatMap { new.objectType(named: $0) }) {
        case (nil, let object?) where !object.isEmbedded:
            guard let linked = elementLinks(element, to: object, onError: onError, property: property, table: name, side: newSide, step: index, change: change) else { return }
            value = linked
            changes[change].summary =
                "convert the elements of \(typeName).\(property) from \(from) to links to \(object.name)"
                + (onError == .create ? ", creating a \(object.name) for each distinct value no \(object.name) has as its key" : " (onError: fail)")
        case (let object?, nil) where !object.isEmbedded:
            guard onError == .fail, let conversion = Conversion.between(from, in: old, into, in: new, operand: element.expression) else {
                error(
                    "migration-unsupported-conversion",
                    onError == .fail ? "cannot convert links to \(object.name) to \(into)" : "onError: \(onError.rawValue) does not apply to links becoming values",
                    at: .step(index, field: .key(onError == .fail ? .to : .onError)),
                    hint: "links become the primary key of the object they point at: convert to its type, with onError: fail")
                return
            }
            if let test = conversion.test {
                require(
                    PendingCheck(
                        property: property, step: reference(index).label, problem: "elements whose object's key cannot be converted to \(into)",
                        hint: "convert to the key's own type", condition: .binary(.and, .isNotNull(element.expression), test.negated), shown: element.expression, change: change,
                        place: (currentName(of: oldSide, in: table), .column("owner"))), at: target)
            }
            value = conversion.value
            changes[change].summary = "convert the elements of \(typeName).\(property) from links to \(object.name) to their keys (\(into))"
        default:
            error(
                "migration-unsupported-conversion", "convert changes a collection's elements between values and objects only, not from \(from) to \(into)",
                at: .step(index, field: .key(.to)), hint: "use a custom step to convert the elements")
            return
        }
        tables[name]!.elementValues[property] = RowValue(expression: value, type: into, isNew: true, isNonNull: true)
        changes[change].assignments = [TableAssignment(table: newSide.name, column: "value", value: value)]
        linksChanged = true
    }

    /// The link each value element becomes: its target's key. With `onError: fail` an element
    /// whose value no object has is a data error; with `create`, an object is made for it once
    /// the side table is rewritten (other properties their defaults).
    private mutating func elementLinks(
        _ element: RowValue, to object: ObjectType, onError: MigrationStep.ConversionFailure, property: String, table: String, side: SideTableLayout, step index: Int,
        change: Int
    ) -> SQLExpression? {
        guard let keyType = object.primaryKeyProperty?.storedType, newLayout.table(named: object.name)?.primaryKey != nil else {
            error(
                "migration-unsupported-conversion", "'\(object.name)' has no primary key for the values to name", at: .step(index, field: .key(.to)),
                hint: "give \(object.name) a primary key that the values can be")
            return nil
        }
        guard let toKey = Conversion.between(element.type, in: old, PropertyType(keyType.base), in: new, operand: element.expression) else {
            error(
                "migration-unsupported-conversion", "cannot convert \(element.type) to the primary key of \(object.name) (\(PropertyType(keyType.base)))",
                at: .step(index, field: .key(.to)),
                hint: "convert the values to the key's type first, or link them with a custom step")
            return nil
        }
        let tableState = tables[table]!
        let oldSide = tableState.oldSideTable(forNew: property)!
        let place = (currentName(of: oldSide, in: tableState), SQLExpression.column("owner"))
        switch onError {
        case .create:
            if let test = toKey.test {
                require(
                    PendingCheck(
                        property: property, step: reference(index).label,
                        problem: "elements that cannot be converted to the primary key of \(object.name) (\(PropertyType(keyType.base)))",
                        hint: (Conversion.acceptedValues(of: keyType).map { $0 + "; " } ?? "") + "fix the values first",
                        condition: .binary(.and, .isNotNull(element.expression), test.negated), shown: element.expression, change: change, place: place), at: .table(table))
            }
            if let continued = continuedTableOfNewType[object.name], changedKey(of: continued) != nil {
                error(
                    "migration-unsupported-change",
                    "'\(object.name)' changes its primary key in version \(version), so values cannot become links to its objects in the same version",
                    at: .step(index, field: .key(.to)), hint: "change the key in one version and convert in the next")
                return nil
            }
            // After the side table's rewrite its values are keys: one object for each that no object has.
            guard createMissingObjects(object, keysIn: side.name, column: "value", step: index, change: change) else { return nil }
            return toKey.value(orElse: .null)
        case .fail:
            guard let continued = continuedTableOfNewType[object.name], let oldKey = tables[continued]?.keyColumn else {
                error(
                    "migration-unsupported-conversion", "'\(object.name)' is new in version \(version), so no object has a key for the values to name",
                    at: .step(index, field: .key(.onError)), hint: "use onError: create to make a \(object.name) for each distinct value")
                return nil
            }
            let newKey = changedKey(of: continued)?.value.expression ?? .column(oldKey)
            let linked = SQLExpression.linked(SQLLinkedRead(table: continued, key: oldKey, link: toKey.value(orElse: .null), value: newKey))
            if continued != table { tables[table]?.reads.insert(continued) }
            require(
                PendingCheck(
                    property: property, step: reference(index).label, problem: "elements that are no \(object.name)'s primary key, so they cannot become links to one",
                    hint: "use onError: create to make the missing \(object.name) objects, or fix the values",
                    condition: .binary(.and, .isNotNull(element.expression), .isNull(linked)),
                    shown: element.expression, change: change, place: place), at: .table(table))
            return linked
        case .null, .default:
            error(
                "migration-invalid-step", "onError: \(onError.rawValue) does not apply to the elements of a collection: an element is a link to an object or is not there",
                at: .step(index, field: .key(.onError)), hint: "use onError: fail (every value must be an object's key) or onError: create")
            return nil
        }
    }

    /// `convert … onError: create`: once `table` is rewritten, an `object` for each distinct
    /// key in its `column` that no object has, every other property its default, or null.
    /// `false` after an error (a required property without a default).
    mutating func createMissingObjects(_ object: ObjectType, keysIn table: String, column keyColumn: String, step index: Int, change: Int) -> Bool {
        guard let layout = newLayout.table(named: object.name), let key = layout.primaryKey else { return false }
        var columns: [String] = []
        var values: [SQLExpression] = []
        for column in layout.columns {
            columns.append(column.name)
            if column.name == key.name {
                values.append(.column(keyColumn))
            } else if let defaultValue = object.property(named: column.name)?.defaultValue {
                guard let stored = storedExpression(defaultValue, type: column.type, step: nil, blame: .schema(type: object.name, member: column.name)) else { return false }
                values.append(stored)
            } else if column.type.isOptional {
                values.append(.null)
            } else {
                error(
                    "migration-missing-value",
                    "'\(object.name).\(column.name)' is required and has no default, so the \(object.name) objects step \(index + 1) creates would have no value",
                    at: .schema(type: object.name, member: column.name), hint: "add `default:` to '\(column.name)', or make it optional")
                return false
            }
        }
        let missing = SQLExpression.binary(.and, .isNotNull(.column(keyColumn)), .not(.inSelect(.column(keyColumn), SQLSelect([.column(key.name)], from: layout.name))))
        // In key order on both engines (a GROUP BY alone leaves PostgreSQL's order undefined).
        let select = SQLSelect(
            values.map { SQLSelect.Column($0) }, from: SQLSelect.Source(table), where: missing, groupBy: [.column(keyColumn)], orderBy: [.column(keyColumn)])
        schedule(.statement(.insertSelect(table: layout.name, columns: columns, select)), in: .createObjects, for: change)
        return true
    }
}
