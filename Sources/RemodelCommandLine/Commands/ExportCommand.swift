import Foundation
import RemodelCore
import RemodelFileCommands
import RemodelGeneration
import RemodelPostgres
import RemodelStore

/// `remodel export`: writes every object of a store as JSON.
struct ExportCommand: Command {
    let name = "export"
    let abstract = "Write every object of a store as JSON (to stdout, or --output FILE)."
    let discussion = """
        Reads the store with the schema it records (no snapshot needed) and writes one key per \
        object type, in schema order, each an array of objects with their properties in \
        declaration order: the format `remodel import` reads, so that export then import \
        round-trips exactly (dates to the microsecond they are stored to). The store is not \
        changed. With --output, the file is written atomically (a temporary file beside it, \
        renamed into place once complete), so a failure (a full disk) leaves FILE as it was; \
        an existing FILE is replaced only when it holds JSON in the export format (an earlier \
        export), or with --force; the store itself (by any path or link, with its -wal and \
        -shm) is never written over, not even with --force. A postgresql:// URL exports the \
        store in the URL's schema, read in one snapshot, as the same JSON. Progress goes to \
        stderr: a bar on a terminal (objects read, then written as JSON, of all, rate, time \
        left), a line now and then otherwise, nothing with --quiet (which also leaves out the \
        note naming the objects written to FILE). Exit status: 0 written, 1 error (nothing \
        written), 64 usage error.
        """
    static let output = OptionSpec.option("output", short: "o", value: "FILE", help: "Write the JSON to FILE instead of standard output.")
    static let force = OptionSpec.flag("force", help: "Replace an existing FILE even when it is not an earlier export.")
    var options: [OptionSpec] { [StoreCommandSupport.storeOrDatabase, Self.output, Self.force, ProgressReporter.quietOption] }

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let path: String
        switch try StoreCommandSupport.storeLocation(arguments) {
        case .file(let file): path = file
        case .postgres(let database): return try exportDatabase(database, arguments)
        }
        let file = outputFile(arguments, protected: [(FileIdentity.ofDatabase(at: path), "the store '\(path)' being exported")])
        // Refused before the store is read: no export is wasted on a path it cannot write.
        try file?.check()
        let export = try ProgressReporter.run(finished: "exported", quiet: arguments.flag(ProgressReporter.quietOption)) { progress in
            try StorageFaults.reporting(cannot: "read the store '\(path)'", intact: "nothing was exported and the store is unchanged") {
                let store = try StoreCommandSupport.openExisting(path, readOnly: true)
                let document = try store.read { try StoreJSON.export($0, progress: progress.dataTransfer) }
                return (text: StoreJSON.text(of: document, progress: progress.dataTransfer), counts: StoreJSON.counts(of: document))
            }
        } delivering: {
            try write($0.text, to: file)
        }
        note(export.counts, in: file, arguments)
        return ExitStatus.success
    }

    /// The same export from a store in a PostgreSQL schema.
    private func exportDatabase(_ database: PostgresTarget, _ arguments: ParsedArguments) throws -> Int32 {
        let file = outputFile(arguments, protected: [])
        try file?.check()
        let export = try ProgressReporter.run(finished: "exported", quiet: arguments.flag(ProgressReporter.quietOption)) { progress in
            let (document, counts) = try PostgresStore.export(at: database, recordedSchema: StoreCommandSupport.recordedSchema(of: database), progress: progress.dataTransfer)
            return (text: StoreJSON.text(of: document, progress: progress.dataTransfer), counts: counts)
        } delivering: {
            try write($0.text, to: file)
        }
        note(export.counts, in: file, arguments)
        return ExitStatus.success
    }

    /// The --output file, if any: replaced only when it is an earlier export (or with
    /// --force), never when it is one of the `protected` files.
    private func outputFile(_ arguments: ParsedArguments, protected: [(identities: Set<FileIdentity>, described: String)]) -> OutputFile? {
        arguments.value(Self.output).map { output in
            OutputFile(
                path: output,
                existing: arguments.flag(Self.force)
                    ? .replace : .replaceOwn(described: "JSON in the export format (an earlier `remodel export`)", isOwn: StoreJSON.isExportDocument),
                protected: protected, advice: "choose another path, or pass --force to replace it", exampleName: "export.json"
            )
        }
    }

    /// Writes an export's text to `file`, or to standard output.
    private func write(_ text: String, to file: OutputFile?) throws {
        if let file {
            try file.write(Data(text.utf8))
        } else {
            try Console.writeResult(text, intact: "the store is unchanged")
        }
    }

    /// Names what an export wrote to `file` (unless --quiet).
    private func note(_ counts: [(type: String, count: Int)], in file: OutputFile?, _ arguments: ParsedArguments) {
        guard let file, !arguments.flag(ProgressReporter.quietOption) else { return }
        Console.writeError("Exported \(StoreCommandSupport.counts(counts)) to '\(file.path)'\n")
    }
}
