/// What SQLite accepts as the names of a store's tables and columns, kept in one place for the
/// schema validator and the store layout.
///
/// A type's table is named as the type, a collection's side table `Type.property` and its
/// indexes `Type.property.index` / `Type.property.value`. Schema names are identifiers (no
/// dots), so these derived names are distinct exactly when type names are distinct, and
/// property names within a type are distinct — compared as SQLite compares identifiers,
/// ignoring ASCII letter case.
public enum StoreNames {
    /// The reason a name is reserved, or `nil` when SQLite and Remodel accept it.
    public struct Reservation: Hashable, Sendable, CustomStringConvertible {
        /// What the name starts with, contains or is: "starts with 'sqlite_'".
        public var what: String
        /// Who reserves it: "SQLite's own tables".
        public var owner: String
        /// How to fix it: "rename it so that it does not start with 'sqlite_'".
        public var fix: String
        /// What was reserved, lower-case: "starts with 'sqlite_', which is reserved for SQLite's own tables".
        public var description: String { "\(what), which is reserved for \(owner)" }
    }

    /// The prefix of Remodel's own tables (`_remodel_metadata`, `_remodel_migrations`).
    public static let remodelPrefix = "_remodel"
    /// What the migration engine appends to the names of tables and columns while it rebuilds
    /// them (`Person__remodel_new`).
    public static let remodelInfix = "__remodel"
    /// The prefix SQLite reserves for its own tables and indexes (`sqlite_schema`, …).
    public static let sqlitePrefix = "sqlite_"
    /// The name the store's queries use for a table's row id: a column of that name would hide
    /// it. (SQLite's other aliases, `oid` and `_rowid_`, stay usable as property names.)
    public static let rowIDNames: Set<String> = ["rowid"]

    /// The key under which SQLite compares two identifiers: ASCII letters folded to lower case.
    public static func foldedKey(_ name: String) -> String {
        String(decoding: name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// Whether `name` can be reserved at all: every reserved prefix and infix has an
    /// underscore, and the row id's name has five letters. Most names are decided by this
    /// alone, without folding them (validation asks for every property of a schema).
    private static func mayBeReserved(_ name: String) -> Bool {
        let utf8 = name.utf8
        return utf8.count == 5 || utf8.contains(UInt8(ascii: "_"))
    }

    /// Why `name` cannot name an object type (a table), if it cannot.
    public static func tableNameReservation(_ name: String) -> Reservation? {
        guard mayBeReserved(name) else { return nil }
        let folded = foldedKey(name)
        if folded.hasPrefix(sqlitePrefix) {
            return Reservation(
                what: "starts with '\(sqlitePrefix)'", owner: "SQLite's own tables", fix: "rename it so that it does not start with '\(sqlitePrefix)' in any letter case")
        }
        return commonReservation(folded)
    }

    /// Why `name` cannot name a property (a column, or part of a side table's name), if it cannot.
    public static func columnNameReservation(_ name: String) -> Reservation? {
        guard mayBeReserved(name) else { return nil }
        let folded = foldedKey(name)
        if rowIDNames.contains(folded) {
            return Reservation(what: "is '\(folded)' (in any letter case)", owner: "SQLite's row id of every table", fix: "rename it, e.g. '\(name)Value'")
        }
        return commonReservation(folded)
    }

    /// Why `name` cannot name anything else of a schema (an enum case, a projection property):
    /// the names Remodel keeps for itself.
    public static func otherNameReservation(_ name: String) -> Reservation? {
        guard mayBeReserved(name) else { return nil }
        return commonReservation(foldedKey(name))
    }

    /// Whether `text` contains `part`, compared byte by byte.
    private static func contains(_ text: String, _ part: String) -> Bool {
        let bytes = Array(text.utf8)
        let pattern = Array(part.utf8)
        guard bytes.count >= pattern.count else { return false }
        return (0...(bytes.count - pattern.count)).contains { start in pattern.indices.allSatisfy { bytes[start + $0] == pattern[$0] } }
    }

    private static func commonReservation(_ folded: String) -> Reservation? {
        if folded.hasPrefix(remodelPrefix) {
            return Reservation(what: "starts with '\(remodelPrefix)'", owner: "the store's own tables", fix: "rename it so that it does not start with '\(remodelPrefix)'")
        }
        // A byte search (the infix is ASCII; SQLite sees bytes too).
        if contains(folded, remodelInfix) {
            return Reservation(
                what: "contains '\(remodelInfix)'", owner: "the tables and columns a migration rebuilds", fix: "rename it so that it does not contain '\(remodelInfix)'")
        }
        return nil
    }
}
