import Foundation
import RemodelStore

/// The values an observation delivered so far, gathered by a task of its own: what the
/// observation tests of both engines look at.
public final class ObservedValues<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []
    /// The gathering task; cancelling it ends the observation.
    public private(set) var task: Task<Void, Never>?

    /// The values, oldest first.
    public var values: [Value] { lock.withLock { stored } }

    public init(_ observation: StoreObservation<Value>) {
        task = Task { [self] in
            do {
                for try await value in observation { lock.withLock { stored.append(value) } }
            } catch {}
        }
    }

    /// Waits up to `seconds` for `condition` on the values; whether it held.
    public func wait(_ seconds: Double = 5, until condition: ([Value]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(values) { return true }
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        return condition(values)
    }
}
