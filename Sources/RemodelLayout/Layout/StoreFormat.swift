/// Constants of the store file format.
public enum StoreFormat {
    /// `PRAGMA application_id` of every Remodel store: 0x52454D44, "REMD" in ASCII.
    public static let applicationID: Int32 = 0x5245_4D44
    /// The version of the layout rules (the `formatVersion` metadata entry).
    public static let formatVersion = 1
    /// The table of metadata entries: `key TEXT PRIMARY KEY`, `value`.
    public static let metadataTable = "_remodel_metadata"
    /// The table of applied migrations: version, name, checksum, applied_at, duration_ms.
    public static let migrationsTable = "_remodel_migrations"

    /// Metadata keys.
    public enum Key {
        /// The canonical YAML text of the schema the store is laid out for.
        public static let schema = "schema"
        /// `Schema.storageHash` of that schema.
        public static let schemaHash = "schemaHash"
        /// `StoreFormat.formatVersion` when the store was written.
        public static let formatVersion = "formatVersion"
        /// The schema version of a PostgreSQL store (a SQLite store keeps it in
        /// `PRAGMA user_version`).
        public static let schemaVersion = "schemaVersion"
        /// The versions up to the store's that are not backward-readable (comma-separated):
        /// code of version N may open the store (`OpenOptions.allowNewerCompatibleStore`)
        /// when none of them is above N.
        public static let incompatibleVersions = "incompatibleVersions"
    }

    /// Statements creating the metadata tables.
    package static let createMetadataStatements = [
        "CREATE TABLE \"_remodel_metadata\" (\"key\" TEXT PRIMARY KEY NOT NULL, \"value\")",
        "CREATE TABLE \"_remodel_migrations\" (\"version\" INTEGER PRIMARY KEY NOT NULL, \"name\" TEXT NOT NULL, \"checksum\" TEXT NOT NULL, \"applied_at\" TEXT NOT NULL, \"duration_ms\" INTEGER NOT NULL)",
    ]
}
