import CSQLite
import Foundation
import RemodelCore

/// What opening a store needs to know about the code's schema.
struct StoreTarget {
    var schema: Schema
    var version: Int
    var hash: String
    var history: MigrationHistory?

    /// The versions up to this one that are not backward-readable; without a history, every
    /// one after the first (nothing says they only added).
    var incompatibleVersions: [Int] {
        history?.incompatibleVersions(through: version) ?? Array(2..<max(2, version + 1))
    }
}

/// Opens, checks, creates and (through the migrator hook) upgrades a store file. Checks
/// run before anything is written, so a refused file is left byte for byte as it was.
enum StoreOpener {
    /// Pragmas of every connection. The benchmark's C baseline uses the same.
    static let connectionPragmas = "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;"

    /// Opens the writer connection of the store at `path`, creating or checking the store.
    static func open(path: String, target: StoreTarget, layout: StoreLayout, options: OpenOptions) throws -> Connection {
        let exists = try checkFile(path: path, options: options)
        let connection: Connection
        do {
            connection = options.readOnly && exists ? try Connection.readOnly(path: path) : try Connection(path: path, readOnly: options.readOnly, create: !exists)
        } catch let error as SQLiteError {
            throw classify(error, path: path, options: options)
        }
        connection.setBusyTimeout(options.busyTimeout)
        do {
            try connect(connection, path: path, target: target, layout: layout, options: options)
        } catch let error as SQLiteError {
            throw classify(error, path: path, options: options)
        }
        return connection
    }

    /// A connection to an existing store file that writes nothing, after the same file checks.
    static func openForInspection(path: String, options: OpenOptions) throws -> Connection {
        guard try checkFile(path: path, options: options) else {
            throw StoreError.cannotOpen(
                path: path, reason: "the file is empty (0 bytes), so it holds no store; check the path, or remove the file and create the store (`remodel init --store FILE`)")
        }
        do {
            let connection = try Connection.forReading(path: path)
            connection.setBusyTimeout(options.busyTimeout)
            return connection
        } catch let error as SQLiteError {
            throw classify(error, path: path, options: options)
        }
    }

    /// Checks the file and its folder before SQLite touches them; returns whether it exists.
    private static func checkFile(path: String, options: OpenOptions) throws -> Bool {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let folder = Connection.folder(of: path)
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if options.readOnly { throw StoreError.cannotOpen(path: path, reason: "the file does not exist; check the path") }
            var folderIsDirectory: ObjCBool = false
            guard manager.fileExists(atPath: folder, isDirectory: &folderIsDirectory), folderIsDirectory.boolValue else {
                throw StoreError.cannotOpen(path: path, reason: "the folder '\(folder)' does not exist; create it first")
            }
            guard manager.isWritableFile(atPath: folder) else {
                throw StoreError.readOnly(path: path, reason: "its folder '\(folder)' is read-only, so the store cannot be created there; choose a writable location")
            }
            return false
        }
        if isDirectory.boolValue { throw StoreError.cannotOpen(path: path, reason: "it is a folder, not a file; give the path of the store file") }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw StoreError.cannotOpen(path: path, reason: "it is not a regular file (a device, a pipe or a socket), so it holds no store; give the path of the store file")
        }
        guard manager.isReadableFile(atPath: path) else {
            throw StoreError.cannotOpen(path: path, reason: "the file cannot be read (permissions); make it readable")
        }
        // The header is left to SQLite (SQLITE_NOTADB): opening and closing the file here would
        // drop the POSIX locks other connections of this process hold on it.
        let size = ((try? manager.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        if !options.readOnly { try checkWritable(path: path) }
        return size > 0
    }

    /// Refuses an existing store that cannot be written, or whose folder cannot take SQLite's
    /// journal, before anything reads or writes it.
    static func checkWritable(path: String) throws {
        let manager = FileManager.default
        let folder = Connection.folder(of: path)
        if isOnReadOnlyFileSystem(path) {
            throw StoreError.readOnly(
                path: path,
                reason:
                    "it is on a read-only file system; copy it (with any '-wal' file beside it) to writable storage and use the copy (an app can still read it with OpenOptions(readOnly: true))"
            )
        }
        guard manager.isWritableFile(atPath: path) else {
            throw StoreError.readOnly(
                path: path, reason: "the file is read-only; make it writable (chmod u+w) or copy it to writable storage, or open it with OpenOptions(readOnly: true)")
        }
        guard manager.isWritableFile(atPath: folder) else {
            throw StoreError.readOnly(
                path: path,
                reason:
                    "its folder '\(folder)' is read-only, and SQLite needs to write its journal beside the store; move the store to a writable folder or open it with OpenOptions(readOnly: true)"
            )
        }
    }

    /// Whether `path` (an existing file) lies on a file system mounted read-only.
    static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// Maps SQLite's failures while opening to the store's typed errors.
    static func classify(_ error: SQLiteError, path: String, options: OpenOptions) -> StoreError {
        switch error.code {
        case SQLITE_NOTADB: .notSQLite(path: path)
        case SQLITE_CORRUPT: .corrupted(path: path, underlying: error)
        case SQLITE_BUSY, SQLITE_LOCKED: .locked(path: path, timeout: options.busyTimeout, underlying: error)
        case SQLITE_READONLY: .readOnly(path: path, reason: "SQLite refused to write (\(error.message)); check the file's and folder's permissions")
        case SQLITE_CANTOPEN: .cannotOpen(path: path, reason: error.message)
        default: .sqlite(error)
        }
    }

    private static func connect(_ connection: Connection, path: String, target: StoreTarget, layout: StoreLayout, options: OpenOptions) throws {
        let applicationID = Int32(truncatingIfNeeded: try integer(connection, "PRAGMA application_id"))
        let version = try StoreMetadata.version(connection)
        let objectCount = try integer(connection, "SELECT count(*) FROM sqlite_schema")
        if applicationID == 0 && objectCount == 0 && version == 0 {
            if options.readOnly { throw StoreError.readOnly(path: path, reason: "the file is empty and the store was opened read-only, so it cannot be created") }
            if try create(connection, target: target, layout: layout) { return }
            // Another process created it meanwhile: open it as it is now.
            return try connect(connection, path: path, target: target, layout: layout, options: options)
        }
        guard applicationID == StoreFormat.applicationID else {
            throw StoreError.notARemodelStore(path: path, applicationID: applicationID)
        }
        try StoreMetadata.checkFormat(connection, path: path)
        if version > target.version {
            guard options.allowNewerCompatibleStore, let incompatible = try StoreMetadata.incompatibleVersions(connection) else {
                throw StoreError.superseded(path: path, storeVersion: version, codeVersion: target.version)
            }
            if let first = incompatible.filter({ $0 > target.version && $0 <= version }).min() {
                throw StoreError.supersededIncompatibly(path: path, storeVersion: version, codeVersion: target.version, incompatibleVersion: first)
            }
            // Every newer version only added: this code's tables and columns are all there.
            try configure(connection, readOnly: options.readOnly)
            return
        }
        if version < target.version {
            guard let migrator = options.migrator, !options.readOnly else {
                throw StoreError.migrationNeeded(path: path, storeVersion: version, codeVersion: target.version)
            }
            try migrate(connection, path: path, from: version, target: target, layout: layout, migrator: migrator, options: options)
        } else {
            try StoreMetadata.checkSchemaHash(connection, path: path, version: version, expected: target.hash)
        }
        try configure(connection, readOnly: options.readOnly)
    }

    /// Sets the per-connection pragmas (and WAL, which is persistent, for writers).
    static func configure(_ connection: Connection, readOnly: Bool) throws {
        if !readOnly { _ = try connection.query("PRAGMA journal_mode = WAL") }
        try connection.execute(connectionPragmas)
        if readOnly { try connection.execute("PRAGMA query_only = ON") }
    }

    /// Creates the store in an empty file; returns false (changing nothing) when another
    /// connection created it first.
    private static func create(_ connection: Connection, target: StoreTarget, layout: StoreLayout) throws -> Bool {
        _ = try connection.query("PRAGMA journal_mode = WAL")
        try connection.execute("BEGIN IMMEDIATE")
        guard try integer(connection, "SELECT count(*) FROM sqlite_schema") == 0 else {
            try connection.execute("ROLLBACK")
            return false
        }
        do {
            let renderer = SQLiteRenderer()
            for statement in StoreFormat.createMetadataStatements + layout.createStatements.map(renderer.statement) {
                try connection.execute(statement)
            }
            try StoreMetadata.writeSchema(connection, schema: target.schema, hash: target.hash, version: target.version)
            try StoreMetadata.writeIncompatibleVersions(connection, target.incompatibleVersions)
            try connection.execute("PRAGMA application_id = \(StoreFormat.applicationID)")
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        try configure(connection, readOnly: false)
        return true
    }

    private static func migrate(
        _ connection: Connection, path: String, from version: Int, target: StoreTarget, layout: StoreLayout, migrator: any StoreMigrator, options: OpenOptions
    ) throws {
        try connection.execute("PRAGMA foreign_keys = OFF")
        try connection.execute("BEGIN IMMEDIATE")
        // The version is read again under the write lock: another process (or another store
        // in this one) may have migrated the file while this one waited.
        let current = try StoreMetadata.version(connection)
        if current >= target.version {
            try connection.execute("ROLLBACK")
            try connection.execute("PRAGMA foreign_keys = ON")
            if current > target.version { throw StoreError.superseded(path: path, storeVersion: current, codeVersion: target.version) }
            try StoreMetadata.checkSchemaHash(connection, path: path, version: current, expected: target.hash)
            return
        }
        do {
            try StoreIntegrity.check(connection, path: path, busyTimeout: options.busyTimeout)
            let migration = StoreMigration(
                path: path, storeVersion: current, storedSchemaText: try StoreMetadata.entry(connection, StoreFormat.Key.schema) ?? "",
                targetVersion: target.version, targetSchema: target.schema, history: target.history, targetLayout: layout, connection: connection
            )
            do {
                try migrator.migrate(migration)
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError.migrationFailed(path: path, reason: "\(error)")
            }
            if !migration.checkedLinks, let problem = try ForeignKeyCheck.firstViolation(connection, layout: layout) { throw problem }
            if migration.recordedTargetSchema {
                // The migrator's history must end in the code's version and schema.
                let recorded = try StoreMetadata.version(connection)
                guard recorded == target.version else {
                    throw StoreError.migrationFailed(path: path, reason: "the migrator recorded version \(recorded), not version \(target.version)")
                }
                try StoreMetadata.checkSchemaHash(connection, path: path, version: target.version, expected: target.hash)
            } else {
                try StoreMetadata.writeSchema(connection, schema: target.schema, hash: target.hash, version: target.version)
                try StoreMetadata.writeIncompatibleVersions(connection, target.incompatibleVersions)
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            try? connection.execute("PRAGMA foreign_keys = ON")
            throw error
        }
        connection.clearCaches()
    }

    private static func integer(_ connection: Connection, _ sql: String) throws -> Int64 {
        if case .integer(let value) = try connection.scalar(sql) { return value }
        return 0
    }
}
