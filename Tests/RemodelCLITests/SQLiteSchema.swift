import Foundation

/// Reads a store's layout with the `sqlite3` tool, the way a person compares two stores.
enum SQLiteSchema {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs SQL on a database with `sqlite3` and returns what it prints. A non-zero exit or
    /// anything on stderr is an error, unless `allowingErrors` (then stderr is returned too).
    static func run(_ sql: String, on database: String, allowingErrors: Bool = false) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", database, sql]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        if allowingErrors { return text + errors }
        guard process.terminationStatus == 0, errors.isEmpty else {
            throw Failure(description: "sqlite3 \(database) '\(sql)' exited with \(process.terminationStatus): \(errors)")
        }
        return text
    }

    /// Every table and index definition (`.schema`), with the column order of each table set
    /// aside: its definition lines are sorted. A database with no tables is an error: the
    /// comparison would hold for any two of them.
    static func tables(of database: String) throws -> [String] {
        let text = try run("SELECT type || ' ' || name || char(10) || sql || char(30) FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name", on: database)
        let tables = text.split(separator: "\u{1E}").map { entry in
            let lines = entry.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").map(String.init)
            guard lines.count > 3, lines[1].hasSuffix("(") else { return lines.joined(separator: "\n") }
            let body = lines[2..<(lines.count - 1)].map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }.sorted()
            return ([lines[0], lines[1]] + body + [lines[lines.count - 1]]).joined(separator: "\n")
        }.filter { !$0.isEmpty }
        guard tables.contains(where: { $0.hasPrefix("table ") }) else { throw Failure(description: "\(database) has no tables") }
        return tables
    }
}
