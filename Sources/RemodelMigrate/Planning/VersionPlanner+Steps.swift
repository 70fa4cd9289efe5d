import Foundation
import RemodelCore
import RemodelStore

/// Declarative steps: each replaces the binding of one or more properties with a new SQL
/// expression over the table's columns.
extension VersionPlanner {
    var literals: StoredLiteral { StoredLiteral(schema: new, nowMicroseconds: nowMicroseconds) }

    /// The schema whose enum names a binding's type uses.
    func schema(of binding: TableMigration.Binding) -> Schema { binding.isNewType ? new : old }

    mutating func apply(_ step: MigrationStep, index: Int, to table: inout TableMigration) {
        let origin = label(index)
        switch step {
        case .set(_, let property, let source):
            guard let target = newColumnType(property, in: table, step: index) else { return }
            let template: Template
            do { template = try Template(parsing: source) } catch {
                self.error("migration-invalid-template", "\(error)", step: index)
                return
            }
            let expression: ColumnExpression
            if let text = template.literalText {
                guard let value = literal(text, for: target, step: index),
                      let stored = storedExpression(value, type: target, step: index) else { return }
                expression = stored
            } else {
                guard target.scalar == .string || target.scalar == .url else {
                    error("migration-invalid-template", "'\(table.name).\(property)' is \(target), but a template with placeholders makes text", step: index, hint: "set a \(target) property to a literal value, or convert it with a `convert` step")
                    return
                }
                var pieces: [String] = []
                for part in template.parts {
                    switch part {
                    case .text(let text):
                        pieces.append(SQLText.text(text))
                    case .property(let name):
                        guard let binding = binding(name, in: table, step: index) else { return }
                        guard let text = textForm(of: binding) else {
                            error("migration-invalid-template", "{\(name)} is \(binding.type), which a template cannot write as text", step: index, hint: "use string, number, bool or enum properties in templates")
                            return
                        }
                        pieces.append(text)
                    }
                }
                expression = .computed(pieces.isEmpty ? "''" : pieces.joined(separator: " || "), nonNull: true)
            }
            assign(property, expression, type: target, in: &table, origin: origin)
            record(.dataDependent, "set \(table.name).\(property) to \(CanonicalYAML.quoted(source))", origin: origin, sql: ["\(SQL.quote(property)) = \(expression.sql)"])

        case .split(_, let property, let targets, let separator):
            guard let source = binding(property, in: table, step: index) else { return }
            guard source.type.scalar == .string || source.type.scalar == .url else {
                error("migration-invalid-step", "'\(table.name).\(property)' is \(source.type); split works on text", step: index, hint: "convert it to string first")
                return
            }
            guard !separator.isEmpty else {
                error("migration-invalid-step", "split needs a non-empty separator", step: index, hint: "write separator: \" \"")
                return
            }
            guard !targets.isEmpty else {
                error("migration-invalid-step", "split needs at least one property in `into`", step: index)
                return
            }
            var fragments: [String] = []
            for (position, name) in targets.enumerated() {
                guard let target = newColumnType(name, in: table, step: index) else { return }
                guard target.scalar == .string else {
                    error("migration-invalid-step", "'\(table.name).\(name)' is \(target); split produces text", step: index, hint: "make '\(name)' a string, or convert it in a later version")
                    return
                }
                // One pass over the bytes per part (see MigrationFunctions.splitPart); NULL
                // splits like "".
                let sql = "\(MigrationFunctions.splitPart)(\(source.expression.operand), \(SQLText.text(separator)), \(position), \(targets.count))"
                assign(name, .computed(sql, nonNull: true), type: target, in: &table, origin: origin)
                fragments.append("\(SQL.quote(name)) = \(sql)")
            }
            record(.dataDependent, "split \(table.name).\(property) at \(CanonicalYAML.quoted(separator)) into \(targets.joined(separator: ", "))", origin: origin, sql: fragments)

        case .mapValues(_, let property, let values, let otherwise):
            guard let source = binding(property, in: table, step: index) else { return }
            guard let target = newColumnType(property, in: table, step: index) else { return }
            let sourceSchema = schema(of: source)
            var whens: [String] = []
            for mapping in values {
                guard let from = matchLiteral(mapping.from, for: source.type, in: sourceSchema, step: index),
                      let to = storedExpression(mapping.to, type: target, step: index) else { return }
                whens.append("WHEN \(source.expression.operand) = \(from) THEN \(to.sql)")
            }
            var nonNull = true
            // Values that already are raw values of the target enum stay as they are.
            if let enumName = target.enumName, let enumType = new.enumType(named: enumName), source.type.enumName == nil || source.isNewType == false {
                let raws = enumType.cases.map { StoredLiteral.raw($0.rawValue) }.joined(separator: ", ")
                whens.append("WHEN \(source.expression.operand) IN (\(raws)) THEN \(source.expression.operand)")
            }
            let fallback: String
            if let otherwise {
                guard let value = storedExpression(otherwise, type: target, step: index) else { return }
                fallback = value.sql
                nonNull = value.isNonNull
            } else {
                fallback = "NULL"
                nonNull = false
                let matched = "(CASE \(whens.joined(separator: " ")) ELSE NULL END)"
                let nullOK = target.isOptional ? "\(source.expression.operand) IS NOT NULL AND " : ""
                addCheck(&table, property: property, step: origin,
                         problem: "values that mapValues does not map (and there is no `otherwise`)",
                         hint: "add the missing values to `values:`, or an `otherwise:` value",
                         condition: "\(nullOK)\(matched) IS NULL", value: source.expression.sql)
            }
            if target.isOptional && otherwise != nil {
                whens.insert("WHEN \(source.expression.operand) IS NULL THEN NULL", at: 0)
                nonNull = false
            }
            let sql = "(CASE \(whens.joined(separator: " ")) ELSE \(fallback) END)"
            assign(property, .computed(sql, nonNull: nonNull), type: target, in: &table, origin: origin)
            record(.dataDependent, "map values of \(table.name).\(property) (\(values.count) mapped\(otherwise.map { ", otherwise \(CanonicalYAML.literal($0))" } ?? ", others fail"))", origin: origin, sql: ["\(SQL.quote(property)) = \(sql)"])

        case .convert(_, let property, let to, let onError):
            guard let source = binding(property, in: table, step: index) else { return }
            guard let target = newColumnType(property, in: table, step: index) else { return }
            guard to.base == target.base && to.collection == target.collection else {
                error("migration-convert-mismatch", "the step converts '\(table.name).\(property)' to \(to), but version \(migration.version) declares it \(target)", step: index, hint: "make the step's `to:` match the schema")
                return
            }
            let operand = source.expression.operand
            guard let conversion = Conversion.between(source.type, in: schema(of: source), target, in: new, operand: operand) else {
                error("migration-unsupported-conversion", "cannot convert \(source.type) to \(target)", step: index, hint: "use a custom step for this conversion")
                return
            }
            var fallback = "NULL"
            var fallbackNonNull = false
            switch onError {
            case .null:
                guard target.isOptional else {
                    error("migration-invalid-step", "onError: null needs '\(table.name).\(property)' to be optional, but it is \(target)", step: index, hint: "use onError: default or fail, or make the property optional")
                    return
                }
            case .default:
                guard let value = defaultExpression(for: property, type: target, in: table, step: index) else { return }
                fallback = value.sql
                fallbackNonNull = value.isNonNull
            case .fail:
                let bad = conversion.test.map { "NOT (\($0))" } ?? "0"
                let nullBad = target.isOptional || source.expression.isNonNull ? "0" : "\(operand) IS NULL"
                if conversion.test != nil || nullBad != "0" {
                    addCheck(&table, property: property, step: origin,
                             problem: "values that cannot be converted to \(target)",
                             hint: "fix the values, or use onError: default or onError: null",
                             condition: "(\(operand) IS NOT NULL AND \(bad)) OR \(nullBad)", value: source.expression.sql)
                }
            }
            let nullResult = target.isOptional ? "NULL" : fallback
            var sql = conversion.value(orElse: fallback)
            if !source.expression.isNonNull {
                sql = "CASE WHEN \(operand) IS NULL THEN \(nullResult) ELSE \(sql) END"
            }
            let nonNull = !target.isOptional && (source.expression.isNonNull || fallbackNonNull) && (conversion.test == nil || fallbackNonNull || onError == .fail)
            assign(property, .computed("(\(sql))", nonNull: nonNull), type: target, in: &table, origin: origin)
            record(.dataDependent, "convert \(table.name).\(property) from \(source.type) to \(target) (onError: \(onError.rawValue))", origin: origin, sql: ["\(SQL.quote(property)) = (\(sql))"])

        case .deleteObjects(_, let matches):
            var conditions: [String] = []
            for match in matches {
                guard let binding = binding(match.property, in: table, step: index) else { return }
                if match.value == .null {
                    conditions.append("\(binding.expression.operand) IS NULL")
                    continue
                }
                do {
                    var type = binding.type
                    type.isOptional = true
                    let literal = try StoredLiteral(schema: schema(of: binding), nowMicroseconds: nowMicroseconds).expression(for: match.value, type: type)
                    conditions.append("\(binding.expression.operand) = \(literal.sql)")
                } catch {
                    // Steps run in file order: a value converted by an earlier step has its new type.
                    let current = table.bindings[match.property] != nil ? match.property : table.origins.first { $0.value == match.property }?.key ?? match.property
                    let hint = table.assignedBy[current].map {
                        "'\(match.property)' is \(binding.type) here, after \($0); to match its old values, put deleteObjects before that step"
                    }
                    self.error("migration-invalid-value", "where \(match.property): \(error)", step: index, hint: hint)
                    return
                }
            }
            guard !conditions.isEmpty else {
                error("migration-invalid-step", "deleteObjects needs a `where` condition; to delete every \(table.name), remove the type from the schema", step: index)
                return
            }
            let condition = conditions.joined(separator: " AND ")
            table.deletions.append((condition, origin))
            record(.destructive, "delete \(table.name) objects where \(matches.map { "\($0.property) = \(CanonicalYAML.literal($0.value))" }.joined(separator: " and "))", origin: origin, sql: ["DELETE FROM \(SQL.quote(table.name)) WHERE \(condition)"])

        case .renameType, .renameProperty, .custom:
            break
        }
    }

    // MARK: Helpers

    /// The current binding of `name`, or an error naming the properties there are.
    mutating func binding(_ name: String, in table: TableMigration, step: Int) -> TableMigration.Binding? {
        if let binding = table.bindings[name] { return binding }
        if let renamed = table.origins.first(where: { $0.value == name })?.key, let binding = table.bindings[renamed] { return binding }
        let known = table.bindings.keys.sorted()
        error("migration-unknown-property", "'\(table.name)' has no property '\(name)' at this point of the migration", step: step,
              hint: Suggestion.closest(to: name, in: known).map { "did you mean '\($0)'?" } ?? "known properties: \(known.joined(separator: ", "))")
        return nil
    }

    /// The new schema's type of column property `name`, or an error.
    mutating func newColumnType(_ name: String, in table: TableMigration, step: Int) -> PropertyType? {
        guard let property = table.newObject.property(named: name) else {
            error("migration-unknown-property", "'\(table.name)' has no property '\(name)' in version \(migration.version)", step: step,
                  hint: Suggestion.closest(to: name, in: table.newObject.properties.map(\.name)).map { "did you mean '\($0)'?" } ?? "add '\(name)' to the schema first")
            return nil
        }
        guard let type = property.storedType, type.collection == nil else {
            error("migration-unsupported-step", "'\(table.name).\(name)' is \(property.storedType.map { "a \($0.collection!.rawValue)" } ?? "an inverse relationship"); declarative steps work on single values", step: step, hint: "use a custom step")
            return nil
        }
        return type
    }

    mutating func assign(_ name: String, _ expression: ColumnExpression, type: PropertyType, in table: inout TableMigration, origin: String) {
        table.bindings[name] = TableMigration.Binding(expression: expression, type: type, isNewType: true)
        table.assignedBy[name] = origin
    }

    mutating func storedExpression(_ value: DefaultValue, type: PropertyType, step: Int?) -> ColumnExpression? {
        do {
            return try literals.expression(for: value, type: type)
        } catch {
            self.error("migration-invalid-value", "\(error)", step: step)
            return nil
        }
    }

    /// The value `onError: default` and new properties use: the schema default, else the
    /// type's zero value where it has an obvious one.
    mutating func defaultExpression(for property: String, type: PropertyType, in table: TableMigration, step: Int?) -> ColumnExpression? {
        if let value = table.newObject.property(named: property)?.defaultValue {
            return storedExpression(value, type: type, step: step)
        }
        if type.isOptional { return .null }
        switch type.base {
        case .scalar(let scalar) where scalar.isInteger || scalar == .bool: return .constant("0")
        case .scalar(.double), .scalar(.float): return .constant("0.0")
        case .scalar(.string), .scalar(.url): return .constant("''")
        case .scalar(.decimal128): return .constant("'0'")
        case .scalar(.data): return .constant("X''")
        default:
            error("migration-missing-default", "'\(table.name).\(property)' (\(type)) has no default value to fall back on", step: step, hint: "add `default:` to the property in the schema")
            return nil
        }
    }

    /// A literal written in a template with no placeholders, read as a value of `type`.
    mutating func literal(_ text: String, for type: PropertyType, step: Int) -> DefaultValue? {
        if text == "null" { return .null }
        switch type.base {
        case .enumeration: return .enumCase(text)
        case .scalar(let scalar):
            switch scalar {
            case .bool:
                if ["true", "false"].contains(text) { return .bool(text == "true") }
            case _ where scalar.isInteger:
                if let number = Int64(text) { return .int(number) }
            case .double, .float:
                if let number = Double(text) { return .double(number) }
            default:
                return .string(text)
            }
        case .object:
            break
        }
        error("migration-invalid-value", "\(CanonicalYAML.quoted(text)) is not a valid \(type)", step: step)
        return nil
    }

    /// The SQL literal a stored value of `type` is compared with, for `mapValues` keys.
    mutating func matchLiteral(_ text: String, for type: PropertyType, in schema: Schema, step: Int) -> String? {
        switch type.base {
        case .scalar(let scalar) where scalar.isInteger:
            guard let number = Int64(text) else {
                error("migration-invalid-value", "\(CanonicalYAML.quoted(text)) is not a whole number, but the old values are \(type)", step: step)
                return nil
            }
            return String(number)
        case .scalar(.double), .scalar(.float):
            guard let number = Double(text) else {
                error("migration-invalid-value", "\(CanonicalYAML.quoted(text)) is not a number, but the old values are \(type)", step: step)
                return nil
            }
            return SQLText.real(number)
        case .scalar(.bool):
            return ["true", "yes", "1"].contains(text.lowercased()) ? "1" : "0"
        case .enumeration(let name):
            // Old enum values are matched by case name or raw value.
            if let enumType = schema.enumType(named: name), let enumCase = enumType.enumCase(named: text) {
                return StoredLiteral.raw(enumCase.rawValue)
            }
            return SQLText.text(text)
        default:
            return SQLText.text(text)
        }
    }

    /// SQL giving a binding's value as text for templates (null as empty text).
    func textForm(of binding: TableMigration.Binding) -> String? {
        let value = binding.expression.operand
        switch binding.type.base {
        case .scalar(.string), .scalar(.url), .scalar(.decimal128):
            return binding.expression.isNonNull ? value : "coalesce(\(value), '')"
        case .scalar(let scalar) where scalar.isInteger || scalar == .double || scalar == .float:
            return "coalesce(CAST(\(value) AS TEXT), '')"
        case .scalar(.bool):
            return "coalesce(CASE WHEN \(value) THEN 'true' ELSE 'false' END, '')"
        case .enumeration:
            return "coalesce(CAST(\(value) AS TEXT), '')"
        default:
            return nil
        }
    }

    /// Records a query that must find no rows before the table is rewritten.
    func addCheck(_ table: inout TableMigration, property: String?, step: String, problem: String, hint: String, condition: String, value: String) {
        let keySQL = table.physical.first { $0.value.isPrimaryKey }.map { SQL.quote($0.key) } ?? "rowid"
        let from = "FROM \(SQL.quote(table.name)) WHERE \(condition)"
        table.checks.append(DataCheck(
            type: table.name, property: property, step: step, problem: problem, hint: hint,
            query: "SELECT \(keySQL), \(value) \(from) LIMIT 5",
            countQuery: "SELECT count(*) \(from)"
        ))
    }
}
