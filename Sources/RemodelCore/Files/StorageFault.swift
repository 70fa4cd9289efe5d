import Foundation

/// Why writing to storage failed, for the faults a user can fix outside Remodel: a full disk,
/// the process's file size limit (`ulimit -f`), a disk quota, an I/O error. The one home of
/// their wording: the POSIX errors (`ENOSPC`, `EFBIG`, `EDQUOT`, `EIO`), SQLite's
/// `SQLITE_FULL` / `SQLITE_IOERR` and Foundation's file errors all map to it.
public enum StorageFault: Hashable, Sendable {
    case diskFull
    case fileSizeLimit
    case quotaExceeded
    case ioError

    /// The fault a POSIX error number stands for, if it is one of these.
    public init?(errno code: Int32) {
        switch code {
        case ENOSPC: self = .diskFull
        case EFBIG: self = .fileSizeLimit
        case EDQUOT: self = .quotaExceeded
        case EIO: self = .ioError
        default: return nil
        }
    }

    /// The fault behind `error`, looking through errors that report one
    /// (`StorageFaultReporting`), POSIX errors and Foundation's file errors with their
    /// underlying errors.
    public init?(of error: any Error) {
        if let reporting = error as? any StorageFaultReporting {
            guard let fault = reporting.storageFault else { return nil }
            self = fault
            return
        }
        if let posix = error as? POSIXError, let fault = StorageFault(errno: posix.code.rawValue) {
            self = fault
            return
        }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain, let fault = StorageFault(errno: Int32(nsError.code)) {
            self = fault
            return
        }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == CocoaError.fileWriteOutOfSpace.rawValue {
            self = .diskFull
            return
        }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? any Error, let fault = StorageFault(of: underlying) {
            self = fault
            return
        }
        return nil
    }

    /// Whether this process runs under a file size limit (`ulimit -f`): SQLite reports a
    /// write refused by it (`EFBIG`) as a bare I/O error, which this tells apart.
    public static var processHasFileSizeLimit: Bool {
        var limit = rlimit()
        #if os(Linux)
            guard getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0 else { return false }
            // RLIM_INFINITY is all bits set there (Swift cannot import its C definition).
            return limit.rlim_cur != rlim_t.max
        #else
            guard getrlimit(RLIMIT_FSIZE, &limit) == 0 else { return false }
            // Darwin's and the BSDs' RLIM_INFINITY, `((rlim_t)1 << 63) - 1`, spelt out: a macro with
            // casts may not import into Swift.
            return limit.rlim_cur != rlim_t(Int64.max)
        #endif
    }

    /// Why the write failed, e.g. "the disk is full".
    public var reason: String {
        switch self {
        case .diskFull: "the disk is full"
        case .fileSizeLimit: "the file would exceed the file size limit of this process (ulimit -f)"
        case .quotaExceeded: "the disk quota is exceeded"
        case .ioError: "the disk reported an input/output error"
        }
    }

    /// How to fix it.
    public var fix: String {
        switch self {
        case .diskFull: "free some space and run again"
        case .fileSizeLimit: "raise the limit (ulimit -f unlimited) and run again"
        case .quotaExceeded: "free some space or raise the quota, and run again"
        case .ioError: "check the disk (and the system log), then run again"
        }
    }

    /// The whole message: `cannot WHAT: REASON; INTACT; FIX`, e.g. "cannot write 'out.json':
    /// the disk is full; no file was written and the store is unchanged; free some space and
    /// run again".
    public func message(cannot what: String, intact: String) -> String {
        "cannot \(what): \(reason); \(intact); \(fix)"
    }
}

/// An error that knows whether a storage fault caused it.
public protocol StorageFaultReporting: Error {
    /// The storage fault behind the error, if any.
    var storageFault: StorageFault? { get }
}
