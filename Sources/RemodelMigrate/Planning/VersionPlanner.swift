import RemodelCore
import RemodelStore

/// Plans one version: from the schema before, the schema after and the migration file's
/// steps, the changes, checks and statements that take a store across.
///
/// Order of work: drop removed types; rename types, side tables and columns; delete objects;
/// check data; rewrite each changed table once (all declarative steps composed into one
/// expression per column); adjust side tables and indexes; create added types; run custom
/// steps.
struct VersionPlanner {
    let old: Schema
    let new: Schema
    let migration: Migration
    let nowMicroseconds: Int64
    let customSteps: Set<String>
    let tableRewrite: MigrationPlanner.TableRewrite
    let locate: (Int) -> SourceLocation?

    var diagnostics: [Diagnostic] = []
    var changes: [PlannedChange] = []
    var items: [PlanItem] = []
    var linksChanged = false
    /// Whether a step of this version has an error.
    var stepFailed = false

    init(old: Schema, new: Schema, migration: Migration, nowMicroseconds: Int64, customSteps: Set<String>, tableRewrite: MigrationPlanner.TableRewrite, locate: @escaping (Int) -> SourceLocation?) {
        self.old = old
        self.new = new
        self.migration = migration
        self.nowMicroseconds = nowMicroseconds
        self.customSteps = customSteps
        self.tableRewrite = tableRewrite
        self.locate = locate
    }

    func label(_ index: Int) -> String {
        "step \(index + 1) (\(migration.steps[index].kind))"
    }

    mutating func error(_ rule: String, _ message: String, step: Int?, hint: String? = nil) {
        // A value left unset or unconverted because a step of this version failed is that
        // step's error, already reported at the step: one mistake, one error.
        if step == nil, ["migration-missing-step", "migration-missing-value"].contains(rule), stepFailed { return }
        if step != nil { stepFailed = true }
        let location = step.flatMap(locate) ?? locate(-1)
        let prefix = step.map { "migration \(migration.version) \(label($0)): " } ?? "migration \(migration.version): "
        diagnostics.append(.error(rule, prefix + message, at: location, hint: hint))
    }

    mutating func record(_ impact: SchemaChange.Impact, _ summary: String, origin: String, sql: [String]) {
        changes.append(PlannedChange(impact: impact, summary: summary, origin: origin, sql: sql))
    }

    mutating func run(_ statements: [String]) {
        items += statements.map(PlanItem.sql)
    }

    mutating func plan() -> VersionPlan? {
        let oldLayout: StoreLayout
        let newLayout: StoreLayout
        do {
            oldLayout = try StoreLayout(schema: old)
            newLayout = try StoreLayout(schema: new)
        } catch {
            self.error("migration-unsupported-schema", "\(error)", step: nil)
            return nil
        }

        // Renames declared by steps.
        var typeRenames: [String: String] = [:]
        var propertyRenames: [String: [String: String]] = [:]
        for (index, step) in migration.steps.enumerated() {
            switch step {
            case .renameType(let from, let to):
                let oldNames = old.objects.map(\.name) + old.enums.map(\.name)
                let newNames = new.objects.map(\.name) + new.enums.map(\.name)
                guard oldNames.contains(from) else {
                    error("migration-unknown-type", "version \(migration.version - 1) has no type '\(from)' to rename", step: index, hint: Suggestion.closest(to: from, in: oldNames).map { "did you mean '\($0)'?" })
                    continue
                }
                guard newNames.contains(to) else {
                    error("migration-unknown-type", "version \(migration.version) has no type '\(to)' to rename '\(from)' to", step: index, hint: Suggestion.closest(to: to, in: newNames).map { "did you mean '\($0)'?" })
                    continue
                }
                typeRenames[from] = to
            case .renameProperty(let type, let from, let to):
                guard let newType = resolveNewType(type, renames: typeRenames, step: index) else { continue }
                let oldTypeName = typeRenames.first { $0.value == newType }?.key ?? old.objectType(named: newType)?.name ?? newType
                guard let oldObject = old.objectType(named: oldTypeName) else {
                    error("migration-unknown-type", "'\(newType)' is new in version \(migration.version), so it has no properties to rename", step: index)
                    continue
                }
                guard oldObject.property(named: from) != nil else {
                    error("migration-unknown-property", "'\(oldObject.name)' has no property '\(from)' in version \(migration.version - 1)", step: index, hint: Suggestion.closest(to: from, in: oldObject.properties.map(\.name)).map { "did you mean '\($0)'?" })
                    continue
                }
                guard new.objectType(named: newType)?.property(named: to) != nil else {
                    error("migration-unknown-property", "'\(newType)' has no property '\(to)' in version \(migration.version)", step: index, hint: Suggestion.closest(to: to, in: new.objectType(named: newType)?.properties.map(\.name) ?? []).map { "did you mean '\($0)'?" } ?? "add '\(to)' to the schema")
                    continue
                }
                propertyRenames[newType, default: [:]][from] = to
            default:
                break
            }
        }
        let diff = SchemaDiff(from: old, to: new, renames: .init(types: typeRenames, properties: propertyRenames))

        // Drop removed types first, so that a renamed type can take a removed one's name.
        for oldObject in old.objects where !diff.objectOrigins.values.contains(oldObject.name) {
            if oldObject.isEmbedded { continue }
            guard let table = oldLayout.table(named: oldObject.name) else { continue }
            let statements = table.sideTables.map { "DROP TABLE \(SQL.quote($0.name))" } + ["DROP TABLE \(SQL.quote(table.name))"]
            record(.destructive, "remove type \(oldObject.name) and all its objects", origin: "schema", sql: statements)
            run(statements)
            linksChanged = true
        }

        // Embedded types are stored as JSON inside their owners; changing them needs a step
        // this version does not offer.
        for newObject in new.objects where newObject.isEmbedded {
            guard let origin = diff.objectOrigins[newObject.name], let oldObject = old.objectType(named: origin) else { continue }
            var comparable = oldObject
            comparable.name = newObject.name
            comparable.doc = newObject.doc
            comparable.renamedFrom = newObject.renamedFrom
            if comparable.storageShape != newObject.storageShape {
                error("migration-embedded-change", "the embedded type '\(newObject.name)' changed; embedded objects are stored as JSON in their owner's row and automatic migration of their shape is not supported yet", step: nil, hint: "keep the embedded type unchanged and add a new one, or move the data with a custom step")
            }
        }

        // Renamed types first, all of them, so that a swap of two names (through a temporary
        // name) or a chain of renames works. Their indexes go first: they carry the old type
        // names, are created again under the new ones, and could collide with them meanwhile.
        var renamedTypes: [(from: String, to: String)] = []
        for newObject in new.objects where !newObject.isEmbedded {
            guard let originName = diff.objectOrigins[newObject.name], originName != newObject.name,
                  let oldObject = old.objectType(named: originName), !oldObject.isEmbedded,
                  let oldTable = oldLayout.table(named: originName), newLayout.table(named: newObject.name) != nil else { continue }
            renamedTypes.append((originName, newObject.name))
            run(oldTable.indexes.map { "DROP INDEX IF EXISTS \(SQL.quote($0.name))" })
        }
        let existingTables = old.objects.filter { !$0.isEmbedded && diff.objectOrigins.values.contains($0.name) }.map(\.name)
        let temporaryTable = { (name: String) in name + "__remodel_renaming" }
        let typeRenameSteps = RenameOrder.steps(renamedTypes, existing: existingTables, temporary: temporaryTable)
        for (from, to) in renamedTypes {
            // This table's own renames: straight to its new name, or through a temporary one.
            let sql = typeRenameSteps.filter { $0.from == from || $0.from == temporaryTable(from) }.map { "ALTER TABLE \(SQL.quote($0.from)) RENAME TO \(SQL.quote($0.to))" }
            record(.additive, "rename type \(from) to \(to)", origin: stepLabel { if case .renameType(let step, _) = $0 { step == from } else { false } } ?? "schema (renamedFrom)", sql: sql)
        }
        run(typeRenameSteps.map { "ALTER TABLE \(SQL.quote($0.from)) RENAME TO \(SQL.quote($0.to))" })

        // Continued types: column renames, then values.
        var tables: [TableMigration] = []
        var sideTableRenames: [(from: String, to: String)] = []
        for newObject in new.objects where !newObject.isEmbedded {
            guard let originName = diff.objectOrigins[newObject.name], let oldObject = old.objectType(named: originName) else { continue }
            if oldObject.isEmbedded {
                error("migration-embedded-change", "'\(newObject.name)' was embedded in version \(migration.version - 1) and is not any more; this needs a custom step", step: nil)
                continue
            }
            guard let oldTable = oldLayout.table(named: originName), let newTable = newLayout.table(named: newObject.name) else { continue }
            var table = TableMigration(oldObject: oldObject, newObject: newObject, oldTable: oldTable, newTable: newTable, origins: diff.propertyOrigins[newObject.name] ?? [:])
            let renames = table.renameColumns()
            for (newName, oldName) in table.origins.sorted(by: { $0.key < $1.key }) where newName != oldName {
                let origin = stepLabel { if case .renameProperty(_, let from, let to) = $0 { from == oldName && to == newName } else { false } } ?? "schema (renamedFrom)"
                record(.additive, "rename property \(newObject.name).\(oldName) to \(newName)", origin: origin, sql: renames.filter { $0.contains(SQL.quote(newName)) || $0.contains(SQL.quote(oldName)) })
            }
            run(renames)
            // Side tables follow their type's and property's names.
            for side in oldTable.sideTables {
                let newProperty = table.origins.first { $0.value == side.property }?.key
                guard let newProperty, let newSide = newTable.sideTable(property: newProperty) else { continue }
                if side.name != newSide.name {
                    sideTableRenames.append((side.name, newSide.name))
                    // Its index is created again under the new name (see materialize).
                    if side.link != nil { run(["DROP INDEX IF EXISTS \(SQL.quote("\(side.name).value"))"]) }
                }
            }
            tables.append(table)
        }
        let existingSideTables = tables.flatMap { $0.oldTable.sideTables.map(\.name) }
        run(RenameOrder.steps(sideTableRenames, existing: existingSideTables, temporary: temporaryTable).map { "ALTER TABLE \(SQL.quote($0.from)) RENAME TO \(SQL.quote($0.to))" })

        // Declarative steps, in file order.
        var customCalls: [PlanItem] = []
        for (index, step) in migration.steps.enumerated() {
            switch step {
            case .renameType, .renameProperty:
                continue
            case .custom(let name, let type):
                guard customSteps.contains(name) else {
                    error("migration-custom-step-unavailable", "custom step '\(name)' is a Swift closure, which this program does not have", step: index, hint: "run this migration in the app (register the closure with Migrator.register) or from a migrate executable that registers '\(name)'")
                    continue
                }
                guard let type, let resolved = resolveNewType(type, renames: typeRenames, step: index) else {
                    error("migration-invalid-step", "custom step '\(name)' needs `type:` naming the objects it visits", step: index)
                    continue
                }
                guard let newObject = new.objectType(named: resolved), let key = newObject.primaryKey,
                      let originName = diff.objectOrigins[resolved], let oldObject = old.objectType(named: originName),
                      let oldKey = diff.propertyOrigins[resolved]?[key], oldObject.primaryKey == oldKey else {
                    error("migration-invalid-step", "custom step '\(name)' needs '\(resolved)' to exist before and after this version with the same primary key", step: index)
                    continue
                }
                let snapshot = "remodel_old.\(resolved).\(customCalls.count)"
                items.insert(.sql("CREATE TEMP TABLE \(SQL.quote(snapshot)) AS SELECT * FROM \(SQL.quote(originName))"), at: 0)
                customCalls.append(.custom(CustomCall(name: name, type: resolved, step: label(index), snapshotTable: snapshot, snapshotKey: oldKey, key: key)))
                customCalls.append(.sql("DROP TABLE temp.\(SQL.quote(snapshot))"))
                record(.dataDependent, "run custom step '\(name)' on every \(resolved)", origin: label(index), sql: [])
            default:
                guard let typeName = step.typeName, let resolved = resolveNewType(typeName, renames: typeRenames, step: index) else { continue }
                guard let tableIndex = tables.firstIndex(where: { $0.name == resolved }) else {
                    error("migration-unknown-type", "'\(resolved)' does not exist in both version \(migration.version - 1) and \(migration.version), so it has no stored objects to change", step: index)
                    continue
                }
                apply(step, index: index, to: &tables[tableIndex])
            }
        }

        // Changes found by the diff that no step handled, then the rewrite of each table.
        for index in tables.indices {
            completeProperties(of: &tables[index])
        }
        for table in tables {
            materialize(table, all: tables, newLayout: newLayout)
        }

        // Added types.
        for newObject in new.objects where diff.objectOrigins[newObject.name] == nil && !newObject.isEmbedded {
            guard let table = newLayout.table(named: newObject.name) else { continue }
            record(.additive, "add type \(newObject.name)", origin: "schema", sql: table.createStatements)
            run(table.createStatements)
        }

        items += customCalls
        if linksChanged {
            items.append(.sql("PRAGMA foreign_key_check"))
        }
        guard !diagnostics.containsErrors else { return nil }
        return VersionPlan(
            version: migration.version, name: migration.name, description: migration.description,
            checksum: migration.checksum, schema: new, changes: changes, items: items,
            renamedTypes: Dictionary(renamedTypes.map { ($0.to, $0.from) }, uniquingKeysWith: { first, _ in first })
        )
    }

    /// The label of the first step matching `predicate`.
    private func stepLabel(_ predicate: (MigrationStep) -> Bool) -> String? {
        migration.steps.firstIndex(where: predicate).map(label)
    }

    /// The new name of a type named in a step (by its new or its old name).
    private mutating func resolveNewType(_ name: String, renames: [String: String], step: Int) -> String? {
        if new.objectType(named: name) != nil { return name }
        if let renamed = renames[name] { return renamed }
        if let renamed = new.objects.first(where: { $0.renamedFrom == name })?.name { return renamed }
        let names = new.objects.map(\.name)
        error("migration-unknown-type", "version \(migration.version) has no object type '\(name)'", step: step, hint: Suggestion.closest(to: name, in: names).map { "did you mean '\($0)'?" })
        return nil
    }
}

extension MigrationStep {
    /// The object type a value step works on.
    var typeName: String? {
        switch self {
        case .set(let type, _, _), .convert(let type, _, _, _), .split(let type, _, _, _), .mapValues(let type, _, _, _), .deleteObjects(let type, _), .renameProperty(let type, _, _):
            type
        case .custom(_, let type):
            type
        case .renameType:
            nil
        }
    }
}

extension ObjectType {
    /// What of the type affects stored JSON: names and types of properties.
    var storageShape: [String] {
        properties.map { "\($0.name):\($0.storedType?.description ?? "inverse")" }
    }
}
