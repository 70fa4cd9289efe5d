/// One declared step of a migration file. Changes that need no step (added or removed
/// properties and types, `renamedFrom` renames, index changes) come from the snapshot diff.
public enum MigrationStep: Hashable, Sendable {
    /// What `convert` does with a value it cannot convert.
    public enum ConversionFailure: String, Hashable, Sendable, CaseIterable {
        /// Abort the migration, naming the objects.
        case fail
        /// Use the property's default (or the type's zero value).
        case `default`
        /// Store null (the new property must be optional).
        case null
        /// For values becoming links: create the object a value names when none has that
        /// primary key (its other properties their defaults).
        case create
    }

    /// `renameType: { from: Doggo, to: Dog }`
    case renameType(from: String, to: String)
    /// `renameProperty: { type: Person, from: employeeId, to: personId }`
    case renameProperty(type: String, from: String, to: String)
    /// `set: { type: Person, property: displayName, value: "{firstName} {lastName}" }`; the
    /// template's `{name}` placeholders read the object's values at this point of the
    /// migration. `value: null` (unquoted) is no value, unlike the text `"null"`.
    case set(type: String, property: String, value: SetValue)
    /// `convert: { type: Dog, property: weight, to: int, onError: default }`
    case convert(type: String, property: String, to: PropertyType, onError: ConversionFailure)
    /// `split: { type: Person, property: name, into: [firstName, lastName], separator: " " }`
    case split(type: String, property: String, into: [String], separator: String)
    /// `mapValues: { type: Person, property: businessUnit, values: {Eng: engineering}, otherwise: engineering }`
    case mapValues(type: String, property: String, values: [ValueMapping], otherwise: DefaultValue?)
    /// `deleteObjects: { type: Note, where: { content: "" } }`: deletes the objects that meet
    /// every condition; with no condition (`all: true` in a file), every object of the type.
    case deleteObjects(type: String, where: [PropertyMatch])
    /// `deduplicate: { type: Trip, by: [name], keep: last, orderBy: start }`: of the objects
    /// sharing their values of `by` (a null shares nothing, as with `unique`), keeps the first
    /// (or last) by `orderBy`, then by primary key, and deletes the others; every link, list
    /// and set entry that pointed at a deleted one points at the kept one instead.
    case deduplicate(type: String, by: [String], keep: Keep, orderBy: String?)
    /// `createObjects: { type: Dog, objects: [{ name: Rex }], addTo: { type: Person, property:
    /// dogs, where: { name: Ada } } }`: new objects, each property its value or its default,
    /// optionally linked from the objects `addTo` selects.
    case createObjects(type: String, objects: [[PropertyValue]], addTo: LinkTarget?)
    /// `custom: { name: fixPhoneNumbers, type: Person, reads: [Dog], writes: [tags] }`: a Swift
    /// closure registered under `name` with the migrator, called for every object of `type`;
    /// `reads` names other types whose objects (as they were before the version) it may look
    /// at; `writes` names properties of `type` the closure gives their values, which then need
    /// no other step (a collection starts empty, a single value at its default or null).
    case custom(name: String, type: String?, reads: [String] = [], writes: [String] = [])

    /// Which object of each group `deduplicate` keeps.
    public enum Keep: String, Hashable, Sendable, CaseIterable {
        /// The first by `orderBy`, then by key (the smallest values).
        case first
        /// The last by `orderBy`, then by key (the largest values).
        case last
    }

    /// What a `set` step writes. YAML's null and the text "null" differ: an unquoted `null` (or
    /// `~`) makes the property null, while quoted `"null"` is text, read as the property's type
    /// (`StepLiteral`): the four letters for a string, an error for an int.
    public enum SetValue: Hashable, Sendable {
        /// `value: null`: no value (the property must be optional).
        case null
        /// `value: "{firstName} {lastName}"`: text with `{property}` placeholders (`Template`);
        /// with none, a literal of the property's type.
        case template(String)
    }

    /// One `old: new` pair of `mapValues`.
    public struct ValueMapping: Hashable, Sendable {
        public var from: String
        public var to: DefaultValue

        public init(from: String, to: DefaultValue) {
            self.from = from
            self.to = to
        }
    }

    /// One condition of `deleteObjects` (or of `createObjects`' `addTo`) on a property:
    /// `content: ""` (equality) or `weight: { lt: 0 }`. `property` may go through to-one links
    /// and embedded objects: `owner.name`.
    public struct PropertyMatch: Hashable, Sendable {
        public var property: String
        public var condition: Condition

        public init(property: String, condition: Condition) {
            self.property = property
            self.condition = condition
        }

        /// `property: value`: equality.
        public init(property: String, value: DefaultValue) {
            self.init(property: property, condition: .equals(value))
        }
    }

    /// How a property is compared (`PropertyMatch`); the keys of a condition mapping in files
    /// are the cases' names (`{ lt: 0 }`, `{ in: [a, b] }`).
    public enum Condition: Hashable, Sendable {
        /// Equal; `null` matches null.
        case equals(DefaultValue)
        /// Not equal; `null` matches every non-null value.
        case notEquals(DefaultValue)
        case lessThan(DefaultValue)
        case lessThanOrEqual(DefaultValue)
        case greaterThan(DefaultValue)
        case greaterThanOrEqual(DefaultValue)
        /// One of the values.
        case isIn([DefaultValue])
        /// None of the values (null matches, as it is none of them).
        case isNotIn([DefaultValue])
        /// Text containing, starting or ending with the given text (case-sensitive).
        case contains(String)
        case startsWith(String)
        case endsWith(String)

        /// The keyword of the condition in migration files.
        public var keyword: String {
            switch self {
            case .equals: "equals"
            case .notEquals: "not"
            case .lessThan: "lt"
            case .lessThanOrEqual: "lte"
            case .greaterThan: "gt"
            case .greaterThanOrEqual: "gte"
            case .isIn: "in"
            case .isNotIn: "notIn"
            case .contains: "contains"
            case .startsWith: "startsWith"
            case .endsWith: "endsWith"
            }
        }

        /// Every keyword, in the order the documentation lists them.
        public static let keywords = ["equals", "not", "lt", "lte", "gt", "gte", "in", "notIn", "contains", "startsWith", "endsWith"]
    }

    /// One `property: value` of an object `createObjects` makes.
    public struct PropertyValue: Hashable, Sendable {
        public var property: String
        public var value: DefaultValue

        public init(property: String, value: DefaultValue) {
            self.property = property
            self.value = value
        }
    }

    /// Where `createObjects` links its new objects from: property `property` of every `type`
    /// object meeting `where` (a list or set gets them appended, a to-one link is set).
    public struct LinkTarget: Hashable, Sendable {
        public var type: String
        public var property: String
        public var `where`: [PropertyMatch]

        public init(type: String, property: String, where conditions: [PropertyMatch]) {
            self.type = type
            self.property = property
            self.where = conditions
        }
    }

    /// The kinds of step, each the keyword that names it in migration files (and its stable
    /// identifier in messages), in the order the documentation lists them. The reader and the
    /// vocabulary switch over it, so a new kind is added in every place or the build fails.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case renameType, renameProperty, set, convert, split, mapValues, deleteObjects, deduplicate, createObjects, custom
    }

    /// The step's kind.
    public var kind: Kind {
        switch self {
        case .renameType: .renameType
        case .renameProperty: .renameProperty
        case .set: .set
        case .convert: .convert
        case .split: .split
        case .mapValues: .mapValues
        case .deleteObjects: .deleteObjects
        case .deduplicate: .deduplicate
        case .createObjects: .createObjects
        case .custom: .custom
        }
    }

    /// The object type the step works on (as the step names it), `nil` for `renameType`.
    public var typeName: String? {
        switch self {
        case .renameType: nil
        case .renameProperty(let type, _, _), .set(let type, _, _), .convert(let type, _, _, _), .split(let type, _, _, _),
            .mapValues(let type, _, _, _), .deleteObjects(let type, _), .deduplicate(let type, _, _, _), .createObjects(let type, _, _):
            type
        case .custom(_, let type, _, _): type
        }
    }

    /// The properties whose values the step gives or moves (as it names them); `nil` when it
    /// concerns every property of its type (`renameType`, `custom`).
    public var writtenProperties: [String]? {
        switch self {
        case .renameType, .custom: nil
        case .renameProperty(_, let from, let to): [from, to]
        case .set(_, let property, _), .convert(_, let property, _, _), .mapValues(_, let property, _, _): [property]
        case .split(_, let property, let into, _): [property] + into
        case .deleteObjects, .deduplicate, .createObjects: []
        }
    }

    /// The keyword of every step kind, in the order the documentation lists them.
    public static var kinds: [String] { Kind.allCases.map(\.rawValue) }
}

/// A migration file: the steps that take a store from `version - 1` to `version`.
public struct Migration: Hashable, Sendable {
    public var version: Int
    /// The file name's part after the number, e.g. `split-person-name`.
    public var name: String
    public var description: String?
    public var steps: [MigrationStep]
    /// SHA-256 of the file's bytes, recorded in the store when the migration is applied.
    public var checksum: String

    public init(version: Int, name: String, description: String? = nil, steps: [MigrationStep], checksum: String) {
        self.version = version
        self.name = name
        self.description = description
        self.steps = steps
        self.checksum = checksum
    }
}

extension MigrationStep {
    /// The `convert` a property retyped from `from` to `to` needs, as a migration file writes
    /// it (`convert: { type: Pet, property: owner, to: "Owner?", onError: fail }`), or `nil`
    /// when no `convert` makes that change. The one home of the step that `migration new`
    /// drafts and that a planning error's hint names.
    public static func convertFor(type: String, property: String, from: PropertyType, to: PropertyType) -> String? {
        let onError: ConversionFailure
        switch (from.collection, to.collection) {
        case (nil, nil):
            // Another type of object is a retarget (its links go), not a conversion.
            guard from.objectName == nil || to.objectName == nil else { return nil }
            onError = .fail
        case (let a?, let b?) where a == b && (from.objectName == nil) != (to.objectName == nil):
            // Values become links to the objects they name (made where missing), or links their keys.
            onError = from.objectName == nil ? .create : .fail
        default:
            return nil
        }
        let target = to.collection == nil ? to.element.description.replacingOccurrences(of: "?", with: "") + (to.isOptional ? "?" : "") : to.description
        return "convert: { type: \(CanonicalYAML.scalar(type)), property: \(CanonicalYAML.scalar(property)), to: \(CanonicalYAML.scalar(target)), onError: \(onError.rawValue) }"
    }
}

/// A schema's whole version history: the schema of every version and the migration files
/// that lead to them. Generated code embeds it so that an app can upgrade its store with no
/// files.
///
/// A history starts at version 1, or, once `remodel migration squash --through N` has folded
/// versions 1…N into one baseline, at version N (`baseVersion`): a store older than that is
/// refused with the versions it would need.
public struct MigrationHistory: Hashable, Sendable {
    /// `snapshots[i]` is the schema of version `baseVersion + i`.
    public var snapshots: [Schema]
    /// One per version, in order: `migrations[i].version == baseVersion + i`. The first is the
    /// baseline and has no steps.
    public var migrations: [Migration]
    /// The first version: 1, or the version a squash folded the older ones into.
    public var baseVersion: Int
    private var olderVersions: [MigrationHistory]

    /// With `upgradePath`: the versions a squash folded (`--keep-upgrade-path`), ending at
    /// `baseVersion`, through which a store older than the baseline is still upgraded.
    public init(snapshots: [Schema], migrations: [Migration], baseVersion: Int = 1, upgradePath: MigrationHistory? = nil) {
        self.snapshots = snapshots
        self.migrations = migrations
        self.baseVersion = baseVersion
        olderVersions = upgradePath.map { [$0] } ?? []
    }

    /// The folded versions a squash kept for upgrading older stores, if it kept them.
    public var upgradePath: MigrationHistory? { olderVersions.first }

    /// The newest version.
    public var currentVersion: Int { baseVersion + snapshots.count - 1 }

    /// The versions the history holds, oldest first.
    public var versions: ClosedRange<Int> { baseVersion...max(baseVersion, currentVersion) }

    /// The schema of `version`, if the history holds it.
    public func schema(at version: Int) -> Schema? {
        snapshots.indices.contains(version - baseVersion) ? snapshots[version - baseVersion] : nil
    }

    /// The migration that produces `version`, if it exists.
    public func migration(to version: Int) -> Migration? {
        migrations.first { $0.version == version }
    }

    /// Whether code of version `version − 1` can keep reading and writing a store at
    /// `version` (`SchemaDiff.isBackwardReadable`). A baseline is not: what came before it is
    /// not known.
    public func isBackwardReadable(_ version: Int) -> Bool {
        guard version > baseVersion, let old = schema(at: version - 1), let new = schema(at: version) else { return false }
        return SchemaDiff.isBackwardReadable(from: old, to: new, hasSteps: !(migration(to: version)?.steps.isEmpty ?? true))
    }

    /// The versions up to `version` that are not backward-readable, oldest first: what a store
    /// at `version` records, so that older code knows whether it may open it.
    public func incompatibleVersions(through version: Int) -> [Int] {
        (2...max(2, version)).filter { $0 <= version && !isBackwardReadable($0) }
    }
}

extension SchemaDiff {
    /// Whether code written for `old` can keep reading and writing a store laid out for
    /// `new`: the version only adds (types, optional properties and collections, enums,
    /// indexes that are not unique), with no step rewriting stored values. The old code then
    /// reads its own columns and writes them without touching the new ones (an upsert updates
    /// only its own columns; an insert leaves new optional columns empty). A new enum case,
    /// a new default or a property made required is not: old code would meet values it
    /// cannot read, or leave a required value empty.
    public static func isBackwardReadable(from old: Schema, to new: Schema, hasSteps: Bool) -> Bool {
        guard !hasSteps else { return false }
        return SchemaDiff(from: old, to: new).changes.allSatisfy { change in
            switch change.kind {
            case .objectAdded, .enumAdded, .indexAdded, .indexRemoved, .indexGroupAdded, .indexGroupRemoved:
                return true
            case .propertyAdded(let type, let name):
                guard let stored = new.objectType(named: type)?.property(named: name)?.storedType else { return true }  // an inverse: nothing stored
                return stored.isOptional || stored.collection != nil
            default:
                return false
            }
        }
    }
}
