import Foundation
import RemodelCore
import RemodelSchema

/// How a repository tunes `remodel check`: `Migrations/remodel-check.yaml`, inside the
/// history so that it travels with it.
///
/// ```yaml
/// rules:
///   data-dependent-change: error     # error, warning or off
///   breaking-api-change: off
/// ```
public struct CheckConfiguration: Hashable, Sendable {
    /// The file's name inside the migrations folder.
    public static let fileName = MigrationFolder.checkConfigurationFileName

    /// A rule's configured level.
    public enum Level: String, Hashable, Sendable, CaseIterable {
        case error, warning, off
    }

    /// Levels by rule ID; rules not named keep their default severity.
    public var levels: [String: Level]

    public init(levels: [String: Level] = [:]) {
        self.levels = levels
    }

    /// The configuration in the migrations folder `migrations` (none: every rule at its
    /// default), and the problems with the file.
    public static func load(migrations: String) -> (configuration: CheckConfiguration, diagnostics: [Diagnostic]) {
        let path = MigrationFolder.join(migrations, fileName)
        guard let data = FileManager.default.contents(atPath: path) else { return (CheckConfiguration(), []) }
        return CheckConfigurationReader.read([UInt8](data), file: path)
    }

    /// `diagnostics` as the configuration and `strict` make them: a tunable rule at its
    /// configured level (dropped when off); with `strict`, every warning an error.
    public func apply(to diagnostics: [Diagnostic], strict: Bool) -> [Diagnostic] {
        diagnostics.compactMap { diagnostic in
            var diagnostic = diagnostic
            if CheckRules.rule(diagnostic.rule) != nil, let level = levels[diagnostic.rule] {
                switch level {
                case .off: return nil
                case .error: diagnostic.severity = .error
                case .warning: diagnostic.severity = .warning
                }
            }
            if strict && diagnostic.severity == .warning {
                diagnostic.severity = .error
                diagnostic.message += " (an error with --strict)"
            }
            return diagnostic
        }
    }
}

/// Reads `remodel-check.yaml`, every problem located.
enum CheckConfigurationReader {
    static func read(_ bytes: [UInt8], file: String) -> (configuration: CheckConfiguration, diagnostics: [Diagnostic]) {
        let (root, problems) = YAMLParser(file: file).parse(bytes)
        guard problems.isEmpty else { return (CheckConfiguration(), problems) }
        guard let root, !root.isNull else { return (CheckConfiguration(), []) }
        let log = DiagnosticLog()
        var levels: [String: CheckConfiguration.Level] = [:]
        let example = "rules:\n  data-dependent-change: error"
        if let reader = YAMLMappingReader(root, what: "remodel-check.yaml", knownKeys: ["rules"], log: log), let rules = reader.node("rules"), !rules.isNull {
            if let mapping = rules.mapping {
                YAMLMappingReader.reportDuplicates(in: mapping, what: "'rules'", rule: "duplicate-key", noun: "rule", log: log)
                let ids = CheckRules.all.map(\.id)
                for entry in mapping.entries {
                    guard CheckRules.rule(entry.key) != nil else {
                        let hint = Suggestion.closest(to: entry.key, in: ids).map { "did you mean '\($0)'? " } ?? ""
                        log.error(
                            "check-config-unknown-rule", "'\(entry.key)' is not a rule of remodel check that can be tuned", at: entry.keyLocation,
                            hint: hint + "the rules are \(ids.joined(separator: ", ")); problems that stop a version from running cannot be turned off"
                        )
                        continue
                    }
                    guard let text = entry.value.scalar?.text, let level = CheckConfiguration.Level(rawValue: text) else {
                        log.error(
                            "check-config-invalid-level", "the level of '\(entry.key)' must be error, warning or off, found \(entry.value.kindDescription)",
                            at: entry.value.location,
                            hint: "write '\(entry.key): error', '\(entry.key): warning' or '\(entry.key): off'"
                        )
                        continue
                    }
                    levels[entry.key] = level
                }
            } else {
                log.error(
                    "invalid-structure", "'rules' must map rule IDs to error, warning or off, found \(rules.kindDescription)", at: rules.location, hint: "write e.g.\n\(example)")
            }
        }
        return (CheckConfiguration(levels: levels), log.diagnostics)
    }
}
