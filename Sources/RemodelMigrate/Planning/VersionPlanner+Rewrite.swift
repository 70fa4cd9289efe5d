import RemodelCore
import RemodelStore

/// Changes the diff finds that no step handled, and the physical rewrite of each table.
extension VersionPlanner {
    /// Gives every column of the new type a binding: continued values (converted when the
    /// retype is lossless, remapped when enum raw values changed), defaults for added
    /// properties; records checks for nulls left in required properties.
    mutating func completeProperties(of table: inout TableMigration) {
        for property in table.newObject.properties {
            guard let target = property.storedType, target.collection == nil else { continue }
            let name = property.name
            if let origin = table.assignedBy[name] {
                let binding = table.bindings[name]!
                if !target.isOptional && !binding.expression.isNonNull {
                    addCheck(&table, property: name, step: origin, problem: "a null value, but the property is required",
                             hint: "make '\(name)' optional, or give the step a value for every object", condition: "\(binding.expression.operand) IS NULL", value: binding.expression.sql)
                }
                continue
            }
            guard var binding = table.bindings[name], table.physicalName(ofNew: name) != nil else {
                // Added property: its default, null when optional, else an error.
                let value: ColumnExpression
                if let defaultValue = property.defaultValue {
                    guard let stored = storedExpression(defaultValue, type: target, step: nil) else { continue }
                    value = stored
                } else if target.isOptional {
                    value = .null
                } else {
                    error("migration-missing-value", "'\(table.name).\(name)' is new and required but has no default, so existing objects would have no value", step: nil,
                          hint: "add `default:` to '\(name)' in the schema, make it optional, or add a step that sets it (set, split, convert)")
                    continue
                }
                table.bindings[name] = TableMigration.Binding(expression: value, type: target, isNewType: true)
                // Dates are stored as microseconds; the plan shows them as people write them.
                var shown = value.sql
                if case .scalar(.date) = target.base, let microseconds = Int64(value.sql) {
                    shown = StoreDateFormat.string(microseconds: microseconds)
                }
                record(.additive, "add property \(table.name).\(name) (\(target))\(value.isConstant ? " = \(shown)" : "")", origin: "schema", sql: ["\(SQL.quote(name)) = \(value.sql)"])
                continue
            }
            let oldType = binding.type
            let sameBase = sameStoredBase(oldType, target)
            if !sameBase {
                let operand = binding.expression.operand
                guard SchemaDiff.retypeImpactIgnoringOptionality(from: oldType, to: target) == .additive,
                      let conversion = Conversion.between(oldType, in: old, target, in: new, operand: operand), conversion.test == nil else {
                    error("migration-missing-step", "'\(table.name).\(name)' changes type from \(oldType) to \(target), which can lose or reject values", step: nil,
                          hint: "add a step: convert: { type: \(table.name), property: \(name), to: \(target.element.description.replacingOccurrences(of: "?", with: "")), onError: fail }  (or mapValues for enums)")
                    continue
                }
                binding.expression = .computed(conversion.value, nonNull: binding.expression.isNonNull)
                record(.additive, "widen \(table.name).\(name) from \(oldType) to \(target)", origin: "schema", sql: ["\(SQL.quote(name)) = \(conversion.value)"])
            } else if let enumName = target.enumName {
                remapEnum(enumName, binding: &binding, table: &table, property: name)
            }
            binding.type = target
            binding.isNewType = true
            if oldType.isOptional && !target.isOptional && !binding.expression.isNonNull {
                record(.dataDependent, "make \(table.name).\(name) required", origin: "schema", sql: [])
                addCheck(&table, property: name, step: "schema", problem: "no value, but '\(name)' becomes required",
                         hint: "give these objects a value first, keep '\(name)' optional, or add a convert step with onError: default",
                         condition: "\(binding.expression.operand) IS NULL", value: binding.expression.sql)
            } else if !oldType.isOptional && target.isOptional {
                record(.additive, "make \(table.name).\(name) optional", origin: "schema", sql: [])
            }
            table.bindings[name] = binding
        }
        // The primary key must stay unique.
        if let key = table.newObject.primaryKey, let binding = table.bindings[key], binding.expression.sourceColumn != key {
            addCheck(&table, property: key, step: table.assignedBy[key] ?? "schema", problem: "a primary key that another object would also have",
                     hint: "make the new keys unique, or delete the duplicates first with deleteObjects",
                     condition: "\(binding.expression.operand) IN (SELECT \(binding.expression.operand) FROM \(SQL.quote(table.name)) GROUP BY 1 HAVING count(*) > 1)", value: binding.expression.sql)
        }
    }

    /// Whether two types store the same kind of value (enum and link renames ignored).
    func sameStoredBase(_ old: PropertyType, _ new: PropertyType) -> Bool {
        switch (old.base, new.base) {
        case (.scalar(let a), .scalar(let b)): a == b
        case (.enumeration(let a), .enumeration(let b)): a == b || self.new.enumType(named: b)?.renamedFrom == a || renamedEnum(a) == b
        case (.object(let a), .object(let b)): a == b || self.new.objectType(named: b)?.renamedFrom == a || migration.steps.contains(.renameType(from: a, to: b))
        default: false
        }
    }

    private func renamedEnum(_ old: String) -> String? {
        for step in migration.steps { if case .renameType(let from, let to) = step, from == old { return to } }
        return nil
    }

    /// Old raw values of cases whose raw value changed become the new ones; values of
    /// removed cases are data errors.
    mutating func remapEnum(_ enumName: String, binding: inout TableMigration.Binding, table: inout TableMigration, property: String) {
        guard let newEnum = new.enumType(named: enumName),
              let oldEnum = old.enumType(named: binding.type.enumName ?? enumName) else { return }
        var whens: [String] = []
        for newCase in newEnum.cases {
            if let oldCase = oldEnum.enumCase(named: newCase.name), oldCase.rawValue != newCase.rawValue {
                whens.append("WHEN \(StoredLiteral.raw(oldCase.rawValue)) THEN \(StoredLiteral.raw(newCase.rawValue))")
            }
        }
        let removed = oldEnum.cases.filter { newEnum.enumCase(named: $0.name) == nil }
        if !removed.isEmpty {
            let raws = removed.map { StoredLiteral.raw($0.rawValue) }.joined(separator: ", ")
            addCheck(&table, property: property, step: "schema", problem: "values of enum cases removed from \(enumName) (\(removed.map(\.name).joined(separator: ", ")))",
                     hint: "add a mapValues step that maps the removed cases to remaining ones", condition: "\(binding.expression.operand) IN (\(raws))", value: binding.expression.sql)
        }
        guard !whens.isEmpty else { return }
        let sql = "(CASE \(binding.expression.operand) \(whens.joined(separator: " ")) ELSE \(binding.expression.operand) END)"
        binding.expression = .computed(sql, nonNull: binding.expression.isNonNull)
        record(.dataDependent, "store the new raw values of \(enumName) in \(table.name).\(property)", origin: "schema", sql: ["\(SQL.quote(property)) = \(sql)"])
    }

    /// Emits deletions, checks and the rewrite of one continued table, then its side tables
    /// and indexes.
    mutating func materialize(_ table: TableMigration, all tables: [TableMigration], newLayout: StoreLayout) {
        let name = table.name
        let quoted = SQL.quote(name)
        let keyColumn = table.physical.first { $0.value.isPrimaryKey }?.key

        // Deletions, with the links that point at the deleted objects.
        if !table.deletions.isEmpty, let keyColumn {
            let condition = table.deletions.map { "(\($0.condition))" }.joined(separator: " OR ")
            let doomed = "(SELECT \(SQL.quote(keyColumn)) FROM \(quoted) WHERE \(condition))"
            var statements: [String] = []
            for other in newLayout.tables {
                guard let otherMigration = tables.first(where: { $0.name == other.name }) else { continue }
                for column in other.columns where column.link?.table == name && otherMigration.physical[column.name] != nil {
                    statements.append("UPDATE \(SQL.quote(other.name)) SET \(SQL.quote(column.name)) = NULL WHERE \(SQL.quote(column.name)) IN \(doomed)")
                }
                for side in other.sideTables where side.link?.table == name && otherMigration.hasSideTable(side.property) {
                    statements.append("DELETE FROM \(SQL.quote(side.name)) WHERE \"value\" IN \(doomed)")
                }
            }
            for side in table.newTable.sideTables where table.hasSideTable(side.property) {
                statements.append("DELETE FROM \(SQL.quote(side.name)) WHERE \"owner\" IN \(doomed)")
            }
            statements.append("DELETE FROM \(quoted) WHERE \(condition)")
            run(statements)
        }
        items += table.checks.map(PlanItem.check)

        // Classify columns.
        var unchanged: [ColumnLayout] = []
        var inPlace: [(ColumnLayout, ColumnExpression)] = []
        var added: [(ColumnLayout, ColumnExpression)] = []
        var replaced: [(ColumnLayout, ColumnExpression)] = []
        for column in table.newTable.columns {
            guard let binding = table.bindings[column.name] else { continue }
            if let physical = table.physical[column.name] {
                let sameStorage = physical.sqlType == column.sqlType && (physical.link == nil) == (column.link == nil)
                    && physical.type.isOptional == column.type.isOptional && physical.isPrimaryKey == column.isPrimaryKey
                if !sameStorage {
                    replaced.append((column, binding.expression))
                } else if binding.expression.sourceColumn == column.name {
                    unchanged.append(column)
                } else {
                    inPlace.append((column, binding.expression))
                }
            } else {
                added.append((column, binding.expression))
            }
        }
        let kept = Set(table.newTable.columns.map(\.name))
        let removed = table.physical.filter { !kept.contains($0.key) }.sorted { $0.key < $1.key }
        for (columnName, _) in removed where table.origins.values.contains(columnName) == false {
            let oldName = columnName.hasSuffix("__remodel_removed") ? String(columnName.dropLast("__remodel_removed".count)) : columnName
            record(.destructive, "remove property \(name).\(oldName) and its values", origin: "schema", sql: [])
        }
        let dropped = removed.map(\.key) + replaced.map(\.0.name)
        // Index names follow the table and column names, which renames already changed for
        // the table but not for its indexes: old ones keep the old layout's names, on the
        // columns they followed through the renames. An old index stays only where the new
        // layout has one of that name on that same, kept column; the others go first (SQLite
        // refuses to drop an indexed column, and a swap of names would leave an index on the
        // wrong column) and the new layout's missing ones are created at the end.
        // A renamed type's old indexes are gone already (see VersionPlanner.plan): another
        // type may have taken their names by now.
        let oldIndexes = table.oldTable.name == table.newTable.name ? Set(table.oldTable.indexes.map(\.name)) : []
        let droppedColumns = Set(dropped)
        let currentColumn = Dictionary(table.physical.map { ($0.value.name, $0.key) }, uniquingKeysWith: { first, _ in first })
        let keptIndexes = Set(table.oldTable.indexes.filter { index in
            guard oldIndexes.contains(index.name) else { return false }
            guard let column = currentColumn[index.column], !droppedColumns.contains(column) else { return false }
            return table.newTable.indexes.contains { $0.name == index.name && $0.column == column }
        }.map(\.name))
        let changesValues = !inPlace.isEmpty || !replaced.isEmpty || added.contains { !$0.1.isConstant }
        let structural = replaced.contains { $0.0.isPrimaryKey || $0.0.link != nil }
            || removed.contains { $0.value.isPrimaryKey || $0.value.link != nil }
            || table.physical.values.contains { $0.isPrimaryKey } != table.newTable.columns.contains { $0.isPrimaryKey }
            || (keyColumn != nil && keyColumn != table.newTable.primaryKey?.name)
        let rebuild: Bool
        switch tableRewrite {
        case .rebuild: rebuild = changesValues || !dropped.isEmpty || structural
        case .alterTable: rebuild = structural
        case .automatic: rebuild = structural
        }

        var statements: [String] = []
        if rebuild {
            let temporary = name + "__remodel_new"
            let create = table.newTable.createTableStatement
            statements.append("CREATE TABLE \(SQL.quote(temporary))" + create.dropFirst("CREATE TABLE \(quoted)".count))
            let columns = table.newTable.columns.filter { table.bindings[$0.name] != nil }
            let values = columns.map { table.bindings[$0.name]!.expression.sql }
            statements.append("INSERT INTO \(SQL.quote(temporary)) (\(SQL.list(columns.map(\.name)))) SELECT \(values.joined(separator: ", ")) FROM \(quoted)")
            statements.append("DROP TABLE \(quoted)")
            statements.append("ALTER TABLE \(SQL.quote(temporary)) RENAME TO \(quoted)")
            statements += table.newTable.createIndexStatements
            record(changesValues ? .dataDependent : .additive, "rewrite \(name) into a new table (\(rebuildReason(structural: structural, dropped: dropped.count)))", origin: "plan", sql: statements)
            linksChanged = linksChanged || table.newTable.columns.contains { $0.link != nil } || !table.newTable.sideTables.isEmpty
        } else {
            for index in oldIndexes.subtracting(keptIndexes).sorted() {
                statements.append("DROP INDEX IF EXISTS \(SQL.quote(index))")
            }
            var assignments: [String] = []
            // A computed new column takes over the slot of a removed column declared the same
            // way: the UPDATE writes its value there and a rename names it, which saves the
            // full-table pass of DROP COLUMN.
            // The old slot of a retyped column can be reused the same way, and once the table
            // is rewritten anyway, an added column with a constant value can take a slot too.
            func canReuse(_ layout: ColumnLayout) -> Bool { !layout.isPrimaryKey && layout.link == nil && !layout.isIndexed }
            var reusable = removed.filter { canReuse($0.value) }.map { (slot: $0.key, layout: $0.value) }
            reusable += replaced.compactMap { entry in table.physical[entry.0.name].flatMap { canReuse($0) ? (slot: entry.0.name, layout: $0) : nil } }
            let rewrites = !inPlace.isEmpty || !replaced.isEmpty || added.contains { !$0.1.isConstant }
            let candidates = added.filter { !$0.1.isConstant } + (rewrites ? added.filter { $0.1.isConstant } : [])
            var reused: [(slot: String, column: String)] = []
            for (column, expression) in candidates where column.link == nil {
                guard let index = reusable.firstIndex(where: { $0.layout.sqlType == column.sqlType && $0.layout.type.isOptional == column.type.isOptional }) else { continue }
                let slot = reusable.remove(at: index).slot
                reused.append((slot, column.name))
                assignments.append("\(SQL.quote(slot)) = \(expression.sql)")
            }
            let reusedColumns = Set(reused.map(\.column))
            for (column, expression) in added.filter({ !reusedColumns.contains($0.0.name) }) + replaced.map({ ($0.0, $0.1) }) {
                let isReplacement = replaced.contains { $0.0.name == column.name }
                let columnName = isReplacement ? column.name + "__remodel_new" : column.name
                var definition = "\(SQL.quote(columnName)) \(column.sqlType)"
                if expression.isConstant {
                    if !column.type.isOptional { definition += " NOT NULL" }
                    if expression.sql != "NULL" { definition += " DEFAULT \(expression.sql)" }
                } else {
                    if !column.type.isOptional { definition += " NOT NULL DEFAULT \(SQLText.zero(ofColumnType: column.sqlType))" }
                    assignments.append("\(SQL.quote(columnName)) = \(expression.sql)")
                }
                if let link = column.link {
                    definition += " REFERENCES \(SQL.quote(link.table)) (\(SQL.quote(link.column))) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED"
                    linksChanged = true
                }
                statements.append("ALTER TABLE \(quoted) ADD COLUMN \(definition)")
            }
            assignments += inPlace.map { "\(SQL.quote($0.0.name)) = \($0.1.sql)" }
            if !assignments.isEmpty {
                statements.append("UPDATE \(quoted) SET " + assignments.joined(separator: ", "))
            }
            let reusedSlots = Set(reused.map(\.slot))
            for column in dropped where !reusedSlots.contains(column) {
                statements.append("ALTER TABLE \(quoted) DROP COLUMN \(SQL.quote(column))")
            }
            for (slot, column) in reused {
                statements.append("ALTER TABLE \(quoted) RENAME COLUMN \(SQL.quote(slot)) TO \(SQL.quote(column))")
            }
            for (column, _) in replaced {
                statements.append("ALTER TABLE \(quoted) RENAME COLUMN \(SQL.quote(column.name + "__remodel_new")) TO \(SQL.quote(column.name))")
            }
            statements += table.newTable.indexes.filter { !keptIndexes.contains($0.name) }.map(\.statement)
            if !statements.isEmpty && (changesValues || !dropped.isEmpty) {
                let droppedCount = dropped.count - reused.count
                record(changesValues ? .dataDependent : .destructive, "rewrite \(name) in place (\(assignments.count) computed column\(assignments.count == 1 ? "" : "s"), \(droppedCount) dropped\(reused.isEmpty ? "" : ", \(reused.count) reusing a removed column's slot"))", origin: "plan", sql: statements)
            } else if !statements.isEmpty {
                record(.additive, "adjust \(name)'s columns and indexes", origin: "plan", sql: statements)
            }
        }
        run(statements)

        // Side tables.
        for side in table.newTable.sideTables {
            if table.hasSideTable(side.property) {
                // A renamed side table's old index was dropped with the renames.
                if let oldSide = table.oldSideTable(forNew: side.property), oldSide.name != side.name, oldSide.link != nil {
                    run(["CREATE INDEX \(SQL.quote("\(side.name).value")) ON \(SQL.quote(side.name)) (\"value\")"])
                }
                if let enumName = side.type.enumName, let oldSide = table.oldSideTable(forNew: side.property) {
                    var binding = TableMigration.Binding(expression: .column("value", nonNull: !side.type.isOptional), type: oldSide.type.element, isNewType: false)
                    var scratch = TableMigration(oldObject: table.oldObject, newObject: table.newObject, oldTable: table.oldTable, newTable: table.newTable, origins: [:])
                    remapEnum(enumName, binding: &binding, table: &scratch, property: side.property)
                    if binding.expression.sourceColumn == nil {
                        run(["UPDATE \(SQL.quote(side.name)) SET \"value\" = \(binding.expression.sql)"])
                    }
                }
                if let oldSide = table.oldSideTable(forNew: side.property), !sameStoredBase(oldSide.type.element, side.type.element) || oldSide.kind != side.kind {
                    error("migration-unsupported-change", "'\(name).\(side.property)' changes from \(oldSide.type) to \(side.type); changing the elements of a collection is not supported by automatic migration yet", step: nil, hint: "add a new property and move the values with a custom step")
                }
            } else {
                record(.additive, "add property \(name).\(side.property) (\(side.type)), empty for existing objects", origin: "schema", sql: side.createStatements)
                run(side.createStatements)
            }
        }
        for side in table.oldTable.sideTables where !table.origins.values.contains(side.property) {
            let statement = "DROP TABLE \(SQL.quote(side.name))"
            record(.destructive, "remove property \(table.oldObject.name).\(side.property) and its elements", origin: "schema", sql: [statement])
            run([statement])
        }
    }

    private func rebuildReason(structural: Bool, dropped: Int) -> String {
        if structural { return "its primary key or links change" }
        return "table rebuilds requested, \(dropped) column\(dropped == 1 ? "" : "s") dropped"
    }
}

extension TableMigration {
    /// Whether the new collection property `name` continues an old one (its side table exists).
    func hasSideTable(_ name: String) -> Bool {
        oldSideTable(forNew: name) != nil
    }

    /// The old side table that the new collection property `name` continues.
    func oldSideTable(forNew name: String) -> SideTableLayout? {
        guard let origin = origins[name] else { return nil }
        return oldTable.sideTable(property: origin)
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
