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

    let store: RemodelStore
    let fetch: @Sendable (Database) throws -> Value
    let isDuplicate: (@Sendable (Value, Value) -> Bool)?

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Value, any Error>.Iterator

        public mutating func next() async throws -> Value? {
            try await base.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let driver = ObservationDriver(store: store, fetch: fetch, isDuplicate: isDuplicate, continuation: continuation)
        continuation.onTermination = { _ in driver.stop() }
        driver.start()
        return AsyncIterator(base: stream.makeAsyncIterator())
    }
}

/// Runs one iteration's fetches on a queue of its own, when the store file says a table it
/// read changed.
private final class ObservationDriver<Value: Sendable>: @unchecked Sendable {
    private let store: RemodelStore
    private let fetch: @Sendable (Database) throws -> Value
    private let isDuplicate: (@Sendable (Value, Value) -> Bool)?
    private let continuation: AsyncThrowingStream<Value, any Error>.Continuation
    private let queue = DispatchQueue(label: "remodel.observation")
    private let lock = NSLock()
    private var tables: Set<String> = []
    private var scheduled = false
    private var stopped = false
    private var last: Value?
    private var subscription: StoreFileHub.Subscription?

    init(
        store: RemodelStore, fetch: @escaping @Sendable (Database) throws -> Value, isDuplicate: (@Sendable (Value, Value) -> Bool)?,
        continuation: AsyncThrowingStream<Value, any Error>.Continuation
    ) {
        self.store = store
        self.fetch = fetch
        self.isDuplicate = isDuplicate
        self.continuation = continuation
    }

    func start() {
        subscription = store.hub.subscribe { [weak self] changed in self?.changed(changed) }
        schedule()
    }

    func stop() {
        lock.withLock { stopped = true }
        subscription.map(store.hub.unsubscribe)
    }

    /// A commit changed `changed` (nil: another connection committed, which tables is not known).
    private func changed(_ changed: Set<String>?) {
        let relevant = lock.withLock { changed.map { !$0.isDisjoint(with: tables) } ?? true }
        if relevant { schedule() }
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
            lock.withLock { scheduled = false }
            guard !lock.withLock({ stopped }) else { return }
            do {
                let (value, read) = try store.trackedRead(fetch)
                lock.withLock { tables = read }
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
/// it (with the tables they changed), and those of any other connection, found by a watcher
/// that reads `PRAGMA data_version` every 50 ms while anything observes the file (a query of
/// a few microseconds on an open connection: no measurable CPU while idle).
final class StoreFileHub: @unchecked Sendable {
    typealias Subscription = Int

    private let path: String
    private let lock = NSLock()
    private var subscribers: [Subscription: @Sendable (Set<String>?) -> Void] = [:]
    private var next = 0
    private var watcher: (any DispatchSourceTimer)?
    private var watchConnection: Connection?
    private var dataVersion: Int64?

    /// How often other connections' commits are looked for.
    static let interval = DispatchTimeInterval.milliseconds(50)

    private init(path: String) {
        self.path = path
    }

    /// The hub of the file at `path`, shared by every store of this process on it.
    static func hub(for path: String) -> StoreFileHub {
        let key = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        return registry.withLock { hubs in
            if let hub = hubs[key]?.hub { return hub }
            let hub = StoreFileHub(path: path)
            hubs[key] = WeakHub(hub: hub)
            return hub
        }
    }

    private struct WeakHub {
        weak var hub: StoreFileHub?
    }

    private static let registry = Mutex<[String: WeakHub]>([:])

    /// How many observations watch the file.
    var subscriberCount: Int { lock.withLock { subscribers.count } }

    func subscribe(_ body: @escaping @Sendable (Set<String>?) -> Void) -> Subscription {
        lock.withLock {
            next += 1
            subscribers[next] = body
            if watcher == nil { startWatching() }
            return next
        }
    }

    func unsubscribe(_ subscription: Subscription) {
        lock.withLock {
            subscribers[subscription] = nil
            if subscribers.isEmpty {
                watcher?.cancel()
                watcher = nil
                watchConnection = nil
                dataVersion = nil
            }
        }
    }

    /// A store of this process committed changes to `tables`.
    func committed(_ tables: Set<String>) {
        guard !tables.isEmpty else { return }
        let bodies = lock.withLock { Array(subscribers.values) }
        for body in bodies { body(tables) }
    }

    /// Called with the lock held. The version is read at once, so that a commit made after
    /// the first fetch of a new subscriber is not taken for the starting point.
    private func startWatching() {
        if let connection = try? Connection.forReading(path: path) {
            connection.setBusyTimeout(1)
            watchConnection = connection
            if case .integer(let version)? = try? connection.scalar("PRAGMA data_version") { dataVersion = version }
        }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval, leeway: .milliseconds(10))
        timer.setEventHandler { [weak self] in self?.poll() }
        watcher = timer
        timer.resume()
    }

    /// Whether another connection committed since the last look: then every subscriber hears
    /// of it.
    private func poll() {
        let changed: Bool = lock.withLock {
            guard watcher != nil else { return false }
            do {
                if watchConnection == nil {
                    let connection = try Connection.forReading(path: path)
                    connection.setBusyTimeout(1)
                    watchConnection = connection
                }
                guard case .integer(let version)? = try watchConnection?.scalar("PRAGMA data_version") else { return false }
                defer { dataVersion = version }
                return dataVersion.map { $0 != version } ?? false
            } catch {
                // The file is busy or gone for now: look again next time.
                watchConnection = nil
                return false
            }
        }
        guard changed else { return }
        let bodies = lock.withLock { Array(subscribers.values) }
        for body in bodies { body(nil) }
    }
}

/// A value behind a lock.
final class Mutex<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
