import Foundation
import RemodelCodegen
import RemodelCore
import RemodelGeneration
import RemodelSchema

/// `remodel check --generated DIR`: whether the generated Swift in a folder is what
/// `remodel generate` writes now, so that a schema edited without regenerating (for code
/// checked in rather than built by the plugin) fails before merge.
public enum GeneratedCodeCheck {
    /// The findings for `folder`: none when it is up to date; one `generated-out-of-date`
    /// naming each file that differs (one file per type, or the build plugin's two files,
    /// whichever the folder holds).
    public static func findings(folder path: String, input: GeneratorInput, manifestName: String, realmClassNames: String = GeneratorOptions.defaultRealmClassNames) -> [Diagnostic]
    {
        let rule = CheckRules.generatedOutOfDate
        guard MigrationFolder.isDirectory(path) else {
            return [
                Diagnostic(
                    rule.defaultSeverity, rule: rule.id, "'\(path)' (--generated) is not a folder", at: nil, hint: "pass the folder 'remodel generate --output DIR' writes to")
            ]
        }
        let isBundle = CodeGenerator.bundleFileNames.allSatisfy { FileManager.default.fileExists(atPath: MigrationFolder.join(path, $0)) }
        // A folder generated with --realm holds its Realm support file: compare it with --realm.
        let realmFile = isBundle ? CodeGenerator.realmBundleFileName : manifestName + "+Realm.swift"
        // (The plugin's placeholder for `realm: false` holds no Realm code.)
        let realmText = FileManager.default.contents(atPath: MigrationFolder.join(path, realmFile)).map { String(decoding: $0, as: UTF8.self) }
        let realm = realmText?.contains("#if " + CodeGenerator.realmCondition) ?? false
        let generator = CodeGenerator(options: GeneratorOptions(manifestName: manifestName, realm: realm, realmClassNames: realmClassNames))
        let changes: [OutputDirectory.Change]
        do {
            let files = try generator.generatedFiles(for: input, bundle: isBundle, realmPlaceholder: isBundle && realmText != nil)
            changes = try OutputDirectory(path: path).changes(toMatch: files)
        } catch let error as DiagnosticsError {
            return error.diagnostics
        } catch {
            return [
                Diagnostic(
                    rule.defaultSeverity, rule: rule.id, "cannot compare '\(path)' with the generated code: \(error)", at: nil,
                    hint: "pass the folder 'remodel generate --output DIR' writes to")
            ]
        }
        let regenerate = (isBundle ? "remodel generate --bundle \(path)" : "remodel generate --output \(path)") + (realm ? " --realm" : "")
        return changes.map { change in
            let file = MigrationFolder.join(path, change.name)
            let what: String =
                switch change {
                case .create: "is missing"
                case .update: "differs from what remodel generates now"
                case .delete: "was generated for a type the schema no longer has"
                }
            return Diagnostic(
                rule.defaultSeverity, rule: rule.id, "generated file '\(file)' \(what): the generated code is out of date",
                at: SourceLocation(file: file, line: 1, column: 1),
                hint: "run '\(regenerate)' and commit the result ('\(regenerate) --check' shows the diff)"
            )
        }
    }
}
