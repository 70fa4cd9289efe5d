import RemodelCore
import RemodelLayout

/// The physical work of a version: deletions, data checks, and the rewrite of each table
/// whose values change, readers before the tables they read.
extension VersionPlanner {
    mutating func planRewrites() {
        planDeletions()
        for name in tableOrder where tables[name]?.role != .removed {
            planChecks(name)
        }
        planEmbeddedChecks()
        breakReadCycles()
        planUnembeddings()
        for name in rewriteOrder() {
            planSideTables(name)
            planTableRewrite(name)
        }
    }

    // MARK: - Deletions and checks

    /// `deleteObjects` and `deduplicate`, in file order across tables (a step sees the objects
    /// earlier ones left and the links they moved), with the links that point at the deleted
    /// objects: `deleteObjects` removes list and set entries and sets to-one links to null;
    /// `deduplicate` points them at the kept object. The keys of the objects to delete are
    /// chosen once, before any link changes: a condition on a link (even to the type itself)
    /// picks the same objects throughout.
    private mutating func planDeletions() {
        var deletions: [(table: String, deletion: TableState.Deletion)] = []
        for name in tableOrder where tables[name]?.role == .continued || tables[name]?.role == .embedding {
            deletions += tables[name]!.deletions.map { (name, $0) }
        }
        for (name, deletion) in deletions.sorted(by: { $0.deletion.change < $1.deletion.change }) {
            planDeletion(deletion, from: name)
        }
    }

    private mutating func planDeletion(_ deletion: TableState.Deletion, from name: String) {
        guard let table = tables[name] else { return }
        let change = deletion.change
        // Without a primary key, nothing links to the objects (a side table's owner is its rowid).
        let key: SQLExpression = table.keyColumn.map { .column($0) } ?? .rowid
        let doomedKeys = temporaryName("doomed")
        let doomed = SQLSelect([.column("key")], from: doomedKeys)
        var statements: [SQLStatement] = []
        // The key of the object each doomed one gives way to, for a row whose link is `link`.
        var kept: ((SQLExpression) -> SQLExpression)?
        switch deletion.choice {
        case .matching(let condition):
            guard table.keyColumn != nil else {
                schedule(.statement(.delete(table: name, where: condition)), in: .delete, for: change)
                return
            }
            statements.append(.createTemporaryTable(name: doomedKeys, SQLSelect([SQLSelect.Column(key, as: "key")], from: SQLSelect.Source(name), where: condition)))
        case .duplicates(let group, let order, let descending):
            let groups = temporaryName("groups")
            let first = SQLExpression.window(.firstValue(key), partition: group, order: order + [SQLOrdering(key, descending: descending)])
            statements += [
                .createTemporaryTable(
                    name: groups,
                    SQLSelect(
                        [SQLSelect.Column(key, as: "key"), SQLSelect.Column(first, as: "kept")], from: SQLSelect.Source(name), where: .all(group.map(SQLExpression.isNotNull)))),
                .createTemporaryTable(
                    name: doomedKeys, SQLSelect([.column("key"), .column("kept")], from: groups, where: .binary(.notEqual, .column("key"), .column("kept")))),
                .dropTemporaryTable(groups),
                // Each link to move looks its kept object up by key.
                .createIndex(SQLIndexDefinition(name: doomedKeys + ".key", table: doomedKeys, columns: ["key"], isUnique: true)),
            ]
            kept = { link in .subquery(SQLSelect([.column("kept")], from: doomedKeys, where: .equals(.column("key"), .outer(link)))) }
        }
        // Tables of removed types go with their links (they are dropped before the
        // deletions, or kept only to be read).
        for otherName in tableOrder where table.keyColumn != nil {
            guard let other = tables[otherName], other.role != .removed else { continue }
            for (column, layout) in other.physical.sorted(by: { $0.key < $1.key }) where layout.link?.table == table.oldObject.name {
                statements.append(.update(table: otherName, assignments: [SQLAssignment(column, kept?(.column(column)) ?? .null)], where: .inSelect(.column(column), doomed)))
            }
            for side in other.oldTable.sideTables where side.link?.table == table.oldObject.name {
                let sideName = currentName(of: side, in: other)
                guard let kept else {
                    statements.append(.delete(table: sideName, where: .inSelect(.column("value"), doomed)))
                    continue
                }
                guard side.kind == .set else {
                    statements.append(.update(table: sideName, assignments: [SQLAssignment("value", kept(.column("value")))], where: .inSelect(.column("value"), doomed)))
                    continue
                }
                // A set holds the kept object once, however many of its duplicates it held.
                let moved = temporaryName("moved")
                let held = SQLSelect(
                    [.integer(1)], from: sideName, where: .all([.equals(.column("owner"), .outer(.column("owner"))), .equals(.column("value"), .outer(.column("kept")))]))
                statements += [
                    .createTemporaryTable(
                        name: moved,
                        SQLSelect(
                            [SQLSelect.Column(.column("owner"), as: "owner"), SQLSelect.Column(kept(.column("value")), as: "kept")], from: SQLSelect.Source(sideName),
                            where: .inSelect(.column("value"), doomed))),
                    .delete(table: sideName, where: .inSelect(.column("value"), doomed)),
                    .insertSelect(
                        table: sideName, columns: ["owner", "value"],
                        SQLSelect(
                            [SQLSelect.Column(.column("owner")), SQLSelect.Column(.column("kept"))], from: SQLSelect.Source(moved, temporary: true), where: .not(.exists(held)),
                            groupBy: [.column("owner"), .column("kept")])),
                    .dropTemporaryTable(moved),
                ]
            }
        }
        for side in table.oldTable.sideTables {
            statements.append(.delete(table: currentName(of: side, in: table), where: .inSelect(.column("owner"), doomed)))
        }
        statements.append(.delete(table: name, where: .inSelect(key, doomed)))
        var operations = statements.map(PlanOperation.statement)
        if case .duplicates = deletion.choice {
            // Counted before the deletion, for the report.
            operations.insert(
                .count(
                    CountNote(type: table.typeName, what: "deleted as duplicates (\(changes[change].origin))", query: SQLSelect([.call(.count, .column("key"))], from: doomedKeys))),
                at: statements.count - 1)
        }
        operations.append(.statement(.dropTemporaryTable(doomedKeys)))
        for operation in operations { schedule(operation, in: .delete, for: change) }
        if table.keyColumn != nil { linksChanged = true }
    }

    /// The name a side table has once renames are done.
    func currentName(of side: SideTableLayout, in table: TableState) -> String {
        guard table.role == .continued, let newProperty = table.properties.new(for: side.property), let newSide = table.newTable?.sideTable(property: newProperty) else {
            return side.name
        }
        return newSide.name
    }

    /// The queries that must find nothing before the table is rewritten.
    private mutating func planChecks(_ name: String) {
        guard let table = tables[name] else { return }
        let key: SQLExpression = table.keyColumn.map { .column($0) } ?? .rowid
        for check in pendingChecks[.table(name)] ?? [] {
            let (from, shownKey) = check.place ?? (name, key)
            var query = dataCheck(check, type: table.typeName, from: from, key: shownKey, condition: check.condition)
            if check.place != nil { query.countQuery = Self.ownersCount(name, key: key, elementsIn: from, where: check.condition) }
            schedule(.check(query), in: .check, for: check.change)
            scheduledCheckIDs.insert(check.id)
        }
    }

    /// Counts the objects of `table` (keyed by `key`) that hold elements of side table
    /// `elements` meeting `condition`: a data error about elements names objects.
    static func ownersCount(_ table: String, key: SQLExpression, elementsIn elements: String, where condition: SQLExpression) -> SQLSelect {
        SQLSelect([.call(.count, .rowid)], from: table, where: .inSelect(key, SQLSelect([.column("owner")], from: elements, where: condition)))
    }

    func dataCheck(_ check: PendingCheck, type: String, from table: String, key: SQLExpression, condition: SQLExpression, limit: Int = 5) -> DataCheck {
        DataCheck(
            type: type, property: check.property, step: check.step, problem: check.problem, hint: check.hint, location: changes[check.change].location,
            valueIsProse: check.shownIsProse,
            query: SQLSelect([key, check.shown], from: table, where: condition, limit: limit),
            countQuery: SQLSelect([.call(.count, .rowid)], from: table, where: condition)
        )
    }

    /// Checks of embedded types run on every column and side table that holds them.
    private mutating func planEmbeddedChecks() {
        for name in embedded.keys.sorted() {
            guard let checks = pendingChecks[.embedded(name)], !checks.isEmpty else { continue }
            for container in containers(holding: name) {
                for check in checks {
                    let value = container.read ?? .column(container.column)
                    let condition = SQLExpression.binary(.and, .isNotNull(value), check.condition.replacingColumns { $0 == EmbeddedState.container ? value : .column($0) })
                    var shown = check
                    shown.shown = check.shown.replacingColumns { $0 == EmbeddedState.container ? value : .column($0) }
                    // Named from the owner: `Owner.box.priority`.
                    shown.property = check.property.map { "\(container.property).\($0)" } ?? container.property
                    var query = dataCheck(shown, type: container.owner, from: container.table, key: container.ownerKey, condition: condition)
                    if container.isSideTable, let owners = container.ownerTable {
                        query.countQuery = Self.ownersCount(owners.name, key: .column(owners.key), elementsIn: container.table, where: condition)
                    }
                    schedule(.check(query), in: .check, for: check.change)
                    scheduledCheckIDs.insert(check.id)
                }
            }
        }
    }

    /// The columns and side tables (current names) that hold values of embedded type `name`
    /// (new name) in continued tables, directly or in single members of other embedded types.
    func containers(holding name: String, visited: Set<String> = []) -> [Container] {
        var result: [Container] = []
        for tableName in tableOrder {
            guard let table = tables[tableName], table.role == .continued, let newObject = table.newObject, let key = table.keyColumn, let keyType = table.physical[key]?.type
            else { continue }
            for property in newObject.storedProperties where property.storedType?.objectName == name && table.properties.old(for: property.name) != nil {
                if property.storedType?.collection == nil {
                    result.append(
                        Container(
                            table: tableName, column: property.name, owner: newObject.name, property: property.name, isSideTable: false, ownerKey: .column(key),
                            ownerKeyType: keyType))
                } else if let side = table.oldSideTable(forNew: property.name) {
                    result.append(
                        Container(
                            table: currentName(of: side, in: table), column: "value", owner: newObject.name, property: property.name, isSideTable: true,
                            ownerKey: .column("owner"), ownerKeyType: keyType, ownerTable: (tableName, key)))
                }
            }
        }
        // Inside another embedded type's member: read from the old JSON of each of its places.
        for parent in embedded.keys.sorted() where !visited.contains(parent) {
            guard let state = embedded[parent], case .reshape = state.kind, let parentObject = state.scope.newObject else { continue }
            for property in parentObject.storedProperties where property.storedType?.objectName == name && property.storedType?.collection == nil {
                guard let oldName = state.scope.properties.old(for: property.name), let oldType = state.scope.oldObject.property(named: oldName)?.storedType else { continue }
                for var container in containers(holding: parent, visited: visited.union([name, parent])) {
                    container.read = .function(.embeddedGet, [container.read ?? .column(container.column), .text(oldName), .text(oldType.description)])
                    container.property += "." + property.name
                    result.append(container)
                }
            }
        }
        return result
    }

    // MARK: - Order

    /// Tables that read each other's rows through links cannot both go first: the values one
    /// reads are kept in temporary tables before either is rewritten.
    private mutating func breakReadCycles() {
        let order = rewriteOrder()
        var position: [String: Int] = [:]
        for (index, name) in order.enumerated() { position[name] = index }
        for name in order {
            guard let table = tables[name] else { continue }
            let late = table.reads.filter { (position[$0] ?? .max) < position[name]! }
            guard !late.isEmpty else { continue }
            var scope = table.scope
            let change = record(.plan(type: name), .additive, "keep the values \(name) reads from \(late.sorted().joined(separator: ", ")), which read \(name) too")
            for (property, value) in scope.values.sorted(by: { $0.key < $1.key }) where value.expression.readsTables(late) {
                scope.values[property] = keep(value, table: name, change: change)
            }
            store(scope, at: .table(name))
            tables[name]!.reads.subtract(late)
        }
    }

    /// Continued tables in rewrite order: a table whose values read another's rows comes
    /// before it (in old schema order otherwise).
    func rewriteOrder() -> [String] {
        let names = tableOrder.filter { tables[$0]?.role == .continued }
        var result: [String] = []
        var visiting = Set<String>()
        var done = Set<String>()
        func visit(_ name: String) {
            guard !done.contains(name), !visiting.contains(name) else { return }
            visiting.insert(name)
            // Every table that reads this one goes first.
            for reader in names where tables[reader]!.reads.contains(name) && reader != name { visit(reader) }
            visiting.remove(name)
            done.insert(name)
            result.append(name)
        }
        for name in names { visit(name) }
        return result
    }

    // MARK: - Embedded values becoming objects

    /// Creates the tables of embedded types that become tables, with one object per embedded
    /// value, before the values' owners are rewritten.
    private mutating func planUnembeddings() {
        for type in unembeddings.keys.sorted() {
            guard let state = embedded[type], let newObject = state.scope.newObject, let layout = newLayout.table(named: type), let key = layout.primaryKey else { continue }
            let places = unembeddings[type]!
            let create = places[0].change
            schedule(layout.createStatements, in: .unembed, for: create)
            for property in newObject.storedProperties where property.storedType?.collection != nil && state.scope.properties.old(for: property.name) != nil {
                error(
                    "migration-unsupported-change", "'\(type)' becomes a table, but its collection '\(property.name)' cannot move out of the embedded JSON automatically",
                    at: .schema(type: type, member: property.name),
                    hint: "make '\(type)' a table in one version and add '\(property.name)' in the next, or move the values with a custom step")
            }
            for place in places {
                var columns: [String] = []
                var values: [SQLExpression] = []
                for column in layout.columns {
                    columns.append(column.name)
                    if column.name == key.name {
                        values.append(.materialized(table: place.keys))
                    } else {
                        let value = state.scope.values[column.name]?.expression ?? .null
                        values.append(value.replacingColumns { $0 == EmbeddedState.container ? place.json : .column($0) })
                    }
                }
                let select = SQLSelect(values.map { SQLSelect.Column($0) }, from: SQLSelect.Source(place.container.table), where: .isNotNull(place.json))
                schedule(.statement(.insertSelect(table: type, columns: columns, select)), in: .unembed, for: place.change)
            }
            planUnembeddedKeyCheck(type, key: key.name, places: places)
            linksChanged = true
        }
    }

    /// Embedded values keyed by a value of their own must have distinct keys to become
    /// objects: a data error names each duplicate key and the owner that holds it. (The keys
    /// are kept after the version's deletions, so deleted owners do not count.)
    private mutating func planUnembeddedKeyCheck(_ type: String, key: String, places: [Unembedding]) {
        guard places.contains(where: \.ownKey) else { return }
        for (index, place) in places.enumerated() {
            // Uncorrelated subqueries: SQLite evaluates each once, into an index.
            let repeated = SQLExpression.inSelect(
                .column("value"),
                SQLSelect(
                    [SQLSelect.Column(.column("value"))], from: SQLSelect.Source(place.keys), groupBy: [.column("value")],
                    having: .binary(.greater, .call(.count, .rowid), .integer(1))
                ))
            let elsewhere = places.enumerated().filter { $0.offset != index }.map { SQLExpression.inSelect(.column("value"), SQLSelect([.column("value")], from: $0.element.keys)) }
            let condition = SQLExpression.any([repeated] + elsewhere)!
            let holder = SQLExpression.subquery(SQLSelect([place.container.ownerKey], from: place.container.table, where: .equals(.rowid, .outer(.column("row")))))
            let check = PendingCheck(
                property: key, step: "schema",
                problem:
                    "a primary key that another \(type) would also have once they become objects (the \(place.container.owner) holding each in '\(place.container.property)' in parentheses)",
                hint: "make the values' '\(key)' unique first, or key '\(type)' by a new property with a generated default ($uuid)",
                condition: condition, shown: holder, change: place.change
            )
            schedule(.check(dataCheck(check, type: type, from: place.keys, key: .column("value"), condition: condition)), in: .check, for: place.change)
        }
    }

    // MARK: - Side tables

    /// Side tables of a continued table: renamed ones get their value index again, element
    /// values follow their types, added ones are created, removed ones dropped.
    private mutating func planSideTables(_ name: String) {
        guard let table = tables[name], let newTable = table.newTable else { return }
        let ownerKey = ownerKeyChange(name)
        for side in newTable.sideTables {
            guard let oldSide = table.oldSideTable(forNew: side.property) else {
                let change = record(
                    SchemaChange(.propertyAdded(type: table.typeName, property: side.property), impact: .additive),
                    "add property \(table.typeName).\(side.property) (\(side.type)), empty for existing objects", type: table.typeName, member: side.property)
                schedule(side.createStatements, in: .rewrite, for: change)
                continue
            }
            let current = currentName(of: oldSide, in: table)
            if let value = table.elementValues[side.property], value.expression.isNullLiteral, let custom = customStep(writing: side.property, of: table.typeName) {
                // A custom step writes it: a new, empty side table, of whatever kind.
                let change = record(
                    .step(index: custom, migration.steps[custom]), .destructive,
                    "empty \(table.typeName).\(side.property) for custom step '\(customName(custom))', which writes it (the closure reads the old elements in `old`)")
                schedule([.dropTable(current)] + side.createStatements, in: .rewrite, for: change)
                linksChanged = linksChanged || side.link != nil
                continue
            }
            guard oldSide.kind == side.kind else {
                error(
                    "migration-unsupported-change",
                    "'\(table.typeName).\(side.property)' changes from \(oldSide.type) to \(side.type); a collection cannot change its kind automatically",
                    at: .schema(type: table.typeName, member: side.property), hint: Self.customWritesHint(type: table.typeName, property: side.property))
                continue
            }
            let element = RowValue.column("value", type: oldSide.type.element)
            guard let value = table.elementValues[side.property] else { continue }
            if value.expression.isNullLiteral {
                // The links now point at another type: the old elements go.
                let change =
                    schemaChange { if case .propertyRetyped(table.typeName, side.property, _, _) = $0 { true } else { false } }
                    ?? record(.plan(type: name), .destructive, "drop the elements of \(side.name)")
                schedule([.dropTable(current)] + side.createStatements, in: .rewrite, for: change)
                continue
            }
            // Values becoming links (or links values) need the new definition's foreign key,
            // even where the stored values stay as they are.
            let structure =
                (oldSide.link == nil) != (side.link == nil)
                || (value.expression != element.expression && (oldSide.valueSQLType != side.valueSQLType || oldSide.link?.table != side.link?.table))
            if structure || ownerKey != nil {
                let reason =
                    (oldSide.link == nil) != (side.link == nil)
                    ? (side.link == nil ? "its links become values" : "its values become links") : "its \(structure ? "values" : "owners' keys") change"
                let change = record(.plan(type: name), .dataDependent, "rewrite the side table \(side.name) into a new table (\(reason))")
                var columns = ["owner"]
                var values: [SQLExpression] = [ownerKey ?? .column("owner")]
                if side.kind == .list {
                    columns.append("position")
                    values.append(.column("position"))
                }
                if side.kind == .map {
                    columns.append("key")
                    values.append(.column("key"))
                }
                columns.append("value")
                values.append(value.expression)
                schedule(Self.rebuild(current, as: side.definition, columns: columns, values: values, indexes: side.index.map { [$0] } ?? []), in: .rewrite, for: change)
                linksChanged = true
                continue
            }
            if value.expression != element.expression {
                let change = record(.plan(type: name), .dataDependent, "rewrite the elements of \(side.name)")
                schedule(.statement(.update(table: current, assignments: [SQLAssignment("value", value.expression)], where: nil)), in: .rewrite, for: change)
            }
            if oldSide.name != side.name, let index = side.index {
                // Its old index went with the renames.
                let change =
                    renameChange(of: side.property, in: table.typeName) ?? record(.plan(type: name), .additive, "index the values of \(side.name)")
                schedule(.statement(.createIndex(index)), in: .rewrite, for: change)
            }
        }
        for side in table.oldTable.sideTables where table.properties.new(for: side.property).flatMap({ newTable.sideTable(property: $0) }) == nil {
            let change =
                schemaChange { $0 == .propertyRemoved(type: table.typeName, property: side.property) }
                ?? record(.plan(type: name), .destructive, "remove the side table \(side.name)")
            schedule(.statement(.dropTable(side.name)), in: .rewrite, for: change)
        }
    }

    /// The owner column of `name`'s side tables after the version, when the owners' keys
    /// change: read from each owner's row before it is rewritten.
    private func ownerKeyChange(_ name: String) -> SQLExpression? {
        changedKey(of: name).map { .linked(SQLLinkedRead(table: name, key: $0.column, link: .column("owner"), value: $0.value.expression)) }
    }

    // MARK: - Tables

    /// The rewrite of one continued table: in place where SQLite's `ALTER TABLE` allows it
    /// (one `UPDATE` for every changed column), into a new table where the primary key or
    /// links change.
    private mutating func planTableRewrite(_ name: String) {
        guard let table = tables[name], let newTable = table.newTable else { return }
        let values = table.scope.values
        var unchanged: [ColumnLayout] = []
        var inPlace: [(ColumnLayout, SQLExpression)] = []
        var added: [(ColumnLayout, SQLExpression)] = []
        var replaced: [(ColumnLayout, SQLExpression)] = []
        for column in newTable.columns {
            guard let value = values[column.name] else { continue }
            if let physical = table.physical[column.name] {
                let oldTarget: String? = physical.link.flatMap { diff.types.new(for: $0.table) ?? "" }
                let sameTarget = oldTarget == column.link?.table
                let sameStorage =
                    physical.sqlType == column.sqlType && sameTarget
                    && physical.type.isOptional == column.type.isOptional && physical.isPrimaryKey == column.isPrimaryKey
                if !sameStorage {
                    replaced.append((column, value.expression))
                } else if value.sourceColumn == column.name {
                    unchanged.append(column)
                } else {
                    inPlace.append((column, value.expression))
                }
            } else {
                added.append((column, value.expression))
            }
        }
        let kept = Set(newTable.columns.map(\.name))
        let removed = table.physical.filter { !kept.contains($0.key) }.sorted { $0.key < $1.key }
        let dropped = removed.map(\.key) + replaced.map(\.0.name)
        let oldKey = table.keyColumn
        let structural =
            replaced.contains { $0.0.isPrimaryKey || $0.0.link != nil || table.physical[$0.0.name]?.link != nil }
            || removed.contains { $0.value.isPrimaryKey || $0.value.link != nil }
            || (oldKey != nil) != (newTable.primaryKey != nil)
            || (oldKey != nil && oldKey != newTable.primaryKey?.name)
        let changesValues = !inPlace.isEmpty || !replaced.isEmpty || added.contains { !$0.1.isNullLiteral }
        let rebuild =
            switch tableRewrite {
            case .rebuild: changesValues || !dropped.isEmpty || structural
            case .alterTable, .automatic: structural
            }

        // Index names follow the table and column names, which renames already changed for
        // the table but not for its indexes: an old index stays only where the new layout has
        // one of that name on that same, kept column; the others go first (SQLite refuses to
        // drop an indexed column) and the missing ones are created at the end. A renamed
        // type's old indexes are gone already.
        let oldIndexes = table.oldTable.name == newTable.name ? Set(table.oldTable.indexes.map(\.name)) : []
        let droppedColumns = Set(dropped)
        let currentColumn = Dictionary(table.physical.map { ($0.value.name, $0.key) }, uniquingKeysWith: { first, _ in first })
        let keptIndexes =
            rebuild
            ? []
            : Set(
                table.oldTable.indexes.filter { index in
                    guard oldIndexes.contains(index.name) else { return false }
                    let columns = index.columns.compactMap { currentColumn[$0] }
                    guard columns.count == index.columns.count, droppedColumns.isDisjoint(with: columns) else { return false }
                    return newTable.indexes.contains { $0.name == index.name && $0.columns == columns && $0.isUnique == index.isUnique }
                }.map(\.name))

        var statements: [SQLStatement] = []
        var retypes: [PlanOperation] = []
        var summary: String
        if rebuild {
            let columns = newTable.columns.filter { values[$0.name] != nil }
            statements += Self.rebuild(name, as: newTable.definition, columns: columns.map(\.name), values: columns.map { values[$0.name]!.expression }, indexes: newTable.indexes)
            summary =
                "rewrite \(name) into a new table (\(structural ? "its primary key or links change" : "table rebuilds requested, \(dropped.count) column\(dropped.count == 1 ? "" : "s") dropped"))"
            rewrittenTables.insert(name)
            linksChanged = linksChanged || newTable.columns.contains { $0.link != nil } || !newTable.sideTables.isEmpty
        } else {
            for index in oldIndexes.subtracting(keptIndexes).sorted() {
                statements.append(.dropIndex(index))
            }
            var assignments: [SQLAssignment] = []
            // A computed new column takes over the slot of a removed (or retyped) column declared
            // the same way: the UPDATE writes its value there and a rename names it, which saves
            // the full-table pass of DROP COLUMN.
            func canReuse(_ layout: ColumnLayout) -> Bool { !layout.isPrimaryKey && layout.link == nil && !layout.isIndexed && !layout.isUnique }
            // A column whose values change storage type keeps its slot: it is declared with the
            // new type first and the UPDATE converts its values there, instead of adding a
            // column and dropping the old one (a second pass over the table). Its old values are
            // read as the old type (`CAST` to it), so that comparisons keep the old column's
            // affinity; a BLOB column, which has none, and keys, links and indexed columns are
            // replaced as before.
            var retyped: [String: SQLColumnType] = [:]
            for (column, value) in replaced {
                guard let old = table.physical[column.name], canReuse(old), canReuse(column), old.sqlType != .blob,
                    old.type.isOptional == column.type.isOptional, !value.isNullLiteral
                else { continue }
                retyped[column.name] = old.sqlType
                retypes.append(.retype(table: name, column: column.name, type: column.sqlType))
                assignments.append(SQLAssignment(column.name, value))
            }
            replaced.removeAll { retyped[$0.0.name] != nil }
            var reusable = removed.filter { canReuse($0.value) }.map { (slot: $0.key, layout: $0.value) }
            reusable += replaced.compactMap { entry in table.physical[entry.0.name].flatMap { canReuse($0) ? (slot: entry.0.name, layout: $0) : nil } }
            var reused: [(slot: String, column: String)] = []
            for (column, value) in added where column.link == nil && !value.isNullLiteral {
                guard let index = reusable.firstIndex(where: { $0.layout.sqlType == column.sqlType && $0.layout.type.isOptional == column.type.isOptional }) else { continue }
                let slot = reusable.remove(at: index).slot
                reused.append((slot, column.name))
                assignments.append(SQLAssignment(slot, value))
            }
            let reusedColumns = Set(reused.map(\.column))
            for (column, value) in added.filter({ !reusedColumns.contains($0.0.name) }) + replaced {
                let isReplacement = replaced.contains { $0.0.name == column.name }
                let columnName = isReplacement ? column.name + "__remodel_new" : column.name
                // A required column needs a default to be added; every row then gets its value
                // from the UPDATE, and the default goes when the definition is normalized.
                let definition = SQLColumnDefinition(
                    name: columnName, type: column.sqlType, notNull: !column.type.isOptional,
                    default: column.type.isOptional ? nil : .value(column.sqlType.placeholder), references: column.foreignKey
                )
                if column.link != nil { linksChanged = true }
                statements.append(.addColumn(table: name, definition))
                if !value.isNullLiteral { assignments.append(SQLAssignment(columnName, value)) }
            }
            assignments += inPlace.map { SQLAssignment($0.0.name, $0.1) }
            if !retyped.isEmpty {
                assignments = assignments.map { assignment in
                    SQLAssignment(assignment.column, assignment.value.replacingColumns { column in retyped[column].map { .cast(.column(column), $0) } ?? .column(column) })
                }
            }
            if !assignments.isEmpty {
                statements.append(.update(table: name, assignments: assignments, where: nil))
                rewrittenTables.insert(name)
            }
            let reusedSlots = Set(reused.map(\.slot))
            for column in dropped where !reusedSlots.contains(column) && retyped[column] == nil {
                statements.append(.dropColumn(table: name, column: column))
            }
            for (slot, column) in reused {
                statements.append(.renameColumn(table: name, from: slot, to: column))
            }
            for (column, _) in replaced {
                statements.append(.renameColumn(table: name, from: column.name + "__remodel_new", to: column.name))
            }
            statements += newTable.indexes.filter { !keptIndexes.contains($0.name) }.map(SQLStatement.createIndex)
            let droppedCount = dropped.count - reused.count - retyped.count
            summary =
                "rewrite \(name) in place (\(assignments.count) computed column\(assignments.count == 1 ? "" : "s"), \(droppedCount) dropped"
                + (reused.isEmpty ? "" : ", \(reused.count) reusing a removed column's slot")
                + (retyped.isEmpty ? "" : ", \(retyped.count) retyped in \(retyped.count == 1 ? "its" : "their") slot") + ")"
            if assignments.isEmpty && dropped.isEmpty { summary = "adjust \(name)'s columns and indexes" }
        }
        guard !statements.isEmpty || !retypes.isEmpty else { return }
        let impact: SchemaChange.Impact = changesValues ? .dataDependent : (dropped.isEmpty ? .additive : .destructive)
        let change = record(.plan(type: name), impact, summary)
        for retype in retypes { schedule(retype, in: .rewrite, for: change) }
        schedule(statements, in: .rewrite, for: change)
    }
}

extension SQLExpression {
    /// Whether the tree reads rows of any of `tables` through a link.
    func readsTables(_ tables: Set<String>) -> Bool {
        var found = false
        _ = rewritingLinked { read in
            if tables.contains(read.table) { found = true }
            return nil
        }
        return found
    }

    /// The tree with each linked read replaced where `transform` returns a replacement.
    func rewritingLinked(_ transform: (SQLLinkedRead) -> SQLExpression?) -> SQLExpression {
        switch self {
        case .linked(var read):
            if let replacement = transform(read) { return replacement }
            read.link = read.link.rewritingLinked(transform)
            read.value = read.value.rewritingLinked(transform)
            return .linked(read)
        case .outer(let inner):
            return .outer(inner.rewritingLinked(transform))
        default:
            return mappingOperands { $0.rewritingLinked(transform) }
        }
    }
}

extension SchemaDiff {
    /// The impact of a retype, leaving aside optionality (checked on its own).
    static func retypeImpactIgnoringOptionality(from old: PropertyType, to new: PropertyType) -> SchemaChange.Impact {
        var old = old
        old.isOptional = new.isOptional
        return retypeImpact(from: old, to: new)
    }
}
