import CSQLite

/// Process-wide SQLite settings, for executables that own their process (the `remodel` CLI).
/// A library must not change them behind its host app's back, so RemodelStore never calls
/// this itself.
package enum SQLiteLibrary {
    /// Turns off SQLite's memory statistics: with them on, every allocation takes a global
    /// mutex, which a million-row migration that computes text values pays for per row.
    /// Must run before the first SQLite call of the process; later it has no effect.
    package static func disableMemoryStatistics() {
        _ = remodel_sqlite3_config_memstatus(0)
    }
}
