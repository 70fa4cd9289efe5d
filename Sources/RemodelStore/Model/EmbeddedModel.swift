import Foundation

/// An embedded object: an owned `Codable` value with no primary key, stored as JSON text in
/// its owner's column (or in a collection's side table), adopted with an empty conformance:
///
/// ```swift
/// extension Address: EmbeddedModel {}
/// ```
///
/// The JSON is the data format of `remodel export`: dates ISO 8601 to the microsecond, data
/// base64, UUIDs and ObjectIDs as strings, keys sorted. Embedded objects may not hold links
/// (schema validation refuses them), so the JSON is self-contained.
public protocol EmbeddedModel: StorableValue, Codable {}

extension EmbeddedModel {
    public static func read(from statement: StatementHandle, at index: Int32) throws(ValueConversionError) -> Self {
        try Self(storeValue: statement.text(index).map(StoreValue.text) ?? .null)
    }

    public func bind(to statement: StatementHandle, at index: Int32) -> Int32 {
        statement.bind(jsonText, index)
    }

    public var storeValue: StoreValue { .text(jsonText) }

    public init(storeValue: StoreValue) throws(ValueConversionError) {
        guard case .text(let text) = storeValue else { throw Self.mismatch(storeValue, expected: "JSON text") }
        do {
            self = try EmbeddedJSON.decoder().decode(Self.self, from: Data(text.utf8))
        } catch {
            throw ValueConversionError(type: String(describing: Self.self), value: storeValue, reason: "invalid JSON: \(error)")
        }
    }

    /// The JSON text stored for this value.
    var jsonText: String {
        // Encoding a Codable struct of storable scalars cannot fail except for non-finite
        // doubles, which JSON cannot hold; those are written as strings by the encoder below.
        let data = (try? EmbeddedJSON.encoder().encode(self)) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// The JSON coders of embedded objects.
enum EmbeddedJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(StoreDateFormat.string(from: date))
        }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = StoreDateFormat.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not an ISO 8601 date")
            }
            return date
        }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }
}
