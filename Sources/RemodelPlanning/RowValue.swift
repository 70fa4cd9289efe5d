import RemodelCore
import RemodelLayout

/// The value a property has at one point of a version's migration: SQL over the columns its
/// table has once renames are done, evaluated in each row.
///
/// Declarative steps compose by substitution: `split` then `set "{firstName} {lastName}"`
/// becomes one expression, so each table is rewritten at most once per version.
struct RowValue: Hashable {
    var expression: SQLExpression
    var type: PropertyType
    /// Whether `type` names enums and objects of the new schema (after a step or a conversion)
    /// or of the old one.
    var isNew: Bool
    /// Known never to be NULL.
    var isNonNull: Bool

    /// The unchanged value of physical column `name`.
    static func column(_ name: String, type: PropertyType) -> RowValue {
        RowValue(expression: .column(name), type: type, isNew: false, isNonNull: !type.isOptional)
    }

    /// The same for every row.
    var isConstant: Bool { expression.isConstant }

    /// The physical column this is an unchanged copy of.
    var sourceColumn: String? { expression.columnName }
}

/// Where a step comes from, for messages and the plan.
struct StepReference: Hashable {
    var index: Int
    var kind: MigrationStep.Kind

    var label: String { "step \(index + 1) (\(kind.rawValue))" }
}

/// A condition no object may meet, recorded by a step or a schema change and turned into a
/// query over every row (or, for an embedded type, every value) it applies to.
struct PendingCheck {
    /// Its number in the version, given by `VersionPlanner.require`.
    var id = 0
    var property: String?
    /// `step 3 (convert)` or `schema`.
    var step: String
    var problem: String
    var hint: String
    var condition: SQLExpression
    /// The value shown for each offending object.
    var shown: SQLExpression
    var change: Int
    /// Whether `shown` is words for people (a list of holders), printed as it is rather than
    /// as a quoted value.
    var shownIsProse = false
    /// Where the condition is evaluated when not in the scope's own rows: a side table, with
    /// the owner's key shown for each offending element.
    var place: (table: String, key: SQLExpression)?
}

/// The properties of one type during the planning of a version: the value of each at the
/// current point, and what the steps asked of them. Tables and embedded types both have one.
struct PropertyScope {
    let oldObject: ObjectType
    /// The type after the version; `nil` when it is removed.
    let newObject: ObjectType?
    /// Old ↔ new property names, for properties that continue.
    let properties: RenameMap
    /// Each property's value by its current name: new properties by their new name,
    /// removed ones by their (current) physical name.
    var values: [String: RowValue] = [:]
    /// New properties a step gave a value, with the step and its change.
    var writes: [String: (step: StepReference, change: Int)] = [:]
    /// How many times the planner stored the scope: a copy taken before another store would
    /// drop what was stored in between, so `VersionPlanner.store(_:at:)` refuses it.
    var revision = 0

    init(oldObject: ObjectType, newObject: ObjectType?, properties: RenameMap) {
        self.oldObject = oldObject
        self.newObject = newObject
        self.properties = properties
    }

    /// The type name steps and messages use: the new name, or the old one of a removed type.
    var typeName: String { newObject?.name ?? oldObject.name }

    /// The current value of the property called `name` (new or old name), if it has one.
    func value(named name: String) -> (name: String, value: RowValue)? {
        if let value = values[name] { return (name, value) }
        if let renamed = properties.new(for: name), let value = values[renamed] { return (renamed, value) }
        return nil
    }
}

/// One old table during the planning of a version: its columns (as named once renames are
/// done) and its properties' values.
struct TableState {
    /// What becomes of the table.
    enum Role: Equatable {
        /// It is a table after the version too.
        case continued
        /// Its type is removed; it stays readable until the version's end.
        case removed
        /// Its type becomes embedded: its rows move into their owners as JSON.
        case embedding
    }

    let role: Role
    let oldTable: TableLayout
    /// The table after the version; `nil` unless `continued`.
    let newTable: TableLayout?
    var scope: PropertyScope
    /// The table's name while the version runs: the new name once type renames are done.
    var name: String
    /// Physical columns by their current name, with their old layout.
    var physical: [String: ColumnLayout] = [:]
    /// `deleteObjects` and `deduplicate` steps on the table, in file order.
    var deletions: [Deletion] = []
    /// Tables (by current name) whose rows, before their own rewrite, this table's values read.
    var reads: Set<String> = []
    /// The new value of each continued collection's elements (by new property name), over its
    /// side table's `value` column.
    var elementValues: [String: RowValue] = [:]

    /// One step's deletion: the objects it chooses, and its change.
    struct Deletion {
        enum Choice {
            /// `deleteObjects`: the objects meeting the condition; links to them are cleared.
            case matching(SQLExpression)
            /// `deduplicate`: all but the first object (in `order`, then by key) of each group
            /// of objects with equal, non-null `group` values; links to them move to it.
            case duplicates(group: [SQLExpression], order: [SQLOrdering], descending: Bool)
        }

        var choice: Choice
        var change: Int
    }

    init(role: Role, oldObject: ObjectType, newObject: ObjectType?, oldTable: TableLayout, newTable: TableLayout?, properties: RenameMap, name: String) {
        self.role = role
        self.oldTable = oldTable
        self.newTable = newTable
        scope = PropertyScope(oldObject: oldObject, newObject: newObject, properties: properties)
        self.name = name
    }

    var oldObject: ObjectType { scope.oldObject }
    var newObject: ObjectType? { scope.newObject }
    var properties: RenameMap { scope.properties }
    var typeName: String { scope.typeName }

    /// The primary-key column before the rewrite (current name), or `nil` for keyless types.
    var keyColumn: String? {
        physical.first { $0.value.isPrimaryKey }?.key
    }

    /// The old side table the new collection property `name` continues.
    func oldSideTable(forNew name: String) -> SideTableLayout? {
        properties.old(for: name).flatMap { oldTable.sideTable(property: $0) }
    }
}
