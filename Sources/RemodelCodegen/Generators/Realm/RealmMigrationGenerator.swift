import Foundation
import RemodelCore

/// Translates `Migrations/` into Realm's migration block: one `if oldSchemaVersion < N { … }`
/// per version, in order and never nested, each step as realm-swift's `Migration` API writes
/// it (`renameProperty(onType:from:to:)`, `enumerateObjects(ofType:)` with the old and new
/// object, `create`, `delete`); changes Realm makes by itself (added and removed properties,
/// an object type becoming embedded) are left to it.
///
/// Realm shows a migration only two schemas, the old file's and the newest: a step reads a
/// value from the new object when the newest schema keeps it (where earlier steps wrote it),
/// else from the old object. What that cannot express is reported by `diagnostics`, and
/// `remodel generate --realm` refuses it, naming the step.
struct RealmMigrationGenerator {
    let types: RealmTypeMapper
    let history: MigrationHistory?
    let version: Int
    /// Where the steps are written, for the diagnostics' locations.
    let sources: HistorySources?
    private(set) var diagnostics: [Diagnostic] = []
    /// The step being translated (its version and index), which `unsupported` points at.
    private var current: (version: Int, step: Int?) = (1, nil)
    /// Custom steps by name: the type whose objects they are called for (`nil`: once).
    private(set) var customSteps: [(name: String, type: String?, version: Int)] = []
    /// Whether the version being translated writes `$now` defaults: one time for all of them.
    private var usesMigrationTime = false
    /// `Type.property` of what the steps translated so far in this version wrote: their
    /// current values are in the new object.
    private var writtenThisVersion: Set<String> = []
    /// The first version whose `createObjects` makes objects of a type, by type.
    private var createdIn: [String: Int] = [:]

    /// Each version's diff from the one before (with the renames its steps declare), made
    /// once: every read and write follows a property's name through the later ones.
    private let diffs: [Int: SchemaDiff]

    init(types: RealmTypeMapper, history: MigrationHistory?, version: Int, sources: HistorySources? = nil) {
        self.types = types
        self.history = history
        self.version = version
        self.sources = sources
        var diffs: [Int: SchemaDiff] = [:]
        if let history, history.currentVersion >= 2 {
            for next in 2...history.currentVersion {
                guard let old = history.schema(at: next - 1), let new = history.schema(at: next), let migration = history.migration(to: next) else { continue }
                diffs[next] = SchemaDiff(from: old, to: new, renames: DeclaredRenames(steps: migration.steps, from: old, to: new).renames)
            }
        }
        self.diffs = diffs
    }

    /// The body of `migrateRealm(_:from:customSteps:)`.
    mutating func body() -> [SwiftStatement] {
        var statements: [SwiftStatement] = []
        // Version 1: a Realm written before Remodel (schema version 0) may lack keys that
        // version 1 declares with generated defaults: each object gets its own.
        let first = history?.schema(at: 1) ?? types.schema
        let keyFills = first.objects.compactMap { keyFill($0, guarded: true) }
        if !keyFills.isEmpty {
            statements.append(.comment("Version 1: objects of a Realm written before Remodel get their own primary keys (Realm's \"add a primary key\" migration)."))
            statements.append(.ifThen(.binary(.identifier("oldSchemaVersion"), "<", .int(1)), keyFills))
        }
        guard let history else { return statements }
        for version in 2...max(2, history.currentVersion) where version <= history.currentVersion {
            guard let old = history.schema(at: version - 1), let new = history.schema(at: version), let migration = history.migration(to: version),
                let diff = diffs[version]
            else { continue }
            var block = BlockBuilder()
            current = (version, nil)
            if !diff.types.renamed.isEmpty {
                for pair in diff.types.renamed {
                    current.step = migration.steps.firstIndex { if case .renameType(pair.old, pair.new) = $0 { true } else { false } }
                    unsupported(
                        version, "renames type \(pair.old) to \(pair.new)", hint: "Realm's migration block cannot rename a class; keep the name for as long as the app is on Realm")
                }
                continue
            }
            usesMigrationTime = false
            writtenThisVersion = []
            // Renames first, declared by steps or by `renamedFrom`, as the store's migration
            // does them: Realm moves the values at once.
            for object in new.objects {
                for pair in diff.properties[object.name]?.renamed ?? [] {
                    current.step = migration.steps.firstIndex { if case .renameProperty(_, pair.old, pair.new) = $0 { true } else { false } }
                    block.append([
                        .expression(
                            .call(
                                .member(.identifier("migration"), "renameProperty"),
                                [
                                    SwiftArgument("onType", realmClass(object.name)), SwiftArgument("from", .string(pair.old)), SwiftArgument("to", .string(pair.new)),
                                ]))
                    ])
                }
            }
            current.step = nil
            automaticChanges(old: old, new: new, migration: migration, diff: diff, version: version)
            for object in new.objects where old.objectType(named: object.name) != nil {
                if let fill = keyFill(object, guarded: false, old: old.objectType(named: object.name)) { block.append([fill]) }
            }
            addedDefaults(old: old, new: new, migration: migration, diff: diff, version: version, into: &block)
            // The store's migration makes and visits objects after its rewrite: so does the block.
            let ordered = migration.steps.enumerated().filter { !$0.element.runsAfterRewrite } + migration.steps.enumerated().filter { $0.element.runsAfterRewrite }
            for (index, step) in ordered {
                current = (version, index)
                translate(step, index: index, into: &block, version: version, old: old, new: new, diff: diff)
                for property in step.writtenProperties ?? [] { writtenThisVersion.insert("\(step.typeName ?? "").\(property)") }
            }
            var translated = block.finish()
            guard !translated.isEmpty else { continue }
            if usesMigrationTime {
                translated.insert(.constant("migrationTime", nil, .call(.identifier("Date"), [])), at: 0)
            }
            let description = migration.description.map { ": " + $0 } ?? ""
            statements.append(.comment("Version \(version) (\(String(format: "%04d", version))-\(migration.name).yaml)\(description)"))
            statements.append(.ifThen(.binary(.identifier("oldSchemaVersion"), "<", .int(version)), translated))
        }
        return statements
    }

    /// What the store's migration converts by itself but Realm's does not: a property whose
    /// stored form changes with no step to convert it (Realm would give it its type's zero),
    /// and an enum case whose raw value changes (Realm keeps the stored raw values). Both are
    /// refused, with the step to add.
    private mutating func automaticChanges(old: Schema, new: Schema, migration: Migration, diff: SchemaDiff, version: Int) {
        let written = Set(migration.steps.flatMap { step in (step.writtenProperties ?? []).map { "\(step.typeName ?? "").\($0)" } })
        for object in new.objects {
            guard let oldObject = old.objectType(named: object.name) else { continue }
            for property in object.storedProperties {
                let oldName = diff.properties[object.name]?.old(for: property.name) ?? property.name
                guard let oldType = oldObject.property(named: oldName)?.storedType, let newType = property.storedType,
                    storage(oldType, in: old, optional: false) != storage(newType, in: new, optional: false),
                    !written.contains("\(object.name).\(property.name)"), !written.contains("\(object.name).\(oldName)"),
                    finalName(object.name, property.name, from: version) != nil
                else { continue }
                unsupported(
                    version, "changes \(object.name).\(property.name) from \(oldType) to \(newType) with no step",
                    hint: "Realm would give it its type's zero instead of the old values: add a `convert` (or, for an enum, `mapValues`) step")
            }
        }
        for change in diff.changes {
            guard case .enumCaseRawValueChanged(let enumName, let enumCase, _, _) = change.kind else { continue }
            let users = new.objects.flatMap { object in object.storedProperties.filter { $0.storedType?.enumName == enumName }.map { "\(object.name).\($0.name)" } }
            guard users.contains(where: { !written.contains($0) }) else { continue }
            unsupported(
                version, "changes the raw value of \(enumName).\(enumCase)",
                hint: "Realm keeps the stored raw values: add a `mapValues` step from the old raw value for \(users.joined(separator: ", "))")
        }
    }

    /// Realm adds a property to existing objects with its type's zero, not the class's
    /// default (realm-swift issue #1793): the block writes the schema's default of every
    /// property version `version` adds that no step of it writes (`$now` once for all, `$uuid`
    /// and `$objectId` fresh for each object).
    private mutating func addedDefaults(old: Schema, new: Schema, migration: Migration, diff: SchemaDiff, version: Int, into builder: inout BlockBuilder) {
        let written = Set(migration.steps.flatMap { step in (step.writtenProperties ?? []).map { "\(step.typeName ?? "").\($0)" } })
        for object in new.objects {
            guard let oldObject = old.objectType(named: object.name) else { continue }
            var closure = Closure(type: object.name, storedName: types.storedName(object.name), version: version)
            for property in object.storedProperties where property.name != object.primaryKey {
                guard let type = property.storedType, type.collection == nil, type.objectName == nil,
                    oldObject.property(named: property.name) == nil, diff.properties[object.name]?.old(for: property.name) == nil,
                    !written.contains("\(object.name).\(property.name)"),
                    let value = property.defaultValue, value != .null,
                    let final = finalName(object.name, property.name, from: version)
                else { continue }
                let expression: SwiftExpression?
                if value == .generated(.now) {
                    usesMigrationTime = true
                    expression = .identifier("migrationTime")
                } else {
                    expression = literal(value, for: type, in: new, step: "the default of \(object.name).\(property.name)", version: version)
                }
                guard let expression else { continue }
                closure.body.append(.assignment(closure.write(final), expression))
            }
            if !closure.body.isEmpty {
                closure.body.insert(.comment("Realm gives added properties zero values: the schema's defaults."), at: 0)
                builder.perObject(closure)
            }
        }
    }

    // MARK: Steps

    private mutating func translate(_ step: MigrationStep, index: Int, into builder: inout BlockBuilder, version: Int, old: Schema, new: Schema, diff: SchemaDiff) {
        let stepPlace = "step \(index + 1) (\(step.kind))"
        // Realm's `enumerateObjects` visits the objects of the old file (and those made in this
        // version), not those an earlier version's block made in the same migration.
        let visited: String? =
            switch step {
            case .set(let type, _, _), .split(let type, _, _, _), .mapValues(let type, _, _, _), .convert(let type, _, _, _), .deleteObjects(let type, _): type
            case .createObjects(_, _, let addTo): addTo?.type
            case .custom(_, let type, _, _): type
            default: nil
            }
        if let visited, let created = createdIn[visited], created < version {
            unsupported(
                version, "\(stepPlace) visits every \(visited), including those version \(created) creates",
                hint:
                    "Realm's block visits only the objects of the old file, not those an earlier version's block made: give the objects that value where version \(created) creates them"
            )
            return
        }
        if case .createObjects(let type, _, _) = step, createdIn[type] == nil { createdIn[type] = version }
        switch step {
        case .renameType:
            return  // reported with the diff's renames
        case .renameProperty:
            return  // with the version's renames, first
        case .set(let type, let property, let setValue):
            var closure = Closure(type: type, storedName: types.storedName(type), version: version)
            guard let target = writeTarget(type, property, at: version, step: stepPlace),
                let value = self.setValue(setValue, of: type, property, version: version, new: new, closure: &closure, step: stepPlace)
            else { return }
            closure.body.append(.assignment(closure.write(target), value))
            builder.perObject(closure)
        case .split(let type, let property, let into, let separator):
            var closure = Closure(type: type, storedName: types.storedName(type), version: version)
            guard let source = read(type, property, before: version, closure: &closure, step: stepPlace) else { return }
            let parts = property + "Parts\(index + 1)"
            closure.body.append(
                .constant(
                    parts, nil,
                    .call(
                        .member(.identifier("RealmMigrationValue"), "split"),
                        [
                            .unlabelled(source), SwiftArgument("separator", .string(separator)), SwiftArgument("into", .int(into.count)),
                        ])))
            for (part, name) in into.enumerated() {
                guard let target = writeTarget(type, name, at: version, step: stepPlace) else { continue }
                closure.body.append(.assignment(closure.write(target), .subscripted(.identifier(parts), [.unlabelled(.int(part))])))
            }
            builder.perObject(closure)
        case .mapValues(let type, let property, let values, let otherwise):
            var closure = Closure(type: type, storedName: types.storedName(type), version: version)
            guard let propertyType = new.objectType(named: type)?.property(named: property)?.storedType,
                let target = writeTarget(type, property, at: version, step: stepPlace),
                let source = read(type, property, before: version, closure: &closure, step: stepPlace)
            else { return }
            guard let otherwise else {
                unsupported(version, "\(stepPlace) has no `otherwise:`", hint: "Realm's migration block cannot fail: add `otherwise:` with the value for anything else")
                return
            }
            var mapping: [SwiftDictionaryElement] = []
            for pair in values {
                guard let value = literal(pair.to, for: propertyType, in: new, step: stepPlace, version: version) else { return }
                mapping.append(SwiftDictionaryElement(.string(pair.from), value))
            }
            guard let fallback = literal(otherwise, for: propertyType, in: new, step: stepPlace, version: version) else { return }
            // Values that already are raw values of the new enum map to themselves, as the new
            // enum's raw values (text keys, like the old values they match).
            let kept: [SwiftDictionaryElement] =
                propertyType.enumName.flatMap(new.enumType(named:))?.cases.map { enumCase in
                    switch enumCase.rawValue {
                    case .string(let text): SwiftDictionaryElement(.string(text), .string(text))
                    case .int(let number): SwiftDictionaryElement(.string(String(number)), .int(number))
                    }
                } ?? []
            closure.body.append(
                .assignment(
                    closure.write(target),
                    .call(
                        .member(.identifier("RealmMigrationValue"), "mapped"),
                        [
                            .unlabelled(source), .unlabelled(.dictionary(mapping)), SwiftArgument("kept", .dictionary(kept)), SwiftArgument("otherwise", fallback),
                            SwiftArgument("keepsNull", .bool(propertyType.isOptional)),
                        ])))
            builder.perObject(closure)
        case .convert(let type, let property, let to, let onError):
            var closure = Closure(type: type, storedName: types.storedName(type), version: version)
            guard let target = writeTarget(type, property, at: version, step: stepPlace),
                let newProperty = new.objectType(named: type)?.property(named: property),
                let source = read(type, property, before: version, closure: &closure, step: stepPlace)
            else { return }
            let fallback: SwiftExpression
            switch onError {
            case .fail:
                unsupported(
                    version, "\(stepPlace) fails on values that do not convert",
                    hint: "Realm's migration block cannot fail: use `onError: default`" + (to.isOptional ? " or `onError: null`" : ""))
                return
            case .create:
                unsupported(
                    version, "\(stepPlace) makes objects for values that become links",
                    hint: "the Realm bridge converts values only: make the objects and their links with a custom step in the migration block")
                return
            case .null:
                fallback = .nil
            case .default:
                let value = newProperty.defaultValue.flatMap { $0 == .null ? nil : $0 }
                fallback = value.flatMap { literal($0, for: to, in: new, step: stepPlace, version: version) } ?? zero(of: to)
            }
            let fromType = old.objectType(named: type)?.property(named: property)?.storedType
            let convertible =
                fromType.map {
                    $0.collection == nil && ($0.scalar == .string || $0.scalar == .bool || ($0.scalar?.isInteger ?? false) || $0.scalar == .double || $0.scalar == .float)
                } ?? false
            guard convertible, var value = conversion(source, to: to, fallback: fallback) else {
                unsupported(
                    version, "\(stepPlace) converts \(type).\(property) from \(fromType?.description ?? "?") to \(to)",
                    hint: "Realm's migration block converts between text, numbers and booleans; use a `custom` step for this one")
                return
            }
            // Null stays null where the new property may be null, as in the store's migration.
            if to.isOptional {
                value = .binary(.binary(.call(.member(.identifier("RealmMigrationValue"), "isNull"), [.unlabelled(source)]), "?", .nil), ":", value)
            }
            closure.body.append(.assignment(closure.write(target), value))
            builder.perObject(closure)
        case .deleteObjects(let type, let conditions):
            var closure = Closure(type: type, storedName: types.storedName(type), version: version)
            closure.usesNew = true
            guard let test = self.test(conditions, of: type, before: version, schema: old, closure: &closure, step: stepPlace) else { return }
            let delete = SwiftStatement.expression(.call(.member(.identifier("migration"), "delete"), [.unlabelled(.identifier("newObject"))]))
            closure.body.append(test.map { .ifThen($0, [delete]) } ?? delete)
            builder.append([closure.statement])
        case .deduplicate(let type, _, _, _):
            unsupported(
                version, "\(stepPlace) deduplicates \(type)",
                hint: "Realm has no unique constraint to deduplicate for, and its block cannot move links between objects: use a `custom` step, or keep the store's migration")
        case .createObjects(let type, let objects, let addTo):
            guard let object = new.objectType(named: type) else { return }
            let name = "created\(index + 1)"
            var statements: [SwiftStatement] = []
            var created: [SwiftExpression] = []
            for values in objects {
                var elements: [SwiftDictionaryElement] = []
                for value in values {
                    guard let propertyType = object.property(named: value.property)?.storedType,
                        let final = finalName(type, value.property, from: version)
                    else { continue }
                    guard let literal = literal(value.value, for: propertyType, in: new, step: stepPlace, version: version) else { return }
                    elements.append(SwiftDictionaryElement(.string(final), literal))
                }
                // Every other property its default, generated values fresh for each object.
                for property in object.storedProperties where !values.contains(where: { $0.property == property.name }) {
                    guard let type = property.storedType, type.collection == nil, type.objectName == nil,
                        let value = property.defaultValue, value != .null,
                        let final = finalName(object.name, property.name, from: version)
                    else { continue }
                    let fresh: SwiftExpression?
                    if value == .generated(.now) {
                        usesMigrationTime = true
                        fresh = .identifier("migrationTime")
                    } else {
                        fresh = literal(value, for: type, in: new, step: stepPlace, version: version)
                    }
                    guard let fresh else { continue }
                    elements.append(SwiftDictionaryElement(.string(final), fresh))
                }
                created.append(.call(.member(.identifier("migration"), "create"), [.unlabelled(realmClass(type)), SwiftArgument("value", .dictionary(elements))]))
            }
            guard let addTo else {
                builder.append(created.map { .expression(.binary(.token("_"), "=", $0)) })
                return
            }
            statements.append(.constant(name, nil, .array(created)))
            var closure = Closure(type: addTo.type, storedName: types.storedName(addTo.type), version: version)
            closure.usesNew = true
            guard let holder = new.objectType(named: addTo.type)?.property(named: addTo.property)?.storedType,
                let target = writeTarget(addTo.type, addTo.property, at: version, step: stepPlace),
                let test = self.test(addTo.where, of: addTo.type, before: version, schema: old, closure: &closure, step: stepPlace)
            else { return }
            let collection = SwiftExpression.parenthesized(
                .cast(closure.write(target), .named(holder.collection == .set ? "MutableSet" : "List", generics: [.name("MigrationObject")]), forced: false))
            let add: SwiftStatement =
                switch holder.collection {
                case nil: .assignment(closure.write(target), .member(.identifier(name), "last"))
                case .set?: .forIn("object", .identifier(name), [.expression(.call(.member(.optionalChain(collection), "insert"), [.unlabelled(.identifier("object"))]))])
                default: .expression(.call(.member(.optionalChain(collection), "append"), [SwiftArgument("objectsIn", .identifier(name))]))
                }
            closure.body.append(test.map { .ifThen($0, [add]) } ?? add)
            statements.append(closure.statement)
            builder.append(statements)
        case .custom(let name, let type, _, _):
            guard SwiftNames.isIdentifier(name) else {
                unsupported(
                    version, "\(stepPlace) is named '\(name)', which is not a Swift name",
                    hint: "Realm's block calls the closure `RealmCustomSteps.\(name)`: name the step with letters, digits and underscores")
                return
            }
            customSteps.append((name, type, version))
            let call = SwiftExpression.member(.identifier("customSteps"), name)
            guard let type else {
                builder.append([.expression(.call(call, [.unlabelled(.identifier("migration"))]))])
                return
            }
            var closure = Closure(type: type, storedName: types.storedName(type), version: version)
            closure.usesOld = true
            closure.usesNew = true
            closure.body.append(.expression(.call(call, [.unlabelled(.identifier("oldObject")), .unlabelled(.identifier("newObject"))])))
            builder.append([closure.statement])
        }
    }

    // MARK: Values

    /// The value a `set` step writes: its literal as `StepLiteral` reads it for the store's
    /// migration, or its template's text.
    private mutating func setValue(
        _ value: MigrationStep.SetValue, of type: String, _ property: String, version: Int, new: Schema, closure: inout Closure, step: String
    ) -> SwiftExpression? {
        guard let propertyType = new.objectType(named: type)?.property(named: property)?.storedType else { return nil }
        let parts: Template
        do {
            switch try StepLiteral.resolve(value, for: propertyType) {
            case .literal(let literal): return self.literal(literal, for: propertyType, in: new, step: step, version: version)
            case .template(let template): parts = template
            }
        } catch let mismatch as StepLiteral.Mismatch {
            unsupported(version, "\(step) has a value that does not fit \(type).\(property): \(mismatch)", hint: mismatch.hint ?? "write a literal of the property's type")
            return nil
        } catch {
            return nil  // the planner reports the template's syntax
        }
        var pieces: [SwiftExpression] = []
        for part in parts.parts {
            switch part {
            case .text(let text): pieces.append(.string(text))
            case .property(let name):
                guard let value = read(type, name, before: version, closure: &closure, step: step) else { return nil }
                pieces.append(.call(.member(.identifier("RealmMigrationValue"), "text"), [.unlabelled(value)]))
            }
        }
        return pieces.dropFirst().reduce(pieces[0]) { .binary($0, "+", $1) }
    }

    /// `convert`'s value of `source` as `to`, `fallback` when it does not convert.
    private func conversion(_ source: SwiftExpression, to: PropertyType, fallback: SwiftExpression) -> SwiftExpression? {
        guard to.collection == nil, let scalar = to.scalar else { return nil }
        let values = SwiftExpression.identifier("RealmMigrationValue")
        let swiftType = RealmTypeMapper.scalarType(scalar)
        func converted(_ call: SwiftExpression, _ typeName: String?) -> SwiftExpression {
            let value = typeName.map { SwiftExpression.call(.member(call, "map"), [.unlabelled(.closure([], .call(.identifier($0), [.unlabelled(.token("$0"))])))]) } ?? call
            return .binary(value, "??", fallback)
        }
        if let range = scalar.integerRange {
            let bounds = SwiftExpression.binary(.int(range.lowerBound), "...", .int(range.upperBound))
            let call = SwiftExpression.call(
                .member(values, "integer"), [.unlabelled(source), SwiftArgument("in", scalar == .int || scalar == .int64 ? .token("Int64.min...Int64.max") : bounds)])
            return converted(call, scalar == .int64 ? nil : render(swiftType))
        }
        switch scalar {
        case .double:
            return converted(.call(.member(values, "real"), [.unlabelled(source), SwiftArgument("limit", .token("Double.greatestFiniteMagnitude"))]), nil)
        case .float:
            return converted(.call(.member(values, "real"), [.unlabelled(source), SwiftArgument("limit", .token("Double(Float.greatestFiniteMagnitude)"))]), "Float")
        case .bool:
            return converted(.call(.member(values, "bool"), [.unlabelled(source)]), nil)
        case .string:
            return .call(.member(values, "text"), [.unlabelled(source)])
        default:
            return nil
        }
    }

    private func render(_ type: SwiftType) -> String {
        if case .named(let name, _) = type { return name }
        return "Int"
    }

    /// The condition of `deleteObjects` or `addTo` (`nil` when there is none, so every object
    /// matches); `.none` when a condition cannot be translated.
    private mutating func test(
        _ conditions: [MigrationStep.PropertyMatch], of type: String, before version: Int, schema: Schema, closure: inout Closure, step: String
    ) -> SwiftExpression?? {
        var tests: [SwiftExpression] = []
        for match in conditions {
            guard !match.property.contains(".") else {
                unsupported(
                    version, "\(step) has a condition on \(match.property), through a link",
                    hint: "Realm's migration block here tests the object's own properties; use a `custom` step")
                return .none
            }
            guard let value = read(type, match.property, before: version, closure: &closure, step: step) else { return .none }
            // The literal is of the type the value is read as: the old one from the old object.
            let newSchema = history?.schema(at: version) ?? types.schema
            var readsOld = false
            if case .subscripted(.identifier("oldObject"), _) = value { readsOld = true }
            let schemaRead = readsOld ? schema : newSchema
            guard
                let propertyType = schemaRead.objectType(named: type)?.property(named: match.property)?.storedType
                    ?? schema.objectType(named: type)?.property(named: match.property)?.storedType
            else { return .none }
            switch match.condition {
            case .lessThan(.null), .lessThanOrEqual(.null), .greaterThan(.null), .greaterThanOrEqual(.null):
                unsupported(version, "\(step) orders \(match.property) against null", hint: "compare with a value, or test for null with `\(match.property): null`")
                return .none
            default: break
            }
            func lit(_ literal: DefaultValue) -> SwiftExpression? { self.literal(literal, for: propertyType, in: schemaRead, step: step, version: version) }
            let condition: SwiftExpression
            switch match.condition {
            case .equals(let v):
                guard let l = lit(v) else { return .none }
                condition = .call(.implicitMember("equals"), [.unlabelled(l)])
            case .notEquals(let v):
                guard let l = lit(v) else { return .none }
                condition = .call(.implicitMember("notEquals"), [.unlabelled(l)])
            case .lessThan(let v):
                guard let l = lit(v) else { return .none }
                condition = .call(.implicitMember("lessThan"), [.unlabelled(l)])
            case .lessThanOrEqual(let v):
                guard let l = lit(v) else { return .none }
                condition = .call(.implicitMember("lessThanOrEqual"), [.unlabelled(l)])
            case .greaterThan(let v):
                guard let l = lit(v) else { return .none }
                condition = .call(.implicitMember("greaterThan"), [.unlabelled(l)])
            case .greaterThanOrEqual(let v):
                guard let l = lit(v) else { return .none }
                condition = .call(.implicitMember("greaterThanOrEqual"), [.unlabelled(l)])
            case .isIn(let vs):
                let ls = vs.compactMap(lit)
                guard ls.count == vs.count else { return .none }
                condition = .call(.implicitMember("isIn"), [.unlabelled(.array(ls))])
            case .isNotIn(let vs):
                let ls = vs.compactMap(lit)
                guard ls.count == vs.count else { return .none }
                condition = .call(.implicitMember("isNotIn"), [.unlabelled(.array(ls))])
            case .contains(let text): condition = .call(.implicitMember("contains"), [.unlabelled(.string(text))])
            case .startsWith(let text): condition = .call(.implicitMember("startsWith"), [.unlabelled(.string(text))])
            case .endsWith(let text): condition = .call(.implicitMember("endsWith"), [.unlabelled(.string(text))])
            }
            tests.append(.call(.member(.identifier("RealmMigrationValue"), "matches"), [.unlabelled(value), .unlabelled(condition)]))
        }
        guard let first = tests.first else { return .some(nil) }
        return .some(tests.dropFirst().reduce(first) { .binary($0, "&&", $1) })
    }

    /// A literal of the schema as Realm's dynamic API holds it: an enum's raw value, a URL's
    /// text, Realm's `ObjectId` and `Decimal128`; generated values made fresh.
    private mutating func literal(_ value: DefaultValue, for type: PropertyType, in schema: Schema, step: String, version: Int) -> SwiftExpression? {
        let element = type.element
        // Quoted text read as the store reads it (a value that does not fit is reported below).
        let value = StepLiteral.value(value, for: element)
        // Null as Realm's dynamic API takes it in a dictionary or an `Any` (a plain `nil`
        // cannot stand there).
        if value == .null { return .call(.identifier("NSNull"), []) }
        if let enumName = element.enumName, let enumType = schema.enumType(named: enumName) {
            let name: String
            switch value {
            case .enumCase(let text), .string(let text): name = text
            default: name = ""
            }
            if let enumCase = enumType.enumCase(named: name) {
                switch enumCase.rawValue {
                case .string(let text): return .string(text)
                case .int(let number): return .int(number)
                }
            }
            if case .int(let number) = value, enumType.rawType == .int { return .int(number) }
            if case .string(let text) = value, enumType.rawType == .string { return .string(text) }
        }
        switch (value, element.scalar) {
        case (.string(let text), .url?):
            return .string(text)
        case (.string(let text), .objectId?):
            return .call(.member(types.values, "objectId"), [.unlabelled(.string(text))])
        case (.generated(.objectId), .objectId?):
            return .call(.member(.identifier("ObjectId"), "generate"), [])
        case (.int(let number), let scalar?) where scalar.isInteger:
            guard scalar.integerRange?.contains(number) ?? false else { break }
            return scalar == .int ? .int(number) : .call(.identifier(render(SwiftTypeMapper.swiftType(of: scalar))), [.unlabelled(.int(number))])
        case (.double(let number), let scalar?) where scalar == .double || scalar == .float:
            // The store refuses NaN and floats beyond Float's range; an infinity is written
            // with its type, as an `Any` gives `.infinity` none.
            guard !number.isNaN, scalar == .double || FloatLiteral.fitsFloat(number) else { break }
            guard number.isInfinite else { return SwiftTypeMapper.literal(value, for: element, schema: schema) }
            return .token((number < 0 ? "-" : "") + render(SwiftTypeMapper.swiftType(of: scalar)) + ".infinity")
        case (_, .decimal128?):
            guard let decimal = SwiftTypeMapper.literal(value, for: element, schema: schema) else { break }
            return .call(.member(types.values, "decimal128"), [.unlabelled(decimal)])
        default:
            if let expression = SwiftTypeMapper.literal(value, for: element, schema: schema) { return expression }
        }
        unsupported(version, "\(step) has the value \(CanonicalYAML.literal(value)), which is not a \(element)", hint: "write a literal of the property's type")
        return nil
    }

    /// The value `convert` falls back to when the property has no default: the type's zero.
    private func zero(of type: PropertyType) -> SwiftExpression {
        if type.isOptional { return .nil }
        switch type.scalar {
        case .bool?: return .bool(false)
        case .string?: return .string("")
        case .double?, .float?: return .token("0")
        default: return .int(0)
        }
    }

    // MARK: Where values are

    /// How `property` of `type`, as version `version - 1` names it, is read at version
    /// `version`: from the new object when the newest schema keeps it with the same stored
    /// form, else from the old object when every older version has it under this name.
    private mutating func read(_ type: String, _ property: String, before version: Int, closure: inout Closure, step: String) -> SwiftExpression? {
        guard let history, let schema = history.schema(at: version - 1), let newSchema = history.schema(at: version) else { return nil }
        guard !property.contains(".") else {
            unsupported(
                version, "\(step) reads \(type).\(property), through a link or an embedded object",
                hint: "Realm's migration block here reads the object's own properties; use a `custom` step")
            return nil
        }
        let stored = schema.objectType(named: type)?.property(named: property)?.storedType
        // A property of this version that keeps its stored form (or that earlier steps of this
        // version wrote) holds its current value in the new object.
        if let current = newSchema.objectType(named: type)?.property(named: property)?.storedType,
            writtenThisVersion.contains("\(type).\(property)") || (stored.map({ storage($0, in: schema) == storage(current, in: newSchema) }) ?? true),
            let final = finalName(type, property, from: version),
            let finalType = types.schema.objectType(named: type)?.property(named: final)?.storedType,
            storage(current, in: newSchema) == storage(finalType, in: types.schema)
        {
            closure.usesNew = true
            return .subscripted(.identifier("newObject"), [.unlabelled(.string(final))])
        }
        guard let stored else {
            unsupported(
                version, "\(step) reads \(type).\(property), which neither version \(version - 1) nor \(version) has",
                hint: "name a property of the version before the step, or one an earlier step of this version writes")
            return nil
        }
        let everywhere = (1..<version).allSatisfy { earlier in
            guard let earlierSchema = history.schema(at: earlier), let earlierType = earlierSchema.objectType(named: type)?.property(named: property)?.storedType else {
                return false
            }
            return storage(earlierType, in: earlierSchema) == storage(stored, in: schema)
        }
        let writtenBefore = (2..<version).contains { earlier in
            history.migration(to: earlier)?.steps.contains { $0.typeName == type && ($0.writtenProperties ?? []).contains(property) } ?? false
        }
        guard everywhere, !writtenBefore else {
            unsupported(
                version, "\(step) reads \(type).\(property), which the newest schema does not keep and which not every older version has as it is",
                hint:
                    "Realm's migration block sees only the old file's schema and the newest one; keep the property until the step that reads it is released everywhere, or use a `custom` step"
            )
            return nil
        }
        closure.usesOld = true
        return .subscripted(.identifier("oldObject"), [.unlabelled(.string(property))])
    }

    /// The name the newest schema gives `property` of `type` as version `version` names it
    /// (following renames), or `nil` when it does not keep it.
    private func finalName(_ type: String, _ property: String, from version: Int) -> String? {
        guard let history else { return property }
        var name = property
        var next = version + 1
        while next <= history.currentVersion {
            guard let renamed = diffs[next]?.properties[type]?.new(for: name) else { return nil }
            name = renamed
            next += 1
        }
        return types.schema.objectType(named: type)?.property(named: name) == nil ? nil : name
    }

    /// The property a step at `version` writes, as the newest schema names it; `nil` when
    /// the newest schema does not keep it, so that Realm's block, which holds only the newest
    /// schema's properties, skips the write (a later step reading it is reported there).
    private func writeTarget(_ type: String, _ property: String, at version: Int, step: String) -> String? {
        finalName(type, property, from: version)
    }

    /// What Realm stores for a type: two types with the same storage keep their values
    /// through a Realm migration.
    private func storage(_ type: PropertyType, in schema: Schema, optional: Bool = true) -> String {
        var base = type.base.description
        if let enumName = type.enumName, let enumType = schema.enumType(named: enumName) {
            base = enumType.rawType == .string ? "string" : "int"
        }
        if type.scalar.map({ [.int, .int8, .int16, .int32, .int64].contains($0) }) ?? false { base = "int" }
        return (type.collection?.rawValue ?? "") + "<" + base + (optional && type.isOptional ? "?" : "") + ">"
    }

    /// Objects of `object` given their own primary key when it has a generated default and
    /// `old` (the type before the version) lacks it; with `guarded`, only when the Realm's old
    /// schema lacks it (a Realm from before Remodel).
    private func keyFill(_ object: ObjectType, guarded: Bool, old: ObjectType? = nil) -> SwiftStatement? {
        guard !object.isEmbedded, let key = object.primaryKeyProperty, let keyType = key.storedType, case .generated(let generated)? = key.defaultValue else { return nil }
        if !guarded, old?.property(named: key.name) != nil { return nil }
        guard
            let fresh = SwiftTypeMapper.literal(.generated(generated), for: keyType, schema: types.schema).map({
                generated == .objectId ? SwiftExpression.call(.member(.identifier("ObjectId"), "generate"), []) : $0
            })
        else { return nil }
        let fill = SwiftStatement.callWithClosure(
            .member(.identifier("migration"), "enumerateObjects"), [SwiftArgument("ofType", realmClass(object.name))], parameters: ["_", "newObject"],
            body: [
                .assignment(.subscripted(.optionalChain(.identifier("newObject")), [.unlabelled(.string(key.name))]), fresh)
            ])
        guard guarded else { return fill }
        // Only where the old class lacks the property: existing values are never replaced.
        let lacksKey = SwiftExpression.binary(
            .subscripted(.optionalChain(.subscripted(.member(.identifier("migration"), "oldSchema"), [.unlabelled(realmClass(object.name))])), [.unlabelled(.string(key.name))]),
            "==", .nil)
        return .ifThen(lacksKey, [fill])
    }

    /// The name of an object type's class in the Realm file (`"RealmPerson"`, or the app's
    /// own name), as a string: a class of an older version may be gone.
    private func realmClass(_ type: String) -> SwiftExpression {
        .string(types.storedName(type))
    }

    private mutating func unsupported(_ version: Int, _ what: String, hint: String) {
        let file = history?.migration(to: version).map { String(format: "%04d", $0.version) + "-" + $0.name + ".yaml" } ?? "version \(version)"
        let location = sources?.location(version: current.version, step: current.step)
        let prefix = location == nil ? file + ": " : ""
        diagnostics.append(.error("realm-unsupported-step", "\(prefix)\(what), which Realm's migration block cannot express", at: location, hint: hint))
    }
}

/// A version's block as it is built: statements in step order, with consecutive steps that
/// work object by object on one type (`set`, `split`, `convert`, `mapValues`, added
/// defaults) fused into one `enumerateObjects(ofType:)`, as one would write them by hand;
/// fusing keeps their order for each object, and none of them reads another object.
struct BlockBuilder {
    private var statements: [SwiftStatement] = []
    private var pending: Closure?

    mutating func perObject(_ closure: Closure) {
        if var merged = pending, merged.type == closure.type {
            merged.usesOld = merged.usesOld || closure.usesOld
            merged.usesNew = merged.usesNew || closure.usesNew
            merged.body += closure.body
            pending = merged
        } else {
            flush()
            pending = closure
        }
    }

    mutating func append(_ more: [SwiftStatement]) {
        flush()
        statements += more
    }

    mutating func finish() -> [SwiftStatement] {
        flush()
        return statements
    }

    private mutating func flush() {
        if let pending { statements.append(pending.statement) }
        pending = nil
    }
}

/// One `migration.enumerateObjects(ofType:)` call being built: which of the old and new
/// object its body uses, so that it binds only those.
struct Closure {
    let type: String
    /// The class's name in the Realm file.
    let storedName: String
    let version: Int
    var usesOld = false
    var usesNew = false
    var body: [SwiftStatement] = []

    init(type: String, storedName: String, version: Int) {
        self.type = type
        self.storedName = storedName
        self.version = version
    }

    mutating func write(_ property: String) -> SwiftExpression {
        usesNew = true
        return .subscripted(.identifier("newObject"), [.unlabelled(.string(property))])
    }

    var statement: SwiftStatement {
        var bound: [String] = []
        if usesOld { bound.append("let oldObject") }
        if usesNew { bound.append("let newObject") }
        let guardStatement: [SwiftStatement] = bound.isEmpty ? [] : [.guardElse(.token(bound.joined(separator: ", ")), [.returnVoid])]
        return .callWithClosure(
            .member(.identifier("migration"), "enumerateObjects"), [SwiftArgument("ofType", .string(storedName))],
            parameters: [usesOld ? "oldObject" : "_", usesNew ? "newObject" : "_"], body: guardStatement + body)
    }
}

extension MigrationStep {
    /// Steps the store's migration runs after its rewrite of every object: objects made and
    /// closures called once the values are in place.
    fileprivate var runsAfterRewrite: Bool {
        switch self {
        case .createObjects, .custom: true
        default: false
        }
    }
}
