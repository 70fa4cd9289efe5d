/// Everything that can go wrong with a store. Each message says what happened, where, and
/// how to fix it; errors from SQLite keep SQLite's code, message and statement.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// The file is an SQLite database, but not a Remodel store.
    case notARemodelStore(path: String, applicationID: Int32)
    /// The file is not an SQLite database at all.
    case notSQLite(path: String)
    /// The store was written by newer code (a higher schema version) than the code opening it.
    case superseded(path: String, storeVersion: Int, codeVersion: Int)
    /// A newer store opened with `OpenOptions(allowNewerCompatibleStore: true)`, one of whose
    /// versions after the code's is not backward-readable (`incompatibleVersion`, the first).
    case supersededIncompatibly(path: String, storeVersion: Int, codeVersion: Int, incompatibleVersion: Int)
    /// The store is at an older schema version and in-app migration is not enabled.
    case migrationNeeded(path: String, storeVersion: Int, codeVersion: Int)
    /// The store is at the code's version but was written with another schema.
    case schemaMismatch(path: String, version: Int, storeHash: String, codeHash: String)
    /// SQLite reports the file as damaged.
    case corrupted(path: String, underlying: SQLiteError)
    /// `PRAGMA quick_check` found problems (listed, at most ten): the file is damaged, and a
    /// migration would carry the damage on; nothing was changed.
    case damaged(path: String, problems: [String])
    /// The file has Remodel's application_id but not what every Remodel store has (its
    /// metadata tables, a schema version of 1 or more).
    case incompleteStore(path: String, reason: String)
    /// The store was written by a newer Remodel, in a store format this one cannot read.
    case newerFormat(path: String, formatVersion: Int)
    /// Another connection or process holds the lock for longer than the busy timeout.
    case locked(path: String, timeout: Double, underlying: SQLiteError)
    /// The store cannot be written: its file or folder is read-only, or it was opened read-only.
    case readOnly(path: String, reason: String)
    /// The file or its folder cannot be opened or created.
    case cannotOpen(path: String, reason: String)
    /// The schema holds something the store cannot lay out.
    case unsupportedSchema(String)
    /// A model type that is not part of the store's schema.
    case unknownType(String)
    /// A property name that the object type does not have.
    case unknownProperty(type: String, property: String)
    /// An insert found an object with the same primary key (keys are written in their JSON
    /// form: `"note-1"`, `"65a1b2c3d4e5f60718293a4b"`, `42`).
    case duplicateKey(type: String, key: String)
    /// A write would give two objects the same values of properties that are unique (alone
    /// or together): the type, the properties, the values (in their JSON form) and the key of
    /// the object that holds them. Nothing was written.
    case notUnique(type: String, properties: [String], values: String, holder: String)
    /// An update found no object with that primary key.
    case notFound(type: String, key: String)
    /// A link to an object that does not exist (checked at commit): the object holding the
    /// link, its key and property, and the missing target's type and key.
    case danglingLink(from: String, property: String, fromKey: String, to: String, toKey: String)
    /// A stored value that does not fit the property's Swift type.
    case invalidValue(type: String, property: String, value: StoreValue, reason: String)
    /// A value given to the dynamic API or to `import` that does not fit the property.
    case invalidInput(String)
    /// A write attempted from a read.
    case notWritable(String)
    /// A migration step failed; the store is unchanged.
    case migrationFailed(path: String, reason: String)
    /// Any other SQLite error.
    case sqlite(SQLiteError)

    public var description: String {
        switch self {
        case .notARemodelStore(let path, let id):
            return
                "'\(path)' is an SQLite database but not a Remodel store (its application_id is \(id), a Remodel store's is \(StoreFormat.applicationID)); open the right file, or create a store at a new path"
        case .notSQLite(let path):
            return "'\(path)' is not an SQLite database (its header is not 'SQLite format 3'); open the right file, or choose a new path for the store"
        case .superseded(let path, let storeVersion, let codeVersion):
            return
                "the store '\(path)' is at schema version \(storeVersion), newer than version \(codeVersion) of the schema here (superseded); it will not be downgraded: use version \(storeVersion) or later of the schema (the generated code of an app, or the Migrations folder of the remodel tool)"
        case .supersededIncompatibly(let path, let storeVersion, let codeVersion, let incompatible):
            return
                "the store '\(path)' is at schema version \(storeVersion), newer than version \(codeVersion) of the schema here, and version \(incompatible) changed what version \(codeVersion) reads and writes (not only added optional properties or types), so this code cannot open it even with allowNewerCompatibleStore: use version \(storeVersion) or later of the app"
        case .migrationNeeded(let path, let storeVersion, let codeVersion):
            return
                "the store '\(path)' is at schema version \(storeVersion) and this code needs version \(codeVersion); migrate it first (`remodel migrate --store \(path)`) or open it with OpenOptions.migrator set"
        case .schemaMismatch(let path, let version, let storeHash, let codeHash):
            return
                "the store '\(path)' is at schema version \(version) but was written with a different schema (store hash \(storeHash), expected \(codeHash)); the schema changed without a new version: add a migration (`remodel migration new NAME`) and regenerate"
        case .corrupted(let path, let underlying):
            return "the store '\(path)' is corrupted (\(underlying.message)); restore it from a backup (`sqlite3 \(path) .recover` may salvage data)"
        case .damaged(let path, let problems):
            let listed = problems.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (problems.count > 3 ? ", …" : "")
            return
                "the store '\(path)' is damaged: SQLite's quick_check found \(problems.count == 1 ? "a problem" : "\(problems.count)\(problems.count >= StoreIntegrity.problemLimit ? " or more" : "") problems") (\(listed)); it was not changed: restore it from a backup (`sqlite3 \(path) .recover` may salvage data)"
        case .incompleteStore(let path, let reason):
            return "'\(path)' is not a complete Remodel store: \(reason); restore it from a backup, or create a new store (`remodel init --store FILE`)"
        case .newerFormat(let path, let formatVersion):
            return
                "the store '\(path)' was written by a newer Remodel (store format \(formatVersion); this Remodel reads format \(StoreFormat.formatVersion) and older); upgrade remodel (or the RemodelStore package of the app); the store was not changed"
        case .locked(let path, let timeout, let underlying):
            return
                "the store '\(path)' is locked by another connection or process (waited \(formatSeconds(timeout)) s: \(underlying.message)); close the other writer or retry later (an app can wait longer with OpenOptions.busyTimeout)"
        case .readOnly(let path, let reason):
            return "the store '\(path)' cannot be written: \(reason)"
        case .cannotOpen(let path, let reason):
            return "cannot open the store '\(path)': \(reason)"
        case .unsupportedSchema(let message):
            return UnsupportedSchema(message).description
        case .unknownType(let name):
            return "'\(name)' is not an object type of the store's schema; check the type name, or regenerate the models from the store's schema"
        case .unknownProperty(let type, let property):
            return "'\(type)' has no property '\(property)'"
        case .duplicateKey(let type, let key):
            return "a \(type) with primary key \(key) already exists; use upsert to replace it"
        case .notUnique(let type, let properties, let values, let holder):
            let what = properties.count == 1 ? "\(type).\(properties[0])" : "\(type)'s (\(properties.joined(separator: ", ")))"
            let rule = properties.count == 1 ? "each \(type)'s \(properties[0]) is unique" : "each \(type)'s \(properties.joined(separator: " and ")) together are unique"
            return "\(what) \(values) is already held by the \(type) with primary key \(holder) (\(rule)); change one of them, or update that \(type) instead; nothing was written"
        case .notFound(let type, let key):
            return "no \(type) with primary key \(key) exists"
        case .danglingLink(let from, let property, let fromKey, let to, let toKey):
            return "\(from) \(fromKey) links through '\(property)' to \(to) \(toKey), which does not exist; add that \(to) in the same transaction or remove the link"
        case .invalidValue(let type, let property, let value, let reason):
            return "\(type).\(property) holds \(value), which is not valid: \(reason)"
        case .invalidInput(let message):
            return message
        case .notWritable(let message):
            return message
        case .migrationFailed(let path, let reason):
            return "migrating the store '\(path)' failed and was rolled back: \(reason)"
        case .sqlite(let error):
            return error.description
        }
    }
}

private func formatSeconds(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
}
