import Foundation

/// A throwaway PostgreSQL server for the tests of one process: `initdb` and `pg_ctl start` in
/// a temporary folder, listening only on a Unix socket in that folder, stopped (and the
/// folder removed) when the process exits. Each test takes a fresh database of its own.
///
/// The server programs come from Debian's `postgresql` package (`pg_config --bindir`, or
/// `/usr/lib/postgresql/*/bin`). Where they are missing, `shared()` throws `Unavailable`,
/// which the tests turn into a skip that names the reason. PostgreSQL refuses to run as
/// root, so under root (CI) the server runs as the `postgres` user the package creates.
public final class PostgresTestServer: @unchecked Sendable {
    /// Why no server can be started here: PostgreSQL is not installed (the tests skip).
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
    }

    /// A server program failed: PostgreSQL is installed but did not start or answer (the
    /// tests fail, so that a broken setup never passes as a skip).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The folder holding the server's socket (`host=` for libpq).
    public let socketFolder: String
    /// The port in the socket's name.
    public let port = 5432
    /// The superuser every database is created by.
    public let superuser = "postgres"
    private let root: String
    private let binaries: String
    private let runAs: String?
    private var databaseCount = 0
    private let lock = NSLock()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: Result<PostgresTestServer, any Error>?

    /// The process's server, started on first use. Tests run it without syncing to disk;
    /// `durable` (for benchmarks, on the first call) keeps PostgreSQL's durable defaults
    /// (fsync, synchronous commit, full-page writes), with room for large transactions.
    public static func shared(durable: Bool = false) throws -> PostgresTestServer {
        lock.lock()
        defer { lock.unlock() }
        if let started { return try started.get() }
        let result = Result { try PostgresTestServer(durable: durable) }
        started = result
        if case .success = result { atexit { PostgresTestServer.stopShared() } }
        return try result.get()
    }

    /// The process's server; where PostgreSQL is not installed, throws what `skip` makes of
    /// the reason (a test's `XCTSkip`), so that the test is reported as skipped, by name.
    public static func shared(orSkip skip: (String) -> any Error) throws -> PostgresTestServer {
        do {
            return try shared()
        } catch let unavailable as Unavailable {
            throw skip("PostgreSQL tests skipped: \(unavailable)")
        }
    }

    private static func stopShared() {
        if case .success(let server)? = started { server.stop() }
    }

    /// The settings the server runs with beyond PostgreSQL's defaults.
    public let settings: String

    private init(durable: Bool) throws {
        settings = durable ? "-c shared_buffers=1GB -c max_wal_size=8GB" : "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        guard let binaries = Self.findBinaries() else {
            throw Unavailable(
                description: "PostgreSQL's server programs (initdb, pg_ctl, psql) are not installed; install Debian's 'postgresql' package to run the PostgreSQL tests")
        }
        self.binaries = binaries
        runAs = geteuid() == 0 ? "postgres" : nil
        Self.removeStaleServers(binaries: binaries, runAs: runAs)
        root = NSTemporaryDirectory() + "\(Self.folderPrefix)\(getpid())-\(UUID().uuidString.prefix(8))"
        socketFolder = root + "/socket"
        try FileManager.default.createDirectory(atPath: socketFolder, withIntermediateDirectories: true)
        if let runAs {
            guard let user = getpwnam(runAs) else {
                throw Unavailable(description: "running as root, and there is no '\(runAs)' user to run PostgreSQL as (Debian's 'postgresql' package creates it)")
            }
            for path in [root, socketFolder] { chown(path, user.pointee.pw_uid, user.pointee.pw_gid) }
        }
        do {
            try run("initdb", ["-D", root + "/data", "-U", superuser, "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"])
            try run(
                "pg_ctl",
                [
                    "-D", root + "/data", "-l", root + "/server.log", "-w", "-t", "60",
                    "-o", "-c listen_addresses='' -k \(socketFolder) -p \(port) \(settings)",
                    "start",
                ])
        } catch {
            // A server that did start (pg_ctl timing out) is stopped; the folder goes.
            let log = (try? String(contentsOfFile: root + "/server.log", encoding: .utf8)) ?? ""
            stop()
            throw Failure(description: "\(error)" + (log.isEmpty ? "" : "\nserver log:\n" + log))
        }
    }

    /// The start of every server folder's name, before the test process's id.
    static let folderPrefix = "remodel-postgres-"

    /// Stops and removes the servers of test processes that ended without `exit` (killed by
    /// a signal, so `atexit` never ran): folders `remodel-postgres-PID-…` whose process is
    /// gone. Returns the folders removed.
    @discardableResult
    public static func removeStaleServers(in folder: String = NSTemporaryDirectory(), binaries: String? = nil, runAs: String? = nil) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var removed: [String] = []
        for name in names where name.hasPrefix(folderPrefix) {
            guard let pid = Int32(name.dropFirst(folderPrefix.count).prefix { $0 != "-" }),
                kill(pid, 0) == -1, errno == ESRCH
            else { continue }
            let path = (folder as NSString).appendingPathComponent(name)
            if let binaries, FileManager.default.fileExists(atPath: path + "/data/postmaster.pid") {
                let command = [binaries + "/pg_ctl", "-D", path + "/data", "-m", "immediate", "-w", "stop"]
                _ = try? spawnAndWait(runAs.map { ["/usr/sbin/runuser", "-u", $0, "--"] + command } ?? command, in: folder)
            }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(path) }
        }
        return removed
    }

    /// A new, empty database; its name.
    public func makeDatabase() throws -> String {
        lock.lock()
        databaseCount += 1
        let name = "remodel_test_\(databaseCount)"
        lock.unlock()
        try psql("CREATE DATABASE \(name)")
        return name
    }

    /// libpq's URL for `database` as `user` (the superuser unless given), over the socket.
    public func url(database: String, user: String? = nil, password: String? = nil) -> String {
        let credentials = (user ?? superuser) + (password.map { ":" + $0 } ?? "")
        let host = socketFolder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socketFolder
        return "postgresql://\(credentials)@\(host):\(port)/\(database)"
    }

    /// Runs SQL with `psql` as the superuser (for setup that must not depend on the code
    /// under test); returns its output, unaligned and without headers.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try run("psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", socketFolder, "-p", String(port), "-U", superuser, "-d", database, "-c", sql])
    }

    /// `pg_dump` of one schema of `database`, tables and data, without the lines that differ
    /// from one dump to the next (the versions, the random `\restrict` key): equal text means
    /// equal tables, constraints and rows.
    public func dump(database: String, schema: String) throws -> String {
        let text = try run("pg_dump", ["-h", socketFolder, "-p", String(port), "-U", superuser, "-d", database, "-n", schema, "--no-owner", "--no-privileges"])
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("-- Dumped") && !$0.hasPrefix("\\restrict") && !$0.hasPrefix("\\unrestrict") }
            .joined(separator: "\n")
    }

    /// The server's programs (`psql`, `pg_dump` …).
    public var binaryFolder: String { binaries }

    /// Adds a line at the top of `pg_hba.conf` (e.g. to make one user log in with a
    /// password) and reloads the server's configuration.
    public func requireAuthentication(_ line: String) throws {
        let path = root + "/data/pg_hba.conf"
        let current = try String(contentsOfFile: path, encoding: .utf8)
        if !current.hasPrefix(line + "\n") {
            try (line + "\n" + current).write(toFile: path, atomically: false, encoding: .utf8)
        }
        try psql("SELECT pg_reload_conf()")
    }

    private func stop() {
        _ = try? run("pg_ctl", ["-D", root + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Runs one of the server's programs (as `runAs` under root); its standard output.
    @discardableResult
    private func run(_ program: String, _ arguments: [String]) throws -> String {
        let executable = binaries + "/" + program
        let command = runAs.map { ["/usr/sbin/runuser", "-u", $0, "--", executable] + arguments } ?? [executable] + arguments
        let (status, output, errors) = try Self.spawnAndWait(command, in: root)
        // Exited normally with status 0 (the <sys/wait.h> macros, which Swift does not import).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw Failure(description: "\(program) \(arguments.joined(separator: " ")) failed (wait status \(status)): \(errors)")
        }
        return output
    }

    /// Runs `command` in `folder` and waits for it; its wait status, standard output and
    /// standard error.
    ///
    /// Spawned directly and waited for with `waitpid`, its output in files: `pg_ctl start`
    /// leaves the server running with the standard streams it was given, so a pipe would
    /// never reach its end (and Foundation's `Process` did not see the exit here).
    private static func spawnAndWait(_ command: [String], in folder: String) throws -> (status: Int32, output: String, errors: String) {
        // In `folder`: the user a server runs as may not be able to read the tests' own.
        let argv = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", folder] + command
        let outputPath = NSTemporaryDirectory() + "remodel-pgtest-output-\(UUID().uuidString).out"
        let errorPath = outputPath + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else {
            throw Failure(description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
        let errors = String(decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self)
        return (status, output, errors)
    }

    /// The folder with initdb and pg_ctl: `REMODEL_POSTGRES_BINDIR` if set, else
    /// `pg_config --bindir` when it has them, else the newest `/usr/lib/postgresql/N/bin`.
    private static func findBinaries() -> String? {
        var candidates: [String] = []
        // REMODEL_POSTGRES_BINDIR names the folder to use, and only it (a folder without the
        // programs shows what a machine without PostgreSQL reports).
        if let folder = ProcessInfo.processInfo.environment["REMODEL_POSTGRES_BINDIR"] {
            return ["initdb", "pg_ctl", "psql"].allSatisfy { FileManager.default.isExecutableFile(atPath: folder + "/" + $0) } ? folder : nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pg_config", "--bindir"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            process.waitUntilExit()
            if process.terminationStatus == 0 { candidates.append(text) }
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.compactMap(Int.init).sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
        return candidates.first { folder in
            ["initdb", "pg_ctl", "psql"].allSatisfy { FileManager.default.isExecutableFile(atPath: folder + "/" + $0) }
        }
    }
}
