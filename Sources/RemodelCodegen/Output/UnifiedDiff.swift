/// A line diff in the unified format of `diff -u` / `git diff`, for `generate --check` and
/// reference-test failures.
public enum UnifiedDiff {
    /// The unified diff from `old` to `new` with three lines of context; empty when they are
    /// equal.
    public static func make(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        guard old != new else { return "" }
        let a = lines(old)
        let b = lines(new)
        let edits = script(a, b)
        var out = "--- \(oldName)\n+++ \(newName)\n"
        // Group edits into hunks: runs of changes with at most 2 × context equal lines between.
        var index = 0
        while index < edits.count {
            guard let firstChange = edits[index...].firstIndex(where: { $0.kind != .equal }) else { break }
            var last = firstChange
            var cursor = firstChange
            while cursor < edits.count {
                if edits[cursor].kind != .equal {
                    last = cursor
                } else if cursor - last > 2 * context {
                    break
                }
                cursor += 1
            }
            let start = max(index, firstChange - context)
            let end = min(edits.count, last + context + 1)
            let hunk = edits[start..<end]
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            let oldStart = (hunk.first { $0.kind != .insert }?.oldIndex ?? edits[start].oldIndex) + (oldCount == 0 ? 0 : 1)
            let newStart = (hunk.first { $0.kind != .delete }?.newIndex ?? edits[start].newIndex) + (newCount == 0 ? 0 : 1)
            out += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for edit in hunk {
                switch edit.kind {
                case .equal: out += " " + a[edit.oldIndex] + "\n"
                case .delete: out += "-" + a[edit.oldIndex] + "\n"
                case .insert: out += "+" + b[edit.newIndex] + "\n"
                }
            }
            index = end
        }
        return out
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(start),\(count)"
    }

    private static func lines(_ text: String) -> [String] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if result.last == "" { result.removeLast() }
        return result
    }

    struct Edit {
        enum Kind { case equal, delete, insert }
        var kind: Kind
        /// Index in the old lines (for inserts: the old position the insert comes before).
        var oldIndex: Int
        /// Index in the new lines (for deletes: the new position).
        var newIndex: Int
    }

    /// The shortest edit script (Myers), after trimming the common prefix and suffix. When
    /// the middle differs by more than `maxDistance` edits it is replaced wholesale, which
    /// keeps time and memory bounded for unrelated files.
    static func script(_ a: [String], _ b: [String], maxDistance: Int = 2_000) -> [Edit] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        var edits = (0..<prefix).map { Edit(kind: .equal, oldIndex: $0, newIndex: $0) }
        let midA = Array(a[prefix..<(a.count - suffix)])
        let midB = Array(b[prefix..<(b.count - suffix)])
        let middle =
            myers(midA, midB, maxDistance: maxDistance)
            ?? (midA.indices.map { Edit(kind: .delete, oldIndex: $0, newIndex: 0) } + midB.indices.map { Edit(kind: .insert, oldIndex: midA.count, newIndex: $0) })
        edits += middle.map { Edit(kind: $0.kind, oldIndex: $0.oldIndex + prefix, newIndex: $0.newIndex + prefix) }
        edits += (0..<suffix).map { Edit(kind: .equal, oldIndex: a.count - suffix + $0, newIndex: b.count - suffix + $0) }
        return edits
    }

    private static func myers(_ a: [String], _ b: [String], maxDistance: Int) -> [Edit]? {
        let n = a.count
        let m = b.count
        let max = n + m
        if max == 0 { return [] }
        let offset = max + 1
        var v = [Int](repeating: 0, count: 2 * max + 3)
        var trace: [[Int]] = []
        var found = false
        for d in 0...max {
            if d > maxDistance { return nil }
            trace.append(v)
            var k = -d
            while k <= d {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n && y >= m {
                    found = true
                    break
                }
                k += 2
            }
            if found { break }
        }
        // Walk back through the trace.
        var edits: [Edit] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : v[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX && y > previousY {
                x -= 1
                y -= 1
                edits.append(Edit(kind: .equal, oldIndex: x, newIndex: y))
            }
            if d > 0 {
                if x == previousX {
                    edits.append(Edit(kind: .insert, oldIndex: x, newIndex: previousY))
                } else {
                    edits.append(Edit(kind: .delete, oldIndex: previousX, newIndex: y))
                }
            }
            x = previousX
            y = previousY
        }
        return edits.reversed()
    }
}
