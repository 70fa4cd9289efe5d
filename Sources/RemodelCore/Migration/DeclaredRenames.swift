/// The renames a version declares — its `renameType` and `renameProperty` steps and the
/// schema's `renamedFrom` — each checked against the two schemas and against the others: the one
/// home of what a rename means. The migration planner reports its problems as diagnostics;
/// `migration new`/`amend` and the Realm migration block take the renames it accepts, so all
/// three see the same renames.
public struct DeclaredRenames: Sendable {
    /// Where a rename is declared.
    public enum Origin: Hashable, Sendable {
        /// A step of the migration file (its index).
        case step(Int)
        /// `renamedFrom` on the new schema's type, or on `member` of it.
        case schema(type: String, member: String?)
    }

    /// One rename: `from` (old name) becomes `to`; for a property, of the type `container`
    /// (its new name).
    public struct Rename: Hashable, Sendable {
        public var from: String
        public var to: String
        public var container: String?
        public var origin: Origin
    }

    /// Why a declared rename is not taken.
    public enum Problem: Hashable, Sendable {
        /// `renameType`'s `from` names no type of the old schema.
        case noOldType(step: Int, name: String)
        /// `renameType`'s `to` names no type of the new schema.
        case noNewType(step: Int, name: String, from: String)
        /// An enum renamed to an object type, or the reverse.
        case kindMismatch(step: Int, from: String, fromIsEnum: Bool, to: String)
        /// `renameProperty`'s `type` names no object type of either schema.
        case unknownType(step: Int, name: String)
        /// `renameProperty` on a type the version adds.
        case newType(step: Int, type: String)
        /// `renameProperty`'s `from` names no property of the old type.
        case noOldProperty(step: Int, type: String, name: String)
        /// `renameProperty`'s `to` names no property of the new type.
        case noNewProperty(step: Int, type: String, name: String)
        /// Two renames into one name (`first` is the one taken).
        case twoIntoOne(Rename, first: Rename)
        /// One name renamed twice (`first` is the one taken).
        case renamedTwice(Rename, first: Rename)
        /// The target exists in the old schema too and is not renamed away: its values would
        /// be lost.
        case targetTaken(Rename)
        /// The source stays in the new schema too: it would start empty.
        case sourceKept(Rename)
    }

    /// The renames taken.
    public private(set) var renames = SchemaDiff.Renames()
    /// Every problem, in the order of the declarations.
    public private(set) var problems: [Problem] = []

    public init(steps: [MigrationStep], from old: Schema, to new: Schema) {
        let oldTypes = old.objects.map(\.name) + old.enums.map(\.name)
        let newTypes = new.objects.map(\.name) + new.enums.map(\.name)
        var typeRenames: [Rename] = []
        for (index, step) in steps.enumerated() {
            guard case .renameType(let from, let to) = step else { continue }
            guard oldTypes.contains(from) else {
                problems.append(.noOldType(step: index, name: from))
                continue
            }
            guard newTypes.contains(to) else {
                problems.append(.noNewType(step: index, name: to, from: from))
                continue
            }
            guard (old.enumType(named: from) != nil) == (new.enumType(named: to) != nil) else {
                problems.append(.kindMismatch(step: index, from: from, fromIsEnum: old.enumType(named: from) != nil, to: to))
                continue
            }
            typeRenames.append(Rename(from: from, to: to, container: nil, origin: .step(index)))
        }
        for (name, renamedFrom) in new.objects.map({ ($0.name, $0.renamedFrom) }) + new.enums.map({ ($0.name, $0.renamedFrom) }) {
            guard let from = renamedFrom, oldTypes.contains(from), !newTypes.contains(from) else { continue }
            typeRenames.append(Rename(from: from, to: name, container: nil, origin: .schema(type: name, member: nil)))
        }
        let types = consistent(typeRenames, oldNames: Set(oldTypes), newNames: Set(newTypes))
        renames.types = types

        var propertyRenames: [String: [Rename]] = [:]
        for (index, step) in steps.enumerated() {
            guard case .renameProperty(let typeName, let from, let to) = step else { continue }
            guard let newType = Self.newTypeName(typeName, types: types, old: old, new: new) else {
                problems.append(.unknownType(step: index, name: typeName))
                continue
            }
            guard let oldObject = old.objectType(named: types.old(for: newType) ?? newType) else {
                problems.append(.newType(step: index, type: newType))
                continue
            }
            guard oldObject.property(named: from) != nil else {
                problems.append(.noOldProperty(step: index, type: oldObject.name, name: from))
                continue
            }
            guard new.objectType(named: newType)?.property(named: to) != nil else {
                problems.append(.noNewProperty(step: index, type: newType, name: to))
                continue
            }
            propertyRenames[newType, default: []].append(Rename(from: from, to: to, container: newType, origin: .step(index)))
        }
        for newObject in new.objects {
            guard let oldObject = types.old(for: newObject.name).flatMap(old.objectType(named:)) ?? old.objectType(named: newObject.name) else { continue }
            for property in newObject.properties {
                guard let from = property.renamedFrom, oldObject.property(named: from) != nil, newObject.property(named: from) == nil else { continue }
                propertyRenames[newObject.name, default: []].append(
                    Rename(from: from, to: property.name, container: newObject.name, origin: .schema(type: newObject.name, member: property.name)))
            }
        }
        for (newType, declared) in propertyRenames.sorted(by: { $0.key < $1.key }) {
            let oldNames = Set(old.objectType(named: types.old(for: newType) ?? newType)?.properties.map(\.name) ?? [])
            let newNames = Set(new.objectType(named: newType)?.properties.map(\.name) ?? [])
            renames.properties[newType] = consistent(declared, oldNames: oldNames, newNames: newNames)
        }
    }

    /// The new name of an object type a step names (by its new or its old name), or its old
    /// name when the version removes it; `nil` when neither schema has it.
    public static func newTypeName(_ name: String, types: RenameMap, old: Schema, new: Schema) -> String? {
        if new.objectType(named: name) != nil { return name }
        if let renamed = types.new(for: name), new.objectType(named: renamed) != nil { return renamed }
        if let renamed = new.objects.first(where: { $0.renamedFrom == name })?.name { return renamed }
        // A type removed in this version: steps may still read and delete its objects.
        return old.objectType(named: name) != nil ? name : nil
    }

    /// The renames of `declared` that contradict neither each other nor the schemas.
    private mutating func consistent(_ declared: [Rename], oldNames: Set<String>, newNames: Set<String>) -> RenameMap {
        var accepted: [Rename] = []
        for rename in declared {
            if accepted.contains(where: { $0.from == rename.from && $0.to == rename.to }) { continue }
            if let first = accepted.first(where: { $0.to == rename.to }) {
                problems.append(.twoIntoOne(rename, first: first))
            } else if let first = accepted.first(where: { $0.from == rename.from }) {
                problems.append(.renamedTwice(rename, first: first))
            } else {
                accepted.append(rename)
            }
        }
        var map = RenameMap()
        for rename in accepted {
            if oldNames.contains(rename.to), rename.to != rename.from, !accepted.contains(where: { $0.from == rename.to }) {
                problems.append(.targetTaken(rename))
            } else if newNames.contains(rename.from), rename.to != rename.from, !accepted.contains(where: { $0.to == rename.from }) {
                problems.append(.sourceKept(rename))
            } else {
                map.insert(old: rename.from, new: rename.to)
            }
        }
        return map
    }
}
