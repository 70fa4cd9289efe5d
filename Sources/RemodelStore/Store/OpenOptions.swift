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
    /// Opens a store a newer version of the app wrote, when every version after this code's
    /// is backward-readable (only optional properties, collections and types added, as
    /// `remodel check` marks them): this code reads and writes its own properties, and its
    /// writes keep the newer properties' values. Otherwise opening fails with
    /// `StoreError.supersededIncompatibly`, naming the first version that is not. For an app
    /// rolled back to its previous release.
    public var allowNewerCompatibleStore: Bool

    public init(
        busyTimeout: Double = 5, readOnly: Bool = false, maximumReaderCount: Int = 4, migrator: (any StoreMigrator)? = nil, allowNewerCompatibleStore: Bool = false
    ) {
        self.busyTimeout = busyTimeout
        self.readOnly = readOnly
        self.maximumReaderCount = maximumReaderCount
        self.migrator = migrator
        self.allowNewerCompatibleStore = allowNewerCompatibleStore
    }
}
