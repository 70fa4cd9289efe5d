import Foundation

extension RemodelStore {
    /// `read(_:)` without blocking the caller's thread: the body runs on a reader connection
    /// on another thread while the task waits. A task cancelled before the read starts throws
    /// `CancellationError`; a read that started runs to its end (its snapshot is consistent).
    ///
    /// In an async function, `try await store.read { … }` is this one; the synchronous `read`
    /// stays for synchronous code.
    @discardableResult
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await offThread { try self.read(body) }
    }

    /// `write(_:)` without blocking the caller's thread: the body runs in a write transaction
    /// on another thread while the task waits (writes still run one at a time). A task
    /// cancelled before the write starts throws `CancellationError` and writes nothing.
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (Transaction) throws -> T) async throws -> T {
        try await offThread { try self.write(body) }
    }
}

/// Runs blocking store work on a thread of its own while the calling task waits, so that no
/// thread of Swift's cooperative pool (nor the main actor) waits on SQLite or the network;
/// nothing runs if the task is cancelled before it starts.
package func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try Task.checkCancellation()
    return try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async { continuation.resume(with: Result { try work() }) }
    }
}
