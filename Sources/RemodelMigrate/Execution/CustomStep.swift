import Foundation
import RemodelStore

/// An object as a custom migration step sees it: its values before the migration and its
/// values now, which the step may change.
public struct MigrationObject: Sendable {
    /// The object type (its new name).
    public let type: String
    /// Property values as they were before this migration (old property names).
    public let old: [String: StoreValue]
    /// Property values after the migration's declarative steps (new names); changes are
    /// written back.
    public var new: [String: StoreValue]
}

/// A custom step: called once per object of its type, inside the migration's transaction.
/// Throwing aborts the whole migration.
public typealias CustomStep = @Sendable (inout MigrationObject) throws -> Void

/// Visits every object of a type for a custom step, writing back what it changes.
struct CustomStepRunner {
    var call: CustomCall
    var version: VersionPlan
    var body: CustomStep

    func run(on connection: Connection) throws {
        let table = SQL.quote(call.type)
        let columns = try connection.query("SELECT name FROM pragma_table_info(?)", [.text(call.type)]).compactMap { row -> String? in
            if case .text(let name) = row[0] { name } else { nil }
        }
        let oldColumns = try connection.query("SELECT name FROM temp.pragma_table_info(?)", [.text(call.snapshotTable)]).compactMap { row -> String? in
            if case .text(let name) = row[0] { name } else { nil }
        }
        let select = try connection.statement("SELECT \(SQL.list(columns)) FROM \(table)")
        let selectOld = try connection.statement("SELECT \(SQL.list(oldColumns)) FROM temp.\(SQL.quote(call.snapshotTable)) WHERE \(SQL.quote(call.snapshotKey)) = ?")
        let assignments = columns.filter { $0 != call.key }.map { "\(SQL.quote($0)) = ?" }.joined(separator: ", ")
        let update = assignments.isEmpty ? nil : try connection.statement("UPDATE \(table) SET \(assignments) WHERE \(SQL.quote(call.key)) = ?")
        var pending: [(key: StoreValue, values: [StoreValue])] = []
        while try select.step() {
            var values: [String: StoreValue] = [:]
            for (index, column) in columns.enumerated() { values[column] = select.handle.value(Int32(index)) }
            let key = values[call.key] ?? .null
            try selectOld.bind([key])
            var old: [String: StoreValue] = [:]
            if try selectOld.step() {
                for (index, column) in oldColumns.enumerated() { old[column] = selectOld.handle.value(Int32(index)) }
            }
            selectOld.reset()
            var object = MigrationObject(type: call.type, old: old, new: values)
            do {
                try body(&object)
            } catch {
                throw MigrationError.customStepFailed(version: version.version, name: call.name, type: call.type, key: key.readable, underlying: "\(error)")
            }
            if object.new != values {
                pending.append((key, columns.filter { $0 != call.key }.map { object.new[$0] ?? .null }))
            }
        }
        select.reset()
        // Written after the scan, so the scan never sees its own writes.
        if let update {
            for change in pending {
                try update.bind(change.values + [change.key])
                try update.run()
            }
        }
    }
}
