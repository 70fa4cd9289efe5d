import Foundation

/// One state of long work and its two renderings: a line with a bar for a terminal, which is
/// rewritten in place, and a plain line for a log. Pure: the caller measures the time and
/// the terminal's width.
///
/// The rate is `done` over the time elapsed, shown once something is done; the time left is
/// what remains at that rate, shown only after a second of work (before that, a rate says
/// little) and `—` until then.
package struct ProgressLine: Sendable, Equatable {
    /// What the work is doing (`migrating`, `checking`), or once finished what it did
    /// (`migrated`).
    package var verb: String
    /// What `done` and `total` count: `statements`, `objects`.
    package var unit: String
    /// Units done, of `total` (a total of 0 is work with nothing to do: complete).
    package var done: Int
    package var total: Int
    /// Time since the work started.
    package var elapsed: Duration
    /// What runs now (`version 3: UPDATE "Person" SET …`, `Person`); empty for nothing.
    package var detail: String
    /// Whether the work is over (the final state: elapsed time instead of time left).
    package var isFinished: Bool

    package init(verb: String, unit: String, done: Int, total: Int, elapsed: Duration, detail: String = "", isFinished: Bool = false) {
        self.verb = verb
        self.unit = unit
        self.done = done
        self.total = total
        self.elapsed = elapsed
        self.detail = detail
        self.isFinished = isFinished
    }

    /// The narrowest bar shown, and the widest.
    package static let minimumBar = 10
    package static let maximumBar = 30

    /// The characters of detail the bar leaves room for.
    package static let detailRoom = 20

    /// How much work must have run before the time left is estimated.
    package static let estimateAfter = Duration.seconds(1)

    /// The share of the work done, 0…1 (1 for a total of 0).
    package var fraction: Double {
        guard total > 0 else { return 1 }
        return min(1, max(0, Double(done) / Double(total)))
    }

    /// Units per second, once any are done in measurable time.
    package var rate: Double? {
        let seconds = Self.seconds(elapsed)
        guard done > 0, seconds > 0 else { return nil }
        return Double(done) / seconds
    }

    /// The time left at the rate so far: nil before `estimateAfter` of work or before a
    /// rate; zero once everything is done.
    package var timeLeft: Duration? {
        if done >= total { return .zero }
        guard elapsed >= Self.estimateAfter, let rate else { return nil }
        let left = Double(total - done) / rate
        guard left.isFinite, left >= 0 else { return nil }
        return .milliseconds(Int64(min(left, 1e9) * 1000))
    }

    /// `5/12 statements`.
    package var count: String { "\(Self.number(done))/\(Self.number(total)) \(unit)" }

    /// `2.1/s`, `48,210/s`, or `—/s` before there is a rate.
    package var rateText: String {
        guard let rate else { return "—/s" }
        return (rate < 10 ? String(format: "%.1f", rate) : Self.number(Int(rate.rounded()))) + "/s"
    }

    /// `3s left` (`— left` before an estimate); once finished, the time it took: `in 1.2s`.
    package var timeText: String {
        if isFinished { return "in " + Self.duration(elapsed, fractional: true) }
        return (timeLeft.map { Self.duration($0, fractional: false) } ?? "—") + " left"
    }

    /// The line for a terminal, at most `width - 1` characters (the last column is left free,
    /// so that no terminal wraps it): `migrating ██████████░░░░░░░░░░ 5/12 statements · 2.1/s
    /// · 3s left · version 3: UPDATE …`. The bar takes the room the numbers leave at their
    /// widest, less `detailRoom`, between `minimumBar` and `maximumBar` cells: so it keeps its
    /// width while the numbers and the detail change. The detail gets what is left, shortened, or
    /// is dropped; on a narrower terminal the bar goes, then the time and rate; one too narrow
    /// for the count gets as much of it as fits.
    package func terminal(width: Int) -> String {
        let room = max(1, width - 1)
        let detail = isFinished ? "" : Self.shortened(self.detail, to: room)
        let stats = [count, rateText, timeText]
        let widest = verb.count + 2 + Self.number(total).count * 2 + 2 + unit.count + 3 + max(rateText.count, 9) + 3 + max(timeText.count, 12)
        let fitted = min(Self.maximumBar, room - widest - 3 - Self.detailRoom)
        for kept in stride(from: stats.count, through: 1, by: -1) {
            for bar in [max(fitted, Self.minimumBar), 0] {
                let head = ([verb] + (bar > 0 ? [self.bar(width: bar)] : []) + [stats[0]]).joined(separator: " ")
                let line = ([head] + stats[1..<kept]).joined(separator: " · ")
                guard line.count <= room else { continue }
                let space = room - line.count - 3
                return !detail.isEmpty && space >= min(detail.count, 8) ? line + " · " + Self.shortened(detail, to: space) : line
            }
        }
        return Self.shortened("\(verb) \(count)", to: room)
    }

    /// The line for a log: `migrating: 5/12 statements (41%) · 2.1/s · 3s left · version 3:
    /// UPDATE …`; finished, `migrated 12/12 statements in 1.2s (10.0/s)`. No bar, no escape
    /// codes.
    package var plain: String {
        if isFinished { return "\(verb) \(count) \(timeText) (\(rateText))" }
        let percent = Int((fraction * 100).rounded(.down))
        return (["\(verb): \(count) (\(percent)%)", rateText, timeText] + (detail.isEmpty ? [] : [Self.shortened(detail, to: Int.max)])).joined(separator: " · ")
    }

    /// `███████░░░░░`: `width` cells, filled in proportion to the work done.
    package func bar(width: Int) -> String {
        let filled = Int((fraction * Double(width)).rounded(.down))
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }

    /// `12,345`.
    package static func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// `0.4s`, `3s`, `2m 05s`, `1h 02m`; tenths of a second under ten seconds when
    /// `fractional`, else whole seconds rounded up (a second left is not zero left).
    package static func duration(_ duration: Duration, fractional: Bool) -> String {
        let seconds = max(0, Self.seconds(duration))
        if fractional, seconds < 10 { return String(format: "%.1fs", seconds) }
        let whole = Int(seconds.rounded(fractional ? .toNearestOrEven : .up))
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m \(String(format: "%02d", whole % 60))s" }
        return "\(whole / 3600)h \(String(format: "%02d", whole % 3600 / 60))m"
    }

    package static func seconds(_ duration: Duration) -> Double {
        let components = duration.components
        return Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// `text` on one line, cut to `length` columns, ending in `…` when cut. Line breaks, tabs
    /// and other control characters (an escape in a value a step writes) become spaces, so
    /// that nothing but the line itself reaches the terminal. A character beyond ASCII counts
    /// as two columns, as wide ones (CJK, emoji) take: the line may end a little short, but
    /// never wraps, which would break its rewriting in place.
    package static func shortened(_ text: String, to length: Int) -> String {
        var line = ""
        line.unicodeScalars.append(contentsOf: text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 })
        func columns(_ character: Character) -> Int { character.isASCII ? 1 : 2 }
        guard line.reduce(0, { $0 + columns($1) }) > length else { return line }
        let room = length > 1 ? length - 1 : max(0, length)
        var cut = ""
        var used = 0
        for character in line {
            guard used + columns(character) <= room else { break }
            cut.append(character)
            used += columns(character)
        }
        return length > 1 ? cut + "…" : cut
    }
}
