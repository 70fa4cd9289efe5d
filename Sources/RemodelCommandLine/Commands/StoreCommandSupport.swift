import Foundation
import RemodelCore
import RemodelFileCommands
import RemodelGeneration
import RemodelPostgres
import RemodelSchema
import RemodelStore

/// What the data commands (`init`, `import`, `export`, `status`, `migrate`) share: the `--store` and
/// `--version` options, and opening a store with the schema it records.
enum StoreCommandSupport {
    static let version = OptionSpec.option("version", value: "N", help: "The schema version to use (default: the newest in the migrations folder, or 1 without one).")

    /// `--store` for the commands that also work on a PostgreSQL database.
    static let storeOrDatabase = OptionSpec.option(
        "store", value: "STORE", required: true,
        help:
            "The store file, or a PostgreSQL database as a libpq URL (postgresql://user@host:5432/db, ?schema=NAME for a schema other than public; the password from PGPASSWORD or ~/.pgpass)."
    )

    /// Where a store is: a file, or a schema of a PostgreSQL database.
    enum Location {
        case file(String)
        case postgres(PostgresTarget)
    }

    /// The `--store` file or PostgreSQL URL (`storeOrDatabase`).
    static func storeLocation(_ arguments: ParsedArguments, option: OptionSpec = storeOrDatabase) throws -> Location {
        guard let text = arguments.value(option), !text.isEmpty else { throw UsageError("missing --store STORE") }
        guard PostgresTarget.isURL(text) else { return .file(text) }
        do {
            return .postgres(try PostgresTarget(text))
        } catch {
            throw UsageError("--store: \(error.message)")
        }
    }

    /// The schema and version to create a store with: `--version N` of the history (the
    /// newest by default). `nil` when loading the history failed (already reported, with
    /// why `command` needs it).
    static func targetSchema(_ arguments: ParsedArguments, command: String) throws -> (schema: Schema, version: Int)? {
        var requested: Int?
        if let text = arguments.value(version) {
            guard let number = Int(text), number > 0 else { throw UsageError("--version needs a version number (1, 2, …), found '\(text)'") }
            requested = number
        }
        // A store is made only from a history every command accepts: the one `migrate` will
        // later take the store through. So an error in a newer version stops an older one too.
        let need =
            "`remodel \(command)` needs all of it\(requested.map { ", even for --version \($0)" } ?? ""): "
            + "it creates a store only from a history whose every version can run, so that the store can be migrated later; nothing was created"
        guard let history = HistoryInput.load(arguments, need: need)?.history else { return nil }
        let number = requested ?? history.currentVersion
        guard let schema = history.schema(at: number) else {
            throw UsageError("there is no schema version \(number): the migration history has versions 1 to \(history.currentVersion)")
        }
        return (schema, number)
    }

    /// Opens an existing store with the schema it records (no snapshot needed).
    static func openExisting(_ path: String, readOnly: Bool) throws -> RemodelStore {
        let info = try RemodelStore.inspect(path: path)
        let schema = try recordedSchema(info)
        return try RemodelStore(path: path, schema: schema, version: info.version, options: OpenOptions(readOnly: readOnly))
    }

    /// The schema a store records, parsed from its canonical text.
    static func recordedSchema(_ info: StoreInfo) throws -> Schema {
        let loaded = loadSchema(yaml: info.schemaText, file: "\(info.path) (recorded schema)")
        guard let schema = loaded.schema else {
            DiagnosticsOutput.print(loaded.diagnostics)
            throw StoreError.invalidInput("the schema recorded in '\(info.path)' does not load (see above); the store may come from a newer remodel")
        }
        return schema
    }

    /// Reads the schema a PostgreSQL store records, printing why when it does not load.
    static func recordedSchema(of database: PostgresTarget) -> (String) -> Schema? {
        { text in
            let loaded = loadSchema(yaml: text, file: "\(database.redacted) (recorded schema)")
            if loaded.schema == nil { DiagnosticsOutput.print(loaded.diagnostics) }
            return loaded.schema
        }
    }

    /// `1 Note, 2 Persons`-style counts.
    static func counts(_ counts: [(type: String, count: Int)]) -> String {
        counts.isEmpty ? "no object types" : counts.map { "\($0.count) \($0.type)" }.joined(separator: ", ")
    }
}
