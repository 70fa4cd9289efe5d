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
    }

    /// `renameType: { from: Doggo, to: Dog }`
    case renameType(from: String, to: String)
    /// `renameProperty: { type: Person, from: employeeId, to: personId }`
    case renameProperty(type: String, from: String, to: String)
    /// `set: { type: Person, property: displayName, value: "{firstName} {lastName}" }`; the
    /// template's `{name}` placeholders read the object's values at this point of the
    /// migration.
    case set(type: String, property: String, template: String)
    /// `convert: { type: Dog, property: weight, to: int, onError: default }`
    case convert(type: String, property: String, to: PropertyType, onError: ConversionFailure)
    /// `split: { type: Person, property: name, into: [firstName, lastName], separator: " " }`
    case split(type: String, property: String, into: [String], separator: String)
    /// `mapValues: { type: Person, property: businessUnit, values: {Eng: engineering}, otherwise: engineering }`
    case mapValues(type: String, property: String, values: [ValueMapping], otherwise: DefaultValue?)
    /// `deleteObjects: { type: Note, where: { content: "" } }`: deletes the objects whose
    /// properties equal all the given values.
    case deleteObjects(type: String, where: [PropertyMatch])
    /// `custom: { name: fixPhoneNumbers, type: Person }`: a Swift closure registered under
    /// `name` with the migrator.
    case custom(name: String, type: String?)

    /// One `old: new` pair of `mapValues`.
    public struct ValueMapping: Hashable, Sendable {
        public var from: String
        public var to: DefaultValue

        public init(from: String, to: DefaultValue) {
            self.from = from
            self.to = to
        }
    }

    /// One `property: value` condition of `deleteObjects`.
    public struct PropertyMatch: Hashable, Sendable {
        public var property: String
        public var value: DefaultValue

        public init(property: String, value: DefaultValue) {
            self.property = property
            self.value = value
        }
    }

    /// The step's keyword in migration files, also its stable identifier in messages.
    public var kind: String {
        switch self {
        case .renameType: "renameType"
        case .renameProperty: "renameProperty"
        case .set: "set"
        case .convert: "convert"
        case .split: "split"
        case .mapValues: "mapValues"
        case .deleteObjects: "deleteObjects"
        case .custom: "custom"
        }
    }
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

/// A schema's whole version history: the schema of every version and the migration files
/// that lead to them. Generated code embeds it so that an app can upgrade its store with no
/// files.
public struct MigrationHistory: Hashable, Sendable {
    /// `snapshots[i]` is the schema of version `i + 1`.
    public var snapshots: [Schema]
    /// One per version, in order: `migrations[i].version == i + 1`. Version 1's migration is
    /// the baseline and has no steps.
    public var migrations: [Migration]

    public init(snapshots: [Schema], migrations: [Migration]) {
        self.snapshots = snapshots
        self.migrations = migrations
    }

    /// The newest version.
    public var currentVersion: Int { snapshots.count }

    /// The schema of `version` (1-based), if it exists.
    public func schema(at version: Int) -> Schema? {
        snapshots.indices.contains(version - 1) ? snapshots[version - 1] : nil
    }

    /// The migration that produces `version`, if it exists.
    public func migration(to version: Int) -> Migration? {
        migrations.first { $0.version == version }
    }
}
