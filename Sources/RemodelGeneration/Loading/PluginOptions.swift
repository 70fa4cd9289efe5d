import Foundation
import RemodelCore
import RemodelSchema

/// `remodel-plugin.yaml`: the build plugin's options for a target, which the plugin hands to
/// its tool (`remodel-generate --plugin-options FILE`, as `remodel generate` takes it) so that
/// the tool reads them (with every problem located) each time the file changes, not only when
/// SwiftPM plans the build.
package struct PluginOptions: Sendable {
    /// `realm: true`: also the Realm side (`--realm`).
    package var realm = false
    /// `realmClassNames: PATTERN` (`--realm-class-names`).
    package var realmClassNames: String?

    /// The keys the file may hold.
    package static let keys = ["realm", "realmClassNames"]

    package init() {}

    /// The options in `path`, and the problems with the file (unreadable, not YAML, unknown
    /// keys, wrong kinds of values).
    package static func read(_ path: String) -> (options: PluginOptions, diagnostics: [Diagnostic]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            return (PluginOptions(), [.error("file-unreadable", "cannot read the plugin options '\(path)'", at: nil, hint: "check that the file exists and can be read")])
        }
        let (root, problems) = YAMLParser(file: path).parse([UInt8](data))
        guard problems.isEmpty else { return (PluginOptions(), problems) }
        guard let root, !root.isNull else { return (PluginOptions(), []) }
        let log = DiagnosticLog()
        var options = PluginOptions()
        if let reader = YAMLMappingReader(root, what: "remodel-plugin.yaml", knownKeys: keys, log: log) {
            options.realm = reader.bool("realm")?.value ?? false
            if let pattern = reader.string("realmClassNames") {
                if pattern.value.contains("{name}") {
                    options.realmClassNames = pattern.value
                } else {
                    log.error(
                        "invalid-value", "realmClassNames '\(pattern.value)' has no {name}", at: pattern.location,
                        hint: "write where the type's name goes, e.g. realmClassNames: \"{name}Object\"")
                }
            }
        }
        return (options, log.diagnostics.sortedByLocation())
    }
}
