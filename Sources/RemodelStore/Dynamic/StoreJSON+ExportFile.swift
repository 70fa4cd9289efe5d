import Foundation
import RemodelCore

extension StoreJSON {
    /// Whether `data` is a JSON document in the export format (an object whose every member
    /// is an array): what `remodel export --output` replaces without `--force`.
    public static func isExportDocument(_ data: Data) -> Bool {
        var parser = JSONParser(bytes: [UInt8](data))
        guard let document = try? parser.parse(), case .object(let members) = document else { return false }
        return members.allSatisfy { if case .array = $0.1 { true } else { false } }
    }
}
