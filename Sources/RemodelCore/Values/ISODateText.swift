/// ISO 8601 text of dates, to the microsecond: the one parser and formatter behind schema
/// defaults, the store (`StoreDateFormat`), migration step values and generated code.
///
/// Accepted: `YYYY-MM-DD` (midnight UTC), or that date, `T` (or `t`, or a space) and
/// `HH:MM[:SS[.fraction]]` with `Z` (`z`) or an offset `±HH`, `±HHMM`, `±HH:MM`. The fraction
/// (after `.` or `,`) has 1–9 digits and is rounded half up to the microsecond, exactly. The
/// year has 4–6 digits and an optional `-`. Days are checked against the month (and leap
/// years), hours below 24, minutes and seconds below 60, offsets below 24 hours and 60
/// minutes. Independent of locale and calendar settings (proleptic Gregorian calendar).
package enum ISODateText {
    /// Microseconds since 1970-01-01T00:00:00Z of `text`, or `nil` when it is not one of
    /// the accepted forms (or its microseconds do not fit in 64 bits).
    package static func microseconds(from text: String) -> Int64? {
        var scanner = Scanner(Array(text.utf8))
        let negativeYear = scanner.take("-")
        guard let year = scanner.digits(min: 4, max: 6), scanner.take("-"),
              let month = scanner.digits(min: 2, max: 2), scanner.take("-"),
              let day = scanner.digits(min: 2, max: 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = days(fromCivil: negativeYear ? -year : year, month, day)
        if scanner.isAtEnd { return total(days: days, seconds: 0, micros: 0) }

        guard scanner.take("T") || scanner.take("t") || scanner.take(" "),
              let hour = scanner.digits(min: 2, max: 2), scanner.take(":"),
              let minute = scanner.digits(min: 2, max: 2),
              hour < 24, minute < 60
        else { return nil }
        var second: Int64 = 0
        var micros: Int64 = 0
        if scanner.take(":") {
            guard let seconds = scanner.digits(min: 2, max: 2), seconds < 60 else { return nil }
            second = seconds
            if scanner.take(".") || scanner.take(",") {
                // Exact decimal arithmetic: the first six digits, rounded half up by the seventh.
                var digits: [Int64] = []
                while let byte = scanner.peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits.count < 9 {
                    digits.append(Int64(byte - UInt8(ascii: "0")))
                    scanner.position += 1
                }
                guard !digits.isEmpty else { return nil }
                while digits.count < 7 { digits.append(0) }
                micros = digits[0..<6].reduce(0) { $0 * 10 + $1 } + (digits[6] >= 5 ? 1 : 0)
            }
        }

        var offset: Int64 = 0
        if scanner.take("Z") || scanner.take("z") {
        } else if let sign = scanner.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            scanner.position += 1
            guard let offsetHours = scanner.digits(min: 2, max: 2), offsetHours < 24 else { return nil }
            var offsetMinutes: Int64 = 0
            if !scanner.isAtEnd {
                _ = scanner.take(":")
                guard let minutes = scanner.digits(min: 2, max: 2), minutes < 60 else { return nil }
                offsetMinutes = minutes
            }
            offset = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "+") ? 1 : -1)
        } else {
            return nil
        }
        guard scanner.isAtEnd else { return nil }
        return total(days: days, seconds: hour * 3600 + minute * 60 + second - offset, micros: micros)
    }

    /// The text of stored microseconds: `2024-03-01T09:30:00Z`, with six fraction digits
    /// (`2024-03-01T09:30:00.250000Z`) when the date is not a whole second.
    package static func string(microseconds: Int64) -> String {
        let (seconds, micros) = floorDivide(microseconds, 1_000_000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay % 3600 / 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micros != 0 { text += "." + pad(micros, 6) }
        return text + "Z"
    }

    /// `days` days and `seconds` seconds (within a few days either way) plus `micros`
    /// microseconds after the epoch, or `nil` when that does not fit in 64 bits.
    private static func total(days: Int64, seconds: Int64, micros: Int64) -> Int64? {
        // Six-digit years keep `days * 86_400` far inside 64 bits; only microseconds can overflow.
        let (whole, overflow) = (days * 86_400 + seconds).multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return nil }
        let (sum, carry) = whole.addingReportingOverflow(micros)
        return carry ? nil : sum
    }

    // Howard Hinnant's civil-date algorithms (proleptic Gregorian calendar).
    private static func civil(fromDays z: Int64) -> (Int64, Int64, Int64) {
        let z = z + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor - (value % divisor < 0 ? 1 : 0)
        return (quotient, value - quotient * divisor)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }
        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard peek == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digits(min: Int, max: Int) -> Int64? {
            var value: Int64 = 0
            var count = 0
            while count < max, let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                position += 1
                count += 1
            }
            return count >= min ? value : nil
        }
    }
}
