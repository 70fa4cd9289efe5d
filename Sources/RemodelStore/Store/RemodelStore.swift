import CSQLite
import Foundation
import RemodelCore

/// An object store in an SQLite file, laid out from a schema (see `StoreLayout`).
///
/// ```swift
/// let store = try RemodelStore(path: "notes.db", manifest: RemodelSchemaManifest.self)
/// try store.write { tx in try tx.upsert(note) }
/// let notes = try store.read { db in try db.objects(Note.self).fetchAll() }
/// ```
///
/// The store is `Sendable`. Writes are serialised on one writer connection; reads run
/// concurrently on a small pool of reader connections (WAL mode), each in its own snapshot.
/// Another process writing the same file is waited for up to `OpenOptions.busyTimeout`,
/// then reported as `StoreError.locked`.
public final class RemodelStore: @unchecked Sendable {
    /// The store file.
    public let path: String
    /// The schema the store is opened with.
    public let schema: Schema
    /// The schema version the store is at.
    public let version: Int
    /// The options it was opened with.
    public let options: OpenOptions

    package let layout: StoreLayout
    private let writer: Connection
    private let writerLock = NSLock()
    private let readers: ReaderPool
    private let notifier = ChangeNotifier()
    /// The commits to this file every store of the process and the watcher of other
    /// connections see, for observations.
    let hub: StoreFileHub
    /// The observations of this store, by what they read.
    package let commitSubscribers = CommitSubscribers()

    /// Opens (or creates) the store at `path` for the models of `manifest`.
    ///
    /// A new file is created at the manifest's version. An existing store must be a Remodel
    /// store at the same version with the same schema hash; an older one is migrated when
    /// `options.migrator` is set. Throws `StoreError` saying what is wrong and how to fix it.
    public convenience init<Manifest: SchemaManifest>(path: String, manifest: Manifest.Type, options: OpenOptions = OpenOptions()) throws {
        let hash = manifest.schema.storageHash
        guard hash == manifest.schemaHash else {
            throw StoreError.unsupportedSchema(
                "\(Manifest.self).schemaHash (\(manifest.schemaHash)) is not the hash of \(Manifest.self).schema (\(hash)); the generated code is inconsistent: regenerate it"
            )
        }
        let layout = try StoreLayout(storing: manifest.schema)
        for model in manifest.models where layout.table(named: model.schemaName) == nil {
            throw StoreError.unknownType(model.schemaName)
        }
        try self.init(path: path, target: StoreTarget(schema: manifest.schema, version: manifest.version, hash: hash, history: manifest.history), options: options)
    }

    /// Opens (or creates) the store at `path` with a schema known only at run time — no
    /// generated code. Objects are then read and written as `DynamicObject`s; this is what
    /// the `remodel` tool's `init`, `import`, `export` and `status` use.
    public convenience init(path: String, schema: Schema, version: Int, options: OpenOptions = OpenOptions()) throws {
        try self.init(path: path, target: StoreTarget(schema: schema, version: version, hash: schema.storageHash, history: nil), options: options)
    }

    init(path: String, target: StoreTarget, options: OpenOptions) throws {
        let layout = try StoreLayout(storing: target.schema)
        self.path = path
        self.schema = target.schema
        self.version = target.version
        self.options = options
        self.layout = layout
        writer = try StoreOpener.open(path: path, target: target, layout: layout, options: options)
        hub = StoreFileHub.hub(for: path)
        readers = ReaderPool(maximum: options.maximumReaderCount) {
            let connection = options.readOnly ? try Connection.readOnly(path: path) : try Connection(path: path)
            connection.setBusyTimeout(options.busyTimeout)
            connection.recordReads()
            try connection.execute(StoreOpener.connectionPragmas + " PRAGMA query_only = ON;")
            return connection
        }
    }

    deinit {
        notifier.finishAll()
    }

    /// What marks the thread that runs a write of this store.
    private var writeMarker: String { "RemodelStore.write.\(UInt(bitPattern: ObjectIdentifier(self).hashValue))" }

    /// `PRAGMA data_version` of the writer: it changes with every commit to the file but the
    /// writer's own — those of other processes and other stores. Nil if it cannot be read now,
    /// or, unless `waiting`, if a write holds the writer.
    func othersDataVersion(waiting: Bool = true) -> Int64? {
        // Asked from inside a write of this thread, the lock would wait for itself.
        guard Thread.current.threadDictionary[writeMarker] == nil else { return nil }
        if waiting { writerLock.lock() } else if !writerLock.try() { return nil }
        defer { writerLock.unlock() }
        guard case .integer(let version)? = try? writer.scalar("PRAGMA data_version") else { return nil }
        return version
    }

    // MARK: - Reading and writing

    /// Runs `body` in a read transaction (one consistent snapshot) and returns its result.
    /// Reads run concurrently with each other and with the writer.
    @discardableResult
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try readers.withConnection { connection in
            try run(connection, begin: "BEGIN DEFERRED") { try body(Database(connection: connection, layout: layout, path: path)) }
        }
    }

    /// Runs `body` in a write transaction and returns its result. If `body` throws, every
    /// change is rolled back and the error rethrown. Writes are serialised.
    ///
    /// At commit, links are checked: a link to an object that does not exist fails the
    /// commit with `StoreError.danglingLink` naming both ends, and nothing is written.
    @discardableResult
    public func write<T>(_ body: (Transaction) throws -> T) throws -> T {
        if options.readOnly { throw StoreError.readOnly(path: path, reason: "it was opened with OpenOptions(readOnly: true)") }
        // A write inside a write on the same thread would wait for itself forever.
        let marker = writeMarker
        let thread = Thread.current
        if thread.threadDictionary[marker] != nil {
            throw StoreError.notWritable("write { } was called inside another write { } of the same store; use the transaction you already have")
        }
        writerLock.lock()
        thread.threadDictionary[marker] = true
        defer {
            thread.threadDictionary[marker] = nil
            writerLock.unlock()
        }
        _ = writer.takeChangedTables()
        let result = try run(writer, begin: "BEGIN IMMEDIATE") { try body(Transaction(connection: writer, layout: layout, path: path)) }
        let changed = writer.takeChangedTables()
        notifier.committed(tables: changed)
        hub.committed(changed)
        return result
    }

    /// Observes the value of `fetch`: its value at once, then again after every commit that
    /// changes a table it read (its type's, its links' and collections'), from this store,
    /// another store on the same file or another process. Iterate it in a task; cancelling
    /// the task ends it. See `StoreObservation`.
    public func observe<Value: Sendable>(_ fetch: @escaping @Sendable (Database) throws -> Value) -> StoreObservation<Value> {
        StoreObservation(source: self, fetch: { try self.trackedRead(fetch) }, isDuplicate: nil)
    }

    /// `observe(_:)` for an `Equatable` value: a value equal to the one before is not
    /// delivered again.
    public func observe<Value: Sendable & Equatable>(_ fetch: @escaping @Sendable (Database) throws -> Value) -> StoreObservation<Value> {
        StoreObservation(source: self, fetch: { try self.trackedRead(fetch) }, isDuplicate: { $0 == $1 })
    }

    /// Observes one object by its key: the object at once, then again after each commit that
    /// changes it (or its collections), `nil` while there is none — once it is deleted.
    public func observe<Model: KeyedModel & Equatable>(_ type: Model.Type, key: Model.ID) -> StoreObservation<Model?> where Model.ID: Sendable {
        observe { db in try db.object(Model.self, forKey: key) }
    }

    /// Observes a projection of one object (`Profile(person)`), delivered when it changes:
    /// a commit that changes only what the projection leaves out delivers nothing.
    public func observe<Model: KeyedModel, Projected: Sendable & Equatable>(
        _ type: Model.Type, key: Model.ID, as projection: @escaping @Sendable (Model) -> Projected
    ) -> StoreObservation<Projected?> where Model.ID: Sendable {
        observe { db in try db.object(Model.self, forKey: key).map(projection) }
    }

    /// `read(_:)`, and the tables the body's statements read.
    func trackedRead<T>(_ body: (Database) throws -> T) throws -> (value: T, read: Set<String>) {
        try readers.withConnection { connection in
            try connection.trackingReads {
                try run(connection, begin: "BEGIN DEFERRED") { try body(Database(connection: connection, layout: layout, path: path)) }
            }
        }
    }

    /// Changes to objects of `type`, one element per commit that inserted, updated or
    /// deleted any (including through cascades). The stream ends when the store is released.
    public func changes<Model: PersistentModel>(to type: Model.Type) -> AsyncStream<StoreChange> {
        notifier.stream(for: Model.schemaName)
    }

    /// Changes to objects of the type named `typeName`.
    public func changes(toType typeName: String) -> AsyncStream<StoreChange> {
        notifier.stream(for: typeName)
    }

    private func run<T>(_ connection: Connection, begin: String, _ body: () throws -> T) throws -> T {
        do {
            try connection.execute(begin)
        } catch let error as SQLiteError {
            throw StoreOpener.classify(error, path: path, options: options)
        }
        let result: T
        do {
            result = try body()
        } catch {
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw mapped(error)
        }
        do {
            try connection.execute("COMMIT")
        } catch let error as SQLiteError {
            // A deferred foreign key failing: name both ends, then give up the transaction.
            var failure: any Error = StoreOpener.classify(error, path: path, options: options)
            if error.extendedCode == SQLiteCode.constraintForeignKey, let violation = try? ForeignKeyCheck.firstViolation(connection, layout: layout) {
                failure = violation
            }
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw failure
        }
        return result
    }

    private func mapped(_ error: any Error) -> any Error {
        if let error = error as? SQLiteError { return StoreOpener.classify(error, path: path, options: options) }
        if case StoreError.sqlite(let error) = error { return StoreOpener.classify(error, path: path, options: options) }
        return error
    }

    // MARK: - Information

    /// The metadata entries of the store (`_remodel_metadata`).
    public func metadata() throws -> [String: StoreValue] {
        try read { db in
            var result: [String: StoreValue] = [:]
            for row in try db.connection.query("SELECT \"key\", \"value\" FROM \"_remodel_metadata\"") {
                if case .text(let key) = row[0] { result[key] = row[1] }
            }
            return result
        }
    }

    /// The migrations recorded in `_remodel_migrations`, oldest first.
    public func appliedMigrations() throws -> [AppliedMigration] {
        try read { db in try AppliedMigration.all(in: db.connection) }
    }

    /// Folds the write-ahead log into the main file (for copying the store as one file).
    public func checkpoint() throws {
        writerLock.lock()
        defer { writerLock.unlock() }
        _ = try writer.query("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

/// One row of `_remodel_migrations`.
public struct AppliedMigration: Hashable, Sendable {
    public var version: Int
    public var name: String
    public var checksum: String
    /// ISO 8601.
    public var appliedAt: String
    public var durationMilliseconds: Int

    package init(version: Int, name: String, checksum: String, appliedAt: String, durationMilliseconds: Int) {
        self.version = version
        self.name = name
        self.checksum = checksum
        self.appliedAt = appliedAt
        self.durationMilliseconds = durationMilliseconds
    }

    /// Every row of `_remodel_migrations`, oldest first.
    static func all(in connection: Connection) throws -> [AppliedMigration] {
        try connection.query("SELECT \"version\", \"name\", \"checksum\", \"applied_at\", \"duration_ms\" FROM \"_remodel_migrations\" ORDER BY \"version\"").map { row in
            AppliedMigration(
                version: Int(try Int64(storeValue: row[0])), name: try String(storeValue: row[1]), checksum: try String(storeValue: row[2]),
                appliedAt: try String(storeValue: row[3]), durationMilliseconds: Int(try Int64(storeValue: row[4]))
            )
        }
    }
}

extension RemodelStore: ObservedStore {
    package func watchCommits(_ watching: Bool) {
        if watching { hub.watch(self) } else { hub.unwatch(self) }
    }
}
