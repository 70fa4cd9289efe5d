/// Pieces of the English every message is written in, shared so that the library and the
/// command-line tool phrase them alike.
public enum MessageText {
    /// `a`, `a and b`, `a, b and c`.
    public static func list(_ items: [String]) -> String {
        items.count <= 2 ? items.joined(separator: " and ") : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
