import Foundation
import RemodelCore
import RemodelFileCommands
import RemodelGeneration
import RemodelPostgres
import RemodelStore

/// `remodel import`: adds the objects of a JSON file to a store, all or nothing.
struct ImportCommand: Command {
    let name = "import"
    let abstract = "Add the objects of a JSON file to a store, all or nothing."
    let discussion = """
        DATA.json holds one key per object type, each an array of objects: dates ISO 8601, \
        data base64, uuid/objectId/decimal128 as strings, links as the target's primary key, \
        lists as arrays, maps as objects, enums as raw values (the format `remodel export` \
        writes). Every object is checked before anything is written; each problem is reported \
        with its type, index and property, and then nothing is imported. A store that does not \
        exist is created, at --version N (default: the newest), in a temporary file beside it \
        that is renamed into place only once everything is imported. The import is one \
        transaction: on any failure (a full disk too) the store is unchanged, and a store being \
        created is not left behind. A postgresql:// URL imports into the store in the URL's \
        schema the same way, in one transaction (creating the store in it when there is none). \
        Progress goes to stderr: a bar on a terminal (the file's bytes read, then objects \
        checked, then imported, of all, rate, time left), a line now and then otherwise, nothing with --quiet. Exit status: 0 \
        imported, 1 nothing imported because of an error, 64 usage error.
        """
    var arguments: [ArgumentSpec] { [ArgumentSpec("DATA.json", help: "The JSON file to import.")] }
    var options: [OptionSpec] {
        [StoreCommandSupport.storeOrDatabase, StoreCommandSupport.version, ProgressReporter.quietOption, CommonOptions.schemas, CommonOptions.migrations]
    }

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let location = try StoreCommandSupport.storeLocation(arguments)
        guard let dataPath = arguments.positional(0) else { throw UsageError("missing DATA.json") }
        let data: Data
        switch Self.readDocument(dataPath) {
        case .success(let read): data = read
        case .failure(let problem):
            Console.writeError("\(problem.message)\n")
            return ExitStatus.failure
        }
        let quiet = arguments.flag(ProgressReporter.quietOption)
        do {
            let path: String
            switch location {
            case .file(let file): path = file
            case .postgres(let database): return try importIntoDatabase(database, data: data, dataPath: dataPath, quiet: quiet, arguments)
            }
            let counts: [(type: String, count: Int)]
            if FileManager.default.fileExists(atPath: path) {
                let info = try RemodelStore.inspect(path: path)
                if let text = arguments.value(StoreCommandSupport.version), Int(text) != info.version {
                    Console.writeError(
                        "Error: '\(path)' is at schema version \(info.version), not \(text); import with --version \(info.version), or migrate the store first (`remodel migrate --store \(path)`)\n"
                    )
                    return ExitStatus.failure
                }
                let store = try StoreCommandSupport.openExisting(path, readOnly: false)
                // Objects added to a damaged store could be lost with it.
                try RemodelStore.checkIntegrity(path: path)
                // One transaction: on any failure SQLite rolls it back.
                counts = try StorageFaults.reporting(cannot: "import into '\(path)'", intact: "nothing was imported; the store is unchanged") {
                    try ProgressReporter.run(finished: "imported", quiet: quiet) { progress in
                        let document = try Self.read(data, from: dataPath, progress: progress)
                        return try StoreJSON.importDocument(document, into: store, source: dataPath, progress: progress.dataTransfer)
                    }
                }
            } else {
                // Check before creating anything, so that a bad file leaves no store behind.
                guard let target = try StoreCommandSupport.targetSchema(arguments, command: "import") else { return ExitStatus.failure }
                counts = try ProgressReporter.run(finished: "imported", quiet: quiet) { progress in
                    let document = try Self.read(data, from: dataPath, progress: progress)
                    let checked = try StoreJSON.check(document, schema: target.schema, source: dataPath, progress: progress.dataTransfer)
                    // Built beside STORE and renamed into place once imported: a failure leaves no file.
                    return try StorageFaults.reporting(
                        cannot: "create the store '\(path)' and import into it", intact: "nothing was imported, no store was created and nothing is left behind"
                    ) {
                        try RemodelStore.create(atomicallyAt: path, schema: target.schema, version: target.version) { store in
                            try StoreJSON.importDocument(checked, into: store, progress: progress.dataTransfer)
                        }
                    }
                }
            }
            Console.write("Imported \(StoreCommandSupport.counts(counts)) into '\(path)'\n")
            return ExitStatus.success
        } catch let error as JSONSyntaxError {
            // Printed once the progress line is gone, at the place in the file.
            Console.writeError("\(dataPath):\(error.line):\(error.column): error: \(error.message)\n")
            return ExitStatus.failure
        }
    }

    /// Why DATA.json cannot be imported before it is parsed.
    struct ReadProblem: Error {
        var message: String
    }

    /// The bytes of DATA.json (a file, or a pipe such as /dev/stdin), once its start shows a
    /// JSON object: a file of something else (a store, gigabytes of NUL bytes) is refused
    /// after its first bytes, not read whole first.
    static func readDocument(_ path: String) -> Result<Data, ReadProblem> {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = String(cString: strerror(errno))
            return .failure(ReadProblem(message: "Error: cannot read '\(path)': \(reason); check the path and that the file can be read"))
        }
        defer { try? handle.close() }
        do {
            var data = try handle.read(upToCount: 65_536) ?? Data()
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            let start = data.starts(with: bom) ? 3 : 0
            let significant = data.dropFirst(start).firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            guard let significant else {
                if data.count < 65_536 { return .failure(ReadProblem(message: "\(path):1:1: error: the file is empty; an export file is one JSON object, '{ \"Type\": [ … ] }'")) }
                return .failure(ReadProblem(message: "\(path):1:1: error: the file starts with 64 KB of blank space and no JSON object"))
            }
            guard data[significant] == UInt8(ascii: "{") else {
                let byte = String(format: "0x%02X", data[significant])
                return .failure(
                    ReadProblem(
                        message:
                            "\(path): error: the file does not start with a JSON object: byte \(byte) at offset \(significant); an export file starts with '{' (is it the right file?)"
                    ))
            }
            data.append(try handle.readToEnd() ?? Data())
            return .success(data)
        } catch {
            return .failure(ReadProblem(message: "Error: cannot read '\(path)': \((error as NSError).localizedDescription)"))
        }
    }

    /// DATA.json's document, read as the first stage of the import's progress (a large file
    /// takes a while: its bytes, all at once when read).
    private static func read(_ data: Data, from dataPath: String, progress: ProgressReporter) throws -> JSONValue {
        progress.update(verb: "reading", unit: "bytes", done: 0, total: data.count, detail: FilePaths.name(of: dataPath))
        var parser = JSONParser(bytes: [UInt8](data))
        let document = try parser.parse()
        progress.update(verb: "reading", unit: "bytes", done: data.count, total: data.count, detail: FilePaths.name(of: dataPath))
        return document
    }

    /// The same import into a store in a PostgreSQL schema, created there when missing.
    private func importIntoDatabase(_ database: PostgresTarget, data: Data, dataPath: String, quiet: Bool, _ arguments: ParsedArguments) throws -> Int32 {
        let requested = try arguments.value(StoreCommandSupport.version).map { text in
            guard let number = Int(text) else { throw UsageError("--version takes a version number, not '\(text)'") }
            return number
        }
        var fresh: (schema: Schema, version: Int)?
        if try !PostgresStore.holdsStore(at: database) {
            guard let target = try StoreCommandSupport.targetSchema(arguments, command: "import") else { return ExitStatus.failure }
            fresh = target
        }
        let (counts, server) = try ProgressReporter.run(finished: "imported", quiet: quiet) { progress in
            let document = try Self.read(data, from: dataPath, progress: progress)
            return try PostgresStore.importDocument(
                document, into: database, source: dataPath, expectedVersion: fresh == nil ? requested : nil,
                recordedSchema: StoreCommandSupport.recordedSchema(of: database), create: fresh, progress: progress.dataTransfer
            )
        }
        Console.write("Imported \(StoreCommandSupport.counts(counts)) into schema '\(database.schema)' of \(server)\n")
        return ExitStatus.success
    }
}
