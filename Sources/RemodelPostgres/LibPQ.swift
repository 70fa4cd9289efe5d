#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// libpq, PostgreSQL's client library, loaded when the first connection opens.
///
/// Linking it would load libpq and what it links (OpenSSL, Kerberos, LDAP, GnuTLS) at the
/// start of every program that contains RemodelPostgres: about 7 ms on each `remodel` command,
/// most of which never touch PostgreSQL, and a build that needs libpq's headers. Loaded at
/// run time, only PostgreSQL stores need the library, and building needs nothing of it.
/// libpq's functions and the numbers of its enumerations have been stable since its
/// `libpq.so.5` (PostgreSQL 8.0); every function used here exists since 9.1.
struct LibPQ: @unchecked Sendable {
    typealias Connection = OpaquePointer
    typealias Result = OpaquePointer
    typealias CString = UnsafePointer<CChar>
    typealias MutableCString = UnsafeMutablePointer<CChar>

    /// libpq's `PGnotify`, in the same order (Swift lays fixed-size structs out as C does).
    struct Notify {
        var relname: MutableCString
        var bePID: Int32
        var extra: MutableCString
        var next: UnsafeMutableRawPointer?
    }

    /// `ConnStatusType`'s `CONNECTION_OK`.
    static let connectionOK: Int32 = 0
    /// `ExecStatusType`: the statuses this package tells apart.
    enum ExecStatus {
        static let emptyQuery: Int32 = 0
        static let commandOK: Int32 = 1
        static let tuplesOK: Int32 = 2
        static let copyOut: Int32 = 3
        static let copyIn: Int32 = 4
        static let copyBoth: Int32 = 8
    }

    let conninfoParse: @convention(c) (CString?, UnsafeMutablePointer<MutableCString?>?) -> UnsafeMutableRawPointer?
    let conninfoFree: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let connectdb: @convention(c) (CString?) -> Connection?
    let finish: @convention(c) (Connection?) -> Void
    let status: @convention(c) (Connection?) -> Int32
    let errorMessage: @convention(c) (Connection?) -> MutableCString?
    let connectionNeedsPassword: @convention(c) (Connection?) -> Int32
    let setNoticeProcessor: @convention(c) (Connection?, (@convention(c) (UnsafeMutableRawPointer?, CString?) -> Void)?, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?
    let serverVersion: @convention(c) (Connection?) -> Int32
    let socket: @convention(c) (Connection?) -> Int32
    let consumeInput: @convention(c) (Connection?) -> Int32
    /// A `PGnotify *`, read as `Notify`.
    let notifies: @convention(c) (Connection?) -> UnsafeMutableRawPointer?
    let host: @convention(c) (Connection?) -> MutableCString?
    let port: @convention(c) (Connection?) -> MutableCString?
    let user: @convention(c) (Connection?) -> MutableCString?
    let database: @convention(c) (Connection?) -> MutableCString?
    let exec: @convention(c) (Connection?, CString?) -> Result?
    let execParams:
        @convention(c) (
            Connection?, CString?, Int32, UnsafePointer<UInt32>?, UnsafePointer<CString?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
        ) -> Result?
    let getResult: @convention(c) (Connection?) -> Result?
    let clear: @convention(c) (Result?) -> Void
    let resultStatus: @convention(c) (Result?) -> Int32
    let resultErrorMessage: @convention(c) (Result?) -> MutableCString?
    let resultErrorField: @convention(c) (Result?, Int32) -> MutableCString?
    let nfields: @convention(c) (Result?) -> Int32
    let ntuples: @convention(c) (Result?) -> Int32
    let fname: @convention(c) (Result?, Int32) -> MutableCString?
    let ftype: @convention(c) (Result?, Int32) -> UInt32
    let getisnull: @convention(c) (Result?, Int32, Int32) -> Int32
    let getvalue: @convention(c) (Result?, Int32, Int32) -> MutableCString?
    let cmdTuples: @convention(c) (Result?) -> MutableCString?

    /// The library, loaded on first use; the same outcome for the rest of the process.
    private static let loaded: Swift.Result<LibPQ, LoadError> = load()

    /// The loaded library, or why it could not be loaded (kind `.connection`, with what to do).
    static func shared(for target: PostgresTarget) throws(PostgresError) -> LibPQ {
        switch loaded {
        case .success(let library):
            return library
        case .failure(let error):
            throw PostgresError(kind: .connection, message: error.message, hint: error.hint, target: target.redacted)
        }
    }

    /// The environment variable naming the library's file, for a libpq the loader does not find.
    static let pathVariable = "REMODEL_LIBPQ"

    /// Where the library is looked for: `REMODEL_LIBPQ` when set, else the loader's search
    /// (and Homebrew's folders, which the macOS loader does not search).
    static var candidates: [String] {
        if let path = pathOverride { return [path] }
        #if canImport(Darwin)
            return ["libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib", "/usr/local/opt/libpq/lib/libpq.5.dylib"]
        #else
            return ["libpq.so.5"]
        #endif
    }

    /// `REMODEL_LIBPQ`, when set to a path.
    private static var pathOverride: String? {
        getenv(pathVariable).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    struct LoadError: Error {
        var message: String
        var hint: String
    }

    private static func load() -> Swift.Result<LibPQ, LoadError> {
        var failures: [String] = []
        for path in candidates {
            guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                failures.append(dlerror().map { String(cString: $0) } ?? "\(path): cannot be loaded")
                continue
            }
            do {
                return .success(try LibPQ(handle: handle, path: path))
            } catch {
                dlclose(handle)
                return .failure(error)
            }
        }
        let install = "install PostgreSQL's client library (Debian and Ubuntu: apt-get install libpq5; Fedora: dnf install libpq; macOS: brew install libpq)"
        return .failure(
            LoadError(
                message: "libpq, PostgreSQL's client library, cannot be loaded: " + failures.joined(separator: "; "),
                hint: pathOverride == nil
                    ? install + ", or set \(pathVariable) to the path of its libpq.so.5 or libpq.5.dylib"
                    : "set \(pathVariable) to the path of libpq.so.5 or libpq.5.dylib, or unset it to use the one the system finds"
            ))
    }

    private init(handle: UnsafeMutableRawPointer, path: String) throws(LoadError) {
        func function<F>(_ name: String) throws(LoadError) -> F {
            guard let address = dlsym(handle, name) else {
                throw LoadError(
                    message: "'\(path)' is not libpq 9.1 or newer: it has no function \(name)",
                    hint: "set \(Self.pathVariable) to PostgreSQL's client library (libpq.so.5 or libpq.5.dylib), or unset it")
            }
            return unsafeBitCast(address, to: F.self)
        }
        conninfoParse = try function("PQconninfoParse")
        conninfoFree = try function("PQconninfoFree")
        freemem = try function("PQfreemem")
        connectdb = try function("PQconnectdb")
        finish = try function("PQfinish")
        status = try function("PQstatus")
        errorMessage = try function("PQerrorMessage")
        connectionNeedsPassword = try function("PQconnectionNeedsPassword")
        setNoticeProcessor = try function("PQsetNoticeProcessor")
        serverVersion = try function("PQserverVersion")
        socket = try function("PQsocket")
        consumeInput = try function("PQconsumeInput")
        notifies = try function("PQnotifies")
        host = try function("PQhost")
        port = try function("PQport")
        user = try function("PQuser")
        database = try function("PQdb")
        exec = try function("PQexec")
        execParams = try function("PQexecParams")
        getResult = try function("PQgetResult")
        clear = try function("PQclear")
        resultStatus = try function("PQresultStatus")
        resultErrorMessage = try function("PQresultErrorMessage")
        resultErrorField = try function("PQresultErrorField")
        nfields = try function("PQnfields")
        ntuples = try function("PQntuples")
        fname = try function("PQfname")
        ftype = try function("PQftype")
        getisnull = try function("PQgetisnull")
        getvalue = try function("PQgetvalue")
        cmdTuples = try function("PQcmdTuples")
    }
}
