import Foundation
import RemodelCore

/// Reads the snapshots of one history in canonical form (`CanonicalYAML`), version after
/// version, sharing every declaration that did not change: a long history of a large schema
/// costs what its versions change, not its size times its length.
///
/// Only for snapshots whose bytes `remodel.sum` records: they are what `remodel` wrote from a
/// schema it had validated, so they are read, not validated again. Each declaration read anew
/// is written back in canonical form and must give its text exactly; a snapshot that is not
/// canonical in every line gives `nil`, and the loader reads it in full (with validation).
final class SnapshotReader {
    /// A declaration already read, with what its reading depended on.
    private struct Entry<Value> {
        /// The declaration's text (a copy: a snapshot's whole text is not kept for it).
        var text: String
        var value: Value
        /// The type names it refers to, and whether each was an enum (which decides how the
        /// name resolved); the entry holds only where every one still is.
        var references: [String: Bool]
        /// Each member's place, counted from the declaration's line.
        var members: [String: DeclarationSource.Offset]
        /// The SHA-256 of its text, a chunk of the snapshot's `FileDigest`.
        var digest: [UInt8]
    }

    private var objects: [String: Entry<ObjectType>] = [:]
    /// The previous snapshot's object declarations by name: most are the same text again,
    /// found by comparing bytes rather than hashing megabytes.
    private var previous: [String: Entry<ObjectType>] = [:]
    private var enums: [String: Entry<EnumType>] = [:]
    private var projections: [String: Entry<Projection>] = [:]

    /// One declaration's lines: its text (the key line and every line below it) and the
    /// 1-based line of its key.
    private struct Block {
        var text: Substring
        var line: Int
        var name: String
    }

    /// The schema and declaration places of canonical `text` (the file `file`), and its
    /// `FileDigest`; `nil` when `text` is not canonical as `CanonicalYAML` writes it.
    func read(_ text: String, file: String) -> (schema: Schema, source: SchemaSource, digest: String)? {
        guard let layout = Self.sections(of: text) else { return nil }
        let sections = (enums: layout[.enums] ?? [], objects: layout[.objects] ?? [], projections: layout[.projections] ?? [])
        var digests = FileDigest.chunk(Substring(CanonicalYAML.header + "\n"))
        let enumNames = Set(sections.enums.map(\.name))
        var enumTypes: [EnumType] = []
        var objectTypes: [ObjectType] = []
        var projectionTypes: [Projection] = []
        objectTypes.reserveCapacity(sections.objects.count)
        // Filled here and handed to SchemaSource once (each write through its `declarations`
        // would copy the whole dictionary).
        var declarations: [String: DeclarationSource] = [:]
        declarations.reserveCapacity(sections.enums.count + sections.objects.count + sections.projections.count)
        func place(_ block: Block, members: [String: DeclarationSource.Offset]) {
            let declaration = DeclarationSource(location: SourceLocation(file: file, line: block.line, column: 3), memberOffsets: members)
            if declarations[block.name] == nil { declarations[block.name] = declaration }
        }
        if !sections.enums.isEmpty { digests += FileDigest.chunk(Substring(CanonicalYAML.Section.enums.line + "\n")) }
        for block in sections.enums {
            let key = String(block.text)
            guard let entry = enums[key] ?? Self.readEnum(block) else { return nil }
            enums[key] = entry
            enumTypes.append(entry.value)
            digests += entry.digest
            place(block, members: entry.members)
        }
        if !sections.objects.isEmpty { digests += FileDigest.chunk(Substring(CanonicalYAML.Section.objects.line + "\n")) }
        var current: [String: Entry<ObjectType>] = [:]
        current.reserveCapacity(sections.objects.count)
        for block in sections.objects {
            var found: Entry<ObjectType>?
            if let last = previous[block.name], last.text == block.text {
                found = last
            } else {
                found = objects[String(block.text)]
            }
            if let entry = found, !entry.references.allSatisfy({ enumNames.contains($0.key) == $0.value }) { found = nil }
            if found == nil {
                guard let entry = Self.readObject(block, enums: enumNames) else { return nil }
                objects[entry.text] = entry
                found = entry
            }
            let entry = found!
            current[block.name] = entry
            objectTypes.append(entry.value)
            digests += entry.digest
            place(block, members: entry.members)
        }
        previous = current
        if !sections.projections.isEmpty { digests += FileDigest.chunk(Substring(CanonicalYAML.Section.projections.line + "\n")) }
        for block in sections.projections {
            let key = String(block.text)
            guard let entry = projections[key] ?? Self.readProjection(block) else { return nil }
            projections[key] = entry
            projectionTypes.append(entry.value)
            digests += entry.digest
            place(block, members: entry.members)
        }
        return (Schema(enums: enumTypes, objects: objectTypes, projections: projectionTypes), SchemaSource(declarations: declarations), FileDigest.combine(digests))
    }

    // MARK: - Layout

    /// The declarations of each section, in order; `nil` when the layout is not canonical.
    /// The declarations are `FileDigest`'s chunks (so that their digests are the file's), and
    /// the work is on the UTF-8 bytes: a snapshot of a large schema is megabytes of lines.
    private static func sections(of text: String) -> [CanonicalYAML.Section: [Block]]? {
        var text = text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { bytes in scan(text, bytes) } ?? nil
    }

    private static func scan(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> [CanonicalYAML.Section: [Block]]? {
        let space = UInt8(ascii: " ")
        let newline = UInt8(ascii: "\n")
        guard bytes.last == newline else { return nil }
        let utf8 = text.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        /// The end of each line of `range` (its newline), in order, with whether every line
        /// after the first is indented by four spaces or more.
        func lines(_ range: Range<Int>) -> (firstEnd: Int, count: Int, indented: Bool) {
            var firstEnd = -1
            var count = 0
            var indented = true
            var position = range.lowerBound
            while position < range.upperBound, let found = memchr(bytes.baseAddress! + position, Int32(newline), range.upperBound - position) {
                let end = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if count == 0 {
                    firstEnd = end
                } else if end - position < 4 || bytes[position] != space || bytes[position + 1] != space || bytes[position + 2] != space || bytes[position + 3] != space {
                    indented = false
                }
                count += 1
                position = end + 1
            }
            return (firstEnd, count, indented)
        }
        let chunks = FileDigest.chunks(of: bytes)
        guard let first = chunks.first, text[index(first.lowerBound)..<index(first.upperBound)] == CanonicalYAML.header + "\n" else { return nil }
        let sectionLines = CanonicalYAML.Section.allCases.map { (section: $0, line: $0.line) }
        var result: [CanonicalYAML.Section: [Block]] = [:]
        var section: CanonicalYAML.Section?
        var line = 2
        for chunk in chunks.dropFirst() {
            let shape = lines(chunk)
            defer { line += shape.count }
            if bytes[chunk.lowerBound] != space {
                // A section line: after the one before, which has a declaration.
                let name = text[index(chunk.lowerBound)..<index(chunk.upperBound - 1)]
                guard shape.count == 1, let next = sectionLines.firstIndex(where: { $0.line == name }),
                    section.map({ result[$0] != nil && CanonicalYAML.Section.allCases.firstIndex(of: $0)! < next }) ?? true
                else { return nil }
                section = sectionLines[next].section
                continue
            }
            // A declaration: `  Name:` (the chunk rule: two spaces, then a name), every line
            // below it indented by four or more.
            let keyEnd = shape.firstEnd
            guard let section, shape.indented, keyEnd > chunk.lowerBound + 2, bytes[keyEnd - 1] == UInt8(ascii: ":"),
                let name = unscalar(text[index(chunk.lowerBound + 2)..<index(keyEnd - 1)])
            else { return nil }
            result[section, default: []].append(Block(text: text[index(chunk.lowerBound)..<index(chunk.upperBound)], line: line, name: name))
        }
        return section == nil || result[section!] != nil ? result : nil
    }

    /// The `key: value` lines of a block below its key line, with their depth (2 for the
    /// declaration's own keys, 3 for a member, 4 for a member's keys) and offset.
    private static func fields(of block: Block) -> [(depth: Int, key: Substring, value: Substring, offset: Int)]? {
        var fields: [(depth: Int, key: Substring, value: Substring, offset: Int)] = []
        let text = block.text
        var lines: [Substring] = []
        var start = text.startIndex
        for index in text.utf8.indices where text.utf8[index] == UInt8(ascii: "\n") {
            lines.append(text[start..<index])
            start = text.utf8.index(after: index)
        }
        for (offset, line) in lines.enumerated().dropFirst() {
            let spaces = line.utf8.prefix { $0 == UInt8(ascii: " ") }.count
            guard spaces % 2 == 0, spaces >= 4 else { return nil }
            let content = line.dropFirst(spaces)
            if content.hasSuffix(":"), !content.hasPrefix("\"") || content.dropLast().hasSuffix("\"") {
                fields.append((spaces / 2, content.dropLast(), "", offset))
                continue
            }
            guard let colon = keyEnd(content) else { return nil }
            fields.append((spaces / 2, content[..<colon], content[content.index(colon, offsetBy: 2)...], offset))
        }
        return fields
    }

    /// Where a `key: value` line's key ends (at `: `), a quoted key read to its closing quote.
    private static func keyEnd(_ content: Substring) -> Substring.Index? {
        var index = content.startIndex
        if content.first == "\"" {
            index = content.index(after: index)
            var escaped = false
            while index < content.endIndex {
                let character = content[index]
                index = content.index(after: index)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { break }
            }
        }
        guard let range = content[index...].range(of: ": ") else { return nil }
        return range.lowerBound
    }

    // MARK: - Declarations

    private static func readObject(_ block: Block, enums: Set<String>) -> Entry<ObjectType>? {
        guard let fields = fields(of: block) else { return nil }
        var object = ObjectType(name: block.name, properties: [])
        var members: [String: DeclarationSource.Offset] = [:]
        var references: [String: Bool] = [:]
        var inProperties = false
        for field in fields {
            switch (field.depth, String(field.key)) {
            case (2, "primaryKey"): object.primaryKey = unscalar(field.value)
            case (2, "embedded"): object.isEmbedded = field.value == "true"
            case (2, "renamedFrom"): object.renamedFrom = unscalar(field.value)
            case (2, "doc"): object.doc = unscalar(field.value)
            case (2, "properties"): inProperties = true
            case (3, _) where inProperties && field.value.isEmpty:
                guard let name = unscalar(field.key) else { return nil }
                object.properties.append(Property(name: name, kind: .stored(PropertyType(.scalar(.string)))))
                if members[name] == nil { members[name] = DeclarationSource.Offset(lines: field.offset, column: 7) }
            case (4, let key) where !object.properties.isEmpty:
                let index = object.properties.count - 1
                guard let value = unscalar(field.value) else { return nil }
                switch key {
                case "type":
                    guard case .success(let expression) = TypeExpression.parse(value) else { return nil }
                    let base: BaseType
                    if let scalar = ScalarType(rawValue: expression.name) {
                        base = .scalar(scalar)
                    } else {
                        let isEnum = enums.contains(expression.name)
                        references[expression.name] = isEnum
                        base = isEnum ? .enumeration(expression.name) : .object(expression.name)
                    }
                    object.properties[index].kind = .stored(PropertyType(base, optional: expression.isOptional, collection: expression.collection))
                case "inverse":
                    guard let dot = value.lastIndex(of: ".") else { return nil }
                    let type = String(value[..<dot])
                    references[type] = enums.contains(type)
                    object.properties[index].kind = .inverse(type: type, property: String(value[value.index(after: dot)...]))
                case "default":
                    var value = literal(field.value)
                    // A case named like a YAML word (`on`, `null`) is written quoted.
                    if case .string(let name)? = value, case .enumeration? = object.properties[index].storedType?.base { value = .enumCase(name) }
                    object.properties[index].defaultValue = value
                case "indexed": object.properties[index].isIndexed = field.value == "true"
                case "unique": object.properties[index].isUnique = field.value == "true"
                case "renamedFrom": object.properties[index].renamedFrom = value
                case "doc": object.properties[index].doc = value
                default: return nil
                }
            default: return nil
            }
        }
        // The declaration must be exactly what the canonical writer gives for it.
        guard Self.text(of: Schema(objects: [object]), section: .objects) == block.text else { return nil }
        return Entry(text: String(block.text), value: object, references: references, members: members, digest: FileDigest.chunk(block.text))
    }

    private static func readEnum(_ block: Block) -> Entry<EnumType>? {
        guard let fields = fields(of: block) else { return nil }
        var enumType = EnumType(name: block.name, cases: [])
        var members: [String: DeclarationSource.Offset] = [:]
        for field in fields {
            switch (field.depth, String(field.key)) {
            case (2, "type"):
                guard let rawType = EnumType.RawType(rawValue: String(field.value)) else { return nil }
                enumType.rawType = rawType
            case (2, "renamedFrom"): enumType.renamedFrom = unscalar(field.value)
            case (2, "doc"): enumType.doc = unscalar(field.value)
            case (2, "cases"): continue
            case (3, _):
                guard let name = unscalar(field.key), let raw = unscalar(field.value) else { return nil }
                let rawValue: EnumType.RawValue
                if enumType.rawType == .int {
                    guard let number = Int64(raw) else { return nil }
                    rawValue = .int(number)
                } else {
                    rawValue = .string(raw)
                }
                enumType.cases.append(EnumType.Case(name: name, rawValue: rawValue))
                if members[name] == nil { members[name] = DeclarationSource.Offset(lines: field.offset, column: 7) }
            default: return nil
            }
        }
        guard Self.text(of: Schema(enums: [enumType]), section: .enums) == block.text else { return nil }
        return Entry(text: String(block.text), value: enumType, references: [:], members: members, digest: FileDigest.chunk(block.text))
    }

    private static func readProjection(_ block: Block) -> Entry<Projection>? {
        guard let fields = fields(of: block) else { return nil }
        var projection = Projection(name: block.name, of: "", properties: [])
        var members: [String: DeclarationSource.Offset] = [:]
        for field in fields {
            guard let value = field.value.isEmpty ? "" : unscalar(field.value) else { return nil }
            switch (field.depth, String(field.key)) {
            case (2, "of"): projection.of = value
            case (2, "doc"): projection.doc = value
            case (2, "properties"): continue
            case (3, _):
                guard let name = unscalar(field.key) else { return nil }
                projection.properties.append(Projection.Property(name: name, keyPath: ""))
                if members[name] == nil { members[name] = DeclarationSource.Offset(lines: field.offset, column: 7) }
            case (4, "keyPath") where !projection.properties.isEmpty: projection.properties[projection.properties.count - 1].keyPath = value
            case (4, "type") where !projection.properties.isEmpty: projection.properties[projection.properties.count - 1].type = value
            case (4, "doc") where !projection.properties.isEmpty: projection.properties[projection.properties.count - 1].doc = value
            default: return nil
            }
        }
        guard Self.text(of: Schema(projections: [projection]), section: .projections) == block.text else { return nil }
        return Entry(text: String(block.text), value: projection, references: [:], members: members, digest: FileDigest.chunk(block.text))
    }

    /// The canonical text of the one declaration of `schema`, without the header and section line.
    private static func text(of schema: Schema, section: CanonicalYAML.Section) -> Substring {
        let whole = CanonicalYAML.text(of: schema)
        let prefix = CanonicalYAML.header + "\n" + section.line + "\n"
        return whole.hasPrefix(prefix) ? whole.dropFirst(prefix.count) : ""
    }

    // MARK: - Scalars

    /// A default as `CanonicalYAML.literal` writes it.
    private static func literal(_ text: Substring) -> DefaultValue? {
        switch text {
        case "null": return .null
        case "true": return .bool(true)
        case "false": return .bool(false)
        case ".nan": return .double(.nan)
        case ".inf": return .double(.infinity)
        case "-.inf": return .double(-.infinity)
        default: break
        }
        if text.hasPrefix("\"") { return unscalar(text).map(DefaultValue.string) }
        if text.hasPrefix("$") { return DefaultValue.Generated(rawValue: String(text)).map(DefaultValue.generated) }
        if let number = Int64(text) { return .int(number) }
        if text.contains(where: { $0 == "." || $0 == "e" }), let number = Double(text) { return .double(number) }
        return .enumCase(String(text))
    }

    /// A scalar as `CanonicalYAML.scalar` writes it: plain, or double-quoted with escapes.
    private static func unscalar(_ text: Substring) -> String? {
        guard text.hasPrefix("\"") else { return String(text) }
        guard text.count >= 2, text.hasSuffix("\"") else { return nil }
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.dropFirst().dropLast()[...]
        while let scalar = scalars.popFirst() {
            guard scalar == "\\" else {
                out.append(scalar)
                continue
            }
            guard let escape = scalars.popFirst() else { return nil }
            switch escape {
            case "\"": out.append("\"")
            case "\\": out.append("\\")
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "0": out.append("\0")
            case "x", "u":
                let width = escape == "x" ? 2 : 4
                let digits = String(String.UnicodeScalarView(scalars.prefix(width)))
                scalars = scalars.dropFirst(width)
                guard digits.count == width, let value = UInt32(digits, radix: 16), let decoded = Unicode.Scalar(value) else { return nil }
                out.append(decoded)
            default: return nil
            }
        }
        return String(out)
    }
}
