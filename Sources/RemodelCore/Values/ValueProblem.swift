/// Why a value does not fit its type: a sentence about the value without the value itself
/// ("is out of range: …", "month 13 is not a month (01–12)"), which callers put after the
/// value and its location.
package struct ValueProblem: Error, Hashable, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
