import RemodelCore
import RemodelLayout

/// The end of a version: added types, new objects, custom steps, the tables kept only for
/// reading, and the definitions of altered tables.
extension VersionPlanner {
    mutating func planCreations() {
        for newObject in new.objects where diff.types.old(for: newObject.name) == nil && !newObject.isEmbedded {
            guard let table = newLayout.table(named: newObject.name) else { continue }
            let change = record(SchemaChange(.objectAdded(newObject.name), impact: .additive), "add type \(newObject.name)", type: newObject.name)
            schedule(table.createStatements, in: .create, for: change)
        }
        planCreatedObjects()
        planCustomSteps()
    }

    mutating func planCleanup() {
        // Tables of removed types go first, unless a step reads them: then at the end.
        for name in tableOrder {
            guard let table = tables[name], table.role != .continued else { continue }
            let isRead = tables.values.contains { $0.reads.contains(name) } || table.role == .embedding
            let change =
                removedTypeChanges[name] ?? schemaChange { if case .embeddedChanged(let type, true) = $0 { type == table.newObject?.name } else { false } }
                ?? record(.plan(type: name), .destructive, "drop the table of \(table.oldObject.name)")
            let drops = table.oldTable.sideTables.map { SQLStatement.dropTable($0.name) } + [.dropTable(isRead ? name : table.oldObject.name)]
            if isRead {
                // Its indexes go at once: they carry names a renamed type may take.
                schedule(table.oldTable.indexes.map { .dropIndex($0.name) }, in: .dropIndexes, for: change)
                if name != table.oldObject.name {
                    schedule(.statement(.renameTable(from: table.oldObject.name, to: name)), in: .dropIndexes, for: change)
                }
                schedule(drops, in: .dropKept, for: change)
            } else {
                schedule(drops, in: .dropRemoved, for: change)
            }
            linksChanged = true
        }
        // Altered tables get a fresh store's definition (columns in their stored order). A
        // renamed table changes the foreign keys of the tables that refer to it, too.
        let altered = alteredTables()
        let continued = tableOrder.compactMap { tables[$0] }.filter { table in
            table.role == .continued && (altered.all || altered.names.contains(table.name) || table.newTable!.sideTables.contains { altered.names.contains($0.name) })
        }
        if !continued.isEmpty {
            let change = record(.plan(type: nil), .additive, "give the tables the definitions of a fresh store (\(continued.map(\.name).joined(separator: ", ")))")
            for table in continued {
                guard let newTable = table.newTable else { continue }
                if altered.all || altered.names.contains(newTable.name) {
                    schedule(.normalize(newTable.definition, rowsRewritten: rewrittenTables.contains(table.name)), in: .normalize, for: change)
                }
                for side in newTable.sideTables where altered.all || altered.names.contains(side.name) {
                    schedule(.normalize(side.definition, rowsRewritten: false), in: .normalize, for: change)
                }
            }
        }
        if linksChanged {
            let change = record(.plan(type: nil), .additive, "check that every link points at an object that exists")
            schedule(.foreignKeyCheck, in: .linkCheck, for: change)
        }
    }
}

extension VersionPlanner {
    /// The tables whose definitions this version's statements change (`all` when a table that
    /// continues is renamed: the foreign keys of others change with it).
    func alteredTables() -> (all: Bool, names: Set<String>) {
        var names = Set<String>()
        for operation in scheduled.values.joined() {
            if case .retype(let table, _, _) = operation.operation { names.insert(table) }
            guard case .statement(let statement) = operation.operation else { continue }
            switch statement {
            case .renameTable(let from, let to):
                if from == Self.rebuildName(of: to) {
                    names.insert(to)
                } else if tables[to]?.role != .removed {
                    return (true, [])
                }
            case .addColumn(let table, _), .dropColumn(let table, _), .renameColumn(let table, _, _):
                names.insert(table)
            default:
                break
            }
        }
        return (false, names)
    }
}
