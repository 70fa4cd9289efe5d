import Foundation
import XCTest

@testable import RemodelFileCommands

/// The progress line's text: bar, counts, rate, time left, fitting the terminal.
final class ProgressLineTests: XCTestCase {
    private func line(done: Int, total: Int, seconds: Double, detail: String = "", finished: Bool = false, verb: String = "migrating", unit: String = "statements") -> ProgressLine
    {
        ProgressLine(verb: verb, unit: unit, done: done, total: total, elapsed: .milliseconds(Int64(seconds * 1000)), detail: detail, isFinished: finished)
    }

    func testATerminalLineShowsTheBarTheCountTheRateTheTimeLeftAndTheDetail() {
        let state = line(done: 5, total: 12, seconds: 2.5, detail: "version 3: UPDATE \"Person\" SET \"name\" = …")
        // 5 of 12 done in 2.5 s: 2 a second, 7 left: 3.5 s, shown rounded up. The numbers
        // at their widest take 54 columns; the bar gets the rest less 23 for the detail, at
        // most 30 cells, filled 30 × 5/12 = 12.5 → 12.
        XCTAssertEqual(
            state.terminal(width: 120),
            "migrating " + String(repeating: "█", count: 12) + String(repeating: "░", count: 18)
                + " 5/12 statements · 2.0/s · 4s left · version 3: UPDATE \"Person\" SET \"name\" = …"
        )
        // On 80 columns the bar narrows to its minimum and the detail is shortened to fit.
        let narrow = state.terminal(width: 80)
        XCTAssertEqual(narrow, "migrating ████░░░░░░ 5/12 statements · 2.0/s · 4s left · version 3: UPDATE \"Pe…")
        XCTAssertEqual(narrow.count, 79)
    }

    /// Wide characters in the detail (a CJK or emoji value in a statement) take two columns:
    /// the line measured so never reaches the last column, so it cannot wrap.
    func testWideCharactersInTheDetailNeverMakeTheLineWrap() {
        let state = line(done: 5, total: 12, seconds: 2.5, detail: "version 3: UPDATE \"Person\" SET \"name\" = '名前名前名前名前名前🐕🐕🐕🐕🐕名前名前'")
        for width in [60, 80, 100, 120] {
            let text = state.terminal(width: width)
            let columns = text.reduce(0) { $0 + ($1.isASCII || "█░·…—".contains($1) ? 1 : 2) }
            XCTAssertLessThanOrEqual(columns, width - 1, "width \(width): \(text)")
        }
        XCTAssertEqual(ProgressLine.shortened("ab名前cd", to: 5), "ab名…")
        XCTAssertEqual(ProgressLine.shortened("ab名前cd", to: 8), "ab名前cd")
    }

    func testTheLineNeverFillsTheLastColumnAndDropsWhatDoesNotFit() {
        let state = line(done: 1_234, total: 100_000, seconds: 3, detail: String(repeating: "x", count: 500), verb: "importing", unit: "objects")
        for width in [1, 2, 5, 10, 20, 30, 40, 50, 60, 70, 80, 100, 200, 400] {
            let text = state.terminal(width: width)
            XCTAssertLessThanOrEqual(text.count, max(1, width - 1), "width \(width): \(text)")
            XCTAssertFalse(text.isEmpty, "width \(width)")
        }
        // Without room for the bar, the numbers stay; then only the count.
        XCTAssertEqual(state.terminal(width: 60), "importing 1,234/100,000 objects · 411/s · 4m 01s left")
        XCTAssertEqual(state.terminal(width: 40), "importing 1,234/100,000 objects · 411/s")
        XCTAssertEqual(state.terminal(width: 30), "importing 1,234/100,000 obje…")
        XCTAssertEqual(state.terminal(width: 200).suffix(4), "xxx…")
    }

    func testTheBarKeepsItsWidthWhileTheNumbersAndTheDetailChange() {
        var widths: Set<Int> = []
        for (done, seconds, detail) in [(0, 0.0, ""), (1, 0.01, "Person"), (5_000, 1.5, "Dog"), (99_999, 40.0, "a much longer detail than the others")] {
            let text = line(done: done, total: 100_000, seconds: seconds, detail: detail, verb: "importing", unit: "objects").terminal(width: 100)
            widths.insert(text.filter { $0 == "█" || $0 == "░" }.count)
        }
        XCTAssertEqual(widths.count, 1, "\(widths)")
    }

    func testAtTheStartThereIsNoRateAndNoEstimate() {
        // Nothing done, no time: no division by zero, no NaN, dashes.
        let start = line(done: 0, total: 12, seconds: 0)
        XCTAssertNil(start.rate)
        XCTAssertNil(start.timeLeft)
        XCTAssertEqual(start.rateText, "—/s")
        XCTAssertEqual(start.timeText, "— left")
        XCTAssertEqual(start.terminal(width: 80), "migrating ░░░░░░░░░░ 0/12 statements · —/s · — left")
        // Something done in no measurable time: still no rate.
        XCTAssertNil(line(done: 3, total: 12, seconds: 0).rate)
        // A rate, but under a second of work: no estimate yet.
        let early = line(done: 3, total: 12, seconds: 0.5)
        XCTAssertEqual(early.rateText, "6.0/s")
        XCTAssertEqual(early.timeText, "— left")
        // From a second on, the time left at the rate so far.
        XCTAssertEqual(line(done: 3, total: 12, seconds: 1).timeText, "3s left")
        XCTAssertEqual(line(done: 3, total: 12, seconds: 1).timeLeft, .seconds(3))
    }

    func testATotalOfZeroIsComplete() {
        let empty = line(done: 0, total: 0, seconds: 0, verb: "importing", unit: "objects")
        XCTAssertEqual(empty.fraction, 1)
        XCTAssertEqual(empty.timeLeft, .zero)
        XCTAssertEqual(empty.terminal(width: 80), "importing ██████████ 0/0 objects · —/s · 0s left")
        XCTAssertEqual(empty.plain, "importing: 0/0 objects (100%) · —/s · 0s left")
        // More done than the total (a count that moved) is full, never past it.
        XCTAssertEqual(line(done: 14, total: 12, seconds: 1).bar(width: 10), String(repeating: "█", count: 10))
        XCTAssertEqual(line(done: 14, total: 12, seconds: 1).timeLeft, .zero)
    }

    func testTheFinalStateSaysHowLongItTook() {
        let done = line(done: 12, total: 12, seconds: 1.234, detail: "version 3: …", finished: true, verb: "migrated")
        XCTAssertEqual(done.terminal(width: 80), "migrated ██████████ 12/12 statements · 9.7/s · in 1.2s")
        XCTAssertEqual(done.plain, "migrated 12/12 statements in 1.2s (9.7/s)")
        XCTAssertEqual(
            line(done: 300_000, total: 300_000, seconds: 75, finished: true, verb: "imported", unit: "objects").plain, "imported 300,000/300,000 objects in 1m 15s (4,000/s)")
    }

    func testALogLineHasNoBarAndNoEscapes() {
        let state = line(done: 7, total: 12, seconds: 14, detail: "version 3: UPDATE \"Dog\"\n  SET \u{1B}[31m\"weight\"\t= 0")
        XCTAssertEqual(state.plain, "migrating: 7/12 statements (58%) · 0.5/s · 10s left · version 3: UPDATE \"Dog\"   SET  [31m\"weight\" = 0")
        for text in [state.plain, state.terminal(width: 200)] {
            XCTAssertFalse(text.unicodeScalars.contains { $0.properties.generalCategory == .control }, text)
        }
    }

    func testNumbersAndDurations() {
        XCTAssertEqual(ProgressLine.number(0), "0")
        XCTAssertEqual(ProgressLine.number(999), "999")
        XCTAssertEqual(ProgressLine.number(1_000), "1,000")
        XCTAssertEqual(ProgressLine.number(1_234_567), "1,234,567")
        XCTAssertEqual(ProgressLine.duration(.milliseconds(400), fractional: true), "0.4s")
        XCTAssertEqual(ProgressLine.duration(.milliseconds(400), fractional: false), "1s")
        XCTAssertEqual(ProgressLine.duration(.seconds(59), fractional: false), "59s")
        XCTAssertEqual(ProgressLine.duration(.seconds(125), fractional: false), "2m 05s")
        XCTAssertEqual(ProgressLine.duration(.seconds(3_720), fractional: true), "1h 02m")
        XCTAssertEqual(line(done: 48_210, total: 100_000, seconds: 1).rateText, "48,210/s")
    }
}
