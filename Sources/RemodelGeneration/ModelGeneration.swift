import Foundation
import RemodelCodegen
import RemodelCore
import RemodelSchema

/// One run of the code generator on a schema folder and its history, as `remodel generate`
/// and the build plugin's tool (`remodel-generate`) both run it: the same checks and
/// refusals, the same files, the same messages.
///
/// It refuses (and writes nothing) when the schema is invalid, when a version of the
/// migrations folder cannot run and when the schema differs from the newest snapshot
/// (`HistoryInput`, the check `validate` and `migrate` run too): code generated from a schema
/// or history that cannot migrate a store would build, then fail when the app opens its store.
package struct ModelGeneration: Sendable {
    /// Where the files go.
    package enum Destination: Sendable {
        /// `--output DIR`: one file per type and the manifest.
        case files(String)
        /// `--bundle DIR`: the build plugin's fixed files (`CodeGenerator.bundleFileNames`).
        case bundle(String)

        /// The folder, as the user wrote it, so that messages name it so.
        package var path: String {
            switch self {
            case .files(let path), .bundle(let path): path
            }
        }
    }

    /// The schema folder (or file) and the migrations folder, as the user wrote them.
    package var schemasPath: String
    package var migrationsPath: String
    package var destination: Destination
    /// `--check`: write nothing; print a diff and fail when the folder is out of date.
    package var checkOnly = false
    /// `--realm`: also the Realm side (or `realm: true` in the plugin options).
    package var realm = false
    /// `--realm-class-names`, already checked to hold `{name}`; `nil`: the plugin options'
    /// pattern, else `GeneratorOptions.defaultRealmClassNames`.
    package var realmClassNames: String?
    /// `--plugin-options FILE`: the build plugin's `remodel-plugin.yaml` (`PluginOptions`).
    package var pluginOptions: String?
    /// `--manifest-name`.
    package var manifestName = GeneratorOptions.defaultManifestName

    package init(schemasPath: String, migrationsPath: String, destination: Destination) {
        self.schemasPath = schemasPath
        self.migrationsPath = migrationsPath
        self.destination = destination
    }

    /// Loads, checks, generates and writes (or, with `checkOnly`, compares), printing every
    /// diagnostic on stderr as `file:line:column: error: …`, a line saying what happened to
    /// the folder, and with `checkOnly` the diff on stdout. Returns whether it succeeded:
    /// `false` when the problems it printed stop it, or (`checkOnly`) the folder is out of
    /// date. Throws when the folder cannot be used or written (nothing was written); the
    /// caller prints that as `Error: …` (`Console.message(for:)`).
    package func run() throws -> Bool {
        let project = HistoryInput.read(schemasPath: schemasPath, migrationsPath: migrationsPath, requireSchema: true)
        DiagnosticsOutput.print(project.diagnostics)
        guard let loaded = project.schema, let schema = loaded.schema, !project.hasErrors else { return false }
        let input = GeneratorInput(schema: schema, result: loaded, schemasPath: schemasPath, migrations: project.loaded)
        var options = PluginOptions()
        if let pluginOptions {
            let read = PluginOptions.read(pluginOptions)
            DiagnosticsOutput.print(read.diagnostics)
            guard !read.diagnostics.containsErrors else { return false }
            options = read.options
        }
        let generator = CodeGenerator(
            options: GeneratorOptions(
                manifestName: manifestName,
                realm: realm || options.realm,
                // The command line's --realm-class-names, else the options file's, else the default.
                realmClassNames: realmClassNames ?? options.realmClassNames ?? GeneratorOptions.defaultRealmClassNames
            ))
        let files: [GeneratedFile]
        do {
            // The plugin declares its outputs before it reads the options: with an options file
            // the Realm file is one of them, whatever `realm:` says.
            files = try generator.generatedFiles(for: input, bundle: isBundle, realmPlaceholder: isBundle && pluginOptions != nil)
        } catch {
            DiagnosticsOutput.print(error.diagnostics)
            return false
        }

        let folder = OutputDirectory(path: destination.path)
        try folder.refuseInputFolders([(schemasPath, "the schemas folder"), (migrationsPath, "the migrations folder")])
        let changes = try folder.changes(toMatch: files)
        if checkOnly {
            guard !changes.isEmpty else {
                Console.writeError("\(destination.path): up to date (\(files.count) files)\n")
                return true
            }
            Console.write(folder.diff(changes))
            Console.writeError("\(destination.path): out of date: \(changes.count) of the generated files differ; run `remodel generate` without --check\n")
            return false
        }
        try folder.apply(changes)
        if !isBundle {
            let written = changes.filter { if case .delete = $0 { false } else { true } }.count
            let deleted = changes.count - written
            Console.writeError("\(destination.path): \(written) written, \(deleted) deleted, \(files.count - written) unchanged\n")
        }
        return true
    }

    private var isBundle: Bool {
        if case .bundle = destination { true } else { false }
    }
}
