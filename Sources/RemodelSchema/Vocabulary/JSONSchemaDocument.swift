import RemodelCore

/// The JSON Schemas (draft 2020-12) of Remodel's YAML files, for editors (yaml-language-server
/// completes keys, types and step kinds from them and shows each key's description) and for
/// standard validators. Written from `FileVocabulary`, so a key the loader accepts is a key
/// the JSON Schema lists, and the reverse.
///
/// They check shapes, not meaning: a file they accept can still fail `remodel validate` (an
/// unknown type, a default that does not fit), never the other way round.
public enum JSONSchemaDocument: String, CaseIterable, Sendable {
    /// Schema files (`Schemas/*.yaml`) and snapshots (`Migrations/snapshots/vN.yaml`).
    case schema
    /// Migration files (`Migrations/NNNN-name.yaml`).
    case migration

    /// The file the repository ships it as, in `JSONSchema/`.
    public var fileName: String { "remodel-\(rawValue).schema.json" }

    /// The JSON Schema, indented JSON text ending with a newline.
    public var text: String { JSONSchemaWriter.document(self).prettyText }

    /// The file it describes, for people: "schema files", "migration files".
    public var describes: String {
        switch self {
        case .schema: "schema files (Schemas/*.yaml) and snapshots (Migrations/snapshots/vN.yaml)"
        case .migration: "migration files (Migrations/NNNN-name.yaml)"
        }
    }

    /// The vocabulary of the document's root mapping.
    var root: MappingVocabulary {
        switch self {
        case .schema: FileVocabulary.schemaFile
        case .migration: FileVocabulary.migrationFile
        }
    }
}

/// Turns `FileVocabulary` into JSON Schema: one definition (`$defs`) per mapping with fixed
/// keys, each key with its description.
struct JSONSchemaWriter {
    /// The definitions met so far, in the order they are met.
    private var definitions: [(String, JSONValue)] = []

    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// An identifier as the name rule has it (`SwiftNames.isIdentifier`, ASCII only).
    static let identifier = "[A-Za-z_][A-Za-z0-9_]*"

    /// A property type as `TypeExpression` parses it: `Name`, `Name?`, and with
    /// `collections`, `list<Name?>`, `set<Name>`, `map<Name>` or `map<string, Name>`; spaces
    /// around the parts.
    static func typePattern(collections: Bool) -> String {
        let element = "\(identifier)\\??"
        guard collections else { return "^ *\(element) *$" }
        return "^ *(?:\(element)|(?:list|set) *< *\(element) *>|map *< *(?:string *, *)?\(element) *>) *$"
    }

    static func document(_ document: JSONSchemaDocument) -> JSONValue {
        var writer = JSONSchemaWriter()
        let root = writer.mapping(document.root)
        guard case .object(var members) = root else { return root }
        // An empty file, or one of comments only (a new file holding just the modeline), is a
        // null document: the loader takes it, with a warning.
        if let index = members.firstIndex(where: { $0.0 == "type" }) { members[index].1 = .array([.string("object"), .string("null")]) }
        var out: [(String, JSONValue)] = [
            ("$schema", .string(Self.dialect)),
            ("title", .string("Remodel \(document.rawValue) file")),
        ]
        out += members
        out.append(("$defs", .object(writer.definitions)))
        return .object(out)
    }

    /// The schema of a mapping with fixed keys, its nested mappings added to `definitions`.
    private mutating func mapping(_ vocabulary: MappingVocabulary) -> JSONValue {
        var members: [(String, JSONValue)] = [("description", .string(vocabulary.summary)), ("type", .string("object"))]
        var properties: [(String, JSONValue)] = []
        for key in vocabulary.keys {
            properties.append((key.name, described(shape(key.value), key.summary)))
        }
        members.append(("properties", .object(properties)))
        if !vocabulary.requiredKeys.isEmpty { members.append(("required", .array(vocabulary.requiredKeys.map(JSONValue.string)))) }
        members.append(("additionalProperties", .bool(false)))
        if vocabulary.exactlyOneKey {
            members.append(("minProperties", .integer(1)))
            members.append(("maxProperties", .integer(1)))
        }
        var rules: [JSONValue] = []
        if !vocabulary.needsOneOf.isEmpty {
            rules.append(.object([("anyOf", .array(vocabulary.needsOneOf.map { .object([("required", .array([.string($0)]))]) }))]))
        }
        for exclusion in vocabulary.exclusions {
            rules.append(
                .object([
                    ("if", .object([("required", .array([.string(exclusion.key)]))])),
                    ("then", .object([("properties", .object(exclusion.excludes.map { ($0, .bool(false)) }))])),
                ]))
        }
        if rules.count == 1, case .object(let only) = rules[0] {
            members += only
        } else if !rules.isEmpty {
            members.append(("allOf", .array(rules)))
        }
        return .object(members)
    }

    private mutating func shape(_ shape: ValueShape) -> JSONValue {
        switch shape {
        case .name:
            return .object([("type", .string("string")), ("pattern", .string("^\(Self.identifier)$"))])
        case .member:
            return .object([("type", .string("string")), ("pattern", .string("^ *\(Self.identifier) *\\. *\(Self.identifier) *$"))])
        case .text:
            return .object([("type", .array([.string("string"), .string("number"), .string("boolean")]))])
        case .bool:
            return .object([("type", .string("boolean"))])
        case .exactly(let value):
            return .object([("const", .bool(value))])
        case .typeExpression(let collections):
            let scalars = ScalarType.allCases.flatMap { [$0.rawValue, $0.rawValue + "?"] }
            return .object([
                ("type", .string("string")),
                (
                    "anyOf",
                    .array([
                        .object([("enum", .array(scalars.map(JSONValue.string)))]),
                        .object([("pattern", .string(Self.typePattern(collections: collections)))]),
                    ])
                ),
            ])
        case .scalar:
            return .object([("type", .array(["string", "number", "boolean", "null"].map(JSONValue.string)))])
        case .word(let words):
            return .object([("enum", .array(words.map(JSONValue.string)))])
        case .list(let item, let nonEmpty):
            var members: [(String, JSONValue)] = [("type", .string("array")), ("items", self.shape(item))]
            if nonEmpty { members.append(("minItems", .integer(1))) }
            return .object(members)
        case .mapping(let vocabulary):
            if !definitions.contains(where: { $0.0 == vocabulary.id }) {
                // Reserve the place first, so that definitions read in the order they are met.
                let index = definitions.count
                definitions.append((vocabulary.id, .null))
                definitions[index].1 = mapping(vocabulary)
            }
            return .object([("$ref", .string("#/$defs/\(vocabulary.id)"))])
        case .entries(let keys, let value, let nonEmpty):
            var members: [(String, JSONValue)] = [("type", .string("object"))]
            switch keys {
            case .name: members.append(("propertyNames", .object([("pattern", .string("^\(Self.identifier)$"))])))
            case .path: members.append(("propertyNames", .object([("pattern", .string("^\(Self.identifier)(?:\\.\(Self.identifier))*$"))])))
            case .any: break
            }
            members.append(("additionalProperties", self.shape(value)))
            if nonEmpty { members.append(("minProperties", .integer(1))) }
            return .object(members)
        case .either(let shapes):
            return .object([("anyOf", .array(shapes.map { self.shape($0) }))])
        case .orNull(let inner):
            let schema = self.shape(inner)
            // `"type": "array"` becomes `["array", "null"]`; a reference needs an alternative.
            if case .object(var members) = schema, let index = members.firstIndex(where: { $0.0 == "type" }), case .string(let type) = members[index].1 {
                members[index].1 = .array([.string(type), .string("null")])
                return .object(members)
            }
            return .object([("anyOf", .array([schema, .object([("type", .string("null"))])]))])
        case .described(let inner, let summary):
            return described(self.shape(inner), summary)
        }
    }

    /// `schema` with `summary` as its description, first so that it reads first.
    private func described(_ schema: JSONValue, _ summary: String) -> JSONValue {
        guard case .object(let members) = schema else { return schema }
        return .object([("description", .string(summary))] + members.filter { $0.0 != "description" })
    }
}
