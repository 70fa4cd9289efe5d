import XCTest

@testable import RemodelPostgres

/// How long a migration waits for table locks and how its tries are spaced: no server needed.
final class PostgresLockPolicyTests: XCTestCase {
    func testPausesDoubleFromTheTimeoutUpToThirtySeconds() {
        let policy = PostgresLockPolicy(timeout: .seconds(5))
        XCTAssertEqual((2...6).map { policy.pause(before: $0, random: 1) }, [.seconds(5), .seconds(10), .seconds(20), .seconds(30), .seconds(30)])
        XCTAssertEqual(policy.pause(before: 2, random: 0.8), .seconds(4))
        XCTAssertEqual(PostgresLockPolicy(timeout: .milliseconds(200)).pause(before: 5, random: 1), .milliseconds(1600))
    }

    func testTheTimeoutIsWholeMillisecondsAndNeverZero() {
        XCTAssertEqual(PostgresLockPolicy(timeout: .milliseconds(250)).milliseconds, 250)
        XCTAssertEqual(PostgresLockPolicy(timeout: .seconds(5)).milliseconds, 5000)
        // 0 would mean "wait for ever" to PostgreSQL.
        XCTAssertEqual(PostgresLockPolicy(timeout: .microseconds(10)).milliseconds, 1)
        XCTAssertEqual(PostgresLockPolicy(timeout: .seconds(1), attempts: 0).attempts, 1)
    }

    func testABlockingSessionIsDescribedOnOneLine() {
        let session = PostgresBlockingSession(
            pid: 4242, state: "idle in transaction", query: "UPDATE \"Person\"\n   SET name = 'x'", transactionAge: .seconds(37), tables: ["Person", "Dog"],
            client: "app@10.0.0.7")
        XCTAssertEqual(session.description, "pid 4242 (app@10.0.0.7, idle in transaction for 37 s, holds \"Person\", \"Dog\"): UPDATE \"Person\" SET name = 'x'")
    }
}
