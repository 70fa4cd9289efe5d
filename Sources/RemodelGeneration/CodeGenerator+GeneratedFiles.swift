import RemodelCodegen
import RemodelCore

extension CodeGenerator {
    /// The files `remodel generate` writes: one per type (`files(for:)`), or the build
    /// plugin's bundle (`bundle(for:)`), plus with `realmPlaceholder` the Realm file saying the
    /// Realm side is off when these options do not generate it. Shared by generating and by
    /// `remodel check --generated`, which compares a folder with them.
    package func generatedFiles(for input: GeneratorInput, bundle: Bool, realmPlaceholder: Bool) throws(DiagnosticsError) -> [GeneratedFile] {
        var files = bundle ? try self.bundle(for: input) : try self.files(for: input)
        if realmPlaceholder, !options.realm { files.append(realmBundlePlaceholder(for: input)) }
        return files
    }
}
