import Dispatch
import Foundation
import RemodelCore
import RemodelStore

extension PostgresModelStore: ObservedStore {
    /// Observes the value of `fetch` as `RemodelStore.observe(_:)` does: at once, then after
    /// every commit that changes a type it read, from any `PostgresModelStore` or
    /// `remodel import` on this store, in this process or another, on any machine. Commits
    /// arrive by PostgreSQL's LISTEN/NOTIFY, so nothing runs while nobody writes.
    public func observe<Value: Sendable>(_ fetch: @escaping @Sendable (PostgresTransaction) throws -> Value) -> StoreObservation<Value> {
        StoreObservation(source: self, fetch: { try self.trackedRead(fetch) }, isDuplicate: nil)
    }

    /// `observe(_:)` for an `Equatable` value: a value equal to the one before is not
    /// delivered again.
    public func observe<Value: Sendable & Equatable>(_ fetch: @escaping @Sendable (PostgresTransaction) throws -> Value) -> StoreObservation<Value> {
        StoreObservation(source: self, fetch: { try self.trackedRead(fetch) }, isDuplicate: { $0 == $1 })
    }

    /// Observes one object by its key: the object at once, then again after each commit that
    /// changes it, `nil` while there is none.
    public func observe<Model: KeyedModel & Equatable>(_ type: Model.Type, key: Model.ID) -> StoreObservation<Model?> where Model.ID: Sendable {
        observe { tx in try tx.object(Model.self, forKey: key) }
    }

    /// Observes a projection of one object (`Profile(person)`), delivered when it changes.
    public func observe<Model: KeyedModel, Projected: Sendable & Equatable>(
        _ type: Model.Type, key: Model.ID, as projection: @escaping @Sendable (Model) -> Projected
    ) -> StoreObservation<Projected?> where Model.ID: Sendable {
        observe { tx in try tx.object(Model.self, forKey: key).map(projection) }
    }

    /// `read(_:)` without blocking the caller's thread: the body runs on another thread while
    /// the task waits. A task cancelled before the read starts throws `CancellationError`.
    @discardableResult
    public func read<T: Sendable>(_ body: @escaping @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await offThread { try self.read(body) }
    }

    /// `write(_:)` without blocking the caller's thread: the body runs in one transaction on
    /// another thread while the task waits. A task cancelled before the write starts throws
    /// `CancellationError` and writes nothing.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await offThread { try self.write(body) }
    }

    package func watchCommits(_ watching: Bool) {
        if watching { hub.watch(self) } else { hub.unwatch(self) }
    }
}

/// The commits to one PostgreSQL store that this process hears of. Every write of a
/// `PostgresModelStore` sends, as it commits, a notification on the store's channel naming
/// the types it changed (`*`: all of them, for deletes, whose links reach other types, and
/// imports); one connection per store and process listens, waiting on its socket. A lost
/// connection is opened again after a second, and then every observation fetches again,
/// since commits may have been missed.
///
/// Writes that do not go through Remodel (psql, another program) are not announced: they can
/// send `SELECT pg_notify('<channel>', '*')` after committing.
final class PostgresChangeHub: @unchecked Sendable {
    let target: PostgresTarget
    /// The channel: `remodel_` and the schema's name, or a hash of it when that is longer
    /// than PostgreSQL's 63-byte identifiers.
    let channel: String
    private let lock = NSLock()
    private let queue = DispatchQueue(label: "remodel.postgres-listener", qos: .utility)
    private var watched: [ObjectIdentifier: WeakStore] = [:]
    private var listener: PostgresConnection?
    private var source: (any DispatchSourceRead)?

    private struct WeakStore {
        weak var store: PostgresModelStore?
    }

    private init(target: PostgresTarget) {
        self.target = target
        channel = Self.channel(forSchema: target.schema)
    }

    static func channel(forSchema schema: String) -> String {
        let channel = "remodel_" + schema
        guard channel.utf8.count > 63 else { return channel }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in schema.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "remodel_" + String(hash, radix: 16)
    }

    /// The hub of the store at `target`, shared by every store of this process on it.
    static func hub(for target: PostgresTarget) -> PostgresChangeHub {
        hubs.instance(for: target.connectionString + "\u{0}" + target.schema) { PostgresChangeHub(target: target) }
    }

    private static let hubs = SharedInstances<PostgresChangeHub>()

    /// Announces, on `connection`'s transaction, that it changed `types` (nil: anything); the
    /// notification is delivered when the transaction commits, and not at all if it does not.
    static func announce(_ types: Set<String>?, on connection: PostgresConnection) throws {
        var payload = types.map { $0.sorted().joined(separator: ",") } ?? "*"
        if payload.utf8.count > 7_000 { payload = "*" }  // notifications hold at most 8,000 bytes
        try connection.query("SELECT pg_notify($1, $2)", [channel(forSchema: connection.target.schema), payload])
    }

    /// Whether the channel is listened to.
    var isListening: Bool { lock.withLock { listener != nil } }

    /// `store` has observations: announced commits reach them from now on. The channel is
    /// listened to before this returns, so that a commit made after their first fetch is heard.
    func watch(_ store: PostgresModelStore) {
        lock.withLock {
            watched[ObjectIdentifier(store)] = WeakStore(store: store)
            if listener == nil { listen() }
        }
    }

    /// `store` has no observations left.
    func unwatch(_ store: PostgresModelStore) {
        lock.withLock {
            watched[ObjectIdentifier(store)] = nil
            if watched.isEmpty { stopListening() }
        }
    }

    private func watchedStores() -> [PostgresModelStore] {
        lock.withLock { watched.values.compactMap(\.store) }
    }

    /// Called with the lock held. When the server cannot be reached, tries again in a second.
    private func listen() {
        do {
            let connection = try PostgresConnection(target)
            try connection.execute("LISTEN \(SQLiteRenderer.identifier(channel))")
            let source = DispatchSource.makeReadSource(fileDescriptor: connection.socket, queue: queue)
            source.setEventHandler { [weak self] in self?.received() }
            listener = connection
            self.source = source
            source.resume()
        } catch {
            queue.asyncAfter(deadline: .now() + 1) { [weak self] in self?.listenAgain() }
        }
    }

    private func stopListening() {
        source?.cancel()
        source = nil
        listener = nil
    }

    private func listenAgain() {
        let listening: Bool = lock.withLock {
            guard !watched.isEmpty, listener == nil else { return false }
            listen()
            return listener != nil
        }
        // Commits may have been missed while the connection was down.
        if listening { for store in watchedStores() { store.commitSubscribers.committed(nil) } }
    }

    private func received() {
        let changed: [Set<String>?]
        do {
            let notifications = try lock.withLock { try listener?.takeNotifications() ?? [] }
            changed = notifications.filter { $0.channel == channel }.map { $0.payload == "*" ? nil : Set($0.payload.split(separator: ",").map(String.init)) }
        } catch {
            lock.withLock { stopListening() }
            queue.asyncAfter(deadline: .now() + 1) { [weak self] in self?.listenAgain() }
            return
        }
        guard !changed.isEmpty else { return }
        // Many notifications at once are one: the union, or everything.
        let union: Set<String>? = changed.contains { $0 == nil } ? nil : changed.reduce(into: Set<String>()) { $0.formUnion($1!) }
        for store in watchedStores() { store.commitSubscribers.committed(union) }
    }
}

/// What one transaction of a `PostgresModelStore` read and changed, by type name: what an
/// observation's fetch read, and what a write announces as it commits.
final class PostgresAccessLog: @unchecked Sendable {
    private let lock = NSLock()
    private var readTypes: Set<String> = []
    private var changedTypes: Set<String> = []
    private var changedEverything = false

    func read(_ type: String) { lock.withLock { _ = readTypes.insert(type) } }

    func changed(_ types: some Sequence<String>) { lock.withLock { changedTypes.formUnion(types) } }

    /// A change whose reach is not tracked (a delete, which takes the object out of other
    /// types' links).
    func changedAnything() { lock.withLock { changedEverything = true } }

    var typesRead: Set<String> { lock.withLock { readTypes } }

    /// What to announce: nil for anything, an empty set for nothing.
    var announcement: Set<String>? { lock.withLock { changedEverything ? nil : changedTypes } }
}
