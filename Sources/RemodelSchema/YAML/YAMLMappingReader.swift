import RemodelCore

/// Reads a YAML mapping with a fixed set of keys (an object's `primaryKey`, `properties`, …),
/// reporting wrong shapes, unknown keys (with a "did you mean") and duplicate keys as it goes.
///
/// `what` names the mapping in messages, e.g. "object 'Person'" or "step 'renameProperty'".
package struct YAMLMappingReader {
    package let mapping: YAMLMapping
    package let location: SourceLocation
    private let describe: () -> String
    private let log: DiagnosticLog

    /// The mapping's name in messages ("object 'Person'"), built only when needed.
    package var what: String { describe() }

    /// A reader for `node`, or `nil` (after reporting `invalid-structure`) when it is not a
    /// mapping. With `allowNull`, a null node reads as an empty mapping.
    package init?(_ node: YAMLNode, what: @autoclosure @escaping () -> String, knownKeys: [String], log: DiagnosticLog, allowNull: Bool = false) {
        if allowNull, node.isNull {
            self.init(checked: YAMLMapping(), at: node.location, what: what, log: log)
            return
        }
        guard let mapping = node.mapping else {
            log.error(
                "invalid-structure", "\(what()) must be a mapping of keys to values, found \(node.kindDescription)", at: node.location,
                hint: "write it as 'key: value' lines indented under its name; allowed keys: \(knownKeys.joined(separator: ", "))"
            )
            return nil
        }
        self.init(checked: mapping, at: node.location, what: what, log: log)
        Self.reportUnknownKeys(in: mapping, what: what(), knownKeys: knownKeys, log: log)
        Self.reportDuplicates(in: mapping, what: what(), rule: "duplicate-key", noun: "key", log: log)
    }

    private init(checked mapping: YAMLMapping, at location: SourceLocation, what: @escaping () -> String, log: DiagnosticLog) {
        self.mapping = mapping
        self.location = location
        self.describe = what
        self.log = log
    }

    /// Reports every key of `mapping` not in `knownKeys`, suggesting the closest known key.
    package static func reportUnknownKeys(in mapping: YAMLMapping, what: @autoclosure () -> String, knownKeys: [String], log: DiagnosticLog) {
        for entry in mapping.entries where !knownKeys.contains(entry.key) {
            let what = what()
            let hint =
                Suggestion.closest(to: entry.key, in: knownKeys).map { "did you mean '\($0)'?" }
                ?? "allowed keys in \(what): \(knownKeys.joined(separator: ", "))"
            log.error("unknown-key", "unknown key '\(entry.key)' in \(what)", at: entry.keyLocation, hint: hint)
        }
    }

    /// Reports each key given twice, pointing at the first.
    package static func reportDuplicates(in mapping: YAMLMapping, what: @autoclosure () -> String, rule: String, noun: String, log: DiagnosticLog) {
        for (first, duplicate) in mapping.duplicates {
            let what = what()
            log.error(
                rule, "duplicate \(noun) '\(duplicate.key)' in \(what)", at: duplicate.keyLocation,
                hint: "remove or rename one of them",
                notes: [.init("'\(first.key)' first given here", at: first.keyLocation)]
            )
        }
    }

    /// The first entry for `key`.
    package func entry(_ key: String) -> YAMLMapping.Entry? {
        mapping[key]
    }

    /// The value node of `key`.
    package func node(_ key: String) -> YAMLNode? {
        mapping[key]?.value
    }

    /// Whether `key` is present.
    package func contains(_ key: String) -> Bool {
        mapping[key] != nil
    }

    /// The value of `key` when it is a scalar other than null (a name, a doc string);
    /// reports `invalid-value` for a mapping, list or null.
    package func string(_ key: String) -> Located<String>? {
        guard let entry = mapping[key] else { return nil }
        guard let scalar = entry.value.scalar, !scalar.isNull else {
            log.error(
                "invalid-value", "'\(key)' in \(what) must be a single value, found \(entry.value.kindDescription)", at: entry.value.location,
                hint: "write one value after '\(key):' on the same line"
            )
            return nil
        }
        return Located(scalar.text, at: entry.value.location)
    }

    /// The value of `key` when it is plain `true` or `false`; reports `invalid-value` otherwise.
    package func bool(_ key: String) -> Located<Bool>? {
        guard let entry = mapping[key] else { return nil }
        guard let flag = entry.value.scalar?.bool else {
            log.error(
                "invalid-value", "'\(key)' in \(what) must be true or false, found \(entry.value.kindDescription)", at: entry.value.location,
                hint: "write '\(key): true' or leave the key out"
            )
            return nil
        }
        return Located(flag, at: entry.value.location)
    }

    /// Reports `missing-key` for `key` when it is absent, at `blame` (e.g. the key naming the
    /// mapping) or else the mapping itself; returns whether it is present.
    @discardableResult
    package func require(_ key: String, hint: String, blame: SourceLocation? = nil) -> Bool {
        guard mapping[key] == nil else { return true }
        log.error("missing-key", "\(what) has no '\(key)'", at: blame ?? location, hint: hint)
        return false
    }
}
