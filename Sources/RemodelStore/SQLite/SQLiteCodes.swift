import CSQLite

/// Extended result codes that the C header defines as expressions Swift cannot import.
enum SQLiteCode {
    static let constraintForeignKey = SQLITE_CONSTRAINT | (3 << 8)
    static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
    static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
}
