import Foundation

/// A committed write that touched objects of one type (their rows, or their collections).
public struct StoreChange: Hashable, Sendable {
    /// The object type whose objects changed.
    public var typeName: String
    /// The store's commit counter when it happened (increasing, per store instance).
    public var commit: Int
}

/// Delivers `StoreChange`s to `AsyncStream` subscribers after each commit.
final class ChangeNotifier: @unchecked Sendable {
    private let lock = NSLock()
    private var subscribers: [String: [UUID: AsyncStream<StoreChange>.Continuation]] = [:]
    private var commit = 0

    func stream(for typeName: String) -> AsyncStream<StoreChange> {
        let (stream, continuation) = AsyncStream<StoreChange>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        lock.withLock { subscribers[typeName, default: [:]][id] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { self.subscribers[typeName]?[id] = nil }
        }
        return stream
    }

    /// Notifies subscribers of the types stored in `tables` (side tables count for their owner).
    func committed(tables: Set<String>) {
        let types = Set(
            tables.filter { !$0.hasPrefix("_remodel") }.map { table in
                table.firstIndex(of: ".").map { String(table[..<$0]) } ?? table
            })
        let deliveries: [(AsyncStream<StoreChange>.Continuation, StoreChange)] = lock.withLock {
            commit += 1
            return types.sorted().flatMap { type in
                (subscribers[type] ?? [:]).values.map { ($0, StoreChange(typeName: type, commit: commit)) }
            }
        }
        for (continuation, change) in deliveries { continuation.yield(change) }
    }

    func finishAll() {
        let all = lock.withLock {
            defer { subscribers = [:] }
            return subscribers.values.flatMap(\.values)
        }
        for continuation in all { continuation.finish() }
    }
}
