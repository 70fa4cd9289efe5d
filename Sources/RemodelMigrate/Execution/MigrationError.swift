import CSQLite
import RemodelCore
import RemodelStore

/// Why a migration stopped. In every case the store is left exactly as it was: the whole
/// upgrade is one transaction.
public enum MigrationError: Error, Sendable, CustomStringConvertible {
    /// Objects whose data a step cannot migrate: values `convert` cannot parse under
    /// `onError: fail`, duplicate primary keys, nulls left in required properties, values of
    /// removed enum cases, unmapped values.
    case data(DataError)
    /// A link points at an object that does not exist after the migration.
    case danglingLinks(version: Int, details: [String])
    /// A custom step threw.
    case customStepFailed(version: Int, name: String, type: String, key: String, underlying: String)
    /// SQLite refused a statement.
    case sqlite(version: Int, SQLiteError)
    /// The store changed version while the migration waited for it: another process
    /// migrated it part of the way.
    case storeChanged(expected: Int, found: Int)
    /// A migrated table is not laid out as the schema says (a store changed by hand or by
    /// another program).
    case layout(version: Int, String)

    /// The objects a data check found.
    public struct DataError: Sendable, Hashable {
        public var version: Int
        public var migrationName: String
        public var type: String
        public var property: String?
        public var step: String
        /// Where the step or declaration is written, if known.
        public var location: SourceLocation?
        public var problem: String
        public var hint: String
        /// The first few offending objects: primary key and value, as text.
        public var examples: [Example]
        public var count: Int

        package init(
            version: Int, migrationName: String, type: String, property: String?, step: String, location: SourceLocation?,
            problem: String, hint: String, examples: [Example], count: Int
        ) {
            self.version = version
            self.migrationName = migrationName
            self.type = type
            self.property = property
            self.step = step
            self.location = location
            self.problem = problem
            self.hint = hint
            self.examples = examples
            self.count = count
        }
    }

    /// One offending object.
    public struct Example: Sendable, Hashable {
        public var key: String
        public var value: String

        package init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public var description: String {
        switch self {
        case .data(let error):
            let property = error.property.map { "\(error.type).\($0)" } ?? error.type
            let examples = error.examples.map { "\($0.key) (\($0.value))" }.joined(separator: ", ")
            let more = error.count > error.examples.count ? ", and \(error.count - error.examples.count) more" : ""
            let place = error.location.map { " at \($0)" } ?? ""
            return
                "migration to version \(error.version) (\(error.migrationName)), \(error.step)\(place): \(error.count) \(error.type) object\(error.count == 1 ? "" : "s") with \(error.problem) in \(property): \(examples)\(more). Nothing was changed.\n  hint: \(error.hint)"
        case .danglingLinks(let version, let details):
            return
                "migration to version \(version) would leave links to objects that do not exist: \(details.joined(separator: "; ")). Nothing was changed.\n  hint: delete or fix the linking objects in a step, or keep the objects they link to"
        case .customStepFailed(let version, let name, let type, let key, let underlying):
            return "migration to version \(version): custom step '\(name)' failed on \(type) \(key): \(underlying). Nothing was changed."
        case .sqlite(let version, let error):
            return "migration to version \(version) failed: \(Self.explain(error)). Nothing was changed.\n  hint: \(Self.hint(for: error))"
        case .storeChanged(let expected, let found):
            return
                "the store changed from version \(expected) to \(found) while this migration waited for it (another process migrated it). Nothing was changed by this run.\n  hint: run the migration again to continue from version \(found)"
        case .layout(let version, let reason):
            return "migration to version \(version): \(reason)\n  hint: the store was changed outside Remodel; restore it from a backup, or compare it with `sqlite3 FILE .schema`"
        }
    }

    /// SQLite's error with the statement shortened: a rewrite's UPDATE can be pages long.
    static func explain(_ error: SQLiteError) -> String {
        var text = "\(error.message) (SQLite error \(error.extendedCode))"
        if let sql = error.sql { text += " while executing `\(MigrationExecutor.shorten(sql))`" }
        return text
    }

    /// What to do about an SQLite error, by its class.
    static func hint(for error: SQLiteError) -> String {
        switch error.code {
        case SQLITE_FULL, SQLITE_IOERR:
            "the store or its journal could not be written: the disk may be full, or a file size limit reached; a migration needs free space for a copy of every table it rewrites, so free some space and run it again"
        case SQLITE_BUSY, SQLITE_LOCKED:
            "another connection or process is using the store; close it (or the app) and run the migration again"
        case SQLITE_READONLY:
            "the store cannot be written; check the permissions of the file and its folder"
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            "the store file is damaged; restore it from a backup (`sqlite3 FILE .recover` may salvage data)"
        case SQLITE_CONSTRAINT:
            "the migrated data breaks a constraint of the new schema; add a step that fixes or removes the offending objects"
        default:
            "this is unexpected for a planned migration; please report it with the plan (`remodel migrate --dry-run`)"
        }
    }
}

extension MigrationError: StorageFaultReporting {
    /// The storage fault behind an SQLite error of the migration, if any.
    public var storageFault: StorageFault? {
        if case .sqlite(_, let error) = self { error.storageFault } else { nil }
    }
}

extension StoreValue {
    /// A primary key or value as people read it: UUIDs and ObjectIDs in their text form.
    package var readable: String {
        switch self {
        case .blob(let bytes) where bytes.count == 16:
            let hex = bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
            let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
            return parts.map(String.init).joined(separator: "-").uppercased()
        case .blob(let bytes) where bytes.count == 12:
            return ObjectID(bytes: bytes)?.description ?? description
        case .text(let text):
            return CanonicalYAML.quoted(text)
        default:
            return description
        }
    }
}

extension StoreValue {
    /// Text as it is, for values that are words rather than data.
    package var prose: String {
        if case .text(let text) = self { return text }
        return readable
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
