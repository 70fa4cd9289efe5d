import RemodelCore
import RemodelLayout

/// The old tables of a version and how each continues: renamed types, side tables and
/// columns, and the starting value of every property.
extension VersionPlanner {
    /// The name a table or column steps aside to when its name is wanted by a rename.
    static func aside(_ name: String) -> String { name + "__remodel_removed" }
    static func renaming(_ name: String) -> String { name + "__remodel_renaming" }

    mutating func prepareTables() {
        var continuedRenames: [(from: String, to: String)] = []
        let renameTargets = Set(
            old.objects.compactMap { object -> String? in
                guard !object.isEmbedded, let newName = diff.types.new(for: object.name), newName != object.name,
                    new.objectType(named: newName).map({ !$0.isEmbedded }) ?? false
                else { return nil }
                // Folded: SQLite's table names ignore letter case.
                return StoreNames.foldedKey(newName)
            })
        for oldObject in old.objects where !oldObject.isEmbedded {
            guard let oldTable = oldLayout.table(named: oldObject.name) else { continue }
            let newName = diff.types.new(for: oldObject.name)
            let newObject = newName.flatMap(new.objectType(named:))
            let role: TableState.Role =
                switch newObject?.isEmbedded {
                case nil: .removed
                case true?: .embedding
                case false?: .continued
                }
            var name = oldObject.name
            if role == .continued, let newName {
                name = newName
                if newName != oldObject.name { continuedRenames.append((oldObject.name, newName)) }
            } else if renameTargets.contains(StoreNames.foldedKey(oldObject.name)) {
                // Kept for reading while a renamed type takes its name.
                name = Self.aside(oldObject.name)
            }
            let table = TableState(
                role: role, oldObject: oldObject, newObject: newObject, oldTable: oldTable,
                newTable: role == .continued ? newName.flatMap(newLayout.table(named:)) : nil,
                properties: newName.flatMap { diff.properties[$0] } ?? RenameMap(), name: name
            )
            tables[name] = table
            tableOrder.append(name)
            tableOfOldType[oldObject.name] = name
            if role == .continued, let newName { continuedTableOfNewType[newName] = name }
        }
        // Types first, then their columns and side tables: the order the plan reads in.
        planTypeRenames(continuedRenames)
        for name in tableOrder {
            var table = tables[name]!
            setUpColumns(&table)
            tables[name] = table
        }
        planSideTableRenames()
    }

    /// Column renames of a continued table (swaps through a temporary name), and the starting
    /// value of each property.
    private mutating func setUpColumns(_ table: inout TableState) {
        guard table.role == .continued, let newTable = table.newTable else {
            // Removed and embedding tables keep their columns as they are: continued
            // properties are read under their new names, removed ones under their own.
            for column in table.oldTable.columns {
                table.physical[column.name] = column
                let key = table.properties.new(for: column.name) ?? column.name
                if table.scope.values[key] == nil { table.scope.values[key] = .column(column.name, type: column.type) }
            }
            return
        }
        var newNameOfOld: [String: String] = [:]
        for pair in table.properties.pairs where table.oldTable.column(named: pair.old) != nil && newTable.column(named: pair.new) != nil {
            newNameOfOld[pair.old] = pair.new
        }
        var current: [String: String] = [:]  // current physical name → old name
        for column in table.oldTable.columns { current[column.name] = column.name }
        var statements: [(statement: SQLStatement, original: String?)] = []  // original: the renamed column's old name
        let name = table.name
        func rename(_ from: String, _ to: String, original: String?) {
            statements.append((.renameColumn(table: name, from: from, to: to), original))
            current[to] = current.removeValue(forKey: from)
        }
        // SQLite's column names ignore letter case: `title` renamed to `Name` takes `name`'s.
        let targets = Set(newNameOfOld.values.map(StoreNames.foldedKey))
        // Columns that go away but whose names a renamed column takes: moved aside.
        for column in table.oldTable.columns where newNameOfOld[column.name] == nil && targets.contains(StoreNames.foldedKey(column.name)) {
            rename(column.name, Self.aside(column.name), original: nil)
        }
        let renames = newNameOfOld.map { (from: $0.key, to: $0.value) }
        for step in RenameOrder.steps(renames, existing: current.keys, temporary: Self.renaming) {
            rename(step.from, step.to, original: step.original)
        }
        for (currentName, oldName) in current {
            guard let column = table.oldTable.column(named: oldName) else { continue }
            table.physical[currentName] = column
            table.scope.values[currentName] = .column(currentName, type: column.type)
        }
        // Each rename is its own change and owns its statements (a swap goes through a
        // temporary name); they run in the order that frees each name first.
        var owner: [String: Int] = [:]  // old column name → change
        for pair in table.properties.renamed {
            // Inverse relationships are renamed too, with nothing to move.
            owner[pair.old] = recordRename(type: table.typeName, from: pair.old, to: pair.new, isType: false)
        }
        var aside: Int?
        for (statement, original) in statements {
            if let original, let change = owner[original] {
                schedule(.statement(statement), in: .renameColumns, for: change)
            } else {
                if aside == nil { aside = record(.plan(type: name), .additive, "move removed columns of \(name) aside for the renames") }
                schedule(.statement(statement), in: .renameColumns, for: aside!)
            }
        }
    }

    /// The change of one rename: by a step, or by `renamedFrom` in the schema.
    @discardableResult
    private mutating func recordRename(type: String, from: String, to: String, isType: Bool) -> Int {
        let stepIndex = migration.steps.firstIndex { step in
            switch step {
            case .renameType(let a, let b): isType && a == from && b == to
            case .renameProperty(_, let a, let b): !isType && a == from && b == to
            default: false
            }
        }
        let summary = isType ? "rename type \(from) to \(to)" : "rename property \(type).\(from) to \(to)"
        let change: SchemaChange.Kind = isType ? .objectRenamed(from: from, to: to) : .propertyRenamed(type: type, from: from, to: to)
        let index =
            if let stepIndex {
                record(.step(index: stepIndex, migration.steps[stepIndex]), .additive, summary)
            } else {
                record(.schema(SchemaChange(change, impact: .additive)), .additive, summary + " (renamedFrom)", at: .schema(type: isType ? to : type, member: isType ? nil : to))
            }
        renameChanges[isType ? .type(to) : .property(type: type, name: to)] = index
        return index
    }

    /// Table renames, all of them before anything else, so that a swap of two names (through
    /// a temporary name) or a chain of renames works. Their indexes go first: they carry the
    /// old names and are created again under the new ones.
    private mutating func planTypeRenames(_ renames: [(from: String, to: String)]) {
        let existing = tableOrder.filter { name in
            // Removed tables dropped first do not hold their names; kept ones were moved aside.
            tables[name]?.role != .removed || name.hasSuffix("__remodel_removed")
        }
        let steps = RenameOrder.steps(renames, existing: existing, temporary: Self.renaming)
        var owner: [String: Int] = [:]  // old name → change
        for (from, to) in renames {
            owner[from] = recordRename(type: to, from: from, to: to, isType: true)
            if let table = tables[to] {
                schedule(table.oldTable.indexes.map { .dropIndex($0.name) }, in: .dropIndexes, for: owner[from]!)
            }
        }
        for step in steps {
            schedule(.statement(.renameTable(from: step.from, to: step.to)), in: .renameTables, for: owner[step.original]!)
        }
    }

    /// Side tables follow their type's and property's names.
    private mutating func planSideTableRenames() {
        var renames: [(from: String, to: String)] = []
        var owners: [String: Int] = [:]
        for name in tableOrder {
            guard let table = tables[name], table.role == .continued, let newTable = table.newTable else { continue }
            for side in table.oldTable.sideTables {
                guard let newProperty = table.properties.new(for: side.property), let newSide = newTable.sideTable(property: newProperty), side.name != newSide.name else {
                    continue
                }
                renames.append((side.name, newSide.name))
                let change = renameChange(of: newProperty, in: table.typeName)
                owners[side.name] = change ?? record(.plan(type: name), .additive, "rename the side table \(side.name) to \(newSide.name)")
                // Its index is created again under the new name.
                if let index = side.index { schedule(.statement(.dropIndex(index.name)), in: .dropIndexes, for: owners[side.name]!) }
            }
        }
        let existing = tableOrder.compactMap { tables[$0] }.flatMap { $0.oldTable.sideTables.map(\.name) }
        for step in RenameOrder.steps(renames, existing: existing, temporary: Self.renaming) {
            schedule(.statement(.renameTable(from: step.from, to: step.to)), in: .renameSideTables, for: owners[step.original]!)
        }
    }
}
