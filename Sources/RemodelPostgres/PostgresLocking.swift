import Foundation
import RemodelMigrate

/// How long each statement of a migration waits for a table lock, and how many times the
/// migration is tried before it gives up.
///
/// A migration's `ALTER TABLE` needs an ACCESS EXCLUSIVE lock. Waiting for it behind a long
/// transaction of the app would queue every later query of the app on that table behind the
/// migration: the whole app stalls on one idle session. So each statement waits at most
/// `timeout` (PostgreSQL's `lock_timeout`); then the transaction is rolled back, nothing has
/// changed, and the migration is tried again after a pause that doubles each time.
public struct PostgresLockPolicy: Sendable, Equatable {
    /// The longest one statement waits for a lock.
    public var timeout: Duration
    /// How many times the migration is tried in all (at least 1).
    public var attempts: Int

    public init(timeout: Duration = .seconds(5), attempts: Int = 5) {
        self.timeout = timeout
        self.attempts = max(1, attempts)
    }

    /// Five tries of five seconds each.
    public static let standard = PostgresLockPolicy()

    /// The pause before try `attempt` (2, 3, …): the timeout, doubled for each try after the
    /// second, at most 30 s, and 20 % either way at random, so that instances that failed
    /// together do not come back together.
    func pause(before attempt: Int, random: Double = Double.random(in: 0.8...1.2)) -> Duration {
        let base = timeout * (1 << Swift.min(Swift.max(attempt - 2, 0), 16))
        return Swift.min(base, .seconds(30)) * random
    }

    /// `lock_timeout`'s value: whole milliseconds, at least 1 (0 would mean no limit).
    var milliseconds: Int64 {
        let (seconds, attoseconds) = timeout.components
        return Swift.max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}

/// A session holding a lock on one of the store's tables: what a migration that cannot take
/// its lock waits for.
public struct PostgresBlockingSession: Sendable, Equatable {
    /// The server process (`pg_terminate_backend(pid)` ends the session).
    public var pid: Int
    /// `active`, `idle in transaction`, …
    public var state: String
    /// Its current or last statement.
    public var query: String
    /// How long its transaction has been open, when it has one.
    public var transactionAge: Duration?
    /// The store's tables it holds locks on.
    public var tables: [String]
    /// Who and from where (`app@10.0.0.7`), as far as the server knows.
    public var client: String

    /// `pid 4242 (app@10.0.0.7, idle in transaction for 37 s, holds "Person"): UPDATE …`
    public var description: String {
        // Another role's session shows no state or statement to a user without the rights to see them.
        var facts = [client.isEmpty ? nil : client, state.isEmpty ? nil : state + (transactionAge.map { " for \(Self.seconds($0))" } ?? "")].compactMap { $0 }
        if !tables.isEmpty { facts.append("holds " + tables.map { "\"\($0)\"" }.joined(separator: ", ")) }
        let statement = query.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return "pid \(pid) (\(facts.joined(separator: ", ")))" + (statement.isEmpty ? "" : ": " + String(statement.prefix(200)))
    }

    /// The sessions (or why they could not be listed) in a message: `lead`, then each one's
    /// line after `separator`; `none` when no session holds a lock; `unlisted` and the error.
    static func describe(
        _ blockers: Result<[PostgresBlockingSession], PostgresError>, lead: String, separator: String, none: String, unlisted: String
    ) -> String {
        switch blockers {
        case .success(let sessions): sessions.isEmpty ? none : lead + sessions.map(\.description).joined(separator: separator)
        case .failure(let error): unlisted + error.message
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 10 ? String(format: "%.1f s", seconds) : "\(Int(seconds.rounded())) s"
    }

    /// The sessions other than `connection`'s that hold a lock on a table of the connection's
    /// schema, longest-running transaction first.
    static func holdingLocks(_ connection: PostgresConnection) throws(PostgresError) -> [PostgresBlockingSession] {
        let result = try connection.query(
            """
            SELECT a.pid, coalesce(a.state, ''), coalesce(a.query, ''),
                   extract(epoch FROM now() - a.xact_start)::text,
                   coalesce(a.usename, '') || coalesce('@' || host(a.client_addr), ''),
                   string_agg(DISTINCT c.relname, ',' ORDER BY c.relname)
            FROM pg_locks l
            JOIN pg_class c ON c.oid = l.relation
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.granted AND n.nspname = $1 AND c.relkind IN ('r', 'p') AND l.pid <> pg_backend_pid()
            GROUP BY a.pid, a.state, a.query, a.xact_start, a.usename, a.client_addr
            ORDER BY a.xact_start NULLS LAST, a.pid
            """, [connection.target.schema])
        return result.rows.map { row in
            PostgresBlockingSession(
                pid: Int(row[0] ?? "") ?? 0, state: row[1] ?? "", query: row[2] ?? "",
                transactionAge: row[3].flatMap(Double.init).map { .milliseconds(Int64(($0 * 1000).rounded())) },
                tables: (row[5] ?? "").split(separator: ",").map(String.init), client: row[4] ?? "")
        }
    }
}

/// One try of a migration could not take a table lock in time and was rolled back; another
/// follows after `pause`.
public struct PostgresLockWait: Sendable {
    /// The try that failed (1, 2, …) and how many there are in all.
    public var attempt: Int
    public var attempts: Int
    public var pause: Duration
    /// The sessions holding locks on the store's tables when the try failed, or why they
    /// could not be listed.
    public var blockers: Result<[PostgresBlockingSession], PostgresError>

    /// `a table lock was not free (try 1 of 5); held by pid …; trying again in 5.0 s`
    public var description: String {
        "a table lock was not free (try \(attempt) of \(attempts))"
            + PostgresBlockingSession.describe(blockers, lead: "; held by ", separator: "; ", none: "", unlisted: "; the sessions holding locks could not be listed: ")
            + "; trying again in \(PostgresBlockingSession.seconds(pause))"
    }
}

/// A migration gave up: every try waited `timeout` for a table lock that other sessions held.
/// Each try was rolled back, so nothing has changed.
public struct PostgresLockTimeout: Error, CustomStringConvertible {
    public var store: String
    public var version: Int?
    public var statement: String
    public var policy: PostgresLockPolicy
    public var elapsed: Duration
    /// The sessions holding locks on the store's tables after the last try, or why they could
    /// not be listed.
    public var blockers: Result<[PostgresBlockingSession], PostgresError>

    public var description: String {
        var text = "the migration of \(store) gave up waiting for a table lock: \(policy.attempts) "
        text += policy.attempts == 1 ? "try" : "tries"
        text += " of at most \(PostgresBlockingSession.seconds(policy.timeout)) each (lock_timeout) over \(PostgresBlockingSession.seconds(elapsed))"
        if let version { text += ", at version \(version)" }
        text += ", the last while executing `\(MigrationExecutor.shorten(statement))`. Nothing was changed."
        text += PostgresBlockingSession.describe(
            blockers, lead: "\n  Sessions holding locks on the store's tables:\n    ", separator: "\n    ",
            none: "\n  No session holds a lock on the store's tables any more.",
            unlisted: "\n  The sessions holding locks on the store's tables could not be listed: ")
        let sessions = (try? blockers.get()) ?? []
        let end = sessions.first.map { "SELECT pg_terminate_backend(\($0.pid))" } ?? "SELECT pg_terminate_backend(pid)"
        text += "\n  hint: let those transactions finish or end them (\(end)), then run the migration again; "
        text += "--lock-timeout 30s waits longer on each try, which makes the app's queries on those tables wait as long"
        return text
    }
}
