import CSQLite
import Foundation
import RemodelCore

extension RemodelStore {
    /// Creates a new store file at `path`, all or nothing, as `remodel init` and `import` do:
    /// builds it in a temporary file in the same folder, runs `fill` on it (say, an import; do
    /// not keep the store it is given), closes it and links it into place. Never replaces a
    /// file: throws `StoreError.invalidInput` when one exists. On any failure — a schema
    /// SQLite rejects, a full disk, `fill` throwing — nothing is left behind: neither the
    /// temporary file nor its `-wal`, `-shm` or `-journal`.
    public static func create<T>(atomicallyAt path: String, schema: Schema, version: Int, fill: (RemodelStore) throws -> T) throws -> T {
        if FileManager.default.fileExists(atPath: path) { throw existing(path) }
        let folder = Connection.folder(of: path)
        let temporary =
            (folder == "." && !path.hasPrefix("./") ? "" : folder + "/")
            + ".\(FilePaths.name(of: path)).remodel-creating-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        func removeTemporary() { for suffix in HalfMadeFiles.databaseSiblings { unlink(temporary + suffix) } }
        // What an interrupted or crashed run left here goes first; this run's goes with it if
        // it is interrupted.
        let marker = ".\(FilePaths.name(of: path)).remodel-creating-"
        HalfMadeFiles.removeLeftovers(in: folder) { $0.hasPrefix(marker) ? HalfMadeFiles.processID(in: $0, after: marker) : nil }
        let token = HalfMadeFiles.started(temporary, suffixes: HalfMadeFiles.databaseSiblings, what: "the new store '\(path)' (nothing was created)")
        defer {
            removeTemporary()
            HalfMadeFiles.finished(token)
        }
        let result: T
        do {
            let store = try RemodelStore(path: temporary, schema: schema, version: version)
            result = try fill(store)
        } catch let error as StoreError {
            throw error.naming(path, for: temporary)
        }
        // The store is closed now, which moves the write-ahead log into the main file. Should
        // a log remain, check it in, so that the file stands alone once linked into place.
        if FileManager.default.fileExists(atPath: temporary + "-wal") {
            try Connection(path: temporary).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        // link(2) fails instead of replacing a file that appeared meanwhile.
        guard link(temporary, path) == 0 else {
            let code = errno
            if code == EEXIST { throw existing(path) }
            if let fault = StorageFault(errno: code) {
                throw StoreError.sqlite(SQLiteError(code: SQLITE_IOERR, message: "cannot create '\(path)': \(fault.reason)", systemErrno: code))
            }
            throw StoreError.cannotOpen(path: path, reason: String(cString: strerror(code)))
        }
        return result
    }

    private static func existing(_ path: String) -> StoreError {
        .invalidInput("'\(path)' already exists; remove it first, or choose another path for the new store")
    }
}

extension StoreError {
    /// The error with the temporary path of a store being created replaced by the path it
    /// is created for, so that messages name the file the user asked for.
    func naming(_ path: String, for temporary: String) -> StoreError {
        switch self {
        case .cannotOpen(let other, let reason) where other == temporary: .cannotOpen(path: path, reason: reason)
        case .readOnly(let other, let reason) where other == temporary: .readOnly(path: path, reason: reason)
        default: self
        }
    }
}
