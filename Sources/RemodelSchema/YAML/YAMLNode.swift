import RemodelCore

/// A node of a parsed YAML document with the place it starts, so that every key and value
/// can be blamed precisely. Built by `YAMLParser`; shared by the schema and migration loaders.
package struct YAMLNode: Sendable {
    package enum Content: Sendable {
        case scalar(YAMLScalar)
        case sequence([YAMLNode])
        case mapping(YAMLMapping)
    }

    package var content: Content
    /// Where the node starts (1-based).
    package var location: SourceLocation

    package init(_ content: Content, at location: SourceLocation) {
        self.content = content
        self.location = location
    }

    package var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    package var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    package var mapping: YAMLMapping? {
        if case .mapping(let mapping) = content { return mapping }
        return nil
    }

    /// Whether the node is a plain `null`, `~` or nothing at all.
    package var isNull: Bool { scalar?.isNull ?? false }

    /// What the node is, for messages: "a mapping", "a list", "the string 'x'", "null".
    package var kindDescription: String {
        switch content {
        case .mapping(let mapping): mapping.entries.isEmpty ? "an empty mapping" : "a mapping"
        case .sequence(let items): items.isEmpty ? "an empty list" : "a list"
        case .scalar(let scalar): scalar.isNull ? "null" : "'\(scalar.text)'"
        }
    }
}

/// A scalar's text and how it was written: plain scalars are resolved (numbers, booleans,
/// null, `$uuid`), quoted ones are always strings.
package struct YAMLScalar: Sendable, Hashable {
    package enum Style: Sendable, Hashable {
        case plain
        case singleQuoted
        case doubleQuoted
        /// `|` or `>` block scalars.
        case block
    }

    package var text: String
    package var style: Style
    package init(_ text: String, style: Style = .plain) {
        self.text = text
        self.style = style
    }

    /// Plain (unquoted): the YAML core schema resolves its type from its text. (Tags, which
    /// would say otherwise, are refused by the parser.)
    package var isPlain: Bool { style == .plain }

    /// A plain `null`, `Null`, `NULL`, `~` or empty scalar.
    package var isNull: Bool {
        isPlain && (text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL")
    }

    /// A plain `true` or `false` (any of YAML 1.2's spellings), else `nil`.
    package var bool: Bool? {
        guard isPlain else { return nil }
        return BoolLiteral.parse(text)
    }

    /// The column of the character at `offset` (in Unicode scalars) of the text, when the
    /// scalar starts at `column` and its text maps one to one onto the source (plain, or
    /// quoted with no escapes); otherwise `column`.
    package func column(ofOffset offset: Int, scalarColumn column: Int) -> Int {
        switch style {
        case .plain: return column + offset
        case .singleQuoted where !text.contains("'"): return column + 1 + offset
        case .doubleQuoted where !text.contains("\\") && !text.contains("\""): return column + 1 + offset
        default: return column
        }
    }
}

/// A mapping with its keys in the order written. Duplicate keys are kept (readers report
/// them with the meaning they have, e.g. "duplicate property").
package struct YAMLMapping: Sendable {
    package struct Entry: Sendable {
        package var key: String
        package var keyLocation: SourceLocation
        package var value: YAMLNode

        package init(key: String, keyLocation: SourceLocation, value: YAMLNode) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    package var entries: [Entry]

    package init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// The first entry for `key`.
    package subscript(key: String) -> Entry? {
        entries.first { $0.key == key }
    }

    package var keys: [String] { entries.map(\.key) }

    /// Entries whose key appeared earlier in the mapping, each with the first one.
    package var duplicates: [(first: Entry, duplicate: Entry)] {
        guard entries.count > 1 else { return [] }
        if entries.count <= 12 {
            var result: [(Entry, Entry)] = []
            for index in 1..<entries.count {
                if let first = entries[..<index].first(where: { $0.key == entries[index].key }) {
                    result.append((first, entries[index]))
                }
            }
            return result
        }
        var seen: [String: Int] = [:]
        var result: [(Entry, Entry)] = []
        for (index, entry) in entries.enumerated() {
            if let first = seen[entry.key] {
                result.append((entries[first], entry))
            } else {
                seen[entry.key] = index
            }
        }
        return result
    }
}
