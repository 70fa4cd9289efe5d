import RemodelCore
import Testing

/// The forms themselves are tested through `StoreDateFormat` (RemodelStoreTests); here, the
/// edges of the arithmetic and of the supported range (years -9999 through 9999, so that
/// every date converts exactly between text, microseconds and `Date`).
@Suite struct ISODateTextTests {
    @Test func yearsBeforeTheEraAndAtTheEdgesRoundTrip() {
        for text in ["-0001-03-01T00:00:00Z", "0000-02-29T00:00:00Z", "-9999-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z"] {
            let micros = ISODateText.microseconds(from: text)
            #expect(micros.map(ISODateText.string(microseconds:)) == text)
        }
        #expect(ISODateText.microseconds(from: "-0001-01-01") == -62_198_755_200_000_000)
        #expect(ISODateText.microseconds(from: "-9999-01-01") == ISODateText.supportedRange.lowerBound)
        #expect(ISODateText.microseconds(from: "9999-12-31T23:59:59.999999Z") == ISODateText.supportedRange.upperBound)
    }

    @Test(arguments: [
        "10000-01-01T00:00:00Z", "999999-12-31", "999999-12-31T23:59:59Z", "-999999-01-01", "-292300-01-01T00:00:00Z",
        "294247-01-10T04:00:54.775807Z", "9999-12-31T23:59:59.9999995Z", "9999-12-31T23:00:00-01:00", "-9999-01-01T00:00:00+00:01",
    ])
    func datesBeyondTheSupportedRangeAreOutOfRange(_ text: String) {
        #expect(ISODateText.microseconds(from: text) == nil)
        guard case .failure(let problem) = ISODateText.parse(text) else {
            Issue.record("\(text) parsed")
            return
        }
        #expect(problem.description.contains("is out of range"))
        #expect(problem.description.contains("years -9999 through 9999"))
    }

    @Test func theLast64BitMicrosecondStillFormats() {
        #expect(ISODateText.string(microseconds: .max) == "294247-01-10T04:00:54.775807Z")
        #expect(ISODateText.string(microseconds: .min) == "-290308-12-21T19:59:05.224192Z")
    }
}
