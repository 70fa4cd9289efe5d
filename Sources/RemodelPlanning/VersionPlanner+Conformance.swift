import RemodelCore
import RemodelLayout

/// After a version's last statement, inside its transaction: every value the version wrote, and
/// every value whose allowed set it narrowed, must be one the new schema allows where SQLite's
/// own constraints do not say so (enum cases, the range of a sized integer). `NOT NULL`, the
/// primary key and links are the table definitions' and the link check's.
///
/// The steps' and the schema's own checks run before the rewrite and explain the cause; this
/// one checks the result, whatever composed it, so that no version can commit a value the new
/// schema cannot read. It scans only the columns and side tables such a value is in.
extension VersionPlanner {
    mutating func planConformance() {
        // The fault as it was: before the conformance phase, nothing caught the kept values.
        if reintroducedFaults.contains(.removedEnumCasesUnchecked) { return }
        for name in tableOrder {
            guard let table = tables[name], table.role == .continued, let newTable = table.newTable, let newObject = table.newObject else { continue }
            let key: SQLExpression = newTable.primaryKey.map { .column($0.name) } ?? .rowid
            // (What a custom step's closure writes is checked as it is written: `CustomCall.check`.)
            for column in newTable.columns {
                guard let property = newObject.property(named: column.name), let type = property.storedType, type.collection == nil,
                    let value = table.scope.values[column.name], !value.isConstant
                else { continue }
                let oldType = table.properties.old(for: column.name).flatMap { table.oldObject.property(named: $0)?.storedType }
                let wrote = value.sourceColumn != column.name
                guard wrote || narrows(from: oldType, to: type) else { continue }
                conform(
                    .column(column.name), written: value.expression, type: type, in: newTable.name, key: key, owner: newObject.name, property: column.name,
                    step: table.scope.writes[column.name])
            }
            for side in newTable.sideTables {
                guard let value = table.elementValues[side.property] else { continue }
                let oldType = table.oldSideTable(forNew: side.property)?.type
                let wrote = value.expression != .column("value")
                guard wrote || narrows(from: oldType?.element, to: side.type.element) else { continue }
                conform(
                    .column("value"), written: value.expression, type: side.type.element, in: side.name, key: .column("owner"), owner: newObject.name,
                    property: side.property, step: nil, ownerTable: (newTable.name, key))
            }
        }
    }

    /// Whether values of `old` may be outside what `new` allows: enum cases removed, or a
    /// smaller integer range.
    private func narrows(from old: PropertyType?, to new: PropertyType) -> Bool {
        guard let old else { return true }
        switch (old.base, new.base) {
        case (.enumeration(let from), .enumeration(let to)):
            guard diff.enums.new(for: from) == to, let oldEnum = self.old.enumType(named: from), let newEnum = self.new.enumType(named: to) else { return true }
            return !oldEnum.casesRemoved(in: newEnum).isEmpty
        case (.scalar(let from), .scalar(let to)):
            guard let fromRange = from.integerRange, let toRange = to.integerRange else { return from != to }
            return !(toRange.lowerBound <= fromRange.lowerBound && fromRange.upperBound <= toRange.upperBound)
        default:
            return old.base != new.base
        }
    }

    /// Schedules the check that `value` (of the new schema's `type`) holds only what the type
    /// allows, if SQLite's constraints leave anything to check and the expression that
    /// `written` it cannot be shown to give only allowed values.
    private mutating func conform(
        _ value: SQLExpression, written: SQLExpression, type: PropertyType, in table: String, key: SQLExpression, owner: String, property: String,
        step: (step: StepReference, change: Int)?, ownerTable: (name: String, key: SQLExpression)? = nil
    ) {
        let allowed: SQLExpression
        let what: String
        let detail: String
        switch type.base {
        case .enumeration(let name):
            guard let enumType = new.enumType(named: name) else { return }
            let raws = enumType.cases.map { StoredLiteral.raw($0.rawValue) }
            // A mapValues (or a remap to literals) whose every outcome is a case needs no scan.
            if Self.onlyGives(Set(raws), written) { return }
            allowed = .inList(value, raws, negated: false)
            what = "a case of \(name)"
            detail = "\(what) (\(enumType.cases.map(\.name).joined(separator: ", ")))"
        case .scalar(let scalar):
            guard let range = scalar.integerRange, range != Int64.min...Int64.max else { return }
            allowed = .between(value, lower: .integer(range.lowerBound), upper: .integer(range.upperBound))
            what = "a \(scalar)"
            detail = "\(what) (\(range.lowerBound)…\(range.upperBound))"
        case .object:
            return
        }
        let condition = SQLExpression.binary(.and, .isNotNull(value), .not(allowed))
        let blame: Blame = step.map { .step($0.step.index) } ?? .schema(type: owner, member: property)
        let change = record(
            .plan(type: table), .dataDependent, "check that every \(owner).\(property) is \(what) after version \(version)", at: blame)
        let hint: String
        switch (step?.step.kind, ownerTable, type.base) {
        case (_?, _, _): hint = "make the step write only values the schema allows (a mapValues `otherwise:`, or onError: default)"
        case (nil, _?, _): hint = Self.customWritesHint(type: owner, property: property)
        case (nil, nil, .enumeration): hint = "map the values to cases of the new schema with a mapValues step, or keep the removed cases"
        case (nil, nil, _): hint = "convert the values with a convert step (onError: default or null for those out of range), or keep the wider type"
        }
        let check = PendingCheck(
            property: property, step: step?.step.label ?? "schema", problem: "values that are not \(detail), as version \(version) requires", hint: hint,
            condition: condition, shown: value, change: change)
        var query = dataCheck(check, type: owner, from: table, key: key, condition: condition, limit: 10)
        if let ownerTable { query.countQuery = Self.ownersCount(ownerTable.name, key: ownerTable.key, elementsIn: table, where: condition) }
        schedule(.check(query), in: .conform, for: change)
    }
}

extension VersionPlanner {
    /// Whether `expression` can only give one of `values`, or null: literals, and `CASE`s whose
    /// every outcome does (a branch `WHEN x IN (values…) THEN x` keeps only those values).
    static func onlyGives(_ values: Set<SQLExpression>, _ expression: SQLExpression) -> Bool {
        switch expression {
        case .null:
            return true
        case .integer, .text, .real, .blob:
            return values.contains(expression)
        case .caseWhen(let operand, let branches, let otherwise):
            for branch in branches {
                if operand == nil, case .inList(let kept, let list, false) = branch.condition, branch.result == kept, Set(list).isSubset(of: values) { continue }
                if !onlyGives(values, branch.result) { return false }
            }
            return otherwise.map { onlyGives(values, $0) } ?? true
        default:
            return false
        }
    }
}

extension VersionPlanner {
    /// Every check a change required is a query the plan runs (each check by itself, not one
    /// per change): a plan that would print a check and skip it is refused (an internal error,
    /// reported as one) rather than run. The only
    /// checks without a query are those on values nothing stores: an embedded type no
    /// continued object holds.
    mutating func verifyChecksRun() {
        for (target, checks) in pendingChecks.sorted(by: { "\($0.key)" < "\($1.key)" }) {
            switch target {
            case .table(let name) where tables[name]?.role == .removed: continue
            case .embedded(let name) where containers(holding: name).isEmpty: continue
            default: break
            }
            for check in checks where !scheduledCheckIDs.contains(check.id) {
                error(
                    "migration-internal", "the plan describes a check it would not run (\(changes[check.change].summary)); nothing was migrated",
                    at: .migration, hint: "this is a fault in Remodel's planner: report it with the migration file")
            }
        }
    }
}
