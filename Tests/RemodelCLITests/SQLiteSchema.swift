import Foundation

/// Reads a store's layout with the `sqlite3` tool, the way a person compares two stores.
enum SQLiteSchema {
    /// Runs SQL on a database with `sqlite3` and returns what it prints.
    static func run(_ sql: String, on database: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", database, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Every table and index definition (`.schema`), with the column order of each table set
    /// aside: its definition lines are sorted.
    static func tables(of database: String) throws -> [String] {
        let text = try run("SELECT type || ' ' || name || char(10) || sql || char(30) FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY type, name", on: database)
        return text.split(separator: "\u{1E}").map { entry in
            let lines = entry.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").map(String.init)
            guard lines.count > 3, lines[1].hasSuffix("(") else { return lines.joined(separator: "\n") }
            let body = lines[2..<(lines.count - 1)].map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }.sorted()
            return ([lines[0], lines[1]] + body + [lines[lines.count - 1]]).joined(separator: "\n")
        }.filter { !$0.isEmpty }
    }
}
