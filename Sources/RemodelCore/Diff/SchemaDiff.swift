/// The typed differences between two versions of a schema.
///
/// Renames come from `renamedFrom` in the new schema and from explicit renames (a migration's
/// `renameType` / `renameProperty` steps); everything else is matched by name.
public struct SchemaDiff: Hashable, Sendable {
    /// Renames stated outside the schemas, by migration steps.
    public struct Renames: Hashable, Sendable {
        /// Object types and enums.
        public var types: RenameMap
        /// Properties, by the *new* name of their type.
        public var properties: [String: RenameMap]

        public init(types: RenameMap = RenameMap(), properties: [String: RenameMap] = [:]) {
            self.types = types
            self.properties = properties
        }

        /// The same renames seen from the new schema back to the old: for comparing two
        /// versions newest first.
        public var reversed: Renames {
            var result = Renames(types: types.reversed)
            for (type, map) in properties { result.properties[types.old(for: type) ?? type] = map.reversed }
            return result
        }
    }

    public var changes: [SchemaChange]
    /// The object types that continue (renamed or not); added and removed types are absent.
    public var types: RenameMap
    /// The enums that continue.
    public var enums: RenameMap
    /// The properties that continue, by the new name of their type.
    public var properties: [String: RenameMap]

    /// The most severe impact of any change; `nil` when the schemas store the same data.
    public var impact: SchemaChange.Impact? { changes.map(\.impact).max() }

    public init(from old: Schema, to new: Schema, renames: Renames = Renames()) {
        var changes: [SchemaChange] = []
        var propertyMaps: [String: RenameMap] = [:]

        // Enums.
        let enumOrigins = SchemaDiff.origins(
            old: old.enums.map(\.name), new: new.enums.map { ($0.name, $0.renamedFrom) }, explicit: renames.types
        )
        for newEnum in new.enums {
            guard let originName = enumOrigins.old(for: newEnum.name), let oldEnum = old.enumType(named: originName) else {
                changes.append(SchemaChange(.enumAdded(newEnum.name), impact: .additive))
                continue
            }
            if originName != newEnum.name {
                changes.append(SchemaChange(.enumRenamed(from: originName, to: newEnum.name), impact: .additive))
            }
            if oldEnum.rawType != newEnum.rawType {
                changes.append(SchemaChange(.enumRawTypeChanged(enum: newEnum.name, from: oldEnum.rawType, to: newEnum.rawType), impact: .dataDependent))
            }
            for newCase in newEnum.cases {
                if let oldCase = oldEnum.enumCase(named: newCase.name) {
                    if oldCase.rawValue != newCase.rawValue {
                        changes.append(
                            SchemaChange(.enumCaseRawValueChanged(enum: newEnum.name, case: newCase.name, from: oldCase.rawValue, to: newCase.rawValue), impact: .dataDependent))
                    }
                } else {
                    changes.append(SchemaChange(.enumCaseAdded(enum: newEnum.name, case: newCase.name), impact: .additive))
                }
            }
            for oldCase in oldEnum.cases where newEnum.enumCase(named: oldCase.name) == nil {
                changes.append(SchemaChange(.enumCaseRemoved(enum: newEnum.name, case: oldCase.name), impact: .dataDependent))
            }
        }
        for oldEnum in old.enums where enumOrigins.new(for: oldEnum.name) == nil {
            changes.append(SchemaChange(.enumRemoved(oldEnum.name), impact: .destructive))
        }

        // Object types.
        let typeOrigins = SchemaDiff.origins(
            old: old.objects.map(\.name), new: new.objects.map { ($0.name, $0.renamedFrom) }, explicit: renames.types
        )
        for newObject in new.objects {
            guard let originName = typeOrigins.old(for: newObject.name), let oldObject = old.objectType(named: originName) else {
                changes.append(SchemaChange(.objectAdded(newObject.name), impact: .additive))
                continue
            }
            if originName != newObject.name {
                changes.append(SchemaChange(.objectRenamed(from: originName, to: newObject.name), impact: .additive))
            }
            if oldObject.isEmbedded != newObject.isEmbedded {
                // Becoming embedded deletes the objects no one holds; the reverse keeps every value.
                changes.append(SchemaChange(.embeddedChanged(type: newObject.name, isEmbedded: newObject.isEmbedded), impact: newObject.isEmbedded ? .destructive : .dataDependent))
            }
            let origins = SchemaDiff.origins(
                old: oldObject.properties.map(\.name),
                new: newObject.properties.map { ($0.name, $0.renamedFrom) },
                explicit: renames.properties[newObject.name] ?? RenameMap()
            )
            propertyMaps[newObject.name] = origins
            let newPrimaryKeyOrigin = newObject.primaryKey.flatMap { origins.old(for: $0) }
            if newPrimaryKeyOrigin != oldObject.primaryKey || (newObject.primaryKey == nil) != (oldObject.primaryKey == nil) {
                changes.append(SchemaChange(.primaryKeyChanged(type: newObject.name, from: oldObject.primaryKey, to: newObject.primaryKey), impact: .dataDependent))
            }
            for newProperty in newObject.properties {
                guard let originName = origins.old(for: newProperty.name), let oldProperty = oldObject.property(named: originName) else {
                    let needsValue = newProperty.storedType.map { !$0.isOptional && $0.collection == nil && newProperty.defaultValue == nil } ?? false
                    changes.append(SchemaChange(.propertyAdded(type: newObject.name, property: newProperty.name), impact: needsValue ? .dataDependent : .additive))
                    continue
                }
                if originName != newProperty.name {
                    changes.append(SchemaChange(.propertyRenamed(type: newObject.name, from: originName, to: newProperty.name), impact: .additive))
                }
                changes += SchemaDiff.propertyChanges(type: newObject.name, old: oldProperty, new: newProperty, types: typeOrigins, enums: enumOrigins)
            }
            // Groups compare by their properties' new names: a rename carries its groups along.
            // Uniqueness is the same in any order and whether one property says it or a group
            // of one does; an index's order is its own.
            let oldUnique = oldObject.uniquenessGroups.map { $0.map { origins.new(for: $0) ?? $0 } }
            let newUnique = Set(newObject.uniquenessGroups.map(Set.init))
            for group in newObject.uniquenessGroups where !oldUnique.contains(where: { Set($0) == Set(group) }) {
                changes.append(SchemaChange(.uniqueAdded(type: newObject.name, properties: group), impact: .dataDependent))
            }
            let oldIndexes = Set(oldObject.indexes.map { $0.map { origins.new(for: $0) ?? $0 } })
            for group in newObject.indexes where !oldIndexes.contains(group) {
                changes.append(SchemaChange(.indexGroupAdded(type: newObject.name, properties: group), impact: .additive))
            }
            for group in oldUnique where !newUnique.contains(Set(group)) {
                changes.append(SchemaChange(.uniqueRemoved(type: newObject.name, properties: group), impact: .additive))
            }
            for group in oldIndexes.subtracting(newObject.indexes).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                changes.append(SchemaChange(.indexGroupRemoved(type: newObject.name, properties: group), impact: .additive))
            }
            for oldProperty in oldObject.properties where origins.new(for: oldProperty.name) == nil {
                let impact: SchemaChange.Impact = oldProperty.storedType == nil ? .additive : .destructive
                changes.append(SchemaChange(.propertyRemoved(type: newObject.name, property: oldProperty.name), impact: impact))
            }
        }
        for oldObject in old.objects where typeOrigins.new(for: oldObject.name) == nil {
            changes.append(SchemaChange(.objectRemoved(oldObject.name), impact: .destructive))
        }

        self.changes = changes
        types = typeOrigins
        enums = enumOrigins
        properties = propertyMaps
    }

    /// Matches new names to old ones: explicit renames first, then `renamedFrom` when the old
    /// name exists and is not itself kept, then same names.
    private static func origins(old: [String], new: [(name: String, renamedFrom: String?)], explicit: RenameMap) -> RenameMap {
        let oldNames = Set(old)
        let newNames = Set(new.map(\.name))
        var result = RenameMap()
        for pair in explicit.pairs where oldNames.contains(pair.old) && newNames.contains(pair.new) {
            result.insert(old: pair.old, new: pair.new)
        }
        for entry in new where result.old(for: entry.name) == nil {
            if let from = entry.renamedFrom, oldNames.contains(from), !newNames.contains(from) {
                result.insert(old: from, new: entry.name)
            }
        }
        for entry in new where result.old(for: entry.name) == nil && oldNames.contains(entry.name) {
            result.insert(old: entry.name, new: entry.name)
        }
        return result
    }

    private static func propertyChanges(type: String, old: Property, new: Property, types: RenameMap, enums: RenameMap) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        switch (old.kind, new.kind) {
        case (.stored(let oldType), .stored(let newType)):
            // A link or enum whose target was renamed is the same type.
            var comparableOld = oldType
            if case .object(let name) = newType.base, let oldName = oldType.objectName, types.old(for: name) == oldName { comparableOld.base = .object(name) }
            if case .enumeration(let name) = newType.base, let oldName = oldType.enumName, enums.old(for: name) == oldName { comparableOld.base = .enumeration(name) }
            if comparableOld.base != newType.base || comparableOld.collection != newType.collection {
                changes.append(SchemaChange(.propertyRetyped(type: type, property: new.name, from: oldType, to: newType), impact: retypeImpact(from: comparableOld, to: newType)))
            } else if comparableOld.isOptional != newType.isOptional {
                changes.append(
                    newType.isOptional
                        ? SchemaChange(.propertyMadeOptional(type: type, property: new.name), impact: .additive)
                        : SchemaChange(.propertyMadeRequired(type: type, property: new.name), impact: .dataDependent))
            }
            if old.isIndexed != new.isIndexed {
                changes.append(SchemaChange(new.isIndexed ? .indexAdded(type: type, property: new.name) : .indexRemoved(type: type, property: new.name), impact: .additive))
            }
            if old.defaultValue != new.defaultValue {
                changes.append(SchemaChange(.defaultChanged(type: type, property: new.name), impact: .additive))
            }
        case (.inverse(let oldType, let oldOrigin), .inverse(let newType, let newOrigin)):
            if (types.old(for: newType) ?? newType) != oldType || oldOrigin != newOrigin {
                changes.append(SchemaChange(.inverseChanged(type: type, property: new.name), impact: .additive))
            }
        case (.inverse, .stored):
            changes.append(
                SchemaChange(
                    .propertyRetyped(type: type, property: new.name, from: PropertyType(.object(old.inverseOrigin!.type), collection: .set), to: new.storedType!),
                    impact: .dataDependent))
        case (.stored(let oldType), .inverse):
            changes.append(
                SchemaChange(
                    .propertyRetyped(type: type, property: new.name, from: oldType, to: PropertyType(.object(new.inverseOrigin!.type), collection: .set)), impact: .destructive))
        }
        return changes
    }

    /// Retypes that keep every value exactly are additive; the rest depend on the data.
    public static func retypeImpact(from old: PropertyType, to new: PropertyType) -> SchemaChange.Impact {
        guard old.collection == new.collection, !(old.isOptional && !new.isOptional) else { return .dataDependent }
        switch (old.base, new.base) {
        case (.scalar(let from), .scalar(let to)):
            if let fromRange = from.integerRange, let toRange = to.integerRange {
                return toRange.lowerBound <= fromRange.lowerBound && toRange.upperBound >= fromRange.upperBound ? .additive : .dataDependent
            }
            if from == .float && to == .double { return .additive }
            if [.int8, .int16, .int32].contains(from) && to == .double { return .additive }
            if to == .string && from != .data { return .additive }
            return .dataDependent
        case (.enumeration, .scalar(.string)), (.enumeration, .scalar(.int)):
            return .additive
        case (.object(let from), .object(let to)) where from != to:
            // Links to another type of object: the old ones cannot point there, so they go.
            return .destructive
        default:
            return .dataDependent
        }
    }
}
