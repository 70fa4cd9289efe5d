import Foundation

/// A few reader connections for concurrent `read` calls; created on demand up to a maximum,
/// then callers wait for one to be returned.
final class ReaderPool: @unchecked Sendable {
    private let condition = NSCondition()
    private var idle: [Connection] = []
    private var created = 0
    private let maximum: Int
    private let makeConnection: () throws -> Connection

    init(maximum: Int, makeConnection: @escaping () throws -> Connection) {
        self.maximum = max(1, maximum)
        self.makeConnection = makeConnection
    }

    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try acquire()
        defer { release(connection) }
        return try body(connection)
    }

    private func acquire() throws -> Connection {
        condition.lock()
        while idle.isEmpty && created >= maximum { condition.wait() }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        created += 1
        condition.unlock()
        do {
            return try makeConnection()
        } catch {
            condition.lock()
            created -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func release(_ connection: Connection) {
        condition.lock()
        idle.append(connection)
        condition.signal()
        condition.unlock()
    }
}
