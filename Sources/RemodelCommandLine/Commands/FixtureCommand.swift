import Foundation
import RemodelCore
import RemodelFileCommands
import RemodelGeneration
import RemodelMigrate
import RemodelSchema
import RemodelStore
import RemodelTesting

/// `remodel fixture`: the app's own data sets for `remodel test`.
struct FixtureCommand: Command {
    let name = "fixture"
    let abstract = "Keep a store's data as a fixture that `remodel test` migrates."
    let subcommands: [any Command] = [FixtureRecordCommand()]
}

/// `remodel fixture record --store PATH`: a store's export into `Migrations/fixtures/<N>/`.
struct FixtureRecordCommand: Command {
    let name = "record"
    let abstract = "Write a store's objects into MIGRATIONS/fixtures/<version>/NAME.json, optionally anonymised."
    let discussion = """
        Exports the store (unchanged) in the format `remodel import` reads, into the fixtures \
        folder of its version, where `remodel test` migrates it with the generated data on every \
        run. With --version N newer than the store, a temporary copy of the store is migrated \
        to N first (the store itself is not touched). With --anonymize, every text and URL value \
        is replaced by made-up text of the same length and kind of characters (letters by letters \
        of the same case, digits by digits, spaces and punctuation kept; the same text always \
        becomes the same made-up text within a recording, and other text in the next), keeping primary keys, links, enums, numbers, dates and \
        data as they are; review the file before committing it. The file is written atomically \
        and never replaces one (--force does). Exit status: 0 written, 1 error (nothing \
        written), 64 usage error.
        """
    static let store = OptionSpec.option("store", value: "STORE", required: true, help: "The store file whose objects to record.")
    static let version = OptionSpec.option("version", value: "N", help: "The version to record the data at (default: the store's; a newer one migrates a copy).")
    static let anonymize = OptionSpec.flag("anonymize", help: "Replace text and URL values with made-up text of the same length and kind.")
    static let fixtureName = OptionSpec.option("name", value: "NAME", help: "The fixture's file name, without .json (default: the store file's name).")
    static let force = OptionSpec.flag("force", help: "Replace a fixture of the same name.")

    var options: [OptionSpec] {
        [Self.store, Self.version, Self.anonymize, Self.fixtureName, Self.force, CommonOptions.schemas, CommonOptions.migrations]
    }

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let store = arguments.value(Self.store) ?? ""
        var requested: Int?
        if let text = arguments.value(Self.version) {
            guard let number = Int(text), number > 0 else { throw UsageError("--version needs a version number (1, 2, …), found '\(text)'") }
            requested = number
        }
        var stem: String
        if let given = arguments.value(Self.fixtureName) {
            stem = given.lowercased().hasSuffix(".json") ? String(given.dropLast(5)) : given
            guard MigrationFolder.isValidName(stem) else {
                throw UsageError("'\(given)' cannot be a fixture name: use letters, digits, '-', '_' or '.', starting with a letter or digit (--name NAME)")
            }
        } else {
            // The store file's name without its extension, with what a name cannot hold made '-'.
            let base = FilePaths.name(of: store).split(separator: ".").first.map(String.init) ?? ""
            stem = String(base.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "-" })
            if !MigrationFolder.isValidName(stem) { stem = "store" }
        }
        guard let checked = HistoryInput.load(arguments, need: "a fixture is kept with the history's versions") else { return ExitStatus.failure }
        let info = try RemodelStore.inspect(path: store)
        let version = requested ?? info.version
        guard version >= info.version else {
            Console.writeError(
                "Error: '\(store)' is at version \(info.version), newer than \(version); a store cannot go back a version: record it at version \(info.version) (or later), or record a store of version \(version)\n"
            )
            return ExitStatus.failure
        }
        guard version <= checked.history.currentVersion else {
            Console.writeError("Error: the history in '\(arguments.migrationsPath)' has no version \(version); its newest is \(checked.history.currentVersion)\n")
            return ExitStatus.failure
        }
        let file = OutputFile(
            path: FilePaths.join(Fixture.folder(in: arguments.migrationsPath, version: version), stem + ".json"),
            existing: arguments.flag(Self.force) ? .replace : .refuse,
            protected: [(FileIdentity.ofDatabase(at: store), "the store '\(store)' being recorded")],
            advice: "choose another name with --name NAME, or pass --force to replace it")
        let folder = FilePaths.folder(of: file.path)
        let madeFolder = !FileManager.default.fileExists(atPath: folder)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            Console.writeError(
                "Error: cannot make the fixtures folder '\(folder)': \((error as NSError).localizedFailureReason ?? "a file is in the way or the folder cannot be written"); check that '\(FilePaths.folder(of: folder))' is a folder you can write; nothing was written\n"
            )
            return ExitStatus.failure
        }
        do {
            try file.check()
        } catch {
            if madeFolder { try? FileManager.default.removeItem(atPath: folder) }
            throw error
        }
        var migrator = arguments.tool.migrator(for: checked.history)
        migrator.sources = checked.sources
        let tester = try MigrationTester(migrator: migrator)
        defer { tester.removeStores() }
        var document: JSONValue
        if version == info.version {
            document = try tester.export(store)
        } else {
            // A copy made with SQLite's backup API, so that a store in use is copied whole.
            let copy = FilePaths.join(tester.folder, "copy.store")
            try StoreBackup.copy(from: store, to: copy)
            try tester.migrate(copy, to: version)
            document = try tester.export(copy)
        }
        if arguments.flag(Self.anonymize), let schema = checked.history.schema(at: version) {
            // A new seed for each recording: the same text is not made up the same way in two
            // recordings, so that made-up text cannot be matched against guesses run through the tool.
            document = FixtureAnonymizer(schema: schema, seed: UInt64.random(in: 0...UInt64.max)).anonymize(document)
        }
        try file.write(Data(StoreJSON.text(of: document).utf8))
        Console.write(
            "Recorded \(StoreCommandSupport.counts(StoreJSON.counts(of: document))) of '\(store)' at version \(version)\(arguments.flag(Self.anonymize) ? ", anonymised," : "") in '\(file.path)'; `\(arguments.command("test"))` migrates it from now on\n"
        )
        return ExitStatus.success
    }
}
