import Foundation

/// ISO 8601 text for dates, to the microsecond, in UTC — the precision dates are stored to.
///
/// `2024-03-01T09:30:00Z`, `2024-03-01T09:30:00.250000Z`. Parsing also accepts 1–9 fraction
/// digits (rounded to the microsecond) and `±HH:MM` offsets. Independent of locale and
/// calendar settings, and exact: `date(from: string(from: d))` stores the same microseconds.
public enum StoreDateFormat {
    /// The text of `date`, rounded to the microsecond.
    public static func string(from date: Date) -> String {
        string(microseconds: date.storeMicroseconds)
    }

    /// The text of a stored date: microseconds since 1970-01-01T00:00:00Z.
    public static func string(microseconds: Int64) -> String {
        let (seconds, micros) = floorDivide(microseconds, 1_000_000)
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay % 3600 / 60, 2) + ":" + pad(secondOfDay % 60, 2)
        if micros != 0 { text += "." + pad(micros, 6) }
        return text + "Z"
    }

    /// The date written as `text`, or `nil` when it is not ISO 8601 date-time text.
    public static func date(from text: String) -> Date? {
        microseconds(from: text).map(Date.init(storeMicroseconds:))
    }

    /// The stored microseconds of `text`, or `nil` when it is not ISO 8601 date-time text.
    public static func microseconds(from text: String) -> Int64? {
        var scanner = Scanner(Array(text.utf8))
        let negativeYear = scanner.take("-")
        guard let year = scanner.digits(min: 4, max: 6), scanner.take("-"),
              let month = scanner.digits(min: 2, max: 2), scanner.take("-"),
              let day = scanner.digits(min: 2, max: 2), scanner.take("T") || scanner.take("t") || scanner.take(" "),
              let hour = scanner.digits(min: 2, max: 2), scanner.take(":"),
              let minute = scanner.digits(min: 2, max: 2), scanner.take(":"),
              let second = scanner.digits(min: 2, max: 2)
        else { return nil }
        var micros: Int64 = 0
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
        var offset: Int64 = 0
        if scanner.take("Z") || scanner.take("z") {
        } else if let sign = scanner.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            scanner.position += 1
            guard let offsetHours = scanner.digits(min: 2, max: 2) else { return nil }
            _ = scanner.take(":")
            guard let offsetMinutes = scanner.digits(min: 2, max: 2) else { return nil }
            offset = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "+") ? 1 : -1)
        } else {
            return nil
        }
        guard scanner.isAtEnd, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = days(fromCivil: negativeYear ? -year : year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return seconds * 1_000_000 + micros
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
        let digits = String(abs(value))
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
