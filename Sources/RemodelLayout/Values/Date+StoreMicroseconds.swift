import Foundation
import RemodelCore

/// Dates in their stored form: whole microseconds since 1970-01-01T00:00:00Z (an INTEGER
/// column). `Date`'s `StorableValue` conformance (RemodelStore) reads and writes them.
extension Date {
    /// Whole microseconds since 1970-01-01T00:00:00Z: the stored form of dates. Dates outside
    /// the supported range (years -9999 through 9999) are clamped to it, and a NaN interval
    /// is 0, so that this never traps; writes refuse such dates (`storageProblem`).
    public var storeMicroseconds: Int64 {
        let seconds = timeIntervalSince1970
        if let micros = ISODateText.microseconds(secondsSince1970: seconds) { return micros }
        if seconds.isNaN { return 0 }
        return seconds < 0 ? ISODateText.supportedRange.lowerBound : ISODateText.supportedRange.upperBound
    }

    /// The date `microseconds` after 1970-01-01T00:00:00Z.
    @inlinable
    public init(storeMicroseconds microseconds: Int64) {
        let seconds = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        self.init(timeIntervalSince1970: Double(seconds.quotient) + Double(seconds.remainder) / 1_000_000)
    }
}
