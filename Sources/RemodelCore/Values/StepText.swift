/// The text rules of the `split` and `convert` steps, in one home: the SQLite functions that
/// migrate a store and the Realm migration block that Remodel generates both follow them.
public enum StepText {
    /// Whether `byte` is one of the characters `split` and `convert` trim: space, tab, LF, CR.
    @inlinable @inline(__always)
    public static func isTrimmed(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The bounds of `bytes[range]` without leading and trailing trimmed characters.
    @inlinable
    public static func trim(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper && isTrimmed(bytes[lower]) { lower += 1 }
        while upper > lower && isTrimmed(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The first occurrence of `separator` in `bytes[range]`.
    @inlinable
    public static func find(_ separator: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !separator.isEmpty, range.count >= separator.count else { return nil }
        let first = separator[0]
        var index = range.lowerBound
        let last = range.upperBound - separator.count
        while index <= last {
            if bytes[index] == first {
                var matched = 1
                while matched < separator.count && bytes[index + matched] == separator[matched] { matched += 1 }
                if matched == separator.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// Part `index` of `count` of `split`: the text is trimmed, each part but the last ends at
    /// the first separator of what remains, every part is trimmed, and missing parts are
    /// empty. (The same as the SQL `trim(substr(rest, 1, instr(rest, sep) - 1))` chain.)
    @inlinable
    public static func splitPart(of bytes: UnsafeBufferPointer<UInt8>, separator: UnsafeBufferPointer<UInt8>, index: Int, count: Int) -> Range<Int> {
        var rest = trim(bytes, 0..<bytes.count)
        for _ in 0..<max(0, index) {
            guard let found = find(separator, in: bytes, rest) else { return rest.upperBound..<rest.upperBound }
            rest = trim(bytes, (found + separator.count)..<rest.upperBound)
        }
        if index < count - 1, let found = find(separator, in: bytes, rest) {
            return trim(bytes, rest.lowerBound..<found)
        }
        return rest
    }

    /// The value of a whole decimal number with an optional sign and at most 18 significant
    /// digits, after trimming; `nil` for anything else (the rule of `convert` to integers).
    @inlinable
    public static func integer(in bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var range = trim(bytes, 0..<bytes.count)
        var negative = false
        if let first = range.first, bytes[first] == UInt8(ascii: "+") || bytes[first] == UInt8(ascii: "-") {
            negative = bytes[first] == UInt8(ascii: "-")
            range = (first + 1)..<range.upperBound
        }
        guard !range.isEmpty else { return nil }
        var value: Int64 = 0
        var significant = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            if significant > 0 || byte != UInt8(ascii: "0") {
                significant += 1
                guard significant <= 18 else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
        }
        return negative ? -value : value
    }
}

extension StepText {
    /// Part `index` of `count` of `text` split at `separator`, by `splitPart(of:…)`'s rule.
    public static func splitPart(of text: String, separator: String, index: Int, count: Int) -> String {
        var text = text
        var separator = separator
        return text.withUTF8 { bytes in
            separator.withUTF8 { separatorBytes in
                String(decoding: UnsafeBufferPointer(rebasing: bytes[splitPart(of: bytes, separator: separatorBytes, index: index, count: count)]), as: UTF8.self)
            }
        }
    }

    /// The whole number `text` holds, by `integer(in:)`'s rule.
    public static func integer(in text: String) -> Int64? {
        var text = text
        return text.withUTF8 { integer(in: $0) }
    }
}
