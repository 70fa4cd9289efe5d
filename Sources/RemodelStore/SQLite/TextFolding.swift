import CSQLite
import Foundation

/// Text with case and diacritics removed, the one rule `localizedStandardContains` filters
/// compare by: in Swift for the searched text, and as an SQL function on every connection for
/// the stored values. ASCII text, most of what a notes app stores, is folded byte by byte
/// without Foundation.
package enum TextFolding {
    /// The SQL function that folds a value: `remodel_folded(text)`.
    package static let sqlFunction = "remodel_folded"

    package static func fold(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes.map(lowercased), as: UTF8.self) }
            return String(decoding: bytes, as: UTF8.self).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        }
    }

    /// The same rule in PostgreSQL's SQL, for `value` (a column or a parameter): compatibility
    /// decomposition (widths, ligatures, accents apart from their letters), the combining marks
    /// removed, lower case by ICU's root locale whatever the database's collation, and `ß` as
    /// `ss` (Foundation's case folding; `lower` keeps it).
    package static func postgresExpression(of value: String) -> String {
        "replace(lower(regexp_replace(normalize(\(value), NFKD), '[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]', '', 'g') COLLATE \"und-x-icu\"), 'ß', 'ss')"
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    /// Registers `remodel_folded` on `connection`.
    static func register(on connection: OpaquePointer) {
        sqlite3_create_function_v2(
            connection, sqlFunction, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil,
            { context, _, arguments in
                guard let value = arguments?[0], sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else {
                    return sqlite3_result_null(context)
                }
                let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
                if bytes.allSatisfy({ $0 < 0x80 }) {
                    // ASCII: lower-cased in a buffer of the same length, no String made.
                    let folded = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
                    defer { folded.deallocate() }
                    for (index, byte) in bytes.enumerated() { folded[index] = TextFolding.lowercased(byte) }
                    folded.withMemoryRebound(to: CChar.self) { remodel_sqlite3_result_text_transient(context, $0.baseAddress, Int32(bytes.count)) }
                    return
                }
                var result = TextFolding.fold(String(decoding: bytes, as: UTF8.self))
                result.withUTF8 { utf8 in
                    utf8.withMemoryRebound(to: CChar.self) { remodel_sqlite3_result_text_transient(context, $0.baseAddress, Int32($0.count)) }
                }
            }, nil, nil, nil)
    }
}
