import RemodelCore
import RemodelStore

/// The migration of one object type that exists before and after a version: its physical
/// columns, and for every property the SQL expression of its new value over those columns.
struct TableMigration {
    /// The current value of a property during planning.
    struct Binding {
        var expression: ColumnExpression
        var type: PropertyType
        /// Whether `type` names enums of the new schema (set by a step or converted) or of
        /// the old one.
        var isNewType: Bool
    }

    let oldObject: ObjectType
    let newObject: ObjectType
    let oldTable: TableLayout
    let newTable: TableLayout
    /// New property name → old property name, for properties that continue.
    let origins: [String: String]
    /// Physical columns by their current name (after renames), with their old layout.
    var physical: [String: ColumnLayout] = [:]
    /// Property name (current) → its value.
    var bindings: [String: Binding] = [:]
    /// New properties given a value by a step, with the step's label.
    var assignedBy: [String: String] = [:]
    /// `deleteObjects` conditions over the physical columns, with the step's label.
    var deletions: [(condition: String, step: String)] = []
    /// Queries that must find nothing before the table is rewritten.
    var checks: [DataCheck] = []

    var name: String { newObject.name }

    init(oldObject: ObjectType, newObject: ObjectType, oldTable: TableLayout, newTable: TableLayout, origins: [String: String]) {
        self.oldObject = oldObject
        self.newObject = newObject
        self.oldTable = oldTable
        self.newTable = newTable
        self.origins = origins
    }

    /// The old property name of the new property `name`, if it continues one.
    func origin(of name: String) -> String? { origins[name] }

    /// The statements renaming columns so that every continued column has its new name,
    /// ordered so that no rename collides (swaps go through a temporary name). Sets up
    /// `physical` and `bindings`.
    mutating func renameColumns() -> [String] {
        var statements: [String] = []
        var newNameOfOld: [String: String] = [:]
        for (newName, oldName) in origins where oldTable.column(named: oldName) != nil && newTable.column(named: newName) != nil {
            newNameOfOld[oldName] = newName
        }
        var current: [String: String] = [:]   // current physical name → old name
        for column in oldTable.columns { current[column.name] = column.name }
        func rename(_ from: String, _ to: String) {
            statements.append("ALTER TABLE \(SQL.quote(name)) RENAME COLUMN \(SQL.quote(from)) TO \(SQL.quote(to))")
            current[to] = current.removeValue(forKey: from)
        }
        let targets = Set(newNameOfOld.values)
        // Columns that go away but whose names a renamed column takes: move them aside.
        for column in oldTable.columns where newNameOfOld[column.name] == nil && targets.contains(column.name) {
            rename(column.name, column.name + "__remodel_removed")
        }
        let renames = newNameOfOld.map { (from: $0.key, to: $0.value) }
        for step in RenameOrder.steps(renames, existing: current.keys, temporary: { $0 + "__remodel_renaming" }) {
            rename(step.from, step.to)
        }
        for (currentName, oldName) in current {
            guard let column = oldTable.column(named: oldName) else { continue }
            physical[currentName] = column
            bindings[currentName] = Binding(expression: .column(currentName, nonNull: !column.type.isOptional), type: column.type, isNewType: false)
        }
        return statements
    }

    /// The physical column that holds the old value of the new property `name`, if any.
    func physicalName(ofNew name: String) -> String? {
        guard let oldName = origins[name], oldTable.column(named: oldName) != nil else { return nil }
        return newTable.column(named: name) != nil ? name : nil
    }
}
