/// ISO 8601 text of dates, to the microsecond: the one parser and formatter behind schema
/// defaults, the store (`StoreDateFormat`), migration step values and generated code, and the
/// one range check of dates.
///
/// Accepted: `YYYY-MM-DD` (midnight UTC), or that date, `T` (or `t`, or a space) and
/// `HH:MM[:SS[.fraction]]` with `Z` (`z`) or an offset `±HH`, `±HHMM`, `±HH:MM`. The fraction
/// (after `.` or `,`) has 1–9 digits and is rounded half up to the microsecond, exactly. The
/// year has 4 digits and an optional `-`. Days are checked against the month (and leap
/// years), hours below 24, minutes and seconds below 60, offsets below 24 hours and 60
/// minutes. Independent of locale and calendar settings (proleptic Gregorian calendar).
///
/// Dates are supported from -9999-01-01T00:00:00Z through 9999-12-31T23:59:59.999999Z
/// (`supportedRange`): inside it every date converts exactly between text, stored
/// microseconds and Foundation's `Date`.
package enum ISODateText {
    /// Stored microseconds of the first and last supported instants.
    package static let supportedRange: ClosedRange<Int64> = -377_705_116_800_000_000...253_402_300_799_999_999
    /// The supported range, for messages.
    package static let rangeDescription = "years -9999 through 9999 (-9999-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z)"

    /// Microseconds since 1970-01-01T00:00:00Z of `text`, or `nil` when it is not one of
    /// the accepted forms or is out of the supported range.
    package static func microseconds(from text: String) -> Int64? {
        try? parse(text).get()
    }

    /// Microseconds since 1970-01-01T00:00:00Z of `text`, or what is wrong with it.
    package static func parse(_ text: String) -> Result<Int64, ValueProblem> {
        func fail(_ description: String) -> Result<Int64, ValueProblem> { .failure(ValueProblem(description)) }
        let form = "is not an ISO 8601 date-time such as 2024-03-01T09:30:00Z (or a date such as 2024-03-01)"
        var scanner = Scanner(Array(text.utf8))
        let negativeYear = scanner.take("-")
        guard let year = scanner.digits(min: 4, max: 6) else { return fail(form) }
        guard year <= 9999 || scanner.peek != UInt8(ascii: "-") else {
            return fail("is out of range: year \(negativeYear ? "-" : "")\(year) is beyond 9999, and dates are supported for \(rangeDescription)")
        }
        guard scanner.take("-"), let month = scanner.digits(min: 2, max: 2), scanner.take("-"),
            let day = scanner.digits(min: 2, max: 2)
        else { return fail(form) }
        guard (1...12).contains(month) else { return fail("is not a valid date: month \(pad(month, 2)) does not exist (01–12)") }
        let signedYear = negativeYear ? -year : year
        guard (1...daysIn(month: month, year: signedYear)).contains(day) else {
            return fail("is not a valid date: day \(pad(day, 2)) does not exist in \(pad(signedYear, 4))-\(pad(month, 2)) (01–\(daysIn(month: month, year: signedYear)))")
        }
        let days = days(fromCivil: signedYear, month, day)
        if scanner.isAtEnd { return checked(days * 86_400_000_000) }

        guard scanner.take("T") || scanner.take("t") || scanner.take(" "),
            let hour = scanner.digits(min: 2, max: 2), scanner.take(":"),
            let minute = scanner.digits(min: 2, max: 2)
        else { return fail(form) }
        guard hour < 24, minute < 60 else { return fail("is not a valid time: \(pad(hour, 2)):\(pad(minute, 2)) is out of range (hours 00–23, minutes 00–59)") }
        var second: Int64 = 0
        var micros: Int64 = 0
        if scanner.take(":") {
            guard let seconds = scanner.digits(min: 2, max: 2) else { return fail(form) }
            guard seconds < 60 else { return fail("is not a valid time: second \(pad(seconds, 2)) is out of range (00–59)") }
            second = seconds
            if scanner.take(".") || scanner.take(",") {
                // Exact decimal arithmetic: the first six digits, rounded half up by the seventh.
                var digits: [Int64] = []
                while let byte = scanner.peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits.count < 9 {
                    digits.append(Int64(byte - UInt8(ascii: "0")))
                    scanner.position += 1
                }
                guard !digits.isEmpty else { return fail(form) }
                while digits.count < 7 { digits.append(0) }
                micros = digits[0..<6].reduce(0) { $0 * 10 + $1 } + (digits[6] >= 5 ? 1 : 0)
            }
        }

        var offset: Int64 = 0
        if scanner.take("Z") || scanner.take("z") {
        } else if let sign = scanner.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            scanner.position += 1
            guard let offsetHours = scanner.digits(min: 2, max: 2) else { return fail(form) }
            var offsetMinutes: Int64 = 0
            if !scanner.isAtEnd {
                _ = scanner.take(":")
                guard let minutes = scanner.digits(min: 2, max: 2) else { return fail(form) }
                offsetMinutes = minutes
            }
            guard offsetHours < 24, offsetMinutes < 60 else {
                let signText = sign == UInt8(ascii: "+") ? "+" : "-"
                return fail("has a time-zone offset out of range: \(signText)\(pad(offsetHours, 2)):\(pad(offsetMinutes, 2)) (hours 00–23, minutes 00–59)")
            }
            offset = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "+") ? 1 : -1)
        } else {
            return fail(scanner.isAtEnd ? "has no time zone: end it with Z (UTC) or an offset such as +02:00" : form)
        }
        guard scanner.isAtEnd else { return fail(form) }
        // Four-digit years keep every term far inside 64 bits.
        return checked((days * 86_400 + hour * 3600 + minute * 60 + second - offset) * 1_000_000 + micros)
    }

    /// `microseconds`, or why it is outside the supported range.
    private static func checked(_ microseconds: Int64) -> Result<Int64, ValueProblem> {
        guard supportedRange.contains(microseconds) else {
            return .failure(ValueProblem("is out of range: dates are supported for \(rangeDescription)"))
        }
        return .success(microseconds)
    }

    /// The stored microseconds of `seconds` since 1970-01-01T00:00:00Z (a `Date`'s
    /// `timeIntervalSince1970`), rounded to the microsecond; `nil` when it is not finite or
    /// outside the supported range. Never traps.
    package static func microseconds(secondsSince1970 seconds: Double) -> Int64? {
        let micros = (seconds * 1_000_000).rounded()
        guard micros.isFinite, micros >= Double(supportedRange.lowerBound), micros <= Double(supportedRange.upperBound) else { return nil }
        return Int64(micros)
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

    /// The floored quotient and the non-negative remainder; never overflows, even for
    /// `Int64.min` (a stored value edited by hand still formats).
    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
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
