import Foundation

// RealmSwift/ObjectId.swift: `public final class ObjectId: RLMObjectId, Decodable, @unchecked Sendable`
// (Realm/RLMObjectId.h). Equal and hashed by value, as RLMObjectId's `isEqual:`/`hash` are.
/// A 12-byte (probably) unique object identifier: a 4 byte timestamp (seconds since the
/// Unix epoch), a 5 byte random value and a 3 byte counter.
public final class ObjectId: Decodable, @unchecked Sendable {
    internal let _bytes: [UInt8]

    internal init(_bytes: [UInt8]) {
        self._bytes = _bytes
    }

    /// Creates a new zero-initialized ObjectId.
    public required init() {
        _bytes = [UInt8](repeating: 0, count: 12)
    }

    /// Creates a new randomly-initialized ObjectId.
    public static func generate() -> ObjectId {
        let seconds = UInt32(truncatingIfNeeded: Int(Date().timeIntervalSince1970))
        var bytes = withUnsafeBytes(of: seconds.bigEndian) { Array($0) }
        bytes += mirrorObjectIdProcessBytes
        let counter = mirrorObjectIdCounter.withLock { value -> UInt32 in
            value &+= 1
            return value
        }
        bytes += withUnsafeBytes(of: counter.bigEndian) { Array($0.dropFirst()) }
        return ObjectId(_bytes: bytes)
    }

    /// Creates a new ObjectId from the given 24-byte hexadecimal string; throws if the
    /// string is not 24 hexadecimal digits.
    public required init(string: String) throws {
        let digits = Array(string.utf8)
        guard digits.count == 24 else { throw RealmMirrorError("Invalid Object ID string '\(string)': must be 24 hex digits") }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 24, by: 2) {
            guard let high = mirrorHexValue(digits[index]), let low = mirrorHexValue(digits[index + 1]) else {
                throw RealmMirrorError("Invalid character in ObjectId string '\(string)'")
            }
            bytes.append(high << 4 | low)
        }
        _bytes = bytes
    }

    /// Creates a new ObjectId using the given date, machine identifier, process identifier.
    public required init(timestamp: Date, machineId: Int, processId: Int) {
        let seconds = UInt32(truncatingIfNeeded: Int(timestamp.timeIntervalSince1970))
        var bytes = withUnsafeBytes(of: seconds.bigEndian) { Array($0) }
        bytes += withUnsafeBytes(of: UInt32(truncatingIfNeeded: machineId).bigEndian) { Array($0.dropFirst()) }
        bytes += withUnsafeBytes(of: UInt16(truncatingIfNeeded: processId).bigEndian) { Array($0) }
        bytes += [0, 0, 0]
        _bytes = bytes
    }

    /// Creates a new ObjectId from the given 24-byte hexadecimal static string (aborts if it
    /// is not valid).
    public required convenience init(_ str: StaticString) {
        try! self.init(string: str.withUTF8Buffer { String(decoding: $0, as: UTF8.self) })
    }

    public required convenience init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        try self.init(string: container.decode(String.self))
    }

    /// The 24 lowercase hexadecimal digits.
    public var stringValue: String {
        _bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The creation time in the timestamp part.
    public var timestamp: Date {
        let seconds = _bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

// RealmSwift/ObjectId.swift
extension ObjectId: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(stringValue)
    }
}

// RealmSwift/ObjectId.swift
extension ObjectId: Comparable {
    public static func < (lhs: ObjectId, rhs: ObjectId) -> Bool {
        lhs._bytes.lexicographicallyPrecedes(rhs._bytes)
    }
}

// NSObject's Hashable and CustomStringConvertible, by value (RLMObjectId).
extension ObjectId: Hashable, CustomStringConvertible {
    public static func == (lhs: ObjectId, rhs: ObjectId) -> Bool {
        lhs._bytes == rhs._bytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(_bytes)
    }

    public var description: String { stringValue }
}

private func mirrorHexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
    default: return nil
    }
}

private let mirrorObjectIdProcessBytes: [UInt8] = (0..<5).map { _ in UInt8.random(in: 0...255) }
private let mirrorObjectIdCounter = MirrorLocked<UInt32>(UInt32.random(in: 0...0xFFFFFF))
