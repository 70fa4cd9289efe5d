/// Why a value does not fit its type: a sentence about the value without the value itself
/// ("is out of range for int8 (-128...127)"), which callers put after the value and its
/// location, and how to fix it when there is more to say.
package struct ValueProblem: Error, Hashable, Sendable, CustomStringConvertible {
    package var description: String
    /// How to write a value that fits, e.g. "write a value in range, or use a wider type".
    package var hint: String?

    package init(_ description: String, hint: String? = nil) {
        self.description = description
        self.hint = hint
    }

    /// The description and the hint in one sentence, for messages without a hint line.
    package var sentence: String {
        hint.map { description + "; " + $0 } ?? description
    }
}
