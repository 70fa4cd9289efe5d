import CYAML
import RemodelCore

/// Parses YAML text into a located `YAMLNode` tree with libyaml's event API.
///
/// The tree is built with an explicit stack (no recursion), nesting deeper than
/// `YAMLLimits.maxDepth` stops with a diagnostic, and aliases may only add
/// `YAMLLimits.maxAliasExpansion` nodes, so no input can exhaust the stack, memory or time.
/// A document with a syntax error yields one diagnostic at the spot libyaml stopped.
package struct YAMLParser {
    /// What a file holds, for the words of its diagnostics.
    package enum Document: Sendable {
        case schema
        case migration

        /// `a schema`, `a migration file`.
        var withArticle: String {
            switch self {
            case .schema: "a schema"
            case .migration: "a migration file"
            }
        }

        /// `a schema file`, `a migration file`.
        var file: String {
            switch self {
            case .schema: "a schema file"
            case .migration: "a migration file"
            }
        }
    }

    package var file: String
    package var limits: YAMLLimits
    package var document: Document

    package init(file: String, limits: YAMLLimits = .standard, document: Document = .schema) {
        self.file = file
        self.limits = limits
        self.document = document
    }

    /// The document's root node (`nil` for an empty document or on error) and any problems.
    package func parse(_ bytes: [UInt8]) -> (root: YAMLNode?, diagnostics: [Diagnostic]) {
        var builder = TreeBuilder(file: file, limits: limits, document: document)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return (nil, [.error("yaml-syntax", "could not start the YAML parser (out of memory)", at: nil)])
        }
        defer { yaml_parser_delete(&parser) }
        let input = bytes.isEmpty ? [0] : bytes
        return input.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, bytes.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    return (nil, [libyamlError(parser, bytes: bytes)])
                }
                let done = event.type == YAML_STREAM_END_EVENT
                let failure = builder.handle(&event)
                yaml_event_delete(&event)
                if let failure { return (nil, [failure]) }
                if done { return (builder.root, []) }
            }
        }
    }

    // MARK: - libyaml errors

    private func libyamlError(_ parser: yaml_parser_t, bytes: [UInt8]) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown error"
        switch parser.error {
        case YAML_READER_ERROR:
            let offset = min(parser.problem_offset, bytes.count)
            let location = Self.location(ofByte: offset, in: bytes, file: file)
            var message = "the file is not valid UTF-8 text: \(problem)"
            if offset < bytes.count { message += " (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))" }
            return .error("yaml-encoding", message, at: location, hint: "save the file as UTF-8 text; binary data cannot be \(document.withArticle)")
        case YAML_MEMORY_ERROR:
            return .error("yaml-syntax", "the YAML parser ran out of memory", at: SourceLocation(file: file, line: 1, column: 1))
        default:
            let mark = parser.problem_mark
            let location = SourceLocation(file: file, line: mark.line + 1, column: mark.column + 1)
            if Self.lineHasTabIndentation(bytes, line: mark.line) {
                return .error(
                    "yaml-tab", "tab character in indentation", at: location,
                    hint: "YAML indents with spaces only: replace the tabs with spaces"
                )
            }
            var notes: [Diagnostic.Note] = []
            if let context = parser.context.map({ String(cString: $0) }) {
                let contextMark = parser.context_mark
                let contextLocation = SourceLocation(file: file, line: contextMark.line + 1, column: contextMark.column + 1)
                if contextLocation != location { notes.append(.init(Self.describe(context: context), at: contextLocation)) }
            }
            return .error("yaml-syntax", "invalid YAML: \(problem)", at: location, hint: Self.hint(for: problem), notes: notes)
        }
    }

    /// How to fix the commonest libyaml problems.
    static func hint(for problem: String) -> String {
        switch problem {
        case "did not find expected key":
            return "line this key up with the keys above it, or indent it further to nest it"
        case "mapping values are not allowed in this context":
            return "quote the value: it contains ': ' (e.g. doc: \"a: b\")"
        case "found character that cannot start any token":
            return "quote the value: it starts with a character YAML reserves (@, `, %, |, >, …)"
        case "did not find expected ',' or '}'", "did not find expected ',' or ']'":
            return "close the bracket, or separate the entries with ','"
        case "found unexpected end of stream":
            return "close the quote or bracket that is still open"
        default:
            return "check the indentation and quoting here; quote values that contain ': ' or start with a special character"
        }
    }

    /// libyaml's context ("while parsing a block mapping") as a note for users.
    static func describe(context: String) -> String {
        if context.contains("mapping") { return "in the mapping that starts here" }
        if context.contains("sequence") { return "in the list that starts here" }
        if context.contains("quoted scalar") { return "in the quoted value that starts here" }
        return context
    }

    /// Whether line `line` (0-based) starts with whitespace that contains a tab.
    static func lineHasTabIndentation(_ bytes: [UInt8], line: Int) -> Bool {
        var current = 0
        var index = 0
        while index < bytes.count, current < line {
            if bytes[index] == UInt8(ascii: "\n") { current += 1 }
            index += 1
        }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            if bytes[index] == UInt8(ascii: "\t") { return true }
            index += 1
        }
        return false
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    static func location(ofByte offset: Int, in bytes: [UInt8], file: String) -> SourceLocation {
        var line = 1
        var column = 1
        for byte in bytes[..<offset] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return SourceLocation(file: file, line: line, column: column)
    }
}

/// Turns libyaml events into nodes, keeping open collections on an explicit stack.
private struct TreeBuilder {
    /// An open mapping or list. A class, so that appending to the top of the stack never
    /// copies the children gathered so far.
    private final class Frame {
        let isMapping: Bool
        let location: SourceLocation
        let anchor: String?
        var items: [YAMLNode] = []
        var entries: [YAMLMapping.Entry] = []
        var pendingKey: (key: String, location: SourceLocation)?
        /// Nodes in this collection so far, itself included (for the alias budget).
        var size = 1

        init(isMapping: Bool, location: SourceLocation, anchor: String?) {
            self.isMapping = isMapping
            self.location = location
            self.anchor = anchor
        }
    }

    let file: SourceLocation.InternedFile
    let limits: YAMLLimits
    let document: YAMLParser.Document
    private(set) var root: YAMLNode?
    private var stack: [Frame] = []
    private var anchors: [String: (node: YAMLNode, size: Int)] = [:]
    private var aliasExpansion = 0
    private var documents = 0

    init(file: String, limits: YAMLLimits, document: YAMLParser.Document) {
        self.file = SourceLocation.InternedFile(file)
        self.limits = limits
        self.document = document
    }

    /// Handles one event; returns a diagnostic when the document must be refused.
    mutating func handle(_ event: inout yaml_event_t) -> Diagnostic? {
        let location = SourceLocation(file: file, line: event.start_mark.line + 1, column: event.start_mark.column + 1)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                return .error(
                    "yaml-multiple-documents", "\(document.file) holds one YAML document, this is the second", at: location,
                    hint: "move this document into a file of its own, or remove the '---' line"
                )
            }
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            if let tag = Self.string(data.tag) { return Self.refusedTag(tag, at: location) }
            let text = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
            let style: YAMLScalar.Style =
                switch data.style {
                case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
                case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
                case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE: .block
                default: .plain
                }
            let node = YAMLNode(.scalar(YAMLScalar(text, style: style)), at: location)
            return add(node, size: 1, anchor: Self.string(data.anchor))
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            guard let (node, size) = anchors[name] else {
                return .error("yaml-syntax", "invalid YAML: unknown alias '*\(name)'", at: location, hint: "define '&\(name)' before using '*\(name)'")
            }
            aliasExpansion += size
            if aliasExpansion > limits.maxAliasExpansion {
                return .error(
                    "yaml-alias-limit", "aliases expand to more than \(limits.maxAliasExpansion) nodes", at: location,
                    hint: "write the values out instead of nesting aliases"
                )
            }
            return add(node, size: size, anchor: nil)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            if stack.count >= limits.maxDepth {
                return .error(
                    "yaml-too-deep", "mappings and lists nest more than \(limits.maxDepth) levels deep", at: location,
                    hint: "\(document.withArticle) needs only a few levels: check the indentation and brackets"
                )
            }
            if let failure = checkKeyPosition(at: location) { return failure }
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            if let tag = isMapping ? Self.string(event.data.mapping_start.tag) : Self.string(event.data.sequence_start.tag) {
                return Self.refusedTag(tag, at: location)
            }
            let anchor = isMapping ? Self.string(event.data.mapping_start.anchor) : Self.string(event.data.sequence_start.anchor)
            stack.append(Frame(isMapping: isMapping, location: location, anchor: anchor))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { break }
            let content: YAMLNode.Content = frame.isMapping ? .mapping(YAMLMapping(frame.entries)) : .sequence(frame.items)
            return add(YAMLNode(content, at: frame.location), size: frame.size, anchor: frame.anchor)
        default:
            break
        }
        return nil
    }

    /// Keys must be scalars: a collection cannot start where a key is expected.
    private func checkKeyPosition(at location: SourceLocation) -> Diagnostic? {
        guard let top = stack.last, top.isMapping, top.pendingKey == nil else { return nil }
        return .error(
            "yaml-complex-key", "a mapping key must be a plain name, not a list or mapping", at: location,
            hint: "write a name followed by ':' here"
        )
    }

    private mutating func add(_ node: YAMLNode, size: Int, anchor: String?) -> Diagnostic? {
        if let anchor { anchors[anchor] = (node, size) }
        guard let top = stack.last else {
            root = node
            return nil
        }
        top.size += size
        if !top.isMapping {
            top.items.append(node)
        } else if let pending = top.pendingKey {
            top.entries.append(YAMLMapping.Entry(key: pending.key, keyLocation: pending.location, value: node))
            top.pendingKey = nil
        } else if let scalar = node.scalar {
            if scalar.text == "<<", scalar.style == .plain {
                return .error(
                    "yaml-merge-key", "merge keys ('<<') are not read: the keys they would bring in would be silently missing", at: node.location,
                    hint: "write the keys out in this mapping (an anchor '&name' and '*name' may repeat a whole value)")
            }
            top.pendingKey = (scalar.text, node.location)
        } else {
            return checkKeyPosition(at: node.location)
        }
        return nil
    }

    /// Tags (`!!int "5"`, `!Custom`) would change what a value means, and remodel reads values
    /// by their text alone: refused rather than ignored.
    private static func refusedTag(_ tag: String, at location: SourceLocation) -> Diagnostic {
        let shown = tag.hasPrefix("tag:yaml.org,2002:") ? "!!" + tag.dropFirst("tag:yaml.org,2002:".count) : tag
        return .error(
            "yaml-tag", "the tag '\(shown)' is not read: remodel reads values by their text", at: location,
            hint: "remove the tag: write a number or true/false plainly (5), and quote text (\"5\")")
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}
