import CSQLite
import Foundation

/// The values of a fetch over time: the value at once, then again after every commit that
/// changes what the fetch read — from this store, another `RemodelStore` on the same file, or
/// another process. What `RemodelStore.observe(_:)` returns; iterate it in a task, and cancel
/// the task (or stop iterating) to end it.
///
/// The tables the fetch reads are tracked as it runs, not declared: a fetch that reads other
/// tables next time is woken by those. Commits in a burst are coalesced into one fetch, and
/// a consumer that is behind sees the newest value. With an `Equatable` value, a value equal
/// to the one before is not delivered again.
public struct StoreObservation<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value

    let source: any ObservedStore
    let fetch: @Sendable () throws -> (value: Value, read: Set<String>)
    let isDuplicate: (@Sendable (Value, Value) -> Bool)?

    /// An observation of `source` whose `fetch` returns its value and the tables (or types)
    /// it read, which are the ones whose commits fetch it again.
    package init(
        source: any ObservedStore, fetch: @escaping @Sendable () throws -> (value: Value, read: Set<String>), isDuplicate: (@Sendable (Value, Value) -> Bool)?
    ) {
        self.source = source
        self.fetch = fetch
        self.isDuplicate = isDuplicate
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Value, any Error>.Iterator

        public mutating func next() async throws -> Value? {
            try await base.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let driver = ObservationDriver(source: source, fetch: fetch, isDuplicate: isDuplicate, continuation: continuation)
        continuation.onTermination = { _ in driver.stop() }
        driver.start()
        return AsyncIterator(base: stream.makeAsyncIterator())
    }
}

/// What an observation watches: a store that announces its commits to the subscribers whose
/// fetch read what each changed (`CommitSubscribers`).
package protocol ObservedStore: AnyObject, Sendable {
    /// The subscribers to this store's commits.
    var commitSubscribers: CommitSubscribers { get }
    /// Called when the first subscriber arrives and after the last one left: the store starts
    /// or stops watching for commits.
    func watchCommits(_ watching: Bool)
}

/// Who hears of a store's commits, by what each read: a commit wakes the subscribers whose
/// fetch read a table (or type) it changed, and those whose interest is not known — before
/// and during a fetch, so that a commit landing while a fetch runs is never missed. One home
/// for this rule, for SQLite's and PostgreSQL's stores alike.
package final class CommitSubscribers: @unchecked Sendable {
    private let lock = NSLock()
    private var wakeUps: [Int: @Sendable () -> Void] = [:]
    private var interests: [Int: Set<String>] = [:]
    private var byTable: [String: Set<Int>] = [:]
    private var unknown: Set<Int> = []
    private var next = 0
    /// Serialises the store's `watchCommits` calls, apart from `lock`: the store may take its
    /// writer's lock then, and a commit holds that lock while it wakes subscribers.
    private let watchLock = NSLock()
    private var watching = false

    package init() {}

    /// How many subscribers there are.
    package var count: Int { lock.withLock { wakeUps.count } }

    /// Adds a subscriber, whose interest is unknown until `setInterest`.
    func add(to store: any ObservedStore, _ wakeUp: @escaping @Sendable () -> Void) -> Int {
        let id = lock.withLock {
            next += 1
            wakeUps[next] = wakeUp
            unknown.insert(next)
            return next
        }
        syncWatching(store)
        return id
    }

    func remove(_ id: Int, from store: any ObservedStore) {
        lock.withLock {
            guard wakeUps.removeValue(forKey: id) != nil else { return }
            forget(id)
        }
        syncWatching(store)
    }

    /// Tells the store to watch while anyone subscribes, and to stop after the last one left.
    private func syncWatching(_ store: any ObservedStore) {
        watchLock.withLock {
            let wanted = count > 0
            guard wanted != watching else { return }
            watching = wanted
            store.watchCommits(wanted)
        }
    }

    /// What the subscriber's fetch read (nil: unknown, as while it fetches).
    func setInterest(_ tables: Set<String>?, of id: Int) {
        lock.withLock {
            guard wakeUps[id] != nil, interests[id] != tables else { return }
            forget(id)
            if let tables {
                interests[id] = tables
                for table in tables { byTable[table, default: []].insert(id) }
            } else {
                unknown.insert(id)
            }
        }
    }

    /// Called with the lock held.
    private func forget(_ id: Int) {
        unknown.remove(id)
        for table in interests.removeValue(forKey: id) ?? [] {
            byTable[table]?.remove(id)
            if byTable[table]?.isEmpty == true { byTable[table] = nil }
        }
    }

    /// A commit changed `tables` (nil: anything, which is not known).
    package func committed(_ tables: Set<String>?) {
        let woken: [@Sendable () -> Void] = lock.withLock {
            guard let tables else { return Array(wakeUps.values) }
            var ids = unknown
            for table in tables { ids.formUnion(byTable[table] ?? []) }
            return ids.compactMap { wakeUps[$0] }
        }
        for wakeUp in woken { wakeUp() }
    }
}

/// The queues observations fetch on: as many as the machine has cores, so that a thousand
/// observations woken at once fetch a few at a time instead of each taking a thread.
private enum FetchLanes {
    static let lanes = (0..<max(1, ProcessInfo.processInfo.activeProcessorCount)).map { DispatchQueue(label: "remodel.observation.lane\($0)", qos: .userInitiated) }
    static let counter = Mutex(0)

    /// A serial queue of its own for one observation, on the next lane.
    static func queue() -> DispatchQueue {
        let index = counter.withLock { count in
            count += 1
            return count % lanes.count
        }
        return DispatchQueue(label: "remodel.observation", target: lanes[index])
    }
}

/// Runs one iteration's fetches on a queue of its own, when the store says a table it read
/// changed.
private final class ObservationDriver<Value: Sendable>: @unchecked Sendable {
    private let source: any ObservedStore
    private let fetch: @Sendable () throws -> (value: Value, read: Set<String>)
    private let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    private let continuation: AsyncThrowingStream<Value, any Error>.Continuation
    private let queue = FetchLanes.queue()
    private let lock = NSLock()
    private var scheduled = false
    private var stopped = false
    private var last: Value?
    private var subscription: Int?

    init(
        source: any ObservedStore, fetch: @escaping @Sendable () throws -> (value: Value, read: Set<String>), isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        continuation: AsyncThrowingStream<Value, any Error>.Continuation
    ) {
        self.source = source
        self.fetch = fetch
        self.isDuplicate = isDuplicate
        self.continuation = continuation
    }

    func start() {
        let id = source.commitSubscribers.add(to: source) { [weak self] in self?.schedule() }
        lock.withLock { subscription = id }
        schedule()
    }

    func stop() {
        let id: Int? = lock.withLock {
            stopped = true
            defer { subscription = nil }
            return subscription
        }
        if let id { source.commitSubscribers.remove(id, from: source) }
    }

    /// Fetches again once, however many commits arrive before the fetch starts.
    private func schedule() {
        let start = lock.withLock {
            guard !stopped, !scheduled else { return false }
            scheduled = true
            return true
        }
        guard start else { return }
        queue.async { [self] in
            let id: Int? = lock.withLock {
                scheduled = false
                return stopped ? nil : subscription
            }
            guard let id else { return }
            // Any commit from now until the fetch says what it read wakes this observation.
            source.commitSubscribers.setInterest(nil, of: id)
            do {
                let (value, read) = try fetch()
                source.commitSubscribers.setInterest(read, of: id)
                if let last, let isDuplicate, isDuplicate(last, value) { return }
                last = value
                continuation.yield(value)
            } catch {
                continuation.finish(throwing: error)
                stop()
            }
        }
    }
}

/// The commits to one store file that this process can see: those of every `RemodelStore` on
/// it (with the tables they changed), and those of any other connection — another process,
/// or another store of this one — found by reading `PRAGMA data_version` on the writer
/// connection of each observed store. That number changes with every commit but the
/// connection's own, so a store's own commits, already announced with their tables, wake its
/// observations once, not twice.
///
/// It is read when the kernel says a file of the store was written (`FileEvents`, on Linux),
/// and every second in case a write went unannounced (a network file system); where there are
/// no file events, every 50 ms. Nothing runs while nobody writes but that one look a second.
final class StoreFileHub: @unchecked Sendable {
    private struct Watched {
        weak var store: RemodelStore?
        /// The `data_version` its writer read last.
        var dataVersion: Int64?
    }

    private let path: String
    private let lock = NSLock()
    private var watched: [ObjectIdentifier: Watched] = [:]
    private var watcher: (any DispatchSourceTimer)?
    private var fileEvents: AnyObject?

    /// How often other connections' commits are looked for without file events, and with them.
    static let interval = DispatchTimeInterval.milliseconds(50)
    static let intervalWithFileEvents = DispatchTimeInterval.seconds(1)

    private init(path: String) {
        self.path = path
    }

    /// The hub of the file at `path`, shared by every store of this process on it.
    static func hub(for path: String) -> StoreFileHub {
        let key = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        return hubs.instance(for: key) { StoreFileHub(path: path) }
    }

    private static let hubs = SharedInstances<StoreFileHub>()

    /// How many stores have observations of the file.
    var watchedStoreCount: Int { lock.withLock { watched.count } }

    /// `store` has observations: its commits and others' reach them from now on. Its writer's
    /// version is read first, so that a commit made after their first fetch is not taken for
    /// the starting point — without waiting for a write in progress (the caller may be the
    /// main actor): then the starting point is unknown, and the first look wakes every
    /// observation once rather than risk missing a commit.
    func watch(_ store: RemodelStore) {
        let version = store.othersDataVersion(waiting: false)
        lock.withLock {
            watched[ObjectIdentifier(store)] = Watched(store: store, dataVersion: version)
            if watcher == nil { startWatching() }
        }
    }

    /// `store` has no observations left.
    func unwatch(_ store: RemodelStore) {
        lock.withLock {
            watched[ObjectIdentifier(store)] = nil
            if watched.isEmpty {
                watcher?.cancel()
                watcher = nil
                fileEvents = nil
            }
        }
    }

    /// A store of this process committed changes to `tables`.
    func committed(_ tables: Set<String>) {
        guard !tables.isEmpty else { return }
        for store in watchedStores() { store.commitSubscribers.committed(tables) }
    }

    private func watchedStores() -> [RemodelStore] {
        lock.withLock { watched.values.compactMap(\.store) }
    }

    /// Called with the lock held.
    private func startWatching() {
        let queue = DispatchQueue(label: "remodel.store-file-hub", qos: .utility)
        var interval = Self.interval
        #if canImport(Glibc)
            if let events = FileEvents(path: path, queue: queue, onWrite: { [weak self] in self?.poll() }) {
                fileEvents = events
                interval = Self.intervalWithFileEvents
            }
        #endif
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in self?.poll() }
        watcher = timer
        timer.resume()
    }

    /// Whether another connection committed since each store's writer last looked: then that
    /// store's observations hear of it. The writers are asked without the hub's lock held,
    /// since a store commits with its writer's lock held and then takes the hub's.
    private func poll() {
        for store in watchedStores() {
            guard let version = store.othersDataVersion() else { continue }
            let changed: Bool = lock.withLock {
                let id = ObjectIdentifier(store)
                guard let last = watched[id] else { return false }
                watched[id]?.dataVersion = version
                return last.dataVersion.map { $0 != version } ?? true
            }
            if changed { store.commitSubscribers.committed(nil) }
        }
    }
}

/// One instance per key while anything holds it: what every store of a process on one file
/// (or one PostgreSQL schema) shares.
package final class SharedInstances<Instance: AnyObject & Sendable>: Sendable {
    private struct Weak {
        weak var instance: Instance?
    }

    private let instances = Mutex<[String: Weak]>([:])

    package init() {}

    /// The instance for `key`, made by `make` if there is none (or it was released).
    package func instance(for key: String, make: () -> Instance) -> Instance {
        instances.withLock { instances in
            if let instance = instances[key]?.instance { return instance }
            let instance = make()
            instances[key] = Weak(instance: instance)
            return instance
        }
    }
}

/// A value behind a lock.
package final class Mutex<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    package func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
