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
        guard let sections = Self.sections(of: text) else { return nil }
        var digests = FileDigest.chunk(Substring(CanonicalYAML.header + "\n"))
        let enumNames = Set(sections.enums.map(\.name))
        var enumTypes: [EnumType] = []
        var objectTypes: [ObjectType] = []
        var projectionTypes: [Projection] = []
        objectTypes.reserveCapacity(sections.objects.count)
        var source = SchemaSource()
        source.declarations.reserveCapacity(sections.enums.count + sections.objects.count)
        func place(_ block: Block, members: [String: DeclarationSource.Offset]) {
            let declaration = DeclarationSource(location: SourceLocation(file: file, line: block.line, column: 3), memberOffsets: members)
            if source.declarations[block.name] == nil { source.declarations[block.name] = declaration }
        }
        if !sections.enums.isEmpty { digests += FileDigest.chunk("enums:\n") }
        for block in sections.enums {
            let key = String(block.text)
            guard let entry = enums[key] ?? Self.readEnum(block) else { return nil }
            enums[key] = entry
            enumTypes.append(entry.value)
            digests += entry.digest
            place(block, members: entry.members)
        }
        if !sections.objects.isEmpty { digests += FileDigest.chunk("objects:\n") }
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
        if !sections.projections.isEmpty { digests += FileDigest.chunk("projections:\n") }
        for block in sections.projections {
            let key = String(block.text)
            guard let entry = projections[key] ?? Self.readProjection(block) else { return nil }
            projections[key] = entry
            projectionTypes.append(entry.value)
            digests += entry.digest
        }
        return (Schema(enums: enumTypes, objects: objectTypes, projections: projectionTypes), source, FileDigest.combine(digests))
    }

    // MARK: - Layout

    /// The declarations of each section, in order; `nil` when the layout is not canonical.
    /// Works on the UTF-8 bytes: a snapshot of a large schema is megabytes of lines.
    private static func sections(of text: String) -> (enums: [Block], objects: [Block], projections: [Block])? {
        var text = text
        text.makeContiguousUTF8()
        let utf8 = text.utf8
        return utf8.withContiguousStorageIfAvailable { bytes in scan(text, bytes) } ?? nil
    }

    private static func scan(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> (enums: [Block], objects: [Block], projections: [Block])? {
        let utf8 = text.utf8
        let space = UInt8(ascii: " "), newline = UInt8(ascii: "\n")
        guard bytes.last == newline else { return nil }
        let header = Array(CanonicalYAML.header.utf8)
        guard bytes.count > header.count, bytes[header.count] == newline, bytes[..<header.count].elementsEqual(header) else { return nil }
        let names: [(bytes: [UInt8], rank: Int)] = [(Array("enums:".utf8), 1), (Array("objects:".utf8), 2), (Array("projections:".utf8), 3)]
        var result: (enums: [Block], objects: [Block], projections: [Block]) = ([], [], [])
        var section = 0
        var position = header.count + 1
        var lineNumber = 2
        /// The end of the line starting at `start` (the index of its newline).
        func lineEnd(_ start: Int) -> Int {
            // The text ends with a newline (checked above), so there is one to find.
            let found = memchr(bytes.baseAddress! + start, Int32(newline), bytes.count - start)!
            return bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        while position < bytes.count {
            let end = lineEnd(position)
            if bytes[position] != space {
                guard let found = names.first(where: { bytes[position..<end].elementsEqual($0.bytes) }), found.rank > section,
                      sectionHasDeclarations(section, result) else { return nil }
                section = found.rank
                position = end + 1
                lineNumber += 1
                continue
            }
            // A declaration: `  Name:`, then every line indented deeper.
            guard section > 0, end - position > 3, bytes[position + 1] == space, bytes[position + 2] != space, bytes[end - 1] == UInt8(ascii: ":") else { return nil }
            let keyLine = lineNumber
            var next = end + 1
            lineNumber += 1
            while next + 4 <= bytes.count, bytes[next] == space, bytes[next + 1] == space, bytes[next + 2] == space, bytes[next + 3] == space {
                next = lineEnd(next) + 1
                lineNumber += 1
            }
            guard let name = unscalar(text[index(position + 2)..<index(end - 1)]) else { return nil }
            let block = Block(text: text[index(position)..<index(next)], line: keyLine, name: name)
            switch section {
            case 1: result.enums.append(block)
            case 2: result.objects.append(block)
            default: result.projections.append(block)
            }
            position = next
        }
        return sectionHasDeclarations(section, result) ? result : nil
    }

    /// Whether section `rank` (0: none yet) has a declaration: the canonical writer writes
    /// no empty section.
    private static func sectionHasDeclarations(_ rank: Int, _ result: (enums: [Block], objects: [Block], projections: [Block])) -> Bool {
        switch rank {
        case 0: true
        case 1: !result.enums.isEmpty
        case 2: !result.objects.isEmpty
        default: !result.projections.isEmpty
        }
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
                case "renamedFrom": object.properties[index].renamedFrom = value
                case "doc": object.properties[index].doc = value
                default: return nil
                }
            default: return nil
            }
        }
        // The declaration must be exactly what the canonical writer gives for it.
        guard Self.text(of: Schema(objects: [object]), section: "objects:") == block.text else { return nil }
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
        guard Self.text(of: Schema(enums: [enumType]), section: "enums:") == block.text else { return nil }
        return Entry(text: String(block.text), value: enumType, references: [:], members: members, digest: FileDigest.chunk(block.text))
    }

    private static func readProjection(_ block: Block) -> Entry<Projection>? {
        guard let fields = fields(of: block) else { return nil }
        var projection = Projection(name: block.name, of: "", properties: [])
        for field in fields {
            guard let value = field.value.isEmpty ? "" : unscalar(field.value) else { return nil }
            switch (field.depth, String(field.key)) {
            case (2, "of"): projection.of = value
            case (2, "doc"): projection.doc = value
            case (2, "properties"): continue
            case (3, _):
                guard let name = unscalar(field.key) else { return nil }
                projection.properties.append(Projection.Property(name: name, keyPath: ""))
            case (4, "keyPath") where !projection.properties.isEmpty: projection.properties[projection.properties.count - 1].keyPath = value
            case (4, "type") where !projection.properties.isEmpty: projection.properties[projection.properties.count - 1].type = value
            case (4, "doc") where !projection.properties.isEmpty: projection.properties[projection.properties.count - 1].doc = value
            default: return nil
            }
        }
        guard Self.text(of: Schema(projections: [projection]), section: "projections:") == block.text else { return nil }
        return Entry(text: String(block.text), value: projection, references: [:], members: [:], digest: FileDigest.chunk(block.text))
    }

    /// The canonical text of the one declaration of `schema`, without the header and section line.
    private static func text(of schema: Schema, section: String) -> Substring {
        let whole = CanonicalYAML.text(of: schema)
        let prefix = CanonicalYAML.header + "\n" + section + "\n"
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
