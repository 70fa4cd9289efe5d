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

    func testTheSessionsAreListedOrSaidToBeNoneOrUnlisted() {
        let session = PostgresBlockingSession(pid: 7, state: "active", query: "SELECT 1", transactionAge: nil, tables: ["Dog"], client: "")
        let timeout = PostgresLockTimeout(
            store: "db (schema s)", version: 2, statement: "ALTER TABLE \"Dog\" ADD COLUMN x int", policy: .standard, elapsed: .seconds(60),
            blockers: .success([]))
        XCTAssertTrue(timeout.description.contains("\n  No session holds a lock on the store's tables any more.\n"), timeout.description)
        var listed = timeout
        listed.blockers = .success([session, session])
        XCTAssertTrue(
            listed.description.contains("\n  Sessions holding locks on the store's tables:\n    pid 7 (active, holds \"Dog\"): SELECT 1\n    pid 7 ("), listed.description)
        XCTAssertTrue(listed.description.contains("SELECT pg_terminate_backend(7)"), listed.description)
        var unlisted = timeout
        unlisted.blockers = .failure(PostgresError(kind: .connection, message: "too many clients already"))
        XCTAssertTrue(
            unlisted.description.contains("\n  The sessions holding locks on the store's tables could not be listed: too many clients already"), unlisted.description)
        let wait = PostgresLockWait(attempt: 1, attempts: 5, pause: .seconds(5), blockers: .failure(PostgresError(kind: .connection, message: "no route")))
        XCTAssertEqual(wait.description, "a table lock was not free (try 1 of 5); the sessions holding locks could not be listed: no route; trying again in 5.0 s")
    }
}
