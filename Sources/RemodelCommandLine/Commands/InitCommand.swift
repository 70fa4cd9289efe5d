import Foundation
import RemodelFileCommands
import RemodelGeneration
import RemodelPostgres
import RemodelStore

/// `remodel init`: creates an empty store laid out for a schema version.
struct InitCommand: Command {
    let name = "init"
    let abstract = "Create an empty store for the current schema (or --version N)."
    let discussion = """
        Creates the SQLite file with one table per object type, side tables for lists, sets \
        and maps, the metadata table holding the canonical schema, PRAGMA user_version set to \
        the schema version and the Remodel application_id. The schema comes from the schemas \
        folder, or from snapshot N of the migrations folder with --version N. An existing \
        file is never overwritten. The store is built in a temporary file beside STORE and \
        renamed into place once complete, so a failure (a full disk, a schema SQLite rejects) \
        leaves no file behind. With a postgresql:// URL the same tables are created in the \
        URL's schema (public, or ?schema=NAME, created when missing) with PostgreSQL's own \
        types, in one transaction; a schema that already holds a store or any table the \
        store needs is refused, and nothing changes. Exit status: 0 created, 1 error, 64 \
        usage error.
        """
    var options: [OptionSpec] {
        [StoreCommandSupport.storeOrDatabase, StoreCommandSupport.version, CommonOptions.schemas, CommonOptions.migrations]
    }

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let path: String
        switch try StoreCommandSupport.storeLocation(arguments) {
        case .file(let file):
            path = file
        case .postgres(let database):
            guard let target = try StoreCommandSupport.targetSchema(arguments, command: "init") else { return ExitStatus.failure }
            let info = try PostgresStore.create(at: database, schema: target.schema, version: target.version)
            let types = target.schema.objects.filter { !$0.isEmbedded }.count
            Console.write(
                "Created a store in schema '\(info.schemaName)' of \(info.database) at schema version \(target.version) (\(ValidateCommand.plural(types, "object type")), schema hash \(info.schemaHash))\n"
            )
            return ExitStatus.success
        }
        if FileManager.default.fileExists(atPath: path) {
            Console.writeError("Error: '\(path)' already exists; remove it first, or choose another path for the new store\n")
            return ExitStatus.failure
        }
        guard let target = try StoreCommandSupport.targetSchema(arguments, command: "init") else { return ExitStatus.failure }
        try StorageFaults.reporting(cannot: "create the store '\(path)'", intact: "no store was created and nothing is left behind") {
            try RemodelStore.create(atomicallyAt: path, schema: target.schema, version: target.version) { _ in }
        }
        let types = target.schema.objects.filter { !$0.isEmbedded }.count
        Console.write("Created '\(path)' at schema version \(target.version) (\(ValidateCommand.plural(types, "object type")), schema hash \(target.schema.storageHash))\n")
        return ExitStatus.success
    }
}
