import CSQLite
import Foundation
import RemodelCore
import RemodelStore

/// SQL functions Remodel adds to the connection that migrates, for the few conversions and
/// generated values plain SQL cannot express: UUID and ObjectID parsing and generation, ISO
/// 8601 dates, strict number parsing. They run inside SQLite, row by row, without a round
/// trip through Swift per object.
///
/// `split` and text → integer `convert` use functions too although plain SQL can express
/// them: as nested `trim`/`instr`/`substr` calls (each `trim` copies its text) they cost
/// 4–5 µs a row, most of a million-object migration; these functions scan the bytes once.
package enum MigrationFunctions {
    static let uuidBlob = SQLiteRenderer.name(of: .newUUID)
    static let uuidText = SQLiteRenderer.name(of: .newUUIDText)
    static let objectIDBlob = SQLiteRenderer.name(of: .newObjectID)
    static let parseReal = SQLiteRenderer.name(of: .parseReal)
    static let parseDecimal = SQLiteRenderer.name(of: .parseDecimal)
    static let parseUUID = SQLiteRenderer.name(of: .parseUUID)
    static let parseObjectID = SQLiteRenderer.name(of: .parseObjectID)
    static let parseDate = SQLiteRenderer.name(of: .parseDate)
    static let parseURL = SQLiteRenderer.name(of: .parseURL)
    static let formatUUID = SQLiteRenderer.name(of: .formatUUID)
    static let formatDate = SQLiteRenderer.name(of: .formatDate)
    static let isUTF8 = SQLiteRenderer.name(of: .isUTF8)
    static let splitPart = SQLiteRenderer.name(of: .splitPart)
    static let parseInteger = SQLiteRenderer.name(of: .parseInteger)

    /// Registers the embedded-JSON functions for one version: reading embedded values of
    /// `old` (the schema before it), writing those of `new`.
    static func registerEmbedded(on connection: OpaquePointer, old: Schema, new: Schema) throws {
        let coders = Unmanaged.passRetained(EmbeddedCoders(old: EmbeddedValueCoding(schema: old), new: EmbeddedValueCoding(schema: new))).toOpaque()
        func add(_ function: SQLFunction, _ arguments: Int32, _ body: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void) throws {
            // Each registration holds the coders; SQLite releases them when it is replaced.
            _ = Unmanaged<EmbeddedCoders>.fromOpaque(coders).retain()
            let code = sqlite3_create_function_v2(connection, SQLiteRenderer.name(of: function), arguments, SQLITE_UTF8 | SQLITE_DETERMINISTIC, coders, body, nil, nil) { pointer in
                pointer.map { Unmanaged<EmbeddedCoders>.fromOpaque($0).release() }
            }
            guard code == SQLITE_OK else {
                throw SQLiteError(code: code, extendedCode: code, message: "cannot register SQL function \(SQLiteRenderer.name(of: function))", sql: nil)
            }
        }
        defer { Unmanaged<EmbeddedCoders>.fromOpaque(coders).release() }
        try add(.embeddedGet, 3) { context, _, arguments in
            embeddedGetFunction(context, arguments)
        }
        try add(.embeddedJSON, -1) { context, count, arguments in
            embeddedJSONFunction(context, count, arguments)
        }
    }

    /// Registers the functions that make `$uuid` and `$objectId` values for one version: random
    /// ones, or with `.seeded` the same sequence for the same seed and version, so that two runs
    /// over equal data (a test's direct and version-by-version migrations) write equal values.
    static func registerGenerated(on connection: OpaquePointer, values: GeneratedValues, version: Int) throws {
        let generator: GeneratedValueSource
        switch values {
        case .random: generator = GeneratedValueSource(random: nil)
        case .seeded(let seed): generator = GeneratedValueSource(random: SeededRandom(seed: seed, "generated values", String(version)))
        }
        let box = Unmanaged.passRetained(generator).toOpaque()
        defer { Unmanaged<GeneratedValueSource>.fromOpaque(box).release() }
        func add(_ name: String, _ body: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void) throws {
            // Each registration holds the source; SQLite releases it when it is replaced.
            _ = Unmanaged<GeneratedValueSource>.fromOpaque(box).retain()
            let code = sqlite3_create_function_v2(connection, name, 0, SQLITE_UTF8, box, body, nil, nil) { pointer in
                pointer.map { Unmanaged<GeneratedValueSource>.fromOpaque($0).release() }
            }
            guard code == SQLITE_OK else {
                throw SQLiteError(code: code, extendedCode: code, message: "cannot register SQL function \(name)", sql: nil)
            }
        }
        try add(uuidBlob) { context, _, _ in
            resultBlob(context, withUnsafeBytes(of: GeneratedValueSource.of(context).uuid().uuid) { Array($0) })
        }
        try add(uuidText) { context, _, _ in
            resultText(context, GeneratedValueSource.of(context).uuid().uuidString)
        }
        try add(objectIDBlob) { context, _, _ in
            resultBlob(context, GeneratedValueSource.of(context).objectID().byteArray)
        }
    }

    /// Registers every function on `connection`.
    package static func register(on connection: OpaquePointer) throws {
        func add(_ name: String, _ arguments: Int32, deterministic: Bool, _ body: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void) throws {
            let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
            let code = sqlite3_create_function_v2(connection, name, arguments, flags, nil, body, nil, nil, nil)
            guard code == SQLITE_OK else {
                throw SQLiteError(code: code, extendedCode: code, message: "cannot register SQL function \(name)", sql: nil)
            }
        }
        // remodel_parse_real(text, limit): the number, or NULL when the text is not a decimal
        // number (`DecimalText`'s form) or its magnitude exceeds limit.
        try add(parseReal, 2, deterministic: true) { context, _, arguments in
            guard let text = textArgument(arguments), DecimalText.isWellFormed(text), let number = Double(text),
                let limit = arguments?[1], abs(number) <= sqlite3_value_double(limit)
            else { return sqlite3_result_null(context) }
            sqlite3_result_double(context, number)
        }
        // remodel_parse_X(text): text in the stored form of X, by the rule import, defaults and
        // step values use (StoredForm.text); NULL when the text is not one.
        try add(parseDecimal, 1, deterministic: true) { context, _, arguments in parseStored(context, arguments, as: .decimal128) }
        try add(parseUUID, 1, deterministic: true) { context, _, arguments in parseStored(context, arguments, as: .uuid) }
        try add(parseObjectID, 1, deterministic: true) { context, _, arguments in parseStored(context, arguments, as: .objectId) }
        try add(parseDate, 1, deterministic: true) { context, _, arguments in parseStored(context, arguments, as: .date) }
        try add(parseURL, 1, deterministic: true) { context, _, arguments in parseStored(context, arguments, as: .url) }
        try add(formatUUID, 1, deterministic: true) { context, _, arguments in
            guard let bytes = blobArgument(arguments), bytes.count == 16 else { return sqlite3_result_null(context) }
            let uuid = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14],
                    bytes[15]
                ))
            resultText(context, uuid.uuidString)
        }
        try add(formatDate, 1, deterministic: true) { context, _, arguments in
            guard let value = arguments?[0], sqlite3_value_type(value) == SQLITE_INTEGER else { return sqlite3_result_null(context) }
            resultText(context, StoreDateFormat.string(microseconds: sqlite3_value_int64(value)))
        }
        try add(isUTF8, 1, deterministic: true) { context, _, arguments in
            guard let bytes = blobArgument(arguments) else { return sqlite3_result_null(context) }
            sqlite3_result_int(context, String(bytes: bytes, encoding: .utf8) != nil && !bytes.contains(0) ? 1 : 0)
        }
        try add(splitPart, 4, deterministic: true) { context, _, arguments in
            splitPartFunction(context, arguments)
        }
        // remodel_parse_integer(text, min, max): the number, or NULL when the text is not one
        // or it is out of range.
        try add(parseInteger, 3, deterministic: true) { context, _, arguments in
            guard let arguments, let value = arguments[0], sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else {
                return sqlite3_result_null(context)
            }
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
            guard let number = StepText.integer(in: bytes),
                number >= sqlite3_value_int64(arguments[1]), number <= sqlite3_value_int64(arguments[2])
            else { return sqlite3_result_null(context) }
            sqlite3_result_int64(context, number)
        }
    }
}

/// The coders the embedded-JSON functions use, held by SQLite as their user data, and the
/// last embedded JSON `remodel_embedded_get` parsed: a reshape reads every property of one
/// value in a row, each in its own call, and parses it once.
///
/// Each registration belongs to one connection, and SQLite calls a connection's functions one
/// at a time on the thread that runs its statement, so the memo needs no lock.
final class EmbeddedCoders: @unchecked Sendable {
    let old: EmbeddedValueCoding
    let new: EmbeddedValueCoding
    private var lastJSON: [UInt8] = []
    private var lastParsed: Result<EmbeddedValueCoding.ParsedObject, any Error>?

    init(old: EmbeddedValueCoding, new: EmbeddedValueCoding) {
        self.old = old
        self.new = new
    }

    static func from(_ context: OpaquePointer?) -> EmbeddedCoders {
        Unmanaged<EmbeddedCoders>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
    }

    /// Old embedded JSON `bytes`, parsed (or why not), from the memo when they are the last
    /// bytes parsed.
    func parsedOld(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<EmbeddedValueCoding.ParsedObject, any Error> {
        if let lastParsed, lastJSON.count == bytes.count,
            bytes.isEmpty || lastJSON.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            return lastParsed
        }
        let parsed = Result { try old.parse(embeddedJSON: String(decoding: bytes, as: UTF8.self)) }
        lastJSON = Array(bytes)
        lastParsed = parsed
        return parsed
    }
}

/// `remodel_embedded_get(json, property, type)`: a property of old embedded JSON, stored.
private func embeddedGetFunction(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let arguments, let json = arguments[0], sqlite3_value_type(json) != SQLITE_NULL, let jsonText = sqlite3_value_text(json) else {
        return sqlite3_result_null(context)
    }
    let coders = EmbeddedCoders.from(context)
    guard let name = text(arguments[1]), let description = text(arguments[2]), let type = coders.old.type(described: description) else {
        return sqlite3_result_error(context, "remodel_embedded_get: unknown property type", -1)
    }
    do {
        let object = try coders.parsedOld(UnsafeBufferPointer(start: jsonText, count: Int(sqlite3_value_bytes(json)))).get()
        result(context, try coders.old.storedValue(ofProperty: name, type: type, in: object))
    } catch {
        sqlite3_result_error(context, "cannot read an embedded value: \(error)", -1)
    }
}

/// `remodel_embedded_json(type, value…)`: the new JSON of an embedded object.
private func embeddedJSONFunction(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let arguments, count >= 1, let type = text(arguments[0]) else { return sqlite3_result_null(context) }
    let values = (1..<Int(count)).map { storeValue(arguments[$0]) }
    do {
        resultText(context, try EmbeddedCoders.from(context).new.jsonText(ofType: type, values: values))
    } catch {
        sqlite3_result_error(context, "cannot write an embedded \(type): \(error)", -1)
    }
}

private func text(_ value: OpaquePointer?) -> String? {
    guard let value, sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else { return nil }
    return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
}

private func storeValue(_ value: OpaquePointer?) -> StoreValue {
    guard let value else { return .null }
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
    case SQLITE_TEXT: return text(value).map(StoreValue.text) ?? .null
    case SQLITE_BLOB:
        let count = Int(sqlite3_value_bytes(value))
        guard count > 0, let bytes = sqlite3_value_blob(value) else { return .blob([]) }
        return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
}

private func result(_ context: OpaquePointer?, _ value: StoreValue) {
    switch value {
    case .null, .list, .map: sqlite3_result_null(context)
    case .integer(let number): sqlite3_result_int64(context, number)
    case .real(let number): sqlite3_result_double(context, number)
    case .text(let text): resultText(context, text)
    case .blob(let bytes): resultBlob(context, bytes)
    }
}

/// `remodel_split_part(text, separator, index, count)`; NULL text splits like ''.
private func splitPartFunction(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let arguments, let separatorValue = arguments[1], let separatorText = sqlite3_value_text(separatorValue) else {
        return sqlite3_result_null(context)
    }
    let separator = UnsafeBufferPointer(start: separatorText, count: Int(sqlite3_value_bytes(separatorValue)))
    let index = Int(sqlite3_value_int64(arguments[2]))
    let count = Int(sqlite3_value_int64(arguments[3]))
    guard let value = arguments[0], sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else {
        return remodel_sqlite3_result_text_transient(context, "", 0)
    }
    let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
    let part = StepText.splitPart(of: bytes, separator: separator, index: index, count: count)
    remodel_sqlite3_result_text_transient(context, UnsafeRawPointer(text + part.lowerBound).assumingMemoryBound(to: CChar.self), Int32(part.count))
}

/// The first argument, text, in the stored form of `scalar`; NULL when it is not one.
private func parseStored(_ context: OpaquePointer?, _ arguments: UnsafeMutablePointer<OpaquePointer?>?, as scalar: ScalarType) {
    guard let text = textArgument(arguments), case .success(let stored) = StoredForm.text(text, as: scalar) else { return sqlite3_result_null(context) }
    result(context, stored)
}

private func textArgument(_ arguments: UnsafeMutablePointer<OpaquePointer?>?) -> String? {
    guard let value = arguments?[0], sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else { return nil }
    return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
}

private func blobArgument(_ arguments: UnsafeMutablePointer<OpaquePointer?>?) -> [UInt8]? {
    guard let value = arguments?[0], sqlite3_value_type(value) != SQLITE_NULL else { return nil }
    let count = Int(sqlite3_value_bytes(value))
    guard count > 0, let bytes = sqlite3_value_blob(value) else { return [] }
    return Array(UnsafeRawBufferPointer(start: bytes, count: count))
}

/// Where one version's generated values come from (SQLite calls its functions on the
/// migrating connection's thread only).
private final class GeneratedValueSource: @unchecked Sendable {
    private var random: SeededRandom?

    init(random: SeededRandom?) {
        self.random = random
    }

    /// The source a generating function was registered with.
    static func of(_ context: OpaquePointer?) -> GeneratedValueSource {
        Unmanaged<GeneratedValueSource>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
    }

    func uuid() -> UUID {
        guard var random else { return UUID() }
        defer { self.random = random }
        return random.uuid()
    }

    func objectID() -> ObjectID {
        guard var random else { return ObjectID() }
        defer { self.random = random }
        return random.objectID()
    }
}

private func resultBlob(_ context: OpaquePointer?, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { remodel_sqlite3_result_blob_transient(context, $0.baseAddress, Int32($0.count)) }
}

private func resultText(_ context: OpaquePointer?, _ text: String) {
    var text = text
    text.withUTF8 { buffer in
        buffer.withMemoryRebound(to: CChar.self) { remodel_sqlite3_result_text_transient(context, $0.baseAddress, Int32($0.count)) }
    }
}
