import Foundation

/// A 12-byte object identifier compatible with MongoDB's and Realm's `ObjectId`: a 4-byte
/// big-endian timestamp, 5 random bytes and a 3-byte counter, written as 24 hex digits.
///
/// Identifiers made by one process sort by creation time, which keeps primary-key indexes
/// cheap to append to.
public struct ObjectID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible, LosslessStringConvertible {
    /// The 12 bytes, most significant first.
    public let bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)

    /// A new identifier for the current time.
    public init() {
        self.init(timestamp: Date())
    }

    /// A new identifier for the given time.
    public init(timestamp: Date) {
        let seconds = UInt32(truncatingIfNeeded: Int64(timestamp.timeIntervalSince1970.rounded(.down)))
        let random = ObjectID.processRandom
        let counter = ObjectID.nextCounter()
        bytes = (
            UInt8(truncatingIfNeeded: seconds >> 24), UInt8(truncatingIfNeeded: seconds >> 16),
            UInt8(truncatingIfNeeded: seconds >> 8), UInt8(truncatingIfNeeded: seconds),
            random.0, random.1, random.2, random.3, random.4,
            UInt8(truncatingIfNeeded: counter >> 16), UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter)
        )
    }

    /// The identifier with these exact 12 bytes; `nil` when `data` is not 12 bytes long.
    public init?<C: Collection>(bytes data: C) where C.Element == UInt8 {
        guard data.count == 12 else { return nil }
        let b = Array(data)
        bytes = (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11])
    }

    /// Parses 24 hexadecimal digits (either case); `nil` for anything else.
    public init?(_ description: String) {
        let utf8 = Array(description.utf8)
        guard utf8.count == 24 else { return nil }
        var result = [UInt8]()
        result.reserveCapacity(12)
        var index = 0
        while index < 24 {
            guard let high = ObjectID.hexValue(utf8[index]), let low = ObjectID.hexValue(utf8[index + 1]) else { return nil }
            result.append(high << 4 | low)
            index += 2
        }
        self.init(bytes: result)
    }

    /// The 12 bytes as an array.
    public var byteArray: [UInt8] {
        withUnsafeBytes(of: bytes) { Array($0) }
    }

    /// The creation time encoded in the first four bytes.
    public var timestamp: Date {
        let b = byteArray
        let seconds = UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// 24 lower-case hexadecimal digits.
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(24)
        for byte in byteArray {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.byteArray == rhs.byteArray
    }

    public func hash(into hasher: inout Hasher) {
        withUnsafeBytes(of: bytes) { hasher.combine(bytes: $0) }
    }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.byteArray.lexicographicallyPrecedes(rhs.byteArray)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = ObjectID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ObjectID: expected 24 hexadecimal digits")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static let processRandom: (UInt8, UInt8, UInt8, UInt8, UInt8) = {
        var generator = SystemRandomNumberGenerator()
        return (
            UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
            UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
            UInt8.random(in: 0...255, using: &generator)
        )
    }()

    private static let counter = ObjectIDCounter()

    private static func nextCounter() -> UInt32 { counter.next() }
}

/// The process-wide counter of ObjectID, started at a random value.
private final class ObjectIDCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = UInt32.random(in: 0...0xFF_FFFF)

    func next() -> UInt32 {
        lock.lock()
        defer { lock.unlock() }
        value = (value &+ 1) & 0xFF_FFFF
        return value
    }
}
