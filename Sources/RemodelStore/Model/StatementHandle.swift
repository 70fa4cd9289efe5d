import CSQLite

/// A prepared SQLite statement as `StorableValue` conformances see it: column reads of the
/// current row and parameter binds. A thin, copyable wrapper around `sqlite3_stmt *`; the
/// store owns the statement.
public struct StatementHandle {
    /// The underlying `sqlite3_stmt *`.
    public let pointer: OpaquePointer

    @inlinable
    public init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Whether column `index` of the current row is NULL.
    @inlinable
    public func isNull(_ index: Int32) -> Bool {
        sqlite3_column_type(pointer, index) == SQLITE_NULL
    }

    /// The integer in column `index` (0 for NULL).
    @inlinable
    public func int64(_ index: Int32) -> Int64 {
        sqlite3_column_int64(pointer, index)
    }

    /// The real number in column `index` (0 for NULL).
    @inlinable
    public func double(_ index: Int32) -> Double {
        sqlite3_column_double(pointer, index)
    }

    /// The UTF-8 text of column `index`, or `nil` when it is NULL.
    @inlinable
    public func text(_ index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(pointer, index) else { return nil }
        let count = Int(sqlite3_column_bytes(pointer, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Calls `body` with the bytes of column `index` (empty for an empty blob, `nil` for NULL).
    @inlinable
    public func withBlob<R>(_ index: Int32, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        let bytes = sqlite3_column_blob(pointer, index)
        let count = Int(sqlite3_column_bytes(pointer, index))
        if bytes == nil {
            return try body(sqlite3_column_type(pointer, index) == SQLITE_NULL ? nil : UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The dynamic value of column `index`.
    public func value(_ index: Int32) -> StoreValue {
        switch sqlite3_column_type(pointer, index) {
        case SQLITE_INTEGER: .integer(int64(index))
        case SQLITE_FLOAT: .real(double(index))
        case SQLITE_TEXT: .text(text(index) ?? "")
        case SQLITE_BLOB: .blob(withBlob(index) { $0.map { Array($0) } ?? [] })
        default: .null
        }
    }

    /// Binds NULL to parameter `index` (1-based); returns SQLite's result code.
    @inlinable
    public func bindNull(_ index: Int32) -> Int32 {
        sqlite3_bind_null(pointer, index)
    }

    /// Binds an integer to parameter `index` (1-based); returns SQLite's result code.
    @inlinable
    public func bind(_ value: Int64, _ index: Int32) -> Int32 {
        sqlite3_bind_int64(pointer, index, value)
    }

    /// Binds a real number to parameter `index` (1-based); returns SQLite's result code.
    @inlinable
    public func bind(_ value: Double, _ index: Int32) -> Int32 {
        sqlite3_bind_double(pointer, index, value)
    }

    /// Binds UTF-8 text (copied by SQLite) to parameter `index` (1-based); returns SQLite's
    /// result code.
    @inlinable
    public func bind(_ value: String, _ index: Int32) -> Int32 {
        var value = value
        return value.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else { return sqlite3_bind_text(pointer, index, "", 0, nil) }
                return remodel_sqlite3_bind_text_transient(pointer, index, base, Int32(chars.count))
            }
        }
    }

    /// Binds a blob (copied by SQLite) to parameter `index` (1-based); returns SQLite's
    /// result code.
    @inlinable
    public func bind(bytes: UnsafeRawBufferPointer, _ index: Int32) -> Int32 {
        // A zero-length blob stays a blob, not NULL.
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(pointer, index, 0) }
        return remodel_sqlite3_bind_blob_transient(pointer, index, base, Int32(bytes.count))
    }

    /// Binds a dynamic scalar value; collections are not bindable.
    public func bind(_ value: StoreValue, _ index: Int32) -> Int32 {
        switch value {
        case .null: bindNull(index)
        case .integer(let number): bind(number, index)
        case .real(let number): bind(number, index)
        case .text(let text): bind(text, index)
        case .blob(let bytes): bytes.withUnsafeBytes { bind(bytes: $0, index) }
        case .list, .map: SQLITE_MISMATCH
        }
    }
}
