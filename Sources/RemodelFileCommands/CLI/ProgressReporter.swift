import Dispatch
import Foundation
import RemodelGeneration
import RemodelMigrate
import RemodelStore

/// Shows the progress of long work (`import`, `export`, `migrate`) on standard error: on a
/// terminal one line with a bar, rewritten in place (`ProgressLine.terminal`); otherwise
/// plain lines now and then, for a log (`ProgressLine.plain`); nothing with `--quiet`.
///
/// The line is live only inside `run`, and the commands write nothing else meanwhile: they
/// print the plan, warnings and notes before, results and errors after, once `run` has
/// drawn the final state (or cleared the line after a failure). So the progress never
/// interleaves with other output, on either stream.
///
/// On a terminal the line is redrawn at most `redrawInterval` apart, but the first state of
/// each stage and the final one are always drawn; a timer redraws it while one long
/// statement runs, so that the time and rate stay current. In a log a line is written once a
/// stage has run for `firstLineDelay` (a quick one gets none), then when another tenth of it
/// is done (at most one a second) or `lineInterval` has passed, and a summary at the end.
///
/// Sendable by hand: every stored `var` is read and written only while `lock` is held, by
/// the updates (on the thread doing the work) and by the timer's handler (on a global queue)
/// alike; the `let`s are set once, in `init`.
package final class ProgressReporter: @unchecked Sendable {
    /// Where the progress goes.
    package enum Mode: Sendable, Equatable {
        /// A terminal: one line rewritten in place.
        case terminal
        /// A file or pipe: plain lines, no escape codes.
        case lines
        /// `--quiet`: nothing, and the libraries count nothing for it.
        case off

        /// `.terminal` when standard error is a terminal that understands escape codes (not
        /// `TERM=dumb`), `.lines` otherwise, `.off` when `quiet`.
        package static func standardError(quiet: Bool) -> Mode {
            if quiet { return .off }
            return Console.errorTakesEscapes ? .terminal : .lines
        }
    }

    /// `--quiet`, for the commands that show progress.
    package static let quietOption = OptionSpec.flag(
        "quiet", short: "q",
        help: "Print no progress on stderr and no notes (the backup's name, what an export wrote to FILE); errors, warnings and results are printed as ever."
    )

    /// The shortest time between two redraws of a terminal line.
    package static let redrawInterval = Duration.milliseconds(100)
    /// The longest time between two lines in a log while work goes on.
    package static let lineInterval = Duration.seconds(5)
    /// How long a stage runs before a log gets a line about it.
    package static let firstLineDelay = Duration.seconds(1)

    private struct Stage {
        var verb: String
        var unit: String
        var started: ContinuousClock.Instant
        var done: Int
        var total: Int
        var detail: String
    }

    private let mode: Mode
    private let finishedVerb: String
    private let write: @Sendable (String) -> Void
    private let now: @Sendable () -> ContinuousClock.Instant
    private let width: @Sendable () -> Int
    private let lock = NSLock()
    private let started: ContinuousClock.Instant
    private var stage: Stage?
    private var drawn: (at: ContinuousClock.Instant, done: Int, detail: String)?
    private var logged: (at: ContinuousClock.Instant, fraction: Double)?
    private var isLive = false
    private var isFinished = false
    /// Set by `suspend`: no more drawing until `finish`.
    private var isSuspended = false
    private var timer: (any DispatchSourceTimer)?

    /// A reporter for `mode` whose work, once done, is `finishedVerb` (`migrated`). `write`,
    /// `now`, `width` and `tick` (the timer's period; nil for no timer) are for tests.
    package init(
        finished finishedVerb: String, mode: Mode, write: @escaping @Sendable (String) -> Void = Console.writeError,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }, width: @escaping @Sendable () -> Int = ProgressReporter.terminalWidth,
        tick: Duration? = .milliseconds(250)
    ) {
        self.mode = mode
        self.finishedVerb = finishedVerb
        self.write = write
        self.now = now
        self.width = width
        started = now()
        if mode != .off, let tick {
            let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
            let nanoseconds = Int(tick.components.seconds) * 1_000_000_000 + Int(tick.components.attoseconds / 1_000_000_000)
            timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
            timer.setEventHandler { [weak self] in self?.refresh() }
            timer.resume()
            self.timer = timer
        }
    }

    deinit { timer?.cancel() }

    /// Runs `body` with a reporter on standard error (`Mode.standardError`), then ends the
    /// reporter's line before returning or throwing: with the final state when `body`
    /// returned, cleared when it threw, so that what the command prints next starts on a line
    /// of its own.
    ///
    /// `deliver` is the last part of the work, which prints: an export's JSON on standard
    /// output. It runs with the line cleared, and the final state is drawn only once it has
    /// succeeded, so that the progress never claims work whose result could not be written.
    package static func run<T>(finished verb: String, quiet: Bool, _ body: (ProgressReporter) throws -> T, delivering deliver: ((T) throws -> Void)? = nil) throws -> T {
        let reporter = ProgressReporter(finished: verb, mode: .standardError(quiet: quiet))
        do {
            let result = try body(reporter)
            if let deliver {
                reporter.suspend()
                try deliver(result)
            }
            reporter.finish(succeeded: true)
            return result
        } catch {
            reporter.finish(succeeded: false)
            throw error
        }
    }

    /// The callback for a migration (`Migrator.migrate(progress:)`); nil with `--quiet`.
    package var migration: (@Sendable (MigrationProgress) -> Void)? {
        guard mode != .off else { return nil }
        return { [self] progress in
            // `completed` is the operation about to run: those before it are done.
            update(verb: "migrating", unit: "statements", done: max(0, progress.completed - 1), total: progress.total, detail: "version \(progress.version): \(progress.activity)")
        }
    }

    /// The callback for an import or export (`StoreJSON`, `PostgresStore`); nil with `--quiet`.
    package var dataTransfer: (@Sendable (DataTransferProgress) -> Void)? {
        guard mode != .off else { return nil }
        return { [self] progress in
            update(verb: progress.stage.rawValue, unit: "objects", done: progress.completed, total: progress.total, detail: progress.type)
        }
    }

    /// Records the state of the work: `done` of `total` `unit` through the stage `verb`
    /// (`checking`, `importing`), `detail` running now. A new verb starts a new stage, with a
    /// rate and time left of its own.
    package func update(verb: String, unit: String, done: Int, total: Int, detail: String) {
        lock.lock()
        defer { lock.unlock() }
        guard mode != .off, !isFinished, !isSuspended else { return }
        let time = now()
        let isNewStage = stage?.verb != verb
        if isNewStage {
            stage = Stage(verb: verb, unit: unit, started: time, done: done, total: total, detail: detail)
            drawn = nil
            logged = nil
        } else {
            stage!.unit = unit
            stage!.done = done
            stage!.total = total
            stage!.detail = detail
        }
        switch mode {
        case .terminal:
            if let drawn, time - drawn.at < Self.redrawInterval { return }
            draw(at: time)
        case .lines:
            if let logged {
                let fraction = line(at: time).fraction
                let tenthMore = fraction >= logged.fraction + 0.1 && time - logged.at >= .seconds(1)
                guard tenthMore || time - logged.at >= Self.lineInterval else { return }
            } else {
                // A stage over within a second makes no line of its own: the summary says it all.
                guard time - stage!.started >= Self.firstLineDelay else { return }
            }
            log(at: time)
        case .off:
            break
        }
    }

    /// Writes `text` as a line of its own while the work goes on (a terminal's progress line
    /// is cleared first and drawn again at the next update); nothing with `--quiet`.
    package func note(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        guard !isFinished, mode != .off else { return }
        if mode == .terminal, isLive { write("\r\u{1B}[K") }
        write(text + "\n")
        isLive = false
        drawn = nil
    }

    /// Clears a terminal line and stops updating it, for output that is not progress; the
    /// work's state is kept for `finish`.
    package func suspend() {
        lock.lock()
        defer { lock.unlock() }
        isSuspended = true
        timer?.cancel()
        if mode == .terminal, isLive { write("\r\u{1B}[K") }
        isLive = false
    }

    /// Ends the progress: on success the final state (`migrated 12/12 statements · … · in
    /// 1.2s`), on a terminal on a line of its own; after a failure the terminal line is
    /// cleared (the error says what happened). Nothing is written after this.
    package func finish(succeeded: Bool) {
        lock.lock()
        defer { lock.unlock() }
        guard !isFinished else { return }
        isFinished = true
        timer?.cancel()
        guard let stage else { return }
        let time = now()
        var final = ProgressLine(verb: finishedVerb, unit: stage.unit, done: stage.total, total: stage.total, elapsed: time - started, isFinished: true)
        switch mode {
        case .terminal where succeeded:
            write("\r" + final.terminal(width: width()) + "\u{1B}[K\n")
        case .terminal:
            if isLive { write("\r\u{1B}[K") }
        case .lines where succeeded:
            final.detail = ""
            write(final.plain + "\n")
        case .lines, .off:
            break
        }
        isLive = false
    }

    /// The timer: redraws a terminal line whose state changed since it was drawn (an update
    /// that came too soon after the last draw) or that has not been drawn for a second; in a
    /// log, writes a line when `lineInterval` has passed without one.
    private func refresh() {
        lock.lock()
        defer { lock.unlock() }
        guard !isFinished, !isSuspended, let stage else { return }
        let time = now()
        switch mode {
        case .terminal:
            guard let drawn else { return draw(at: time) }
            if drawn.done != stage.done || drawn.detail != stage.detail || time - drawn.at >= .seconds(1) { draw(at: time) }
        case .lines:
            if let logged {
                if time - logged.at >= Self.lineInterval { log(at: time) }
            } else if time - stage.started >= Self.firstLineDelay {
                log(at: time)
            }
        case .off:
            break
        }
    }

    private func line(at time: ContinuousClock.Instant) -> ProgressLine {
        let stage = stage!
        return ProgressLine(verb: stage.verb, unit: stage.unit, done: stage.done, total: stage.total, elapsed: time - stage.started, detail: stage.detail)
    }

    private func draw(at time: ContinuousClock.Instant) {
        write("\r" + line(at: time).terminal(width: width()) + "\u{1B}[K")
        drawn = (time, stage!.done, stage!.detail)
        isLive = true
    }

    private func log(at time: ContinuousClock.Instant) {
        let line = line(at: time)
        write(line.plain + "\n")
        logged = (time, line.fraction)
    }

    /// The width of the terminal on standard error: `COLUMNS` when set, else what the
    /// terminal says (`TIOCGWINSZ`), else 80.
    package static func terminalWidth() -> Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        var size = winsize()
        if ioctl(FileHandle.standardError.fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
