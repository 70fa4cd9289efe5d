import RemodelCore
import RemodelLayout

/// Steps that delete and create objects, and custom steps.
extension VersionPlanner {
    // MARK: - deleteObjects

    mutating func planDeletion(_ matches: [MigrationStep.PropertyMatch], step index: Int, table: inout TableState) {
        let step = migration.steps[index]
        let change = record(
            .step(index: index, step), .destructive, matches.isEmpty ? "delete every \(table.typeName)" : "delete \(table.typeName) objects where \(Self.describe(matches))")
        var conditions: [SQLExpression] = []
        for match in matches {
            guard
                let read = self.read(
                    match.property, in: table.scope, target: .table(table.name), step: index, field: StepField.key(.where).name(match.property), beforeRewrites: true)
            else {
                return
            }
            let writes = read.path.count == 1 ? table.scope.writes[read.name].map { [match.property: $0] } ?? [:] : [:]
            guard
                let condition = condition(match.condition, on: read.value, property: match.property, step: index, field: StepField.key(.where).name(match.property), writes: writes)
            else {
                return
            }
            conditions.append(condition)
        }
        let condition = SQLExpression.all(conditions) ?? .integer(1)
        // Values of earlier steps the condition reads are kept before the deletions run.
        moveMaterializations(of: condition.materializedTables, to: .materializeForDeletions)
        table.deletions.append(TableState.Deletion(choice: .matching(condition), change: change))
    }

    // MARK: - deduplicate

    mutating func planDeduplication(by names: [String], keep: MigrationStep.Keep, orderBy: String?, step index: Int, table: inout TableState) {
        let step = migration.steps[index]
        let order = orderBy.map { ", keeping the \(keep) by \($0), then by key" } ?? ", keeping the \(keep) by key"
        let change = record(
            .step(index: index, step), .destructive,
            "deduplicate \(table.typeName) by \(names.count == 1 ? names[0] : "(\(names.joined(separator: ", ")))")\(order); links to the others move to the kept one")
        var group: [SQLExpression] = []
        for (position, name) in names.enumerated() {
            let field = StepField.key(.by).position(position)
            guard isPropertyName(name, step: index, field: field),
                let read = self.read(name, in: table.scope, target: .table(table.name), step: index, field: field, beforeRewrites: true)
            else { return }
            guard read.value.type.collection == nil else {
                error(
                    "migration-invalid-step", "'\(name)' is \(read.value.type): a collection's values cannot make a group", at: .value(index, field: field),
                    hint: "group by single values: text, numbers, dates, enums or links")
                return
            }
            group.append(read.value.expression)
        }
        var ordering: [SQLOrdering] = []
        if let orderBy {
            let field = StepField.key(.orderBy)
            guard isPropertyName(orderBy, step: index, field: field),
                let read = self.read(orderBy, in: table.scope, target: .table(table.name), step: index, field: field, beforeRewrites: true)
            else { return }
            guard Self.isOrderable(read.value.type) else {
                error(
                    "migration-invalid-step", "'\(orderBy)' is \(read.value.type), which has no order to keep the \(keep) by", at: .value(index, field: field),
                    hint: "order by a number, a date, text or an enum; without orderBy the primary key decides")
                return
            }
            // String enums are stored as their cases' text, int enums as numbers.
            var text = read.value.type.scalar == .string || read.value.type.scalar == .url
            if case .enumeration(let name) = read.value.type.base { text = schema(of: read.value).enumType(named: name)?.rawType == .string }
            ordering.append(SQLOrdering(read.value.expression, descending: keep == .last, bytewise: text))
        }
        let reads = group.reduce(into: Set<String>()) { $0.formUnion($1.materializedTables) }.union(ordering.flatMap { $0.value.materializedTables })
        moveMaterializations(of: reads, to: .materializeForDeletions)
        table.deletions.append(TableState.Deletion(choice: .duplicates(group: group, order: ordering, descending: keep == .last), change: change))
    }

    /// Whether `name` names a property (not a path): `deduplicate` groups and orders by the
    /// type's own values.
    private mutating func isPropertyName(_ name: String, step: Int, field: StepField) -> Bool {
        guard name.contains(".") else { return true }
        error(
            "migration-invalid-step", "'\(name)' is a path, but deduplicate groups and orders by the type's own properties", at: .value(step, field: field),
            hint: "copy the value into a property of the type first (a set step), then name that property")
        return false
    }

    /// Whether values of `type` have an order a step can compare them by.
    static func isOrderable(_ type: PropertyType) -> Bool {
        guard type.collection == nil else { return false }
        switch type.base {
        case .scalar(let scalar): return scalar.isInteger || [.float, .double, .date, .string, .url, .decimal128].contains(scalar)
        case .enumeration: return true
        case .object: return false
        }
    }

    /// `content = ""`, `weight < 0`, `every object`.
    static func describe(_ matches: [MigrationStep.PropertyMatch]) -> String {
        matches.map { match in
            switch match.condition {
            case .equals(let value): "\(match.property) = \(CanonicalYAML.literal(value))"
            case .notEquals(let value): "\(match.property) ≠ \(CanonicalYAML.literal(value))"
            case .lessThan(let value): "\(match.property) < \(CanonicalYAML.literal(value))"
            case .lessThanOrEqual(let value): "\(match.property) ≤ \(CanonicalYAML.literal(value))"
            case .greaterThan(let value): "\(match.property) > \(CanonicalYAML.literal(value))"
            case .greaterThanOrEqual(let value): "\(match.property) ≥ \(CanonicalYAML.literal(value))"
            case .isIn(let values): "\(match.property) in [\(values.map(CanonicalYAML.literal).joined(separator: ", "))]"
            case .isNotIn(let values): "\(match.property) not in [\(values.map(CanonicalYAML.literal).joined(separator: ", "))]"
            case .contains(let text): "\(match.property) contains \(CanonicalYAML.quoted(text))"
            case .startsWith(let text): "\(match.property) starts with \(CanonicalYAML.quoted(text))"
            case .endsWith(let text): "\(match.property) ends with \(CanonicalYAML.quoted(text))"
            }
        }.joined(separator: " and ")
    }

    /// The SQL of one condition on a value. `null` matches `equals: null`, `not` and `notIn`
    /// (it is none of the values), and no ordering comparison.
    mutating func condition(
        _ condition: MigrationStep.Condition, on value: RowValue, property: String, step: Int, field: StepField,
        writes: [String: (step: StepReference, change: Int)]
    ) -> SQLExpression? {
        let v = value.expression
        func literal(_ literal: DefaultValue) -> SQLExpression? {
            var type = value.type
            type.isOptional = true
            do {
                return try StoredLiteral(schema: schema(of: value), nowMicroseconds: nowMicroseconds).expression(for: literal, type: type)
            } catch {
                // Steps run in file order: a value converted by an earlier step has its new type.
                let earlier = writes[property]
                let hint = earlier.map {
                    "'\(property)' is \(value.type) here, after \($0.step.label); to match its old values, put \(migration.steps[step].kind) before that step"
                }
                self.error("migration-invalid-value", "where \(property): \(error)", at: .value(step, field: field), hint: hint ?? (error as? StoredLiteral.Mismatch)?.hint)
                return nil
            }
        }
        func text(_ text: String) -> SQLExpression? {
            guard value.type.scalar == .string || value.type.scalar == .url, value.type.collection == nil else {
                error(
                    "migration-invalid-value", "where \(property): \(condition.keyword) compares text, but '\(property)' is \(value.type)", at: .value(step, field: field),
                    hint: "compare \(value.type) values with equals, in or an ordering (lt, gt, …)")
                return nil
            }
            return .text(text)
        }
        func ordered(_ literalValue: DefaultValue, _ op: SQLOperator) -> SQLExpression? {
            guard Self.isOrderable(value.type) else {
                error(
                    "migration-invalid-value", "where \(property): \(condition.keyword) compares an order, which \(value.type) values do not have", at: .step(step, field: field),
                    hint: "compare numbers, dates or text; use equals or in for other values")
                return nil
            }
            return literal(literalValue).map { .binary(op, v, $0) }
        }
        switch condition {
        case .equals(.null): return .isNull(v)
        case .notEquals(.null): return .isNotNull(v)
        case .equals(let value): return literal(value).map { .equals(v, $0) }
        case .notEquals(let value): return literal(value).map { .binary(.isNotIdentical, v, $0) }
        case .lessThan(let value): return ordered(value, .less)
        case .lessThanOrEqual(let value): return ordered(value, .lessOrEqual)
        case .greaterThan(let value): return ordered(value, .greater)
        case .greaterThanOrEqual(let value): return ordered(value, .greaterOrEqual)
        case .isIn(let values), .isNotIn(let values):
            var list: [SQLExpression] = []
            for value in values {
                guard let expression = literal(value) else { return nil }
                list.append(expression)
            }
            let nulls = list.contains(.null)
            list.removeAll { $0 == .null }
            if case .isIn = condition {
                let found = SQLExpression.inList(v, list, negated: false)
                return nulls ? .binary(.or, .isNull(v), found) : found
            }
            let notFound = SQLExpression.binary(.or, .isNull(v), .inList(v, list, negated: true))
            return nulls ? .binary(.and, .isNotNull(v), .inList(v, list, negated: true)) : notFound
        case .contains(let part):
            return text(part).map { .binary(.greater, .call(.position, v, $0), .integer(0)) }
        case .startsWith(let part):
            return text(part).map { .equals(.call(.substring, v, .integer(1), .call(.length, $0)), $0) }
        case .endsWith(let part):
            return text(part).map { .equals(.call(.substring, v, .binary(.minus, .integer(0), .call(.length, $0))), $0) }
        }
    }

    // MARK: - createObjects

    mutating func planCreatedObjects() {
        for (index, step) in migration.steps.enumerated() {
            guard case .createObjects(let typeName, let objects, let addTo) = step else { continue }
            guard let newName = resolveType(typeName, step: index) else { continue }
            let count = objects.count
            let change = record(
                .step(index: index, step), .dataDependent,
                "create \(count) \(newName) object\(count == 1 ? "" : "s")\(addTo.map { " and add \(count == 1 ? "it" : "them") to \($0.type).\($0.property) where \(Self.describe($0.where))" } ?? "")"
            )
            guard let object = new.objectType(named: newName) else {
                error(
                    "migration-unknown-type", "'\(newName)' is removed in version \(version), so no objects of it can be created", at: .step(index, field: .key(.type)),
                    hint: Self.suggestion(newName, in: new.objects.filter { !$0.isEmbedded }.map(\.name)) ?? "create objects of a type version \(version) has")
                continue
            }
            guard !object.isEmbedded, let layout = newLayout.table(named: newName) else {
                error(
                    "migration-invalid-step", "'\(newName)' is embedded: create its values with the objects that hold them", at: .step(index, field: .key(.type)),
                    hint: "create the objects that hold them, or fill the holders' values in a custom step")
                continue
            }
            // The keys of the new objects, made once so that links can refer to them.
            let keys = temporaryName("created")
            var keyRows: [[SQLExpression]] = []
            var rows: [[SQLExpression]] = []
            let columns = layout.columns
            var failed = false
            for (position, values) in objects.enumerated() {
                for value in values where object.property(named: value.property)?.storedType == nil {
                    error(
                        "migration-unknown-property", "'\(newName)' has no property '\(value.property)' in version \(version)",
                        at: .step(index, field: StepField.key(.objects).position(position).name(value.property)),
                        hint: Self.suggestion(value.property, in: object.storedProperties.map(\.name)))
                    failed = true
                }
                var row: [SQLExpression] = []
                for column in columns {
                    let given = values.first { $0.property == column.name }?.value
                    let field = given == nil ? StepField.key(.objects).position(position) : StepField.key(.objects).position(position).name(column.name)
                    var value: SQLExpression
                    if let given {
                        guard let stored = storedExpression(given, type: column.type, step: index, field: field) else {
                            failed = true
                            continue
                        }
                        value = stored
                    } else if let defaultValue = object.property(named: column.name)?.defaultValue {
                        guard let stored = storedExpression(defaultValue, type: column.type, step: nil, blame: .schema(type: newName, member: column.name)) else {
                            failed = true
                            continue
                        }
                        value = stored
                    } else if column.type.isOptional {
                        value = .null
                    } else {
                        error(
                            "migration-missing-value", "new \(newName) object \(position + 1) has no value for '\(column.name)', which is required and has no default",
                            at: .step(index, field: field),
                            hint: "give it one: { \(column.name): … }, or a `default:` in the schema")
                        failed = true
                        continue
                    }
                    if column.isPrimaryKey {
                        if value.isLiteral, let earlier = keyRows.firstIndex(where: { $0[1] == value }) {
                            error(
                                "migration-duplicate-key",
                                "new \(newName) objects \(earlier + 1) and \(position + 1) have the same primary key \(given.map(CanonicalYAML.literal) ?? "(the default)")",
                                at: given == nil ? .step(index, field: field) : .value(index, field: field), hint: "give each new object its own '\(column.name)'")
                            failed = true
                        }
                        keyRows.append([.integer(Int64(position)), value])
                        value = .subquery(SQLSelect([.column("key")], from: keys, where: .equals(.column("position"), .integer(Int64(position)))))
                    }
                    row.append(value)
                }
                rows.append(row)
            }
            guard !failed else { continue }
            var statements: [SQLStatement] = []
            if let first = keyRows.first, let key = layout.primaryKey {
                schedule(
                    [.createTemporaryTable(name: keys, SQLSelect([SQLSelect.Column(first[0], as: "position"), SQLSelect.Column(first[1], as: "key")], from: nil))]
                        + (keyRows.count > 1 ? [.insertValues(table: keys, columns: ["position", "key"], rows: Array(keyRows.dropFirst()))] : []),
                    in: .createObjects, for: change)
                // A key that an object already has (after the version's other steps); a
                // generated key cannot be.
                let taken = SQLExpression.inSelect(.column(key.name), SQLSelect([.column("key")], from: keys))
                if keyRows.contains(where: { $0[1].isLiteral }) {
                    let check = PendingCheck(
                        property: key.name, step: reference(index).label, problem: "a primary key that a new object of createObjects also has",
                        hint: "give the new objects other keys in the step, or delete the existing ones first with deleteObjects",
                        condition: taken, shown: .column(key.name), change: change
                    )
                    schedule(.check(dataCheck(check, type: newName, from: newName, key: .column(key.name), condition: taken)), in: .createObjects, for: change)
                }
            }
            statements.append(.insertValues(table: newName, columns: columns.map(\.name), rows: rows))
            if let addTo {
                guard let links = linkStatements(addTo, to: newName, keys: keys, count: objects.count, step: index) else { continue }
                statements += links
            }
            if !keyRows.isEmpty { statements.append(.dropTemporaryTable(keys)) }
            schedule(statements, in: .createObjects, for: change)
            linksChanged = true
        }
    }

    /// Links the created objects (keys in `keys`) from `target.type.target.property` of the
    /// objects `target.where` selects, as they are after the version's rewrite.
    private mutating func linkStatements(_ target: MigrationStep.LinkTarget, to type: String, keys: String, count: Int, step: Int) -> [SQLStatement]? {
        guard let ownerName = resolveType(target.type, step: step, field: StepField.key(.addTo).key(.type)) else { return nil }
        guard let owner = new.objectType(named: ownerName), let layout = newLayout.table(named: ownerName), let ownerKey = layout.primaryKey else {
            let why =
                new.objectType(named: ownerName)?.isEmbedded == true
                ? "it is embedded (its values live inside other objects)" : "it has no primary key, so its collections have nothing to attach to"
            error(
                "migration-invalid-step", "'\(ownerName)' cannot hold the new objects: \(why)", at: .step(step, field: StepField.key(.addTo).key(.type)),
                hint: "add them to a property of an object type with a primary key")
            return nil
        }
        guard let property = owner.property(named: target.property), let propertyType = property.storedType, propertyType.objectName == type else {
            let candidates = owner.storedProperties.filter { $0.storedType?.objectName == type }.map(\.name)
            let found = owner.property(named: target.property)
            let problem =
                found.map { "'\(ownerName).\(target.property)' is \($0.storedType.map { "\($0)" } ?? "an inverse relationship"), not a link to \(type)" }
                ?? "'\(ownerName)' has no property '\(target.property)' that links to \(type)"
            error(
                "migration-invalid-step", problem, at: .step(step, field: StepField.key(.addTo).key(.property)),
                hint: candidates.isEmpty ? "add a \(type)?, list<\(type)> or set<\(type)> property to \(ownerName)" : "links to \(type): \(candidates.joined(separator: ", "))")
            return nil
        }
        var conditions: [SQLExpression] = []
        for match in target.where {
            guard let type = owner.property(named: match.property)?.storedType, layout.column(named: match.property) != nil else {
                error(
                    "migration-unknown-property", "'\(ownerName)' has no property '\(match.property)' to choose the objects by",
                    at: .step(step, field: StepField.key(.addTo).key(.where).name(match.property)),
                    hint: Self.suggestion(match.property, in: layout.columnNames))
                return nil
            }
            let value = RowValue(expression: .column(match.property), type: type, isNew: true, isNonNull: !type.isOptional)
            guard
                let condition = condition(
                    match.condition, on: value, property: match.property, step: step, field: StepField.key(.addTo).key(.where).name(match.property), writes: [:])
            else {
                return nil
            }
            conditions.append(condition)
        }
        let condition = SQLExpression.all(conditions)
        func key(_ position: Int) -> SQLExpression {
            .subquery(SQLSelect([.column("key")], from: keys, where: .equals(.column("position"), .integer(Int64(position)))))
        }
        switch propertyType.collection {
        case nil:
            guard count == 1 else {
                error(
                    "migration-invalid-step", "'\(ownerName).\(target.property)' links to one \(type), but the step creates \(count)",
                    at: .step(step, field: StepField.key(.addTo).key(.property)),
                    hint: "create one object per step for a to-one link")
                return nil
            }
            return [.update(table: ownerName, assignments: [SQLAssignment(target.property, key(0))], where: condition)]
        case .list, .set:
            guard let side = layout.sideTable(property: target.property) else { return nil }
            return (0..<count).map { position in
                var columns: [SQLSelect.Column] = [SQLSelect.Column(.column(ownerKey.name))]
                var names = ["owner"]
                if side.kind == .list {
                    let next = SQLSelect(
                        [.call(.coalesce, .binary(.plus, .call(.max, .column("position")), .integer(1)), .integer(0))],
                        from: side.name, where: .equals(.column("owner"), .outer(.column(ownerKey.name))))
                    columns.append(SQLSelect.Column(.subquery(next)))
                    names.append("position")
                }
                columns.append(SQLSelect.Column(key(position)))
                names.append("value")
                return .insertSelect(table: side.name, columns: names, SQLSelect(columns, from: SQLSelect.Source(ownerName), where: condition))
            }
        case .map:
            error(
                "migration-unsupported-step", "'\(ownerName).\(target.property)' is a map, which needs a key for each new object",
                at: .step(step, field: StepField.key(.addTo).key(.property)),
                hint: "use a custom step to fill maps")
            return nil
        }
    }

    // MARK: - custom

    mutating func planCustomSteps() {
        for (index, step) in migration.steps.enumerated() {
            guard case .custom(let name, let typeName, let reads, _) = step else { continue }
            let change = record(.step(index: index, step), .dataDependent, "run custom step '\(name)' on every \(typeName ?? "object")")
            guard customSteps.contains(name) else {
                error(
                    "migration-custom-step-unavailable", "custom step '\(name)' is a Swift closure, which this program does not have", at: .step(index),
                    hint:
                        "run this migration in the app (register the closure with Migrator.register), or with a remodel of your own that registers '\(name)' (RemodelTool; the manual's 'Migration files and steps': custom)"
                )
                continue
            }
            guard let typeName else {
                error("migration-invalid-step", "custom step '\(name)' needs `type:` naming the objects it visits", at: .step(index))
                continue
            }
            guard let newName = resolveType(typeName, step: index) else { continue }
            if case .custom(_, _, _, let writes) = step, let object = new.objectType(named: newName) {
                for property in writes where object.property(named: property)?.storedType == nil {
                    error(
                        "migration-unknown-property", "custom step '\(name)' writes '\(property)', which '\(newName)' does not store in version \(version)",
                        at: .step(index, field: .key(.writes)),
                        hint: Self.suggestion(property, in: object.storedProperties.map(\.name)) ?? "name properties of \(newName) in `writes:`")
                }
            }
            guard let table = tables.values.first(where: { $0.role == .continued && $0.newObject?.name == newName }) else {
                error(
                    "migration-invalid-step",
                    "custom step '\(name)' visits the objects of '\(typeName)', which \(new.objectType(named: newName) == nil ? "version \(version) removes" : "version \(version - 1) does not have as a table")",
                    at: .step(index, field: .key(.type)),
                    hint: "name a type that exists before and after this version; for values of a type it removes, read them with `reads:` from a step on a type that stays")
                continue
            }
            guard let key = table.newObject?.primaryKey, let oldKey = table.oldObject.primaryKey, table.properties.old(for: key) == oldKey else {
                error(
                    "migration-invalid-step", "custom step '\(name)' needs '\(typeName)' to keep its primary key through this version, to match each old object with its new one",
                    at: .step(index, field: .key(.type)),
                    hint: "change the primary key in a version of its own, before or after the custom step")
                continue
            }
            var snapshots: [String: CustomSnapshot] = [:]
            for oldName in [table.oldObject.name] + reads {
                // By its old name first: in a swap of names, that is the type the step means.
                let ordered = tableOrder.compactMap { tables[$0] }
                guard let read = ordered.first(where: { $0.oldObject.name == oldName }) ?? ordered.first(where: { $0.newObject?.name == oldName }) else {
                    let known = old.objects.filter { !$0.isEmbedded }.map(\.name)
                    error(
                        "migration-unknown-type", "version \(version - 1) has no object type '\(oldName)' for custom step '\(name)' to read", at: .step(index, field: .key(.reads)),
                        hint: Self.suggestion(oldName, in: known))
                    continue
                }
                guard snapshots[read.oldObject.name] == nil else { continue }
                let copy = temporaryName("old")
                var sideTables: [String: SideTableSnapshot] = [:]
                // Snapshots are taken first, while every table has its old name.
                schedule(.statement(.createTemporaryTable(name: copy, .everything(from: read.oldTable.name))), in: .snapshot, for: change)
                for side in read.oldTable.sideTables {
                    let sideCopy = temporaryName("old")
                    schedule(.statement(.createTemporaryTable(name: sideCopy, .everything(from: side.name))), in: .snapshot, for: change)
                    schedule(.statement(.dropTemporaryTable(sideCopy)), in: .cleanup, for: change)
                    sideTables[side.property] = SideTableSnapshot(table: sideCopy, kind: side.kind)
                }
                schedule(.statement(.dropTemporaryTable(copy)), in: .cleanup, for: change)
                snapshots[read.oldObject.name] = CustomSnapshot(
                    table: copy,
                    layout: TableLayoutSnapshot(
                        columns: read.oldTable.columnNames, key: read.oldObject.primaryKey, sideTables: sideTables
                    ))
            }
            schedule(
                .custom(CustomCall(name: name, type: newName, step: reference(index).label, snapshots: snapshots, oldType: table.oldObject.name, key: key, oldKey: oldKey)),
                in: .custom, for: change)
            // The closure may write links and create objects: every link is checked at the end.
            linksChanged = true
        }
    }
}
