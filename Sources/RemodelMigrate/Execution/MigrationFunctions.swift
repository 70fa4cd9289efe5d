import CSQLite
import Foundation
import RemodelCore
import RemodelStore

/// SQL functions Remodel adds to the connection that migrates, for the few conversions and
/// generated values plain SQL cannot express: UUID and ObjectID parsing and generation, ISO
/// 8601 dates, strict number parsing. They run inside SQLite, row by row, without a round
/// trip through Swift per object.
enum MigrationFunctions {
    static let uuidBlob = "remodel_uuid"
    static let uuidText = "remodel_uuid_text"
    static let objectIDBlob = "remodel_objectid"
    static let isReal = "remodel_is_real"
    static let parseUUID = "remodel_parse_uuid"
    static let parseObjectID = "remodel_parse_objectid"
    static let parseDate = "remodel_parse_date"
    static let formatUUID = "remodel_format_uuid"
    static let formatDate = "remodel_format_date"
    static let isUTF8 = "remodel_is_utf8"

    /// Registers every function on `connection`.
    static func register(on connection: OpaquePointer) throws {
        func add(_ name: String, _ arguments: Int32, deterministic: Bool, _ body: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void) throws {
            let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
            let code = sqlite3_create_function_v2(connection, name, arguments, flags, nil, body, nil, nil, nil)
            guard code == SQLITE_OK else {
                throw SQLiteError(code: code, extendedCode: code, message: "cannot register SQL function \(name)", sql: nil)
            }
        }
        try add(uuidBlob, 0, deterministic: false) { context, _, _ in
            resultBlob(context, withUnsafeBytes(of: UUID().uuid) { Array($0) })
        }
        try add(uuidText, 0, deterministic: false) { context, _, _ in
            resultText(context, UUID().uuidString)
        }
        try add(objectIDBlob, 0, deterministic: false) { context, _, _ in
            resultBlob(context, ObjectID().byteArray)
        }
        try add(isReal, 1, deterministic: true) { context, _, arguments in
            guard let text = textArgument(arguments) else { return sqlite3_result_null(context) }
            let isNumber = Double(text).map(\.isFinite) ?? false
            sqlite3_result_int(context, isNumber ? 1 : 0)
        }
        try add(parseUUID, 1, deterministic: true) { context, _, arguments in
            guard let text = textArgument(arguments), let uuid = UUID(uuidString: text) else { return sqlite3_result_null(context) }
            resultBlob(context, withUnsafeBytes(of: uuid.uuid) { Array($0) })
        }
        try add(parseObjectID, 1, deterministic: true) { context, _, arguments in
            guard let text = textArgument(arguments), let id = ObjectID(text) else { return sqlite3_result_null(context) }
            resultBlob(context, id.byteArray)
        }
        try add(parseDate, 1, deterministic: true) { context, _, arguments in
            guard let text = textArgument(arguments), let micros = StoreDateFormat.microseconds(from: text) else { return sqlite3_result_null(context) }
            sqlite3_result_int64(context, micros)
        }
        try add(formatUUID, 1, deterministic: true) { context, _, arguments in
            guard let bytes = blobArgument(arguments), bytes.count == 16 else { return sqlite3_result_null(context) }
            let uuid = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
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
    }
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

private func resultBlob(_ context: OpaquePointer?, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { remodel_sqlite3_result_blob_transient(context, $0.baseAddress, Int32($0.count)) }
}

private func resultText(_ context: OpaquePointer?, _ text: String) {
    var text = text
    text.withUTF8 { buffer in
        buffer.withMemoryRebound(to: CChar.self) { remodel_sqlite3_result_text_transient(context, $0.baseAddress, Int32($0.count)) }
    }
}
