/// Suggestions for misspelt names ("did you mean …?").
public enum Suggestion {
    /// The candidate closest to `name` by edit distance, when it is close enough to be a
    /// plausible typo (case differences count as small).
    public static func closest<S: Sequence>(to name: String, in candidates: S) -> String? where S.Element == String {
        let lowered = name.lowercased()
        let length = name.unicodeScalars.count
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let candidateLength = candidate.unicodeScalars.count
            let limit = max(1, min(3, max(length, candidateLength) / 3))
            // Lengths further apart than the limit are further apart in edits too: a name of
            // megabytes (a value pasted where a name goes) is not compared letter by letter.
            guard abs(length - candidateLength) <= limit else { continue }
            let distance = editDistance(lowered, candidate.lowercased())
            guard distance <= limit else { continue }
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.candidate) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Edit distance between two strings, by Unicode scalar, counting an insertion, deletion,
    /// substitution or swap of two neighbours as one edit (optimal string alignment), so that
    /// the common typo "Dgo" is one edit from "Dog".
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
