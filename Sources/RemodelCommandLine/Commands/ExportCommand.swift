import Foundation
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
        changed. Exit status: 0 written, 1 error, 64 usage error.
        """
    static let output = OptionSpec.option("output", short: "o", value: "FILE", help: "Write the JSON to FILE instead of standard output.")
    var options: [OptionSpec] { [StoreCommandSupport.store, Self.output] }

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let path = try StoreCommandSupport.storePath(arguments)
        let store = try StoreCommandSupport.openExisting(path, readOnly: true)
        let text = try store.read { try StoreJSON.export($0) }.prettyText
        if let output = arguments.value(Self.output) {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            let counts = try store.read { db in try db.objectTypeNames.map { ($0, try db.count(ofType: $0)) } }
            Console.writeError("Exported \(StoreCommandSupport.counts(counts)) to '\(output)'\n")
        } else {
            Console.write(text)
        }
        return ExitStatus.success
    }
}
