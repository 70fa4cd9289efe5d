/// How a store is opened.
public struct OpenOptions: Sendable {
    /// Seconds a statement waits for another connection's lock before failing with
    /// `StoreError.locked`.
    public var busyTimeout: Double
    /// Opens the store for reading only: writes throw, and nothing is created or changed.
    public var readOnly: Bool
    /// The most reader connections used at once by concurrent `read` calls.
    public var maximumReaderCount: Int
    /// Brings a store at an older schema version up to the code's version while opening.
    /// `nil` (the default) makes an older store fail with `StoreError.migrationNeeded`.
    /// RemodelMigrate provides the implementation; see `StoreMigrator`.
    public var migrator: (any StoreMigrator)?

    public init(busyTimeout: Double = 5, readOnly: Bool = false, maximumReaderCount: Int = 4, migrator: (any StoreMigrator)? = nil) {
        self.busyTimeout = busyTimeout
        self.readOnly = readOnly
        self.maximumReaderCount = maximumReaderCount
        self.migrator = migrator
    }
}
