/// Writes a schema in Remodel's canonical form: a YAML document with a fixed layout and key
/// order, so that the same schema always gives the same bytes.
///
/// The canonical form is what `Migrations/snapshots/vN.yaml` holds, what a store records, and
/// what the schema hash is computed from. It is itself a valid schema file.
public enum CanonicalYAML {
    /// The first line of every canonical document.
    public static let header = "# Remodel schema snapshot, canonical form. Written by the remodel tool: do not edit."

    /// The document's sections, in the order they are written (each only when not empty).
    public enum Section: String, CaseIterable, Sendable {
        case enums, objects, projections

        /// The section's line: `objects:`.
        public var line: String { rawValue + ":" }
    }

    /// The canonical YAML text of `schema`.
    public static func text(of schema: Schema) -> String {
        String(decoding: bytes(of: schema, storageOnly: false), as: UTF8.self)
    }

    /// The canonical text of `schema` as UTF-8, or with `storageOnly` of
    /// `schema.storageRelevant` (no documentation, rename hints or projections), written
    /// without copying the schema.
    static func bytes(of schema: Schema, storageOnly: Bool) -> [UInt8] {
        var out = Writer(storageOnly: storageOnly)
        out.line(0, header)
        if !schema.enums.isEmpty {
            out.line(0, Section.enums.line)
            for enumType in schema.enums { write(enumType, to: &out) }
        }
        if !schema.objects.isEmpty {
            out.line(0, Section.objects.line)
            for object in schema.objects { write(object, to: &out) }
        }
        if !schema.projections.isEmpty && !storageOnly {
            out.line(0, Section.projections.line)
            for projection in schema.projections { write(projection, to: &out) }
        }
        return out.bytes
    }

    private static func write(_ enumType: EnumType, to out: inout Writer) {
        out.key(1, enumType.name)
        out.line(2, "type: \(enumType.rawType.rawValue)")
        if let renamedFrom = enumType.renamedFrom, !out.storageOnly { out.line(2, "renamedFrom: \(scalar(renamedFrom))") }
        if let doc = enumType.doc, !out.storageOnly { out.line(2, "doc: \(scalar(doc))") }
        out.line(2, "cases:")
        for enumCase in enumType.cases {
            let raw: String =
                switch enumCase.rawValue {
                case .string(let value): scalar(value)
                case .int(let value): String(value)
                }
            out.field(3, key(enumCase.name), raw)
        }
    }

    private static func write(_ object: ObjectType, to out: inout Writer) {
        out.key(1, object.name)
        if let primaryKey = object.primaryKey { out.field(2, "primaryKey", scalar(primaryKey)) }
        if object.isEmbedded { out.line(2, "embedded: true") }
        if let renamedFrom = object.renamedFrom, !out.storageOnly { out.line(2, "renamedFrom: \(scalar(renamedFrom))") }
        if let doc = object.doc, !out.storageOnly { out.line(2, "doc: \(scalar(doc))") }
        if !object.uniqueGroups.isEmpty { out.line(2, "unique: \(groups(object.uniqueGroups))") }
        if !object.indexes.isEmpty { out.line(2, "indexes: \(groups(object.indexes))") }
        out.line(2, "properties:")
        for property in object.properties {
            out.key(3, property.name)
            switch property.kind {
            case .stored(let type): out.field(4, "type", scalar(type.description))
            case .inverse(let type, let origin): out.field(4, "inverse", scalar("\(type).\(origin)"))
            }
            if let value = property.defaultValue { out.field(4, "default", literal(value)) }
            if property.isIndexed { out.line(4, "indexed: true") }
            if property.isUnique { out.line(4, "unique: true") }
            if let renamedFrom = property.renamedFrom, !out.storageOnly { out.line(4, "renamedFrom: \(scalar(renamedFrom))") }
            if let doc = property.doc, !out.storageOnly { out.line(4, "doc: \(scalar(doc))") }
        }
    }

    /// Groups of property names as a flow sequence: `[[a, b], [c]]`.
    private static func groups(_ groups: [[String]]) -> String {
        "[" + groups.map { "[" + $0.map(scalar).joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
    }

    private static func write(_ projection: Projection, to out: inout Writer) {
        out.line(1, "\(key(projection.name)):")
        out.line(2, "of: \(scalar(projection.of))")
        if let doc = projection.doc { out.line(2, "doc: \(scalar(doc))") }
        out.line(2, "properties:")
        for property in projection.properties {
            out.line(3, "\(key(property.name)):")
            out.line(4, "keyPath: \(scalar(property.keyPath))")
            if let type = property.type { out.line(4, "type: \(scalar(type))") }
            if let doc = property.doc { out.line(4, "doc: \(scalar(doc))") }
        }
    }

    /// A default value as the schema language writes it.
    public static func literal(_ value: DefaultValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): double(number)
        case .string(let text): quoted(text)
        case .enumCase(let name): scalar(name)
        case .generated(let generated): generated.rawValue
        }
    }

    /// A double in the shortest form that reads back as the same value.
    public static func double(_ number: Double) -> String {
        if number.isNaN { return ".nan" }
        if number.isInfinite { return number < 0 ? "-.inf" : ".inf" }
        let text = "\(number)"
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// A mapping key: plain when it is an identifier, quoted otherwise.
    static func key(_ text: String) -> String { scalar(text) }

    /// A string scalar, plain only when it cannot be read as anything but that string.
    public static func scalar(_ text: String) -> String {
        isPlainSafe(text) ? text : quoted(text)
    }

    /// Words that YAML 1.1 resolves to booleans or null when written plain.
    static let reservedPlainWords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"]
    private static let longestReservedWord = reservedPlainWords.map(\.utf8.count).max() ?? 0

    /// An ASCII identifier (letters, digits, `_`, not starting with a digit) that is not one of
    /// `reservedPlainWords`. Checked on UTF-8 bytes: every name of a schema goes through here
    /// when it is hashed.
    static func isPlainSafe(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard let first = utf8.first, first == UInt8(ascii: "_") || isASCIILetter(first) else { return false }
        guard utf8.allSatisfy({ $0 == UInt8(ascii: "_") || isASCIILetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return false }
        // Names longer than every reserved word need no lower-casing.
        guard utf8.count <= longestReservedWord else { return true }
        // Every reserved word starts with one of these letters, in either case.
        guard "tfyno".utf8.contains(first | 0x20) else { return true }
        return !reservedPlainWords.contains(text.lowercased())
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// A YAML double-quoted scalar that reads back as exactly `text`.
    public static func quoted(_ text: String) -> String {
        // Printable ASCII other than '"' and '\\' (`list<Dog>`, `Dog?`) is written as it is.
        if text.utf8.allSatisfy({ (0x20..<0x7f).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\0": out += "\\0"
            default:
                let v = scalar.value
                if v < 0x20 || v == 0x7f || (0x80...0x9f).contains(v) {
                    out += "\\x" + hex(v, width: 2)
                } else if v == 0x2028 || v == 0x2029 || v == 0xfeff || v == 0x85 || v == 0xfffe || v == 0xffff {
                    // Line separators and the byte-order mark read back as other text; U+FFFE and
                    // U+FFFF are outside what YAML (and libyaml) accept written out.
                    out += "\\u" + hex(v, width: 4)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The document being written: lines appended in place, as UTF-8 (appending to a byte
    /// array costs a third of appending to a String, and the hash reads bytes).
    private struct Writer {
        var bytes: [UInt8] = []
        /// Whether documentation, rename hints and projections are left out.
        let storageOnly: Bool

        init(storageOnly: Bool) {
            self.storageOnly = storageOnly
            bytes.reserveCapacity(1 << 16)
        }

        mutating func line(_ depth: Int, _ content: String) {
            indent(depth)
            append(content)
            bytes.append(UInt8(ascii: "\n"))
        }

        /// `name:` (the key of a mapping that follows).
        mutating func key(_ depth: Int, _ name: String) {
            indent(depth)
            append(CanonicalYAML.key(name))
            bytes.append(UInt8(ascii: ":"))
            bytes.append(UInt8(ascii: "\n"))
        }

        /// `name: value`.
        mutating func field(_ depth: Int, _ name: String, _ value: String) {
            indent(depth)
            append(name)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(UInt8(ascii: " "))
            append(value)
            bytes.append(UInt8(ascii: "\n"))
        }

        private mutating func append(_ text: String) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }

        private mutating func indent(_ depth: Int) {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        }
    }
}
