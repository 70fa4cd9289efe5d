import Foundation
import RemodelPostgres
import RemodelTestSupport
import XCTest

/// The libpq layer against a real server: values round-trip exactly, errors carry their
/// SQLSTATE, message and statement, connection failures say where and how to fix without
/// ever showing a password, and `?schema=` is Remodel's, not libpq's.
final class PostgresConnectionTests: XCTestCase {
    private var server: PostgresTestServer!
    private var database: String!

    override func setUpWithError() throws {
        server = try PostgresTestServer.shared { XCTSkip($0) }
        database = try server.makeDatabase()
    }

    private func connect(schema: String? = nil) throws -> PostgresConnection {
        try PostgresConnection(url: server.url(database: database) + (schema.map { "?schema=\($0)" } ?? ""))
    }

    func testValuesRoundTripAsText() throws {
        let connection = try connect()
        try connection.execute("CREATE TABLE note (id uuid PRIMARY KEY, title text, body text, size bigint, price numeric(40, 10), at timestamptz, raw bytea)")
        let values: [String?] = [
            "0b8e5ad2-8ac5-4c2c-9f7a-6c6f3f3a0a01", "Grüße — 🐕", nil, "-9223372036854775808", "12345678901234567890.0123456789", "2026-12-02 10:11:12.123456+00", "\\x00ff10",
        ]
        let inserted = try connection.query("INSERT INTO note VALUES ($1, $2, $3, $4, $5, $6, $7)", values)
        XCTAssertEqual(inserted.affectedRows, 1)
        try connection.execute("SET TIME ZONE 'UTC'")
        let result = try connection.query("SELECT id, title, body, size, price, at, raw FROM note")
        XCTAssertEqual(result.columns, ["id", "title", "body", "size", "price", "at", "raw"])
        XCTAssertEqual(result.types, [2950, 25, 25, 20, 1700, 1184, 17])
        XCTAssertEqual(result.rows, [values])
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM note WHERE body IS NULL"), "1")
        XCTAssertGreaterThanOrEqual(connection.serverVersion, 120000)
    }

    func testStatementErrorsCarrySQLStateMessageAndStatement() throws {
        let connection = try connect()
        try connection.execute("CREATE TABLE dog (id int PRIMARY KEY)")
        try connection.query("INSERT INTO dog VALUES ($1)", ["1"])
        let insert = "INSERT INTO dog VALUES ($1)"
        XCTAssertThrowsError(try connection.query(insert, ["1"])) { error in
            guard let error = error as? PostgresError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .statement)
            XCTAssertEqual(error.sqlState, "23505")
            XCTAssertEqual(error.conditionName, "unique_violation")
            XCTAssertEqual(error.sqlStateClass, "23")
            XCTAssertEqual(error.statement, insert)
            XCTAssertEqual(error.detail, "Key (id)=(1) already exists.")
            XCTAssertTrue(error.description.hasPrefix("PostgreSQL error 23505 (unique_violation): duplicate key value violates unique constraint \"dog_pkey\""), error.description)
            XCTAssertTrue(error.description.hasSuffix("— while executing `\(insert)`"), error.description)
        }
        XCTAssertThrowsError(try connection.execute("SELEC 1")) { error in
            XCTAssertEqual((error as? PostgresError)?.sqlState, "42601")
        }
        // The connection is still usable after a failed statement outside a transaction.
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM dog"), "1")
    }

    func testATransactionRollsBackWhenItsBodyThrows() throws {
        let connection = try connect()
        try connection.execute("CREATE TABLE person (id int PRIMARY KEY)")
        XCTAssertThrowsError(
            try connection.transaction {
                try connection.query("INSERT INTO person VALUES (1)")
                try connection.query("INSERT INTO person VALUES (1)")
            }
        ) { error in
            XCTAssertEqual((error as? PostgresError)?.sqlState, "23505")
        }
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM person"), "0")
        try connection.transaction { try connection.query("INSERT INTO person VALUES (2)") }
        XCTAssertEqual(try connection.scalar("SELECT count(*) FROM person"), "1")
    }

    func testNoticesAreCollectedNotPrinted() throws {
        let connection = try connect()
        try connection.execute("DROP TABLE IF EXISTS nothing_here")
        XCTAssertEqual(connection.notices.count, 1)
        XCTAssertTrue(connection.notices[0].contains("\"nothing_here\" does not exist, skipping"), connection.notices[0])
    }

    func testSchemaIsRemodelsParameterAndTheRestGoesToLibpq() throws {
        let connection = try connect(schema: "remodel")
        XCTAssertEqual(connection.target.schema, "remodel")
        XCTAssertFalse(connection.target.connectionString.contains("schema="))
        XCTAssertEqual(
            try PostgresTarget("postgresql://u@h/db?sslmode=disable&schema=app%20data&connect_timeout=3").connectionString, "postgresql://u@h/db?sslmode=disable&connect_timeout=3")
        XCTAssertEqual(try PostgresTarget("postgresql://u@h/db?schema=app%20data").schema, "app data")
        XCTAssertEqual(try PostgresTarget("postgresql://u@h/db").schema, "public")
        XCTAssertEqual(try PostgresTarget("host=/tmp dbname=x").connectionString, "host=/tmp dbname=x")
        for bad in ["postgresql://u@h/db?schema=", "postgresql://u@h/db?schema=a&schema=b", "postgresql://u:pw@h/db?schema=" + String(repeating: "s", count: 64)] {
            XCTAssertThrowsError(try PostgresTarget(bad), bad) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains("'schema' parameter must name one schema"), text)
                XCTAssertFalse(text.contains(":pw@"), text)
            }
        }
    }

    func testConnectionFailuresNameTheServerAndNeverThePassword() throws {
        try server.psql("CREATE ROLE secretive LOGIN PASSWORD 'hunter2-hunter2'")
        try server.requireAuthentication("local all secretive scram-sha-256")
        // A wrong password given in the URL.
        let wrong = server.url(database: database, user: "secretive", password: "not-the-password-xyz")
        XCTAssertThrowsError(try PostgresConnection(url: wrong)) { error in
            guard let error = error as? PostgresError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .connection)
            let text = error.description
            XCTAssertTrue(text.hasPrefix("cannot connect to PostgreSQL at postgresql://secretive@/\(database!)?host=\(server.socketFolder)&port=\(server.port): "), text)
            XCTAssertTrue(text.contains("password authentication failed for user \"secretive\""), text)
            XCTAssertFalse(text.contains("not-the-password-xyz"), text)
        }
        // No password at all: the hint says where libpq looks for one.
        XCTAssertThrowsError(try PostgresConnection(url: server.url(database: database, user: "secretive"))) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("set PGPASSWORD, add the server to ~/.pgpass, or put it in the URL"), text)
        }
        // The right password works, and is not part of what the connection shows.
        let right = try PostgresConnection(url: server.url(database: database, user: "secretive", password: "hunter2-hunter2"))
        XCTAssertEqual(try right.scalar("SELECT current_user"), "secretive")
        XCTAssertFalse(right.displayName.contains("hunter2"), right.displayName)
        // Nothing listens: the message names the place and says what to check.
        let nowhere = "postgresql://app:s3cr3t-value@127.0.0.1:1/notes?connect_timeout=2"
        XCTAssertThrowsError(try PostgresConnection(url: nowhere)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("cannot connect to PostgreSQL at postgresql://app@127.0.0.1:1/notes: "), text)
            XCTAssertTrue(text.contains("check the URL (postgresql://user@host:port/database), that the server runs"), text)
            XCTAssertFalse(text.contains("s3cr3t-value"), text)
        }
        XCTAssertEqual(try PostgresTarget(nowhere).redacted, "postgresql://app:***@127.0.0.1:1/notes?connect_timeout=2")
        XCTAssertEqual(try PostgresTarget("host=h password='a b\\' c' dbname=x").redacted, "host=h password=*** dbname=x")
    }

    /// Passwords with the characters URLs use for structure, passwords libpq cannot parse,
    /// keys that merely contain "password", and other secret keys.
    func testPasswordsStayOutOfMessagesWhateverTheirCharacters() throws {
        // A '?' and a '/' in the password: the query starts after the user part.
        let odd = try PostgresTarget("postgresql://app:pa?ss/wo@127.0.0.1:1/notes?schema=remodel&connect_timeout=2")
        XCTAssertEqual(odd.schema, "remodel")
        XCTAssertEqual(odd.connectionString, "postgresql://app:pa?ss/wo@127.0.0.1:1/notes?connect_timeout=2")
        XCTAssertEqual(odd.redacted, "postgresql://app:***@127.0.0.1:1/notes?connect_timeout=2")
        XCTAssertThrowsError(try PostgresTarget("postgresql://app:pa?ss/wo@h/db?schema=")) { error in
            XCTAssertFalse("\(error)".contains("pa?ss"), "\(error)")
        }
        // libpq cannot parse '%of' and quotes it in its message: the message leaves it out.
        XCTAssertThrowsError(try PostgresConnection(url: "postgresql://app:50%off@127.0.0.1:1/notes")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("libpq cannot read the URL or connection string: "), text)
            XCTAssertFalse(text.contains("50%off"), text)
            XCTAssertTrue(text.contains("percent-encode"), text)
        }
        // What reaches the same store again: the schema kept, the password not.
        XCTAssertEqual(
            try PostgresTarget("postgresql://app:s3cret@h/db?schema=my%20notes&sslmode=require").storeArgument, "postgresql://app:***@h/db?sslmode=require&schema=my%20notes")
        XCTAssertEqual(try PostgresTarget("postgresql://app@h/db?schema=public").storeArgument, "postgresql://app@h/db")
        XCTAssertEqual(try PostgresTarget("postgresql://app@h/db?schema=s_1").storeArgument, "postgresql://app@h/db?schema=s_1")
        // Secret keys in a query and in key/value strings; a user named like a key.
        XCTAssertEqual(try PostgresTarget("postgresql://u@h/db?sslpassword=k3y&sslmode=require").redacted, "postgresql://u@h/db?sslpassword=***&sslmode=require")
        XCTAssertEqual(
            try PostgresTarget("host=db user=password_reader password=hunter2 sslpassword='a b\\' c'").redacted,
            "host=db user=password_reader password=*** sslpassword=***"
        )
        XCTAssertThrowsError(try PostgresConnection(url: "host=127.0.0.1 port=1 user=password_reader password=hunter2 connect_timeout=2")) { error in
            XCTAssertFalse("\(error)".contains("hunter2"), "\(error)")
        }
        // Text parameters cannot hold NUL: refused, not cut short.
        let connection = try connect()
        XCTAssertThrowsError(try connection.query("SELECT $1::text", ["a\u{0}b"])) { error in
            XCTAssertEqual((error as? PostgresError)?.message, "parameter $1 contains a NUL character, which PostgreSQL text cannot hold")
        }
    }

    func testAnAdvisoryTransactionLockIsHeldUntilCommit() throws {
        let first = try connect()
        let second = try connect()
        try first.execute("BEGIN")
        XCTAssertEqual(try first.scalar("SELECT pg_try_advisory_xact_lock(4242)"), "t")
        XCTAssertEqual(try second.scalar("SELECT pg_try_advisory_xact_lock(4242)"), "f")
        try first.execute("COMMIT")
        XCTAssertEqual(try second.scalar("SELECT pg_try_advisory_xact_lock(4242)"), "t")
    }
}
