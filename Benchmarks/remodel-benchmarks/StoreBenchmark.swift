import CSQLite
import Foundation
import RemodelCore
import RemodelStore

// `remodel-benchmarks store [--count N] [--reads N] [--runs N]`
//
// Inserts N Notes (default 1,000,000) in one transaction, reads `--reads` of them (default
// 100,000) by primary key, and iterates all of them, each through RemodelStore and through a
// plain C-API baseline (prepared statements, the same pragmas and table, materialising the
// same Swift values), in the same run. Prints the median of `--runs` runs of each and the
// ratio store/baseline, then the peak memory of a lazy iteration measured in a child process.

/// The benchmark's Note, with the bridge exactly as the generator emits it.
struct BenchmarkNote: Hashable, Sendable, Identifiable {
    var identifier: String
    var content: String
    var lastEdited: Date
    var id: String { identifier }
}

extension BenchmarkNote: KeyedModel {
    static let schemaName = "Note"

    init(row: inout RowDecoder) throws {
        self.init(identifier: try row.decode(), content: try row.decode(), lastEdited: try row.decode())
    }

    func encode(to row: inout RowEncoder) throws {
        try row.encode(identifier)
        try row.encode(content)
        try row.encode(lastEdited)
    }

    enum Columns {
        static let identifier = Column<BenchmarkNote, String>("identifier")
        static let content = Column<BenchmarkNote, String>("content")
        static let lastEdited = Column<BenchmarkNote, Date>("lastEdited")
    }
}

enum BenchmarkManifest: SchemaManifest {
    static let version = 1
    static let schemaHash = schema.storageHash
    static let history: MigrationHistory? = nil
    static let models: [any PersistentModel.Type] = [BenchmarkNote.self]
    static let schema = Schema(objects: [
        ObjectType(
            name: "Note", primaryKey: "identifier",
            properties: [
                Property("identifier", .scalar(.string), default: .generated(.uuid)),
                Property("content", .scalar(.string)),
                Property("lastEdited", .scalar(.date), default: .generated(.now)),
            ])
    ])
}

func runStoreBenchmark(_ arguments: [String]) throws {
    func option(_ name: String, _ fallback: Int) -> Int {
        arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? fallback
    }
    if let index = arguments.firstIndex(of: "--iterate-child"), arguments.indices.contains(index + 1) {
        return try StoreBenchmark.iterateChild(path: arguments[index + 1])
    }
    let benchmark = StoreBenchmark(count: option("--count", 1_000_000), reads: option("--reads", 100_000), runs: option("--runs", 5))
    try benchmark.run()
}

struct StoreBenchmark {
    let count: Int
    let reads: Int
    let runs: Int
    let folder = NSTemporaryDirectory() + "remodel-store-benchmark-\(ProcessInfo.processInfo.processIdentifier)"

    func run() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        print("store benchmark: \(count) notes, \(reads) key reads, median of \(runs) runs (SQLite \(String(cString: sqlite3_libversion())))")
        var generator = SystemRandomNumberGenerator()
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let notes = (0..<count).map { index in
            BenchmarkNote(identifier: UUID().uuidString, content: "Note number \(index): remember the milk", lastEdited: base.addingTimeInterval(Double(index) * 0.001))
        }
        let keys = (0..<reads).map { _ in notes[Int.random(in: 0..<notes.count, using: &generator)].identifier }
        let storePath = folder + "/store.db"
        let basePath = folder + "/baseline.db"

        // Insert. Store and baseline runs alternate, so that load from other processes
        // falls on both alike.
        let (insertStore, insertBase) = try paired(
            "insert",
            {
                remove(storePath)
                let store = try RemodelStore(path: storePath, manifest: BenchmarkManifest.self)
                return try time { try store.write { tx in for note in notes { try tx.insert(note) } } }
            },
            {
                remove(basePath)
                let db = try Baseline(path: basePath, create: true)
                return try time { try db.insert(notes) }
            })

        // Reads by primary key, on the databases left by the last insert run.
        let store = try RemodelStore(path: storePath, manifest: BenchmarkManifest.self)
        let baseline = try Baseline(path: basePath, create: false)
        var checksum = 0
        let (readStore, readBase) = try paired(
            "key reads",
            {
                try time { try store.read { db in for key in keys { checksum &+= try db.object(BenchmarkNote.self, forKey: key)!.content.utf8.count } } }
            },
            {
                try time { try baseline.read { for key in keys { checksum &+= try baseline.note(forKey: key)!.content.utf8.count } } }
            })

        // Iteration.
        let (iterateStore, iterateBase) = try paired(
            "iterate all",
            {
                try time { try store.read { db in try db.objects(BenchmarkNote.self).forEach { checksum &+= $0.content.utf8.count } } }
            },
            {
                try time { try baseline.read { try baseline.forEach { checksum &+= $0.content.utf8.count } } }
            })

        // Text search: localizedStandardContains in SQL against the loop apps write today
        // (every note fetched, then searched with Foundation, case- and diacritic-insensitive).
        var found = (sql: 0, loop: 0)
        let (searchSQL, searchLoop) = try paired(
            "search \"MILK\" ignoring case and diacritics (SQL | fetch all + Foundation)",
            {
                try time { found.sql = try store.read { db in try db.objects(BenchmarkNote.self).filter { $0.content.localizedStandardContains("MILK") }.count() } }
            },
            {
                try time {
                    found.loop = try store.read { db in
                        try db.objects(BenchmarkNote.self).fetchAll().filter { $0.content.range(of: "MILK", options: [.caseInsensitive, .diacriticInsensitive]) != nil }.count
                    }
                }
            })
        guard found.sql == found.loop else { throw StoreBenchmarkError.searchMismatch(found.sql, found.loop) }

        print("")
        print(String(format: "search %d notes in SQL / fetch-all + Foundation: %.2f (%d found)", count, searchSQL / searchLoop, found.sql))
        print("ratios store / C API (targets: insert ≤ 1.3, key reads ≤ 1.3, iteration ≤ 1.5)")
        print(String(format: "  insert %d:      %.2f", count, insertStore / insertBase))
        print(String(format: "  key reads %d:   %.2f", reads, readStore / readBase))
        print(String(format: "  iterate %d:     %.2f", count, iterateStore / iterateBase))
        print("  (checksum \(checksum))")

        // Peak memory of a lazy iteration, in a fresh process that holds nothing else.
        try store.checkpoint()
        fflush(nil)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["store", "--iterate-child", storePath]
        try child.run()
        child.waitUntilExit()
    }

    static func iterateChild(path: String) throws {
        let store = try RemodelStore(path: path, manifest: BenchmarkManifest.self)
        var count = 0
        let start = DispatchTime.now().uptimeNanoseconds
        try store.read { db in try db.objects(BenchmarkNote.self).forEach { _ in count += 1 } }
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        print(String(format: "lazy iteration of %d notes in a child process: %.0f ms, peak RSS (VmHWM) %@", count, milliseconds, peakRSS()))
    }

    /// Runs the store and baseline bodies `runs` times each, alternating which goes first;
    /// prints and returns both medians.
    private func paired(_ label: String, _ storeBody: () throws -> Double, _ baseBody: () throws -> Double) throws -> (Double, Double) {
        var storeTimes: [Double] = []
        var baseTimes: [Double] = []
        for run in 0..<runs {
            if run % 2 == 0 {
                storeTimes.append(try storeBody())
                baseTimes.append(try baseBody())
            } else {
                baseTimes.append(try baseBody())
                storeTimes.append(try storeBody())
            }
        }
        let store = report("\(label), store", storeTimes)
        let base = report("\(label), C API", baseTimes)
        return (store, base)
    }

    private func report(_ label: String, _ times: [Double]) -> Double {
        let times = times.sorted()
        let median = times[times.count / 2]
        print(String(format: "%@: median %.1f ms (min %.1f, max %.1f)", label, median, times.first!, times.last!))
        return median
    }

    private func time(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    }

    private func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

/// `VmHWM` from /proc/self/status: the process's peak resident memory.
func peakRSS() -> String {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return "unknown" }
    return line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces)
}

/// The same work with the C API directly: the yardstick.
final class Baseline {
    private let db: OpaquePointer
    private var insertStatement: OpaquePointer?
    private var keyStatement: OpaquePointer?
    private var allStatement: OpaquePointer?

    init(path: String, create: Bool) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else {
            throw BaselineError(message: "cannot open \(path)")
        }
        self.db = db
        try exec("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;")
        if create {
            try exec("CREATE TABLE \"Note\" (\"identifier\" TEXT PRIMARY KEY NOT NULL, \"content\" TEXT NOT NULL, \"lastEdited\" INTEGER NOT NULL)")
        }
        insertStatement = try prepare("INSERT INTO \"Note\" (\"identifier\", \"content\", \"lastEdited\") VALUES (?, ?, ?)")
        keyStatement = try prepare("SELECT \"identifier\", \"content\", \"lastEdited\" FROM \"Note\" WHERE \"identifier\" = ?")
        allStatement = try prepare("SELECT \"identifier\", \"content\", \"lastEdited\" FROM \"Note\"")
    }

    deinit {
        sqlite3_finalize(insertStatement)
        sqlite3_finalize(keyStatement)
        sqlite3_finalize(allStatement)
        sqlite3_close_v2(db)
    }

    func insert(_ notes: [BenchmarkNote]) throws {
        try exec("BEGIN IMMEDIATE")
        for note in notes {
            bindText(insertStatement, 1, note.identifier)
            bindText(insertStatement, 2, note.content)
            sqlite3_bind_int64(insertStatement, 3, Int64((note.lastEdited.timeIntervalSince1970 * 1_000_000).rounded()))
            guard sqlite3_step(insertStatement) == SQLITE_DONE else { throw BaselineError(message: String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(insertStatement)
        }
        try exec("COMMIT")
    }

    func read(_ body: () throws -> Void) throws {
        try exec("BEGIN DEFERRED")
        try body()
        try exec("COMMIT")
    }

    func note(forKey key: String) throws -> BenchmarkNote? {
        bindText(keyStatement, 1, key)
        defer { sqlite3_reset(keyStatement) }
        guard sqlite3_step(keyStatement) == SQLITE_ROW else { return nil }
        return note(keyStatement)
    }

    func forEach(_ body: (BenchmarkNote) -> Void) throws {
        while sqlite3_step(allStatement) == SQLITE_ROW { body(note(allStatement)) }
        sqlite3_reset(allStatement)
    }

    private func note(_ statement: OpaquePointer?) -> BenchmarkNote {
        BenchmarkNote(identifier: text(statement, 0), content: text(statement, 1), lastEdited: Date(timeIntervalSince1970: Double(sqlite3_column_int64(statement, 2)) / 1_000_000))
    }

    private func text(_ statement: OpaquePointer?, _ index: Int32) -> String {
        let bytes = sqlite3_column_text(statement, index)!
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
    }

    private func bindText(_ statement: OpaquePointer?, _ index: Int32, _ value: String) {
        var value = value
        value.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { _ = remodel_sqlite3_bind_text_transient(statement, index, $0.baseAddress, Int32($0.count)) }
        }
    }

    private func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw BaselineError(message: String(cString: sqlite3_errmsg(db)) + " in " + sql) }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK else {
            throw BaselineError(message: String(cString: sqlite3_errmsg(db)))
        }
        return statement
    }
}

struct BaselineError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

enum StoreBenchmarkError: Error, CustomStringConvertible {
    case searchMismatch(Int, Int)

    var description: String {
        switch self {
        case .searchMismatch(let sql, let loop): "the SQL search found \(sql) notes and the Foundation loop \(loop): they must agree"
        }
    }
}
