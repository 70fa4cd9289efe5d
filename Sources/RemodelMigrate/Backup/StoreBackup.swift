import CSQLite
import Foundation
import RemodelCore
import RemodelStore

/// Copies a store file with SQLite's online backup API before a migration, into a new file
/// next to it: `store.db.v1-backup-20261130T131500Z`. An existing file is never overwritten
/// (a second backup in the same second gets `-2`, `-3`, …).
public enum StoreBackup {
    /// Why a backup could not be made. The store itself is untouched.
    public struct Failure: Error, Sendable, CustomStringConvertible, StorageFaultReporting {
        public var path: String
        public var reason: String
        /// The full disk or file size limit that stopped the copy, if that was it.
        public var storageFault: StorageFault?

        public init(path: String, reason: String, storageFault: StorageFault? = nil) {
            self.path = path
            self.reason = reason
            self.storageFault = storageFault
        }

        public var description: String {
            "cannot back up the store to '\(path)': \(storageFault?.reason ?? reason); nothing was migrated (free some space or fix the folder's permissions, or pass --no-backup)"
        }
    }

    /// The backup file name for a store at `version`, made at `date`, without a collision
    /// suffix: `store.db.v1-backup-20261130T131500Z`.
    public static func fileName(forStoreAt path: String, version: Int, date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return path + ".v\(version)-backup-" + formatter.string(from: date)
    }

    /// Backs up the store at `path` (at schema `version`) and returns the backup's path.
    public static func make(ofStoreAt path: String, version: Int, date: Date = Date()) throws -> String {
        let base = fileName(forStoreAt: path, version: version, date: date)
        let partial = base + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        // The partial copy and every file SQLite keeps beside it (the copy takes the store's
        // WAL mode) go, whatever happens: a failed backup (a full disk) leaves nothing behind.
        func removePartial() { for suffix in HalfMadeFiles.databaseSiblings { unlink(partial + suffix) } }
        removePartial()
        // Partial backups of processes that no longer run go; this one goes if it is interrupted.
        let name = FilePaths.name(of: path)
        HalfMadeFiles.removeLeftovers(in: FilePaths.folder(of: path)) {
            $0.hasPrefix(name + ".v") && $0.contains("-backup-") ? HalfMadeFiles.processID(in: $0, after: ".partial-") : nil
        }
        let token = HalfMadeFiles.started(partial, suffixes: HalfMadeFiles.databaseSiblings, what: "the unfinished backup '\(base)'")
        defer {
            removePartial()
            HalfMadeFiles.finished(token)
        }
        do {
            try copy(from: path, to: partial)
        } catch var failure as Failure {
            failure.path = base
            throw failure
        }
        // link(2) fails instead of replacing an existing file: no backup is ever overwritten.
        for attempt in 1...1000 {
            let candidate = attempt == 1 ? base : base + "-\(attempt)"
            if link(partial, candidate) == 0 { return candidate }
            let code = errno
            guard code == EEXIST else {
                throw Failure(path: candidate, reason: String(cString: strerror(code)), storageFault: StorageFault(errno: code))
            }
        }
        throw Failure(path: base, reason: "1000 backups with this name already exist")
    }

    /// Copies the database at `source` into a new database file at `destination`.
    package static func copy(from source: String, to destination: String) throws {
        let sourceConnection: Connection
        do {
            sourceConnection = try Connection.forReading(path: source)
        } catch let error as SQLiteError {
            throw Failure(path: destination, reason: "cannot open '\(source)': \(error.message)")
        }
        sourceConnection.setBusyTimeout(5)
        let sourceDB = sourceConnection.pointer
        var destinationDB: OpaquePointer?
        defer { sqlite3_close_v2(destinationDB) }
        guard sqlite3_open_v2(destination, &destinationDB, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let destinationDB else {
            throw Failure(path: destination, reason: message(destinationDB))
        }
        guard let backup = sqlite3_backup_init(destinationDB, "main", sourceDB, "main") else {
            throw Failure(path: destination, reason: message(destinationDB))
        }
        var code: Int32
        repeat {
            code = sqlite3_backup_step(backup, 1024)
            if code == SQLITE_BUSY || code == SQLITE_LOCKED { sqlite3_sleep(20) }
        } while code == SQLITE_OK || code == SQLITE_BUSY || code == SQLITE_LOCKED
        let finish = sqlite3_backup_finish(backup)
        guard code == SQLITE_DONE, finish == SQLITE_OK else {
            let failed = code == SQLITE_DONE ? finish : code
            throw Failure(path: destination, reason: String(cString: sqlite3_errstr(failed)), storageFault: fault(failed, destinationDB))
        }
        // One self-contained file (no -wal to keep next to it); a store opened from it
        // switches back to WAL.
        let journal = sqlite3_exec(destinationDB, "PRAGMA journal_mode = DELETE", nil, nil, nil)
        guard journal == SQLITE_OK else {
            throw Failure(path: destination, reason: message(destinationDB), storageFault: fault(journal, destinationDB))
        }
    }

    /// The storage fault an SQLite result `code` of `db` stands for, if any.
    private static func fault(_ code: Int32, _ db: OpaquePointer?) -> StorageFault? {
        SQLiteError(code: code, message: "", systemErrno: db.map { sqlite3_system_errno($0) } ?? 0).storageFault
    }

    private static func message(_ db: OpaquePointer?) -> String {
        db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
    }
}
