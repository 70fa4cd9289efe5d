import RemodelCore

/// A fast check for the identifiers `SwiftNames.isIdentifier` accepts (ASCII letters,
/// digits and `_`, not starting with a digit, not `_` alone), done on UTF-8 bytes because
/// the validator checks every name of large schemas.
enum Identifier {
    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
        default: false
        }
    }

    static func isValid(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first), name != "_" else { return false }
        return utf8.allSatisfy(isIdentifierByte)
    }
}
