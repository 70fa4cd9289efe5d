import Foundation

/// A random number generator that gives the same numbers for the same seed on every machine
/// and run (SplitMix64): what makes generated test data, anonymised fixtures and a test's
/// generated migration values repeatable.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// A generator for one part of a run (a version, a type): the seed mixed with the words
    /// naming it, stable across processes (unlike `Hasher`).
    public init(seed: UInt64, _ words: String...) {
        var mixed = seed
        for word in words {
            // FNV-1a over the UTF-8 bytes, then one SplitMix64 step to spread it.
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in word.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            var step = SeededRandom(seed: mixed ^ hash)
            mixed = step.next()
        }
        state = mixed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

extension SeededRandom {
    /// A version-4 UUID of RFC 4122's variant, as `UUID()` makes, from this generator.
    public mutating func uuid() -> UUID {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &self) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14],
                bytes[15]
            ))
    }

    /// An ObjectID of twelve bytes from this generator.
    public mutating func objectID() -> ObjectID {
        ObjectID(bytes: (0..<12).map { _ in UInt8.random(in: 0...255, using: &self) })!
    }
}
