import RemodelStore

/// Spelling SQL literals. Identifiers go through the store's `SQL.quote`, so a type or
/// property called `order` or `"quoted"` is always safe.
enum SQLText {
    /// `"name"`, with embedded quotes doubled.
    static func identifier(_ name: String) -> String {
        SQL.quote(name)
    }

    /// `'text'`, with embedded quotes doubled; text containing NUL is spelt as a cast blob
    /// because SQL string literals end at NUL.
    static func text(_ value: String) -> String {
        if value.utf8.contains(0) {
            return "CAST(\(blob(Array(value.utf8))) AS TEXT)"
        }
        return SQL.literal(value)
    }

    /// `X'0A1B'`.
    static func blob(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return "X'" + String(decoding: out, as: UTF8.self) + "'"
    }

    /// A real literal that SQLite reads back as the same double.
    static func real(_ value: Double) -> String {
        if value.isNaN { return "NULL" }
        if value.isInfinite { return value < 0 ? "-9e999" : "9e999" }
        let text = "\(value)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// The zero value of a column type, for `ADD COLUMN … NOT NULL DEFAULT`.
    static func zero(ofColumnType sqlType: String) -> String {
        switch sqlType {
        case "INTEGER": "0"
        case "REAL": "0.0"
        case "BLOB": "X''"
        default: "''"
        }
    }
}
