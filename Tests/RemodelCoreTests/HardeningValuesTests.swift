import Foundation
import RemodelCore
import Testing

/// The one date rule says what is wrong, the checked `Date` conversion never traps, and the
/// one decimal rule refuses what Foundation would read as another number.
@Suite struct HardeningValuesTests {
    @Test(arguments: [
        ("2024-01-01T00:00:00+99:99", "time-zone offset out of range: +99:99 (hours 00–23, minutes 00–59)"),
        ("2024-01-01T00:00:00+05:60", "time-zone offset out of range: +05:60"),
        ("2024-13-01", "month 13 does not exist (01–12)"),
        ("2023-02-29", "day 29 does not exist in 2023-02 (01–28)"),
        ("2024-01-01T24:00Z", "is not a valid time: 24:00 is out of range"),
        ("2024-01-01T10:00:61Z", "second 61 is out of range (00–59)"),
        ("2024-01-01T10:00", "has no time zone: end it with Z (UTC) or an offset such as +02:00"),
        ("yesterday", "is not an ISO 8601 date-time such as 2024-03-01T09:30:00Z"),
    ])
    func dateProblemsSayWhatIsWrong(_ text: String, _ expected: String) {
        guard case .failure(let problem) = ISODateText.parse(text) else {
            Issue.record("\(text) parsed")
            return
        }
        #expect(problem.description.contains(expected), "\(problem)")
    }

    @Test func secondsOutsideTheRangeOrNotFiniteHaveNoMicroseconds() {
        for seconds in [
            Double.nan, .infinity, -.infinity, Date.distantFuture.timeIntervalSince1970 * 1000, 1e300, -1e300,
            Double(Int64.max) / 1_000_000,
        ] {
            #expect(ISODateText.microseconds(secondsSince1970: seconds) == nil)
        }
        #expect(ISODateText.microseconds(secondsSince1970: 1.25) == 1_250_000)
        #expect(ISODateText.microseconds(secondsSince1970: Date.distantFuture.timeIntervalSince1970) != nil)
    }

    @Test(arguments: ["0x10", "12abc", " 1", "1 ", "1_000", "NaN", "Infinity", "1e", ".", "+", "1.2.3", "", "١٢"])
    func decimalTextThatFoundationWouldMisreadIsRefused(_ text: String) {
        #expect(throws: ValueProblem.self) { try DecimalText.stored(text).get() }
    }

    @Test func decimalTextIsStoredAsFoundationDescribesIt() throws {
        #expect(try DecimalText.stored("1.50").get() == "1.5")
        #expect(try DecimalText.stored("-0").get() == "0")
        #expect(try DecimalText.stored(".5").get() == "0.5")
        #expect(try DecimalText.stored("1E3").get() == "1000")
        #expect(try DecimalText.stored("12345678901234567890123456789012345678").get() == "12345678901234567890123456789012345678")
        #expect(throws: ValueProblem.self) { try DecimalText.stored("123456789012345678901234567890123456789").get() }
        #expect(throws: ValueProblem.self) { try DecimalText.stored("1e400").get() }
        #expect(try DecimalText.stored("1.000000000000000000000000000000000000000000").get() == "1")
    }
}
