import Foundation
import RemodelCodegen
import RemodelCore
import RemodelSchema

/// `remodel generate`: writes the Swift models, enums, projections, store bridges and schema
/// manifest for the schema.
struct GenerateCommand: Command {
    let name = "generate"
    let abstract = "Generate Swift models, store bridges and the schema manifest from the schema."
    let discussion = """
        With --output, writes one file per type (Note.swift, Note+RemodelStore.swift, …) and the \
        manifest, rewriting only files whose content changed and deleting files it generated \
        earlier for types that no longer exist (other files are never touched). With --check, \
        writes nothing: prints a unified diff of what would change and exits 1 when the folder \
        is out of date. With --bundle, writes the two fixed files the build plugin declares \
        (RemodelModels.swift, RemodelStoreBridges.swift). Output is byte-identical for the same \
        input. Like `remodel migrate`, it refuses (and writes nothing) when the schema is invalid, \
        when a version of the migrations folder cannot run, and when the schema differs from \
        the newest snapshot (schema-not-snapshotted: Schemas/ edited without a new version; \
        run `remodel migration new NAME`, or `remodel migration amend` for a version no store \
        has applied): so does the build plugin, which runs it. Exit status: 0 success (or up to \
        date), 1 invalid schema, history that cannot run, schema not snapshotted, or (--check) \
        out of date, 64 usage error.
        """
    static let output = OptionSpec.option("output", short: "o", value: "DIR", help: "The folder to write the generated files to.")
    static let check = OptionSpec.flag("check", help: "Write nothing; print a diff and exit 1 if the output folder is out of date.")
    static let bundle = OptionSpec.option("bundle", value: "DIR", help: "Write the build plugin's two fixed files into DIR instead of one file per type.")
    static let manifestName = OptionSpec.option(
        "manifest-name", value: "NAME", default: GeneratorOptions.defaultManifestName,
        help: "The name of the generated schema manifest type."
    )

    var options: [OptionSpec] {
        [CommonOptions.schemas, CommonOptions.migrations, Self.output, Self.check, Self.bundle, Self.manifestName]
    }

    func run(_ arguments: ParsedArguments) throws -> Int32 {
        let output = arguments.value(Self.output)
        let bundle = arguments.value(Self.bundle)
        let checkOnly = arguments.flag(Self.check)
        switch (output, bundle) {
        case (nil, nil): throw UsageError("missing --output DIR (or --bundle DIR)")
        case (.some, .some): throw UsageError("--output and --bundle cannot be used together")
        default: break
        }

        // The same check as `validate` and `migrate`: code generated from a schema or history
        // that cannot migrate a store would build, then fail when the app opens its store.
        let project = HistoryInput.read(arguments, requireSchema: true)
        DiagnosticsOutput.print(project.diagnostics)
        guard let loaded = project.schema, let schema = loaded.schema, !project.hasErrors else { return ExitStatus.failure }
        let migrations = project.loaded
        let input = GeneratorInput(
            schema: schema,
            schemaFiles: SchemaFolder.displayNames(of: loaded.files, schemasPath: arguments.schemasPath),
            version: migrations.currentVersion,
            history: migrations.history
        )
        let generator = CodeGenerator(options: GeneratorOptions(manifestName: arguments.value(Self.manifestName) ?? GeneratorOptions.defaultManifestName))
        let files: [GeneratedFile]
        do {
            files = bundle != nil ? try generator.bundle(for: input) : try generator.files(for: input)
        } catch {
            DiagnosticsOutput.print(error.diagnostics)
            return ExitStatus.failure
        }

        let folder = OutputDirectory(path: Paths.url(bundle ?? output!).path)
        let changes = try folder.changes(toMatch: files)
        if checkOnly {
            guard !changes.isEmpty else {
                Console.writeError("\(output ?? bundle!): up to date (\(files.count) files)\n")
                return ExitStatus.success
            }
            Console.write(folder.diff(changes))
            Console.writeError("\(output ?? bundle!): out of date: \(changes.count) of the generated files differ; run `remodel generate` without --check\n")
            return ExitStatus.failure
        }
        try folder.apply(changes)
        if bundle == nil {
            let written = changes.filter { if case .delete = $0 { false } else { true } }.count
            let deleted = changes.count - written
            Console.writeError("\(output!): \(written) written, \(deleted) deleted, \(files.count - written) unchanged\n")
        }
        return ExitStatus.success
    }
}
