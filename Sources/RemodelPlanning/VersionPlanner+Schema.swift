import RemodelCore
import RemodelLayout

/// Changes the diff finds that no step made: every new property gets a value (its continued
/// value in its new stored form, its default, or an error), links follow their targets into
/// and out of embedded objects, and removals are reported.
extension VersionPlanner {
    /// A place that holds values of one type: a column of a table, or a side table's `value`.
    struct Container {
        /// The table holding it (current name): an object table or a side table.
        var table: String
        /// The column: the property's column, or `value` in a side table.
        var column: String
        /// The type and property it belongs to (new names), for messages.
        var owner: String
        var property: String
        /// Whether it is a side table (elements of a collection).
        var isSideTable: Bool
        /// The primary key of the owning object, for messages (`owner` in a side table).
        var ownerKey: SQLExpression
        var ownerKeyType: PropertyType
        /// The table of the owning objects and their key column (current names): a data
        /// error about elements counts the objects that hold them.
        var ownerTable: (name: String, key: String)? = nil
        /// For a type nested in another embedded type's member: its value inside the column's
        /// JSON (old names), in place of the column.
        var read: SQLExpression? = nil
    }

    mutating func completeTables() {
        // What the owners' values are built from comes first: types that become embedded,
        // then the embedded types' own values, then the tables that hold them.
        var done: Set<StepTarget> = []
        for name in tableOrder {
            guard let table = tables[name] else { continue }
            switch table.role {
            case .removed:
                let change = record(
                    SchemaChange(.objectRemoved(table.oldObject.name), impact: .destructive), "remove type \(table.oldObject.name) and all its objects",
                    type: table.oldObject.name, old: true)
                removedTypeChanges[name] = change
            case .embedding:
                completeEmbeddedScope(of: .table(name), done: &done)
            case .continued:
                break
            }
        }
        for name in embedded.keys.sorted() {
            if case .fromTable = embedded[name]!.kind { continue }
            completeEmbeddedScope(of: .embedded(name), done: &done)
        }
        for name in tableOrder where tables[name]?.role == .continued {
            completeScope(of: .table(name))
            completeElements(name)
            completePrimaryKey(name)
        }
        planEmbeddingChecks()
    }

    /// Completes the scope of a type whose values become embedded JSON (an embedded type, or
    /// a table becoming one) after the embedded types it holds: a holder's JSON is built from
    /// their new values, so each is reshaped once, by its own finished scope.
    private mutating func completeEmbeddedScope(of target: StepTarget, done: inout Set<StepTarget>) {
        guard done.insert(target).inserted else { return }
        for property in scope(of: target).newObject?.storedProperties ?? [] {
            guard let nested = property.storedType?.objectName, let state = embedded[nested] else { continue }
            let dependency: StepTarget = if case .fromTable(let table) = state.kind { .table(table) } else { .embedded(nested) }
            completeEmbeddedScope(of: dependency, done: &done)
        }
        completeScope(of: target)
        if case .embedded(let name) = target { refuseNestedCollectionChanges(in: name) }
    }

    /// A collection of embedded objects inside another embedded type is JSON inside JSON, which
    /// the plan cannot rewrite or check element by element: refused when its element type
    /// changes or must be checked, rather than left as it was.
    private mutating func refuseNestedCollectionChanges(in name: String) {
        guard let holder = embedded[name]?.scope.newObject, holder.isEmbedded else { return }
        for property in holder.storedProperties {
            guard let type = property.storedType, type.collection != nil, let element = type.objectName, embedded[element] != nil else { continue }
            let checked = !(pendingChecks[.embedded(element)] ?? []).isEmpty
            let changed = embeddedChanges(element)
            guard changed || checked else { continue }
            let what = [changed ? "changes" : nil, checked ? "must check" : nil].compactMap { $0 }.joined(separator: " and ")
            // The property of a stored object the JSON is in: a custom step can write it whole.
            let hint =
                containers(holding: name).first.map { container in
                    let property = String(container.property.prefix { $0 != "." })
                    return "keep \(element) unchanged in this version; or, for \(container.owner).\(property), "
                        + Self.customWritesHint(type: container.owner, property: property)
                } ?? "keep \(element) unchanged in this version, or give the objects that hold \(name) their values with a custom step"
            error(
                "migration-unsupported-change",
                "'\(name).\(property.name)' holds \(element) values inside embedded objects, and version \(version) \(what) them; Remodel cannot rewrite or check the elements of a collection nested in an embedded object",
                at: .schema(type: name, member: property.name), hint: hint)
        }
    }

    /// Gives every new single-value property of the target a value.
    private mutating func completeScope(of target: StepTarget) {
        var scope = scope(of: target)
        guard let newObject = scope.newObject else { return }
        let typeName = newObject.name
        for property in newObject.properties {
            guard let type = property.storedType, type.collection == nil else { continue }
            let name = property.name
            if let write = scope.writes[name] {
                let value = scope.values[name]!
                if !type.isOptional && !value.isNonNull {
                    require(
                        PendingCheck(
                            property: name, step: write.step.label, problem: "a null value, but the property is required",
                            hint: "make '\(name)' optional, or give the step a value for every object", condition: .isNull(value.expression), shown: value.expression,
                            change: write.change), at: target)
                }
                continue
            }
            if case .table = target, let custom = customStep(writing: name, of: typeName) {
                if let start = customStart(property, type: type, typeName: typeName, step: custom) { scope.values[name] = start }
                continue
            }
            guard let originName = scope.properties.old(for: name), let oldProperty = scope.oldObject.property(named: originName),
                let oldType = oldProperty.storedType, let value = scope.values[name]
            else {
                // The key of an embedded type that becomes a table is made where its values move.
                if case .embedded(let type) = target, case .toTable = embedded[type]?.kind, newObject.primaryKey == name { continue }
                addProperty(property, type: type, to: &scope, target: target)
                continue
            }
            guard oldType.collection == nil else {
                error(
                    "migration-unsupported-change", "'\(typeName).\(name)' changes from \(oldType) to \(type); a collection cannot become a single value",
                    at: .schema(type: typeName, member: name),
                    hint: Self.customWritesHint(type: typeName, property: name))
                continue
            }
            let container = containerOf(target: target, column: name, typeName: typeName)
            guard var continued = continuedValue(value, to: type, property: name, in: container, target: target) else { continue }
            if oldType.isOptional && !type.isOptional && !continued.isNonNull {
                let change = record(
                    SchemaChange(.propertyMadeRequired(type: typeName, property: name), impact: .dataDependent), "make \(typeName).\(name) required", type: typeName, member: name)
                require(
                    PendingCheck(
                        property: name, step: "schema", problem: "no value, but '\(name)' becomes required",
                        hint: "give these objects a value first, keep '\(name)' optional, or add a convert step with onError: default",
                        condition: .isNull(continued.expression), shown: continued.expression, change: change), at: target)
                continued.isNonNull = true
            } else if !oldType.isOptional && type.isOptional {
                record(SchemaChange(.propertyMadeOptional(type: typeName, property: name), impact: .additive), "make \(typeName).\(name) optional", type: typeName, member: name)
            }
            scope.values[name] = continued
        }
        if case .table(let table) = target { requireUniqueness(of: newObject, in: scope, table: table, target: target) }
        for oldProperty in scope.oldObject.properties where scope.properties.new(for: oldProperty.name) == nil {
            guard let type = oldProperty.storedType else { continue }
            let what = type.collection == nil ? "and its values" : "and its elements"
            record(
                SchemaChange(.propertyRemoved(type: typeName, property: oldProperty.name), impact: .destructive),
                "remove property \(scope.oldObject.name).\(oldProperty.name) \(what)",
                type: scope.oldObject.name, member: oldProperty.name, old: true)
        }
        store(scope, at: target)
    }

    /// Properties that become unique, alone or together, in a table that keeps its objects: no
    /// two objects may share their values (as they will once converted), or the unique index
    /// could not be made. The check names the objects and the values they share.
    private mutating func requireUniqueness(of newObject: ObjectType, in scope: PropertyScope, table: String, target: StepTarget) {
        let oldObject = scope.oldObject
        // In any order, and alone or as a group of one, uniqueness is the same (see SchemaDiff).
        let oldGroups = Set(oldObject.uniquenessGroups.map { Set($0.map { scope.properties.new(for: $0) ?? $0 }) })
        for group in newObject.uniquenessGroups where !oldGroups.contains(Set(group)) {
            // Properties added in this version start with one value for every object: only the
            // ones that existed can already collide, and a group with an added one is checked too.
            let values = group.compactMap { scope.values[$0]?.expression }
            guard values.count == group.count else { continue }
            let members = group.count == 1 ? "\(newObject.name).\(group[0])" : "\(newObject.name)'s (\(group.joined(separator: ", ")))"
            let change = record(
                SchemaChange(.uniqueAdded(type: newObject.name, properties: group), impact: .dataDependent), "make \(members) unique", type: newObject.name,
                member: group.count == 1 ? group[0] : nil)
            // How many objects hold each object's values, counted once for the whole table
            // (a query per object would read the table once per object).
            let nonNull = SQLExpression.all(values.map { .isNotNull($0) })!
            let counts = temporaryName("holders")
            schedule(
                .statement(.materialize(name: counts, table: table, value: .window(.count, partition: values, order: []), where: nonNull)), in: .materialize,
                for: change)
            schedule(.statement(.dropTemporaryTable(counts)), in: .cleanup, for: change)
            let condition = SQLExpression.binary(.greater, .materialized(table: counts), .integer(1))
            let shown: SQLExpression =
                group.count == 1
                ? values[0]
                : values.map { SQLExpression.cast($0, .text) }.dropFirst().reduce(SQLExpression.cast(values[0], .text)) {
                    .binary(.concatenate, .binary(.concatenate, $0, .text(", ")), $1)
                }
            require(
                PendingCheck(
                    property: group.count == 1 ? group[0] : nil, step: "schema",
                    problem: group.count == 1
                        ? "a value another object holds too, but '\(group[0])' becomes unique"
                        : "values another object holds too, but (\(group.joined(separator: ", "))) become unique together",
                    hint: "remove the duplicates first with a deduplicate step, or change their values, or leave \(members) not unique",
                    condition: condition, shown: shown, change: change, shownIsProse: group.count > 1), at: target)
        }
    }

    /// How to give a property values no declarative step can: a custom step that writes it.
    static func customWritesHint(type: String, property: String) -> String {
        "give it its values with a custom step: custom: { name: NAME, type: \(type), writes: [\(property)] } (the closure reads the old values in `object.old`)"
    }

    /// The custom step (its index) whose `writes:` names `property` of the new type `type`.
    func customStep(writing property: String, of type: String) -> Int? {
        migration.steps.indices.first { index in
            guard case .custom(_, let stepType?, _, let writes) = migration.steps[index], writes.contains(property) else { return false }
            return stepType == type || diff.types.new(for: stepType) == type
        }
    }

    func customName(_ index: Int) -> String {
        if case .custom(let name, _, _, _) = migration.steps[index] { name } else { "" }
    }

    /// The value a property a custom step writes has until the closure runs: its default, or
    /// null; a required property without a default is an error (the closure may skip an object).
    private mutating func customStart(_ property: Property, type: PropertyType, typeName: String, step index: Int) -> RowValue? {
        let value: SQLExpression
        if let defaultValue = property.defaultValue {
            guard let stored = storedExpression(defaultValue, type: type, step: nil, blame: .schema(type: typeName, member: property.name)) else { return nil }
            value = stored
        } else if type.isOptional {
            value = .null
        } else {
            error(
                "migration-missing-value",
                "custom step '\(customName(index))' writes '\(typeName).\(property.name)', which is required and has no default for the objects the closure leaves as they are",
                at: .step(index, field: .key(.writes)), hint: "add `default:` to '\(property.name)' in the schema, or make it optional")
            return nil
        }
        let shown = value.isConstant ? SQLiteRenderer().expression(value, in: typeName) : "its default"
        record(
            .step(index: index, migration.steps[index]), .dataDependent,
            "start \(typeName).\(property.name) (\(type)) at \(shown) for custom step '\(customName(index))', which writes it")
        return RowValue(expression: value, type: type, isNew: true, isNonNull: !value.isNullLiteral)
    }

    /// An added property: its default, null when optional, else an error at its declaration.
    private mutating func addProperty(_ property: Property, type: PropertyType, to scope: inout PropertyScope, target: StepTarget) {
        let typeName = scope.typeName
        let value: SQLExpression
        if let defaultValue = property.defaultValue {
            guard let stored = storedExpression(defaultValue, type: type, step: nil, blame: .schema(type: typeName, member: property.name)) else { return }
            value = stored
        } else if type.isOptional {
            value = .null
        } else {
            error(
                "migration-missing-value", "'\(typeName).\(property.name)' is new and required but has no default, so existing objects would have no value",
                at: .schema(type: typeName, member: property.name),
                hint: "add `default:` to '\(property.name)' in the schema, make it optional, or add a step that sets it (set, split, convert)")
            return
        }
        scope.values[property.name] = RowValue(expression: value, type: type, isNew: true, isNonNull: !value.isNullLiteral)
        // Dates are stored as microseconds; the plan shows them as people write them.
        var shown = value.isConstant ? " = " + SQLiteRenderer().expression(value, in: typeName) : ""
        if case .scalar(.date) = type.base, case .integer(let microseconds) = value { shown = " = " + StoreDateFormat.string(microseconds: microseconds) }
        record(
            SchemaChange(.propertyAdded(type: typeName, property: property.name), impact: .additive), "add property \(typeName).\(property.name) (\(type))\(shown)",
            type: typeName, member: property.name, assignments: value.isConstant ? [] : [assignment(property.name, value, target: target)])
    }

    /// The value a change gives a column, for the plan: embedded values are shown over their
    /// type's JSON.
    func assignment(_ column: String, _ value: SQLExpression, target: StepTarget) -> TableAssignment {
        let table = rowTable(target)
        let shown = value.replacingColumns { $0 == EmbeddedState.container ? .column("\(table) JSON") : .column($0) }
        return TableAssignment(table: table, column: column, value: shown)
    }

    /// The new element values of a continued table's collections, and the checks they need.
    private mutating func completeElements(_ name: String) {
        guard let table = tables[name], let newTable = table.newTable else { return }
        for side in newTable.sideTables where table.elementValues[side.property] == nil {
            // (A step that converted the elements gave them their values.)
            if customStep(writing: side.property, of: table.typeName) != nil {
                // The closure writes the collection: it starts empty (the old elements are in its `old`).
                if table.oldSideTable(forNew: side.property) != nil {
                    tables[name]!.elementValues[side.property] = RowValue(expression: .null, type: side.type.element, isNew: true, isNonNull: false)
                }
                continue
            }
            guard let oldSide = table.oldSideTable(forNew: side.property), oldSide.kind == side.kind else { continue }
            let current = currentName(of: oldSide, in: table)
            let element = RowValue.column("value", type: oldSide.type.element)
            let container = Container(
                table: current, column: "value", owner: table.typeName, property: side.property, isSideTable: true, ownerKey: .column("owner"),
                ownerKeyType: table.keyColumn.flatMap { table.physical[$0]?.type } ?? .scalar(.int))
            guard let value = continuedValue(element, to: side.type.element, property: side.property, in: container, target: .table(name)) else { continue }
            tables[name]!.elementValues[side.property] = value
            if oldSide.type.isOptional && !side.type.isOptional {
                let change = record(
                    SchemaChange(.propertyMadeRequired(type: table.typeName, property: side.property), impact: .dataDependent),
                    "make the elements of \(table.typeName).\(side.property) required", type: table.typeName, member: side.property)
                require(
                    PendingCheck(
                        property: side.property, step: "schema", problem: "null elements, but the elements become required",
                        hint: "remove the null elements first, or keep the elements optional", condition: .isNull(value.expression), shown: .null, change: change,
                        place: (current, .column("owner"))), at: .table(name))
            }
        }
    }

    /// Where a target's property is stored, for the values that move into or out of embedded
    /// objects.
    func containerOf(target: StepTarget, column: String, typeName: String) -> Container? {
        guard case .table(let tableName) = target, let table = tables[tableName], let key = table.keyColumn, let keyType = table.physical[key]?.type else { return nil }
        return Container(
            table: tableName, column: column, owner: typeName, property: column, isSideTable: false, ownerKey: .column(key), ownerKeyType: keyType,
            ownerTable: (tableName, key))
    }

    /// A continued value (column or element) in its new stored form: enum raw values remapped,
    /// lossless retypes converted, links following their targets into and out of embedded
    /// objects, retargeted links dropped. `nil` after an error.
    mutating func continuedValue(_ value: RowValue, to type: PropertyType, property: String, in container: Container?, target: StepTarget) -> RowValue? {
        let typeName = scope(of: target).typeName
        var result = value
        result.type = type
        result.isNew = true
        switch (value.type.base, type.base) {
        case (.enumeration(let from), .enumeration(let to)) where diff.enums.new(for: from) == to:
            result.expression = remapEnum(from: from, to: to, value: value.expression, target: target, property: property, container: container)
            return result
        case (.object(let from), .object(let to)):
            return linkValue(value, from: from, to: to, type: type, property: property, in: container, target: target) ?? nil
        default:
            break
        }
        if value.type.base == type.base { return result }
        let operand = value.expression
        guard SchemaDiff.retypeImpactIgnoringOptionality(from: value.type, to: type) == .additive,
            let conversion = Conversion.between(value.type, in: old, type, in: new, operand: operand), conversion.test == nil
        else {
            // Elements are planned one at a time; the message names the collections.
            let declared = new.objectType(named: typeName)?.property(named: property)?.storedType
            let (from, to) =
                if let declared, let collection = declared.collection {
                    (PropertyType(value.type.base, optional: value.type.isOptional, collection: collection), declared)
                } else {
                    (value.type, type)
                }
            let convert = MigrationStep.convertFor(type: typeName, property: property, from: from, to: to)
            error(
                "migration-missing-step", "'\(typeName).\(property)' changes type from \(from) to \(to), which can lose or reject values",
                at: .schema(type: typeName, member: property),
                hint: convert.map { "add a step: \($0)" + (to.enumName != nil ? "  (or mapValues for enums)" : "") } ?? Self.customWritesHint(type: typeName, property: property)
            )
            return nil
        }
        result.expression = conversion.value
        record(
            SchemaChange(.propertyRetyped(type: typeName, property: property, from: value.type, to: type), impact: .additive),
            "widen \(typeName).\(property) from \(value.type) to \(type)",
            type: typeName, member: property, assignments: [assignment(property, conversion.value, target: target)])
        return result
    }

    /// Old raw values of cases whose raw value changed become the new ones; values of removed
    /// cases are data errors.
    private mutating func remapEnum(from: String, to: String, value: SQLExpression, target: StepTarget, property: String, container: Container?) -> SQLExpression {
        guard let oldEnum = old.enumType(named: from), let newEnum = new.enumType(named: to) else { return value }
        var whens: [SQLCaseBranch] = []
        for newCase in newEnum.cases {
            if let oldCase = oldEnum.enumCase(named: newCase.name), oldCase.rawValue != newCase.rawValue {
                whens.append(SQLCaseBranch(StoredLiteral.raw(oldCase.rawValue), StoredLiteral.raw(newCase.rawValue)))
            }
        }
        let removed = oldEnum.casesRemoved(in: newEnum)
        let typeName = scope(of: target).typeName
        if !removed.isEmpty, !reintroducedFaults.contains(.removedEnumCasesUnchecked) {
            let change = record(
                SchemaChange(.enumCaseRemoved(enum: to, case: removed[0].name), impact: .dataDependent),
                "check that no \(typeName).\(property) holds a case removed from \(to) (\(removed.map(\.name).joined(separator: ", ")))", type: from, old: true)
            var check = PendingCheck(
                property: property, step: "schema", problem: "values of enum cases removed from \(to) (\(removed.map(\.name).joined(separator: ", ")))",
                hint: "add a mapValues step that maps the removed cases to remaining ones",
                condition: .inList(value, removed.map { StoredLiteral.raw($0.rawValue) }, negated: false), shown: value, change: change)
            if let container, container.isSideTable {
                check.place = (container.table, container.ownerKey)
                // mapValues works on single values: the elements take a custom step.
                check.hint = Self.customWritesHint(type: typeName, property: property)
            }
            require(check, at: target)
        }
        guard !whens.isEmpty else { return value }
        let remapped = SQLExpression.caseWhen(operand: value, branches: whens, otherwise: value)
        let change = diff.changes.first { if case .enumCaseRawValueChanged(to, _, _, _) = $0.kind { true } else { false } }!
        record(change, "store the new raw values of \(to) in \(typeName).\(property)", type: to, assignments: [assignment(property, remapped, target: target)])
        return remapped
    }

    /// A link (or an embedded value) after its target type changed: kept, reshaped, moved into
    /// or out of an embedded object, or dropped when it now points at another type.
    private mutating func linkValue(_ value: RowValue, from: String, to: String, type: PropertyType, property: String, in container: Container?, target: StepTarget) -> RowValue?? {
        let typeName = scope(of: target).typeName
        guard let oldTarget = old.objectType(named: from), let newTarget = new.objectType(named: to) else { return nil }
        var result = value
        result.type = type
        result.isNew = true
        guard diff.types.new(for: from) == to else {
            // Another type of object: Realm's rule, the links go.
            record(
                SchemaChange(.propertyRetyped(type: typeName, property: property, from: value.type, to: type), impact: .destructive),
                "drop the links of \(typeName).\(property): it now links to \(to), not \(from)", type: typeName, member: property)
            if newTarget.isEmbedded && !type.isOptional {
                error(
                    "migration-missing-step", "'\(typeName).\(property)' now holds an embedded \(to), which is required, and its old values cannot become one",
                    at: .schema(type: typeName, member: property),
                    hint: "make '\(property)' optional, or fill it with a custom step")
                return .some(nil)
            }
            result.expression = .null
            result.isNonNull = false
            return result
        }
        switch (oldTarget.isEmbedded, newTarget.isEmbedded) {
        case (true, true):
            result.expression = reshapedJSON(to, container: value.expression)
            return result
        case (false, true):
            // Linked → embedded: the object's values become JSON in the one object that holds it.
            guard let container, let tableName = embeddingTable(of: from), let table = tables[tableName], let key = table.keyColumn else { return nil }
            let json = SQLExpression.function(.embeddedJSON, [.text(to)] + newTarget.storedProperties.map { jsonArgument($0, scope: table.scope) })
            result.expression = .linked(SQLLinkedRead(table: tableName, key: key, link: value.expression, value: json))
            if case .table(let reader) = target { tables[reader]?.reads.insert(tableName) }
            embeddingOwners[tableName, default: []].append(container)
            return result
        case (true, false):
            // Embedded → linked: each value becomes a new object, and the link its key.
            guard let container else {
                error(
                    "migration-unsupported-change", "the embedded '\(from)' inside '\(typeName)' cannot become a table: only objects and their collections can hold links",
                    at: .schema(type: to),
                    hint: "keep '\(to)' embedded, or move it out of '\(typeName)' first")
                return .some(nil)
            }
            return .some(unembed(value, into: to, container: container, target: target))
        case (false, false):
            // The same objects; their keys may change.
            guard let tableName = continuedTable(ofOldType: from),
                let (key, keyValue) = changedKey(of: tableName)
            else {
                return result
            }
            result.expression = .linked(SQLLinkedRead(table: tableName, key: key, link: value.expression, value: keyValue.expression))
            if case .table(let reader) = target {
                if reader == tableName {
                    return keep(result, table: reader, change: record(.plan(type: reader), .dataDependent, "follow the new keys of \(to) in \(typeName).\(property)"))
                }
                tables[reader]?.reads.insert(tableName)
            }
            return result
        }
    }

    /// The old key column of continued table `name` and its objects' new keys, when the
    /// stored keys change (another column, or another stored form): links and the owners of
    /// collections follow them.
    func changedKey(of name: String) -> (column: String, value: RowValue)? {
        guard let table = tables[name], let key = table.keyColumn, let newKey = table.newObject?.primaryKey, let value = table.scope.values[newKey],
            value.sourceColumn != key || table.physical[key]?.sqlType != table.newTable?.primaryKey?.sqlType
        else { return nil }
        return (key, value)
    }

    /// The current name of the table whose type becomes embedded under a new name.
    func embeddingTable(of oldType: String) -> String? {
        tableOfOldType[oldType].flatMap { tables[$0]?.role == .embedding ? $0 : nil }
    }

    /// The current name of the continued table of old type `oldType`.
    func continuedTable(ofOldType oldType: String) -> String? {
        tableOfOldType[oldType].flatMap { tables[$0]?.role == .continued ? $0 : nil }
    }

    /// The key of the object each embedded value in `container` becomes (generated, or its
    /// own value of the new primary key), kept in a temporary table before anything moves.
    private mutating func unembed(_ value: RowValue, into type: String, container: Container, target: StepTarget) -> RowValue? {
        guard let state = embedded[type], let newObject = state.scope.newObject, let key = newObject.primaryKeyProperty, let keyType = key.storedType else {
            error(
                "migration-unsupported-change", "'\(type)' becomes a table, but has no primary key for the objects that hold it to link to", at: .schema(type: type),
                hint: "give '\(type)' a primary key with a generated default ($uuid or $objectId)")
            return nil
        }
        let keyValue: SQLExpression
        let own = state.scope.values[key.name]
        if let own {
            keyValue = own.expression.replacingColumns { $0 == EmbeddedState.container ? value.expression : .column($0) }
        } else if let defaultValue = key.defaultValue, case .generated = defaultValue,
            let generated = storedExpression(defaultValue, type: keyType, step: nil, blame: .schema(type: type, member: key.name))
        {
            keyValue = generated
        } else {
            error(
                "migration-missing-value", "'\(type)' becomes a table, and its new primary key '\(key.name)' needs a generated default to give each object a key",
                at: .schema(type: type, member: key.name),
                hint: "write 'default: $uuid' (uuid or string keys) or 'default: $objectId' on '\(key.name)'")
            return nil
        }
        let change = record(
            SchemaChange(.embeddedChanged(type: type, isEmbedded: false), impact: .dataDependent),
            "move the embedded \(type) values of \(container.owner).\(container.property) into \(type) objects", type: type)
        let keys = temporaryName("keys")
        schedule(.statement(.materialize(name: keys, table: container.table, value: keyValue, where: .isNotNull(value.expression))), in: .materialize, for: change)
        schedule(.statement(.dropTemporaryTable(keys)), in: .cleanup, for: change)
        unembeddings[type, default: []].append(Unembedding(container: container, json: value.expression, keys: keys, change: change, ownKey: own != nil))
        var result = value
        result.expression = .materialized(table: keys)
        result.type = PropertyType(.object(type), optional: value.type.isOptional)
        result.isNew = true
        result.isNonNull = false
        return result
    }

    /// Linked → embedded: every object must have exactly one owner. Objects with none are
    /// deleted (counted in the report); an object with several is a data error naming them.
    private mutating func planEmbeddingChecks() {
        for name in tableOrder {
            guard let table = tables[name], table.role == .embedding, let key = table.keyColumn, let newName = table.newObject?.name else { continue }
            let owners = embeddingOwners[name] ?? []
            let change = record(
                SchemaChange(.embeddedChanged(type: newName, isEmbedded: true), impact: .destructive),
                "embed \(newName) objects in the objects that hold them (\(owners.map { "\($0.owner).\($0.property)" }.joined(separator: ", ")));"
                    + " objects no one holds are deleted", type: newName)
            var counts: [SQLExpression] = []
            var shown: [SQLExpression] = []
            for owner in owners {
                let select = SQLSelect([.call(.count, .column(owner.column))], from: owner.table, where: .equals(.column(owner.column), .outer(.column(key))))
                counts.append(.subquery(select))
                let label = Conversion.between(owner.ownerKeyType, in: old, .scalar(.string), in: new, operand: owner.ownerKey)?.value ?? .cast(owner.ownerKey, .text)
                // Each holder once per property: `Person p2 (home)`, even if a list holds it twice.
                var holds = SQLExpression.equals(.column(owner.column), .outer(.column(key)))
                if owner.isSideTable {
                    let earlier = SQLSelect(
                        [.integer(1)], from: owner.table,
                        where: .all([
                            .equals(.column("owner"), .outer(.column("owner"))), .equals(.column(owner.column), .outer(.column(owner.column))),
                            .binary(.less, .rowid, .outer(.rowid)),
                        ]))
                    holds = .binary(.and, holds, .not(.exists(earlier)))
                }
                let names = SQLSelect(
                    [.function(.groupConcat, [.binary(.concatenate, .binary(.concatenate, .text("\(owner.owner) "), label), .text(" (\(owner.property))")), .text(", ")])],
                    from: owner.table, where: holds)
                shown.append(.subquery(names))
            }
            let held = counts.dropFirst().reduce(counts.first ?? .integer(0)) { .binary(.plus, $0, $1) }
            let parts = shown.map { SQLExpression.call(.coalesce, .binary(.concatenate, $0, .text(", ")), .text("")) }
            let holders = SQLExpression.call(.trim, parts.dropFirst().reduce(parts.first ?? .text("")) { .binary(.concatenate, $0, $1) }, .text(", "))
            require(
                PendingCheck(
                    property: nil, step: "schema", problem: "more than one object holding them, but an embedded object has exactly one owner",
                    hint: "make each object held by one owner (give the others their own copy, or unlink them in a version before), or keep '\(newName)' a linked type",
                    condition: .binary(.greater, held, .integer(1)), shown: holders, change: change, shownIsProse: true), at: .table(name))
            schedule(
                .count(
                    CountNote(
                        type: newName, what: "deleted: no object held them, and an embedded object lives in its owner",
                        query: SQLSelect([.call(.count, .rowid)], from: name, where: .equals(held, .integer(0))))), in: .check, for: change)
        }
    }

    /// A changed primary key must stay unique.
    private mutating func completePrimaryKey(_ name: String) {
        guard let table = tables[name], let key = table.newObject?.primaryKey, let value = table.scope.values[key] else { return }
        let oldKey = table.keyColumn
        guard value.sourceColumn == nil || value.sourceColumn != oldKey else { return }
        let change =
            table.scope.writes[key]?.change
            ?? record(
                SchemaChange(.primaryKeyChanged(type: table.typeName, from: table.oldObject.primaryKey, to: key), impact: .dataDependent),
                "make \(table.typeName).\(key) the primary key", type: table.typeName, member: key)
        let duplicates = SQLSelect(
            [SQLSelect.Column(value.expression)], from: SQLSelect.Source(name), groupBy: [value.expression], having: .binary(.greater, .call(.count, .rowid), .integer(1)))
        require(
            PendingCheck(
                property: key, step: table.scope.writes[key]?.step.label ?? "schema", problem: "a primary key that another object would also have",
                hint: "make the new keys unique, or delete the duplicates first with deleteObjects",
                condition: .inSelect(value.expression, duplicates), shown: value.expression, change: change), at: .table(name))
    }
}
