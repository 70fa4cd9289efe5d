import RemodelCore
import Testing

/// The forms themselves are tested through `StoreDateFormat` (RemodelStoreTests); here, the
/// edges of the arithmetic.
@Suite struct ISODateTextTests {
    @Test func yearsBeyondFourDigitsAndBeforeTheEraRoundTrip() {
        for text in ["-0001-03-01T00:00:00Z", "0000-02-29T00:00:00Z", "10000-01-01T00:00:00Z", "200000-12-31T23:59:59.999999Z"] {
            let micros = ISODateText.microseconds(from: text)
            #expect(micros.map(ISODateText.string(microseconds:)) == text)
        }
        #expect(ISODateText.microseconds(from: "-0001-01-01") == -62_198_755_200_000_000)
    }

    @Test(arguments: ["999999-12-31", "999999-12-31T23:59:59Z", "-999999-01-01"])
    func microsecondsBeyond64BitsAreNotADate(_ text: String) {
        #expect(ISODateText.microseconds(from: text) == nil)
    }

    @Test func theLast64BitMicrosecondIsADate() {
        #expect(ISODateText.string(microseconds: .max) == "294247-01-10T04:00:54.775807Z")
        #expect(ISODateText.microseconds(from: "294247-01-10T04:00:54.775807Z") == .max)
        #expect(ISODateText.microseconds(from: "294247-01-10T04:00:54.775808Z") == nil)
    }
}
