import RemodelCore

/// Parsing of the literal forms the schema language accepts in defaults and raw values.
/// Numbers are RemodelCore's `IntegerLiteral` and `FloatLiteral`, shared with migrations.
enum DateLiteral {
    /// Whether `text` is an ISO 8601 date (`2024-05-01`) or date-time
    /// (`2024-05-01T12:30Z`, `2024-05-01T12:30:00.250+02:00`): the forms `ISODateText`, and so
    /// the store and migrations, read.
    static func isValid(_ text: String) -> Bool {
        ISODateText.microseconds(from: text) != nil
    }
}
