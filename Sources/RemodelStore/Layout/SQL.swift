/// Small helpers for writing SQL text.
package enum SQL {
    /// `name` as a quoted SQL identifier: `"Person.dogs"`, with embedded quotes doubled.
    package static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as a SQL string literal.
    package static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Quoted, comma-separated identifiers.
    package static func list(_ names: [String]) -> String {
        names.map(quote).joined(separator: ", ")
    }
}
