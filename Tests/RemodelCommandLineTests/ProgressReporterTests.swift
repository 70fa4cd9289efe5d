import Foundation
import RemodelMigrate
import RemodelStore
import XCTest

@testable import RemodelFileCommands

/// When the reporter draws, what it writes, and that nothing follows its end; with a clock
/// the test moves and no timer.
final class ProgressReporterTests: XCTestCase {
    /// What a reporter wrote, and the time it reads.
    private final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var written: [String] = []
        private var time = ContinuousClock.now

        func write(_ text: String) { lock.withLock { written.append(text) } }
        var output: [String] { lock.withLock { written } }
        var now: ContinuousClock.Instant { lock.withLock { time } }
        func advance(_ duration: Duration) { lock.withLock { time += duration } }
    }

    private func reporter(_ mode: ProgressReporter.Mode, _ recorder: Recorder) -> ProgressReporter {
        ProgressReporter(finished: "migrated", mode: mode, write: recorder.write, now: { recorder.now }, width: { 80 }, tick: nil)
    }

    func testOnATerminalTheLineIsRewrittenAtMostTenTimesASecondAndEndsWithTheFinalState() {
        let recorder = Recorder()
        let progress = reporter(.terminal, recorder)
        progress.update(verb: "migrating", unit: "statements", done: 0, total: 4, detail: "version 2: ALTER TABLE")
        recorder.advance(.milliseconds(50))
        progress.update(verb: "migrating", unit: "statements", done: 1, total: 4, detail: "version 2: UPDATE")
        XCTAssertEqual(recorder.output.count, 1, "the second state came too soon: \(recorder.output)")
        recorder.advance(.milliseconds(100))
        progress.update(verb: "migrating", unit: "statements", done: 2, total: 4, detail: "version 3: UPDATE")
        recorder.advance(.milliseconds(1_050))
        progress.finish(succeeded: true)
        progress.update(verb: "migrating", unit: "statements", done: 3, total: 4, detail: "too late")
        XCTAssertEqual(
            recorder.output,
            [
                "\rmigrating ░░░░░░░░░░ 0/4 statements · —/s · — left · version 2: ALTER TABLE\u{1B}[K",
                "\rmigrating █████░░░░░ 2/4 statements · 13/s · — left · version 3: UPDATE\u{1B}[K",
                "\rmigrated ██████████ 4/4 statements · 3.3/s · in 1.2s\u{1B}[K\n",
            ])
    }

    /// The timer redraws a state an update left undrawn (it came too soon) and keeps a long
    /// step's line current; after `finish` it writes nothing.
    func testTheTimerRedrawsWhatAnUpdateLeftAndStopsAtTheEnd() throws {
        let recorder = Recorder()
        let progress = ProgressReporter(
            finished: "migrated", mode: .terminal, write: recorder.write, now: { recorder.now }, width: { 80 }, tick: .milliseconds(5)
        )
        progress.update(verb: "migrating", unit: "statements", done: 0, total: 4, detail: "version 2: ALTER TABLE")
        recorder.advance(.milliseconds(10))
        progress.update(verb: "migrating", unit: "statements", done: 1, total: 4, detail: "version 2: UPDATE")
        XCTAssertEqual(recorder.output.count, 1, "the second state came too soon to be drawn by the update")
        let deadline = Date().addingTimeInterval(5)
        while recorder.output.count < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        XCTAssertEqual(recorder.output.count, 2, "the timer did not draw the waiting state: \(recorder.output)")
        XCTAssertTrue(try XCTUnwrap(recorder.output.last).contains("1/4 statements"), "\(recorder.output)")
        progress.finish(succeeded: true)
        let ended = recorder.output.count
        recorder.advance(.seconds(5))
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(recorder.output.count, ended, "written after finish: \(recorder.output.suffix(2))")
    }

    func testAFailureClearsTheLine() {
        let recorder = Recorder()
        let progress = reporter(.terminal, recorder)
        progress.finish(succeeded: false)
        XCTAssertEqual(recorder.output, [], "nothing was drawn, so nothing is cleared")

        let drawn = Recorder()
        let failing = reporter(.terminal, drawn)
        failing.update(verb: "importing", unit: "objects", done: 0, total: 10, detail: "")
        failing.finish(succeeded: false)
        XCTAssertEqual(drawn.output.last, "\r\u{1B}[K")
    }

    func testInALogLinesComeOnceAStageHasRunASecondThenEachTenthAtMostOnceASecondAndEveryFewSeconds() {
        let recorder = Recorder()
        let progress = reporter(.lines, recorder)
        progress.update(verb: "checking", unit: "objects", done: 0, total: 1_000, detail: "")
        // Within the stage's first second: no line.
        recorder.advance(.milliseconds(500))
        progress.update(verb: "checking", unit: "objects", done: 200, total: 1_000, detail: "Person")
        // A second on: the first line.
        recorder.advance(.milliseconds(600))
        progress.update(verb: "checking", unit: "objects", done: 300, total: 1_000, detail: "Person")
        // Less than a tenth more: a line only once five seconds have passed.
        recorder.advance(.seconds(4))
        progress.update(verb: "checking", unit: "objects", done: 350, total: 1_000, detail: "Dog")
        recorder.advance(.seconds(1))
        progress.update(verb: "checking", unit: "objects", done: 360, total: 1_000, detail: "Dog")
        // A new stage, with a rate of its own once it has run a second.
        recorder.advance(.milliseconds(10))
        progress.update(verb: "importing", unit: "objects", done: 0, total: 1_000, detail: "")
        recorder.advance(.milliseconds(1_200))
        progress.update(verb: "importing", unit: "objects", done: 600, total: 1_000, detail: "Dog")
        // A stage over within its first second: no line, but the summary.
        recorder.advance(.milliseconds(10))
        progress.update(verb: "writing", unit: "objects", done: 0, total: 1_000, detail: "")
        recorder.advance(.milliseconds(800))
        progress.update(verb: "writing", unit: "objects", done: 1_000, total: 1_000, detail: "")
        progress.finish(succeeded: true)
        XCTAssertEqual(
            recorder.output,
            [
                "checking: 300/1,000 objects (30%) · 273/s · 3s left · Person\n",
                "checking: 360/1,000 objects (36%) · 59/s · 11s left · Dog\n",
                "importing: 600/1,000 objects (60%) · 500/s · 1s left · Dog\n",
                "migrated 1,000/1,000 objects in 8.1s (123/s)\n",
            ])
        XCTAssertFalse(recorder.output.joined().contains("\u{1B}"))
        XCTAssertFalse(recorder.output.joined().contains("\r"))
    }

    func testQuietWritesNothingAndAsksTheLibrariesForNothing() {
        let recorder = Recorder()
        let progress = reporter(.off, recorder)
        XCTAssertNil(progress.migration)
        XCTAssertNil(progress.dataTransfer)
        progress.update(verb: "migrating", unit: "statements", done: 1, total: 2, detail: "")
        progress.finish(succeeded: true)
        XCTAssertEqual(recorder.output, [])
    }

    func testTheLibrariesCallbacksFeedTheLine() throws {
        let recorder = Recorder()
        let progress = reporter(.lines, recorder)
        // A migration reports the operation about to run: the ones before it are done.
        // (Each state given twice, a second and a half apart: a log writes once a stage has run a second.)
        let migration = MigrationProgress(version: 3, completed: 5, total: 12, activity: "UPDATE \"Person\"")
        try XCTUnwrap(progress.migration)(migration)
        recorder.advance(.milliseconds(1_500))
        try XCTUnwrap(progress.migration)(migration)
        let transfer = Recorder()
        let data = reporter(.lines, transfer)
        let imported = DataTransferProgress(stage: .importing, type: "Dog", completed: 1_000, total: 3_000)
        try XCTUnwrap(data.dataTransfer)(imported)
        transfer.advance(.milliseconds(1_500))
        try XCTUnwrap(data.dataTransfer)(imported)
        XCTAssertEqual(recorder.output, ["migrating: 4/12 statements (33%) · 2.7/s · 3s left · version 3: UPDATE \"Person\"\n"])
        XCTAssertEqual(transfer.output, ["importing: 1,000/3,000 objects (33%) · 667/s · 3s left · Dog\n"])
    }
}
