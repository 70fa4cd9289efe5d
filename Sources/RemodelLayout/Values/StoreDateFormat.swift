import Foundation
import RemodelCore

/// ISO 8601 text for dates, to the microsecond, in UTC — the precision dates are stored to.
///
/// `2024-03-01T09:30:00Z`, `2024-03-01T09:30:00.250000Z`. Parsing also accepts a date alone
/// (`2024-03-01`, midnight UTC), times without seconds (`2024-03-01T09:30Z`), 1–9 fraction
/// digits (rounded to the microsecond) and `±HH`, `±HHMM`, `±HH:MM` offsets. Independent of
/// locale and calendar settings, and exact: `date(from: string(from: d))` stores the same
/// microseconds. The same text as schema defaults and migration steps accept. Dates are
/// supported for years -9999 through 9999; text outside that range is not a date here.
public enum StoreDateFormat {
    /// The text of `date`, rounded to the microsecond.
    public static func string(from date: Date) -> String {
        string(microseconds: date.storeMicroseconds)
    }

    /// The text of a stored date: microseconds since 1970-01-01T00:00:00Z.
    public static func string(microseconds: Int64) -> String {
        ISODateText.string(microseconds: microseconds)
    }

    /// The date written as `text`, or `nil` when it is not ISO 8601 date or date-time text.
    public static func date(from text: String) -> Date? {
        microseconds(from: text).map(Date.init(storeMicroseconds:))
    }

    /// The stored microseconds of `text`, or `nil` when it is not ISO 8601 date or date-time
    /// text.
    public static func microseconds(from text: String) -> Int64? {
        ISODateText.microseconds(from: text)
    }
}
