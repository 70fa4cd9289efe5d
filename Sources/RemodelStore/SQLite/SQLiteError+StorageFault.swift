import CSQLite
import RemodelCore

extension SQLiteError: StorageFaultReporting {
    /// `SQLITE_FULL`, and `SQLITE_IOERR` caused by `ENOSPC`, `EFBIG` or `EDQUOT`, as the
    /// storage fault they are. SQLite reports a write past the file size limit as a bare
    /// `SQLITE_IOERR_WRITE` (or `_TRUNCATE`, `_SHMSIZE` …), often without the error number:
    /// under a limit (`ulimit -f`), an I/O error other than a read is taken for it. Any other
    /// `SQLITE_IOERR` is an I/O error.
    public var storageFault: StorageFault? {
        switch code {
        case SQLITE_FULL:
            return StorageFault(errno: systemErrno) ?? .diskFull
        case SQLITE_IOERR:
            if let fault = StorageFault(errno: systemErrno), fault != .ioError { return fault }
            let reads: Set<Int32> = [SQLITE_IOERR | (1 << 8), SQLITE_IOERR | (2 << 8)]
            return !reads.contains(extendedCode) && StorageFault.processHasFileSizeLimit ? .fileSizeLimit : .ioError
        default:
            return nil
        }
    }
}

extension StoreError: StorageFaultReporting {
    /// The storage fault behind an SQLite error of the store, if any.
    public var storageFault: StorageFault? {
        switch self {
        case .sqlite(let error), .corrupted(_, let error), .locked(_, _, let error): error.storageFault
        default: nil
        }
    }
}
