import Foundation
import RemodelCore

/// The hash remodel.sum records for a file: SHA-256 over the SHA-256 of each of its
/// *chunks*, in order. A chunk starts at every line that is not indented and at every line
/// indented by exactly two spaces (in a snapshot: the header, each section and each
/// declaration), and runs to the next. Any edit changes it as an edit changes a plain
/// SHA-256; but the declarations that consecutive snapshots share are hashed once, so that
/// verifying a long history of a large schema does not hash every snapshot's megabytes.
enum FileDigest {
    /// The digest of `bytes`.
    static func hex(of bytes: some ContiguousBytes) -> String {
        bytes.withUnsafeBytes { raw in
            let buffer = raw.bindMemory(to: UInt8.self)
            var digests: [UInt8] = []
            for range in chunks(of: buffer) { digests += chunk(UnsafeRawBufferPointer(rebasing: raw[range])) }
            return combine(digests)
        }
    }

    /// The digest of the file at `path`; `nil` when it cannot be read.
    static func hex(ofFile path: String) -> String? {
        FileManager.default.contents(atPath: path).map(hex(of:))
    }

    /// The SHA-256 of one chunk.
    static func chunk(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The SHA-256 of one chunk given as text.
    static func chunk(_ text: Substring) -> [UInt8] {
        var text = text
        return text.withUTF8 { chunk(UnsafeRawBufferPointer($0)) }
    }

    /// The file's digest from its chunks' digests, concatenated in order.
    static func combine(_ digests: [UInt8]) -> String {
        SHA256.hexDigest(of: digests)
    }

    /// Where each chunk of `bytes` is.
    static func chunks(of bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let space = UInt8(ascii: " ")
        let newline = UInt8(ascii: "\n")
        var ranges: [Range<Int>] = []
        var start = 0
        var line = 0
        while line < bytes.count {
            if line > start && startsChunk(bytes, at: line, space: space) {
                ranges.append(start..<line)
                start = line
            }
            guard let found = memchr(bytes.baseAddress! + line, Int32(newline), bytes.count - line) else { break }
            line = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
        }
        if start < bytes.count || ranges.isEmpty { ranges.append(start..<bytes.count) }
        return ranges
    }

    private static func startsChunk(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, space: UInt8) -> Bool {
        if bytes[index] != space { return true }
        return index + 2 < bytes.count && bytes[index + 1] == space && bytes[index + 2] != space
    }
}
