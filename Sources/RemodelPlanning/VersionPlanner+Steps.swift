import Foundation
import RemodelCore
import RemodelLayout

/// Declarative steps, in file order: each replaces the value of one or more properties with a
/// new expression over the values before it.
extension VersionPlanner {
    /// What a step works on: a table (by current name) or an embedded type's values.
    enum StepTarget: Hashable {
        case table(String)
        case embedded(String)
    }

    /// Past this depth an expression is kept in a temporary table before more is composed on
    /// it: SQLite's parser gives up at a few dozen nested calls.
    static let maximumDepth = 12
    /// Past this size, an operand a step reads more than once is kept first, so that text
    /// cannot double at every step.
    static let maximumSharedSize = 40

    mutating func applySteps() {
        for (index, step) in migration.steps.enumerated() {
            switch step {
            case .renameType, .renameProperty, .createObjects, .custom:
                // Renames are resolved first; new objects and custom steps come after the rewrite.
                continue
            case .deleteObjects(let typeName, _), .deduplicate(let typeName, _, _, _):
                guard let target = stepTarget(typeName, step: index) else { continue }
                guard case .table(let name) = target else {
                    error(
                        "migration-invalid-step", "'\(typeName)' is embedded: its objects are deleted with their owners", at: .step(index, field: .key(.type)),
                        hint: "delete the owners, or set the property that holds them to null")
                    continue
                }
                var table = tables[name]!
                if case .deleteObjects(_, let matches) = step {
                    planDeletion(matches, step: index, table: &table)
                } else if case .deduplicate(_, let by, let keep, let orderBy) = step {
                    planDeduplication(by: by, keep: keep, orderBy: orderBy, step: index, table: &table)
                }
                tables[name] = table
            default:
                guard let typeName = step.typeName, let target = stepTarget(typeName, step: index) else { continue }
                var scope = scope(of: target)
                apply(step, index: index, to: &scope, target: target)
                store(scope, at: target)
            }
        }
    }

    /// The table or embedded type a step names, or an error.
    mutating func stepTarget(_ name: String, step: Int) -> StepTarget? {
        guard let newName = resolveType(name, step: step) else { return nil }
        if let state = embedded[newName] {
            if case .fromTable(let table) = state.kind { return .table(table) }
            return .embedded(newName)
        }
        if let table = continuedTableOfNewType[newName] {
            return .table(table)
        }
        if let table = tableOfOldType[newName], tables[table]?.role == .removed {
            error(
                "migration-unknown-type", "'\(newName)' is removed in version \(version), so its objects cannot be changed", at: .step(step, field: .key(.type)),
                hint: "remove the step, or keep '\(newName)' in the schema")
            return nil
        }
        error(
            "migration-unknown-type", "'\(newName)' is new in version \(version), so it has no stored objects to change", at: .step(step, field: .key(.type)),
            hint: "give new objects their values with createObjects, or defaults in the schema")
        return nil
    }

    func scope(of target: StepTarget) -> PropertyScope {
        switch target {
        case .table(let name): tables[name]!.scope
        case .embedded(let name): embedded[name]!.scope
        }
    }

    /// Stores a scope taken with `scope(of:)` and changed. Planning copies a scope, works on
    /// the copy and stores it back; a copy that is older than the stored scope would silently
    /// drop what was stored in between, as a check once was, so it is a planner fault instead.
    mutating func store(_ scope: PropertyScope, at target: StepTarget) {
        var scope = scope
        guard scope.revision == self.scope(of: target).revision else {
            error(
                "migration-internal", "the planner would store an outdated copy of \(scope.typeName)'s values over newer ones; nothing was migrated", at: .migration,
                hint: "this is a fault in Remodel's planner: report it with the migration file")
            return
        }
        scope.revision += 1
        switch target {
        case .table(let name): tables[name]!.scope = scope
        case .embedded(let name):
            embedded[name]!.scope = scope
            embedded[name]!.changesJSON = embedded[name]!.changesJSON || !scope.writes.isEmpty
        }
    }

    /// The table name a target's values are evaluated in, for display and for reads.
    func rowTable(_ target: StepTarget) -> String {
        switch target {
        case .table(let name), .embedded(let name): name
        }
    }

    /// The schema whose enum and object names a value's type uses.
    func schema(of value: RowValue) -> Schema { value.isNew ? new : old }

    mutating func apply(_ step: MigrationStep, index: Int, to scope: inout PropertyScope, target: StepTarget) {
        let reference = reference(index)
        let typeName = scope.typeName
        switch step {
        case .set(_, let property, let setValue):
            let written: String
            switch setValue {
            case .null: written = "null"
            case .template(let source): written = CanonicalYAML.quoted(source)
            }
            let change = record(.step(index: index, step), .dataDependent, "set \(typeName).\(property) to \(written)")
            guard let type = newSingleValueType(property, in: scope, step: index) else { return }
            let resolved: StepLiteral.Resolved
            do { resolved = try StepLiteral.resolve(setValue, for: type) } catch let mismatch as StepLiteral.Mismatch {
                error("migration-invalid-value", mismatch.description, at: .value(index, field: .key(.value)), hint: mismatch.hint)
                return
            } catch {
                self.error("migration-invalid-template", "\(error)", at: .step(index, field: .key(.value)))
                return
            }
            let value: SQLExpression
            var readsItself = false
            let isLiteral: Bool
            switch resolved {
            case .literal(let literal):
                guard let stored = storedExpression(literal, type: type, step: index, field: .key(.value)) else { return }
                value = stored
                isLiteral = true
            case .template(let template):
                isLiteral = false
                guard type.scalar == .string || type.scalar == .url else {
                    error(
                        "migration-invalid-template", "'\(typeName).\(property)' is \(type), but a template with placeholders makes text", at: .step(index, field: .key(.value)),
                        hint: "set a \(type) property to a literal value, or convert it with a `convert` step")
                    return
                }
                var pieces: [SQLExpression] = []
                for part in template.parts {
                    switch part {
                    case .text(let text):
                        pieces.append(.text(text))
                    case .property(let path):
                        guard let read = self.read(path, in: scope, target: target, step: index, field: .key(.value)) else { return }
                        if read.path.first == property || scope.properties.new(for: read.path.first ?? "") == property { readsItself = true }
                        guard let text = textForm(of: prepare(read.value, uses: 1, target: target, change: change)) else {
                            error(
                                "migration-invalid-template", "{\(path)} is \(read.value.type), which a template cannot write as text", at: .step(index, field: .key(.value)),
                                hint: "use string, number, bool or enum properties in templates")
                            return
                        }
                        pieces.append(text)
                    }
                }
                value = pieces.dropFirst().reduce(pieces.first ?? .text("")) { .binary(.concatenate, $0, $1) }
            }
            changes[change].assignments = [assignment(property, value, target: target)]
            assign(
                property, RowValue(expression: value, type: type, isNew: true, isNonNull: !isLiteral || !value.isNullLiteral),
                in: &scope, step: reference, change: change, readsPrevious: readsItself)

        case .split(_, let property, let targets, let separator):
            let change = record(
                .step(index: index, step), .dataDependent, "split \(typeName).\(property) at \(CanonicalYAML.quoted(separator)) into \(targets.joined(separator: ", "))")
            guard let source = self.read(property, in: scope, target: target, step: index, field: .key(.property)) else { return }
            guard source.value.type.scalar == .string || source.value.type.scalar == .url, source.value.type.collection == nil else {
                error(
                    "migration-invalid-step", "'\(typeName).\(property)' is \(source.value.type); split works on text", at: .step(index, field: .key(.property)),
                    hint: "convert it to string first")
                return
            }
            guard !separator.isEmpty else {
                error("migration-invalid-step", "split needs a non-empty separator", at: .step(index, field: .key(.separator)), hint: "write separator: \" \"")
                return
            }
            let operand = prepare(source.value, uses: targets.count, target: target, change: change).expression
            var parts: [(String, PropertyType, SQLExpression)] = []
            for (position, name) in targets.enumerated() {
                guard let type = newSingleValueType(name, in: scope, step: index, field: StepField.key(.into).position(position)) else { return }
                guard type.scalar == .string else {
                    error(
                        "migration-invalid-step", "'\(typeName).\(name)' is \(type); split produces text", at: .step(index, field: StepField.key(.into).position(position)),
                        hint: "make '\(name)' a string, or convert it in a later version")
                    return
                }
                // One pass over the bytes per part (see MigrationFunctions.splitPart); NULL
                // splits like "".
                parts.append((name, type, .function(.splitPart, [operand, .text(separator), .integer(Int64(position)), .integer(Int64(targets.count))])))
            }
            changes[change].assignments = parts.map { assignment($0.0, $0.2, target: target) }
            for (name, type, value) in parts {
                assign(name, RowValue(expression: value, type: type, isNew: true, isNonNull: true), in: &scope, step: reference, change: change, readsPrevious: source.name == name)
            }

        case .mapValues(_, let property, let values, let otherwise):
            let change = record(
                .step(index: index, step), .dataDependent,
                "map values of \(typeName).\(property) (\(values.count) mapped\(otherwise.map { ", otherwise \(CanonicalYAML.literal($0))" } ?? ", others fail"))")
            guard let source = self.read(property, in: scope, target: target, step: index, field: .key(.property)) else { return }
            guard let type = newSingleValueType(property, in: scope, step: index) else { return }
            let sourceSchema = schema(of: source.value)
            let operand = prepare(source.value, uses: 3, target: target, change: change)
            var whens: [SQLCaseBranch] = []
            for mapping in values {
                guard let from = matchLiteral(mapping.from, for: operand.type, in: sourceSchema, step: index, field: StepField.key(.values).name(mapping.from)),
                    let to = storedExpression(mapping.to, type: type, step: index, field: StepField.key(.values).name(mapping.from))
                else { return }
                whens.append(SQLCaseBranch(from, to))
            }
            var fallback: SQLExpression = .null
            var nonNull = false
            if let otherwise {
                guard let value = storedExpression(otherwise, type: type, step: index, field: .key(.otherwise)) else { return }
                fallback = value
                nonNull = !value.isNullLiteral
            }
            // Values that already are raw values of the target enum stay as they are: all of
            // them when an earlier step of this version made them cases of that enum.
            var rest: SQLExpression = fallback
            if let enumName = type.enumName, let enumType = new.enumType(named: enumName) {
                if operand.isNew && operand.type.enumName == enumName {
                    rest = operand.expression
                    nonNull = operand.isNonNull
                } else {
                    let keep = SQLExpression.inList(operand.expression, enumType.cases.map { StoredLiteral.raw($0.rawValue) }, negated: false)
                    rest = .caseWhen(operand: nil, branches: [SQLCaseBranch(keep, operand.expression)], otherwise: fallback)
                }
            }
            // Simple CASE reads the operand once, whatever the number of values.
            var mapped = SQLExpression.caseWhen(operand: operand.expression, branches: whens, otherwise: rest)
            if type.isOptional && otherwise != nil {
                mapped = .caseWhen(operand: nil, branches: [SQLCaseBranch(.isNull(operand.expression), .null)], otherwise: mapped)
                nonNull = false
            }
            changes[change].assignments = [assignment(property, mapped, target: target)]
            if otherwise == nil {
                let unmapped = SQLExpression.isNull(mapped)
                let condition = type.isOptional ? .binary(.and, .isNotNull(operand.expression), unmapped) : unmapped
                require(
                    PendingCheck(
                        property: property, step: reference.label, problem: "values that mapValues does not map (and there is no `otherwise`)",
                        hint: "add the missing values to `values:`, or an `otherwise:` value", condition: condition, shown: operand.expression, change: change), at: target)
            }
            assign(property, RowValue(expression: mapped, type: type, isNew: true, isNonNull: nonNull), in: &scope, step: reference, change: change, readsPrevious: true)

        case .convert(_, let property, let to, let onError):
            let change = record(.step(index: index, step), .dataDependent, "convert \(typeName).\(property) to \(to) (onError: \(onError.rawValue))")
            if to.collection != nil {
                convertElements(property, to: to, onError: onError, target: target, step: index, change: change)
                return
            }
            guard let source = self.read(property, in: scope, target: target, step: index, field: .key(.property)) else { return }
            guard let type = newSingleValueType(property, in: scope, step: index) else { return }
            guard to.base == type.base && to.collection == type.collection else {
                error(
                    "migration-convert-mismatch", "the step converts '\(typeName).\(property)' to \(to), but version \(version) declares it \(type)",
                    at: .step(index, field: .key(.to)),
                    hint: "make the step's `to:` match the schema")
                return
            }
            let operand = prepare(source.value, uses: 3, target: target, change: change)
            let conversion: Conversion
            if case .object(let targetType) = type.base, operand.type.objectName == nil {
                guard let linked = linkConversion(operand, to: targetType, onError: onError, property: property, reader: target, step: index, change: change) else { return }
                conversion = linked
            } else if let found = Conversion.between(operand.type, in: schema(of: operand), type, in: new, operand: operand.expression) {
                conversion = found
            } else {
                error(
                    "migration-unsupported-conversion", "cannot convert \(operand.type) to \(type)", at: .step(index, field: .key(.to)),
                    hint: "use a custom step for this conversion")
                return
            }
            var fallback: SQLExpression = .null
            var fallbackNonNull = false
            var check: PendingCheck?
            switch onError {
            case .null:
                guard type.isOptional else {
                    error(
                        "migration-invalid-step", "onError: null needs '\(typeName).\(property)' to be optional, but it is \(type)", at: .step(index, field: .key(.onError)),
                        hint: "use onError: default or fail, or make the property optional")
                    return
                }
            case .default:
                guard let value = defaultValue(for: property, type: type, in: scope, blame: .step(index, field: .key(.onError))) else { return }
                fallback = value
                fallbackNonNull = !value.isNullLiteral
            case .create where type.objectName == nil || operand.type.objectName != nil:
                error(
                    "migration-invalid-step", "onError: create makes the objects that values becoming links name, but '\(typeName).\(property)' becomes \(type)",
                    at: .step(index, field: .key(.onError)), hint: "use onError: fail, default or null")
                return
            case .fail, .create:
                let nullFails = !type.isOptional && !operand.isNonNull
                var bad: [SQLExpression] = []
                if let test = conversion.test { bad.append(.binary(.and, .isNotNull(operand.expression), test.negated)) }
                if nullFails { bad.append(.isNull(operand.expression)) }
                if let condition = SQLExpression.any(bad) {
                    let problem: String
                    let hint: String
                    if let linked = type.objectName, operand.type.objectName == nil {
                        if onError == .create {
                            // Missing objects are made: what fails is a value no key can be (or a null in a required link).
                            problem = "values that cannot be the primary key of a \(linked)\(nullFails ? ", or no value for a required link" : "")"
                            hint = "fix the values first, or make the link optional"
                        } else {
                            problem = "values that are no \(linked)'s primary key, so they cannot become links to one"
                            hint = "use onError: create to make the missing \(linked) objects, onError: null to leave them unlinked, or fix the values"
                        }
                    } else {
                        problem = "values that cannot be converted to \(type)"
                        hint = (Conversion.acceptedValues(of: type).map { $0 + "; " } ?? "") + "fix the values, or use onError: default or onError: null"
                    }
                    check = PendingCheck(
                        property: property, step: reference.label, problem: problem, hint: hint, condition: condition,
                        shown: operand.expression, change: change)
                }
            }
            var value = conversion.value(orElse: fallback)
            if !operand.isNonNull {
                value = .caseWhen(operand: nil, branches: [SQLCaseBranch(.isNull(operand.expression), type.isOptional ? .null : fallback)], otherwise: value)
            }
            let nonNull = !type.isOptional && (operand.isNonNull || fallbackNonNull) && (conversion.test == nil || fallbackNonNull || onError == .fail)
            changes[change].summary = "convert \(typeName).\(property) from \(operand.type) to \(type) (onError: \(onError.rawValue))"
            changes[change].assignments = [assignment(property, value, target: target)]
            if let check { require(check, at: target) }
            assign(property, RowValue(expression: value, type: type, isNew: true, isNonNull: nonNull), in: &scope, step: reference, change: change, readsPrevious: true)

        case .renameType, .renameProperty, .deleteObjects, .deduplicate, .createObjects, .custom:
            break
        }
    }

    // MARK: - Values

    /// `convert` of a value to a link (`int` → `Owner?`): the value is the primary key of the
    /// object it will link to, in the key's stored form; a value that no object has as its key
    /// does not convert (a data error, or null with `onError: null`). The objects must exist
    /// before the version: a type the version adds has none yet.
    mutating func linkConversion(
        _ operand: RowValue, to targetType: String, onError: MigrationStep.ConversionFailure, property: String, reader: StepTarget, step index: Int, change: Int
    ) -> Conversion? {
        guard let object = new.objectType(named: targetType), !object.isEmbedded, let keyType = object.primaryKeyProperty?.storedType else {
            error(
                "migration-unsupported-conversion", "cannot convert \(operand.type) to a link to \(targetType), which has no primary key for a value to name",
                at: .step(index, field: .key(.to)), hint: "give \(targetType) a primary key, or fill the link with a custom step")
            return nil
        }
        let keyForm = PropertyType(keyType.base, optional: true)
        if onError == .create {
            // The value is the key; the objects no one has are made once the table is rewritten.
            guard let toKey = Conversion.between(operand.type, in: schema(of: operand), keyForm, in: new, operand: operand.expression) else {
                error(
                    "migration-unsupported-conversion", "cannot convert \(operand.type) to the primary key of \(targetType) (\(PropertyType(keyType.base)))",
                    at: .step(index, field: .key(.to)), hint: "convert the values to the key's type in a step before, or link them with a custom step")
                return nil
            }
            if let continued = continuedTableOfNewType[targetType], changedKey(of: continued) != nil {
                error(
                    "migration-unsupported-change",
                    "'\(targetType)' changes its primary key in version \(version), so values cannot become links to its objects in the same version",
                    at: .step(index, field: .key(.to)), hint: "change the key in one version and convert in the next")
                return nil
            }
            guard case .table(let name) = reader, let owner = tables[name]?.newTable?.name,
                createMissingObjects(object, keysIn: owner, column: property, step: index, change: change)
            else { return nil }
            return toKey
        }
        guard let table = continuedTableOfNewType[targetType], let key = tables[table]?.keyColumn else {
            error(
                "migration-unsupported-conversion", "cannot convert values to links to \(targetType): \(targetType) is new in version \(version), so no object has a key yet",
                at: .step(index, field: .key(.to)), hint: "use onError: create to make a \(targetType) for each distinct value, or add its objects in an earlier version")
            return nil
        }
        guard let toKey = Conversion.between(operand.type, in: schema(of: operand), keyForm, in: new, operand: operand.expression) else {
            error(
                "migration-unsupported-conversion",
                "cannot convert \(operand.type) to the primary key of \(targetType) (\(keyType.description.replacingOccurrences(of: "?", with: "")))",
                at: .step(index, field: .key(.to)), hint: "convert the values to the key's type in a step before, or link them with a custom step")
            return nil
        }
        // The key the object has after the version, if it changes; the read names the old one.
        let newKey = changedKey(of: table)?.value.expression ?? .column(key)
        let linked = SQLExpression.linked(SQLLinkedRead(table: table, key: key, link: toKey.value(orElse: .null), value: newKey))
        if case .table(let name) = reader, name != table { tables[name]?.reads.insert(table) }
        return .parsed(by: linked)
    }

    /// Keeps `value` in a temporary table when composing more on it would nest too deep, or
    /// repeat a large expression `uses` times; returns what to compose on.
    mutating func prepare(_ value: RowValue, uses: Int, target: StepTarget, change: Int) -> RowValue {
        let expression = value.expression
        guard expression.depth > Self.maximumDepth || (uses > 1 && expression.size > Self.maximumSharedSize) else { return value }
        guard case .table(let tableName) = target else { return value }
        return keep(value, table: tableName, change: change)
    }

    /// Gives property `name` a new value; a second write that ignores the first is an error.
    mutating func assign(_ name: String, _ value: RowValue, in scope: inout PropertyScope, step: StepReference, change: Int, readsPrevious: Bool) {
        if let earlier = scope.writes[name], !readsPrevious {
            error(
                "migration-conflicting-steps",
                "\(step.label) sets '\(scope.typeName).\(name)', which \(earlier.step.label) already set; the earlier value would never be used",
                at: .step(step.index), hint: "remove one of the steps, or make the later one read the property (\"{\(name)}\")",
                notes: [Diagnostic.Note("\(earlier.step.label) is here", at: location(.step(earlier.step.index)))])
            return
        }
        var value = value
        value.isNew = true
        scope.values[name] = value
        scope.writes[name] = (step, change)
    }

    /// The new schema's type of single-value property `name`, or an error.
    mutating func newSingleValueType(_ name: String, in scope: PropertyScope, step: Int, field: StepField = .key(.property)) -> PropertyType? {
        guard let newObject = scope.newObject else { return nil }
        guard let property = newObject.property(named: name) else {
            error(
                "migration-unknown-property", "'\(newObject.name)' has no property '\(name)' in version \(version)", at: .step(step, field: field),
                hint: Self.suggestion(name, in: newObject.properties.map(\.name)) ?? "add '\(name)' to the schema first")
            return nil
        }
        guard let type = property.storedType, type.collection == nil else {
            error(
                "migration-unsupported-step",
                "'\(newObject.name).\(name)' is \(property.storedType.map { "a \($0.collection!.rawValue)" } ?? "an inverse relationship"); declarative steps work on single values",
                at: .step(step, field: field), hint: "use a custom step")
            return nil
        }
        return type
    }

    mutating func storedExpression(_ value: DefaultValue, type: PropertyType, step: Int?, field: StepField? = nil, blame: Blame? = nil) -> SQLExpression? {
        do {
            return try literals.expression(for: value, type: type)
        } catch {
            let place: Blame = if let blame { blame } else if let step, let field { .value(step, field: field) } else if let step { .step(step) } else { .migration }
            self.error("migration-invalid-value", "\(error)", at: place, hint: (error as? StoredLiteral.Mismatch)?.hint)
            return nil
        }
    }

    /// The value `onError: default` and new properties use: the schema default, else the
    /// type's zero value where it has an obvious one.
    mutating func defaultValue(for property: String, type: PropertyType, in scope: PropertyScope, blame: Blame) -> SQLExpression? {
        if let value = scope.newObject?.property(named: property)?.defaultValue {
            return storedExpression(value, type: type, step: nil, blame: blame)
        }
        if type.isOptional { return .null }
        switch type.base {
        case .scalar(let scalar) where scalar.isInteger || scalar == .bool: return .integer(0)
        case .scalar(.double), .scalar(.float): return .real(0)
        case .scalar(.string), .scalar(.url): return .text("")
        case .scalar(.decimal128): return .text("0")
        case .scalar(.data): return .blob([])
        default:
            error(
                "migration-missing-default", "'\(scope.typeName).\(property)' (\(type)) has no default value to fall back on", at: blame,
                hint: "add `default:` to the property in the schema")
            return nil
        }
    }

    /// The SQL literal a stored value of `type` is compared with, for `mapValues` keys.
    mutating func matchLiteral(_ text: String, for type: PropertyType, in schema: Schema, step: Int, field: StepField) -> SQLExpression? {
        switch type.base {
        case .scalar(let scalar) where scalar.isInteger:
            guard let number = IntegerLiteral.parse(text) else {
                error(
                    "migration-invalid-value", "\(CanonicalYAML.quoted(text)) is not a whole number, but the old values are \(type)", at: .step(step, field: field),
                    hint: "write the old value as it is stored, e.g. 3")
                return nil
            }
            return .integer(number)
        case .scalar(.double), .scalar(.float):
            guard let number = FloatLiteral.parse(text) else {
                error(
                    "migration-invalid-value", "\(CanonicalYAML.quoted(text)) is not a number, but the old values are \(type)", at: .step(step, field: field),
                    hint: "write the old value as it is stored, e.g. 2.5")
                return nil
            }
            return .real(number)
        case .scalar(.bool):
            let word = text.lowercased()
            if Conversion.truthWords.contains(word) { return .integer(1) }
            if Conversion.falsehoodWords.contains(word) { return .integer(0) }
            error(
                "migration-invalid-value", "\(CanonicalYAML.quoted(text)) is not true or false, but the old values are \(type)", at: .step(step, field: field),
                hint: "write true or false (or yes/no, on/off, 1/0)")
            return nil
        case .enumeration(let name):
            // Old enum values are matched by case name or raw value, compared in their stored
            // form: an integer for an int enum (a value an earlier step computed has no column
            // affinity to convert '1' to 1).
            guard let enumType = schema.enumType(named: name) else { return .text(text) }
            if let enumCase = enumType.enumCase(named: text) ?? enumType.cases.first(where: { $0.rawValue.description == text }) {
                return StoredLiteral.raw(enumCase.rawValue)
            }
            guard enumType.rawType == .int else { return .text(text) }
            guard let number = Int64(text) else {
                error(
                    "migration-invalid-value", "\(CanonicalYAML.quoted(text)) is neither a case nor a raw value of \(name), the old values' enum", at: .step(step, field: field),
                    hint: "write one of its cases (\(StoredLiteral.caseList(enumType))) or a whole number")
                return nil
            }
            return .integer(number)
        default:
            return .text(text)
        }
    }

    /// A value as text for templates (null as empty text).
    func textForm(of value: RowValue) -> SQLExpression? {
        let v = value.expression
        switch value.type.base {
        case .scalar(.string), .scalar(.url), .scalar(.decimal128):
            return value.isNonNull ? v : .call(.coalesce, v, .text(""))
        case .scalar(let scalar) where scalar.isInteger || scalar == .double || scalar == .float:
            return .call(.coalesce, .cast(v, .text), .text(""))
        case .scalar(.bool):
            // Null is written as "", like every other null.
            return .caseWhen(operand: nil, branches: [SQLCaseBranch(.isNull(v), .text("")), SQLCaseBranch(v, .text("true"))], otherwise: .text("false"))
        case .enumeration:
            return .call(.coalesce, .cast(v, .text), .text(""))
        default:
            return nil
        }
    }
}

extension SQLExpression {
    /// `NOT self`, simplified where SQL has the opposite form.
    var negated: SQLExpression {
        switch self {
        case .isNotNull(let inner): .isNull(inner)
        case .isNull(let inner): .isNotNull(inner)
        case .not(let inner): inner
        default: .not(self)
        }
    }

    var isNullLiteral: Bool {
        if case .null = self { return true }
        return false
    }

    /// A constant written in the plan (not computed, not generated per row).
    var isLiteral: Bool {
        switch self {
        case .integer, .real, .text, .blob: true
        default: false
        }
    }
}
