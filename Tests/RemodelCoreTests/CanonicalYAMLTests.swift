import RemodelCore
import Testing

@Suite struct CanonicalYAMLTests {
    static let schema = Schema(
        enums: [
            EnumType(name: "Unit", cases: [.init(name: "eng", rawValue: .string("Engineering")), .init(name: "yes", rawValue: .string("yes"))]),
            EnumType(name: "Level", rawType: .int, cases: [.init(name: "low", rawValue: .int(1)), .init(name: "high", rawValue: .int(-2))]),
        ],
        objects: [
            ObjectType(
                name: "Person", primaryKey: "_id",
                properties: [
                    Property("_id", .scalar(.objectId), default: .generated(.objectId)),
                    Property("name", .scalar(.string), default: .string("A \"quoted\"\nline\t\u{1}")),
                    Property("unit", PropertyType(.enumeration("Unit")), default: .enumCase("eng"), indexed: true),
                    Property("score", .scalar(.double), default: .double(2)),
                    Property("dogs", PropertyType(.object("Dog"), collection: .list), doc: "The dogs."),
                ], doc: "A person."),
            ObjectType(
                name: "Dog", primaryKey: "_id",
                properties: [
                    Property("_id", .scalar(.uuid), default: .generated(.uuid)),
                    Property(name: "owners", kind: .inverse(type: "Person", property: "dogs")),
                ]),
        ],
        projections: [
            Projection(name: "Card", of: "Person", properties: [.init(name: "name", keyPath: "name"), .init(name: "initial", keyPath: "name.first", type: "Character?")])
        ]
    )

    @Test func writesTheDocumentedLayout() {
        let text = CanonicalYAML.text(of: Self.schema)
        #expect(
            text == """
                \(CanonicalYAML.header)
                enums:
                  Unit:
                    type: string
                    cases:
                      eng: Engineering
                      "yes": "yes"
                  Level:
                    type: int
                    cases:
                      low: 1
                      high: -2
                objects:
                  Person:
                    primaryKey: _id
                    doc: "A person."
                    properties:
                      _id:
                        type: objectId
                        default: $objectId
                      name:
                        type: string
                        default: "A \\"quoted\\"\\nline\\t\\x01"
                      unit:
                        type: Unit
                        default: eng
                        indexed: true
                      score:
                        type: double
                        default: 2.0
                      dogs:
                        type: "list<Dog>"
                        doc: "The dogs."
                  Dog:
                    primaryKey: _id
                    properties:
                      _id:
                        type: uuid
                        default: $uuid
                      owners:
                        inverse: "Person.dogs"
                projections:
                  Card:
                    of: Person
                    properties:
                      name:
                        keyPath: name
                      initial:
                        keyPath: "name.first"
                        type: "Character?"

                """)
    }

    @Test func sameSchemaSameBytes() {
        #expect(CanonicalYAML.text(of: Self.schema) == CanonicalYAML.text(of: Self.schema))
    }

    @Test func quotingKeepsEveryCharacter() {
        #expect(CanonicalYAML.quoted("a\u{2028}b\u{7f}c\u{0}é🐶") == "\"a\\u2028b\\x7Fc\\0é🐶\"")
        #expect(CanonicalYAML.scalar("null") == "\"null\"")
        #expect(CanonicalYAML.scalar("$uuid") == "\"$uuid\"")
        #expect(CanonicalYAML.literal(.generated(.uuid)) == "$uuid")
        #expect(CanonicalYAML.literal(.double(.infinity)) == ".inf")
    }

    @Test func storageHashIgnoresDocsRenamesAndProjections() {
        var edited = Self.schema
        edited.objects[0].doc = "Someone else."
        edited.objects[0].properties[1].renamedFrom = "fullName"
        edited.projections = []
        #expect(edited.storageHash == Self.schema.storageHash)
        #expect(Self.schema.storageHash.hasPrefix("1:"))
        #expect(Self.schema.storageHash.count == 2 + 64)
    }

    /// The hash is the canonical text of `storageRelevant` (written without making that copy),
    /// for a schema with every kind of documentation, rename hint and projection.
    @Test func storageHashIsTheDigestOfTheStorageRelevantText() {
        var schema = Self.schema
        schema.enums[0].doc = "Units."
        schema.enums[0].renamedFrom = "Team"
        schema.objects[0].renamedFrom = "Human"
        schema.objects[0].properties[0].doc = "The key."
        #expect(schema.storageHash == "1:" + SHA256.hexDigest(of: CanonicalYAML.text(of: schema.storageRelevant)))
        #expect(Self.schema.storageHash == "1:" + SHA256.hexDigest(of: CanonicalYAML.text(of: Self.schema.storageRelevant)))
    }

    @Test func storageHashChangesWithStoredShape() {
        var edited = Self.schema
        edited.objects[1].properties[0] = Property("_id", .scalar(.string), default: .generated(.uuid))
        #expect(edited.storageHash != Self.schema.storageHash)
        var reordered = Self.schema
        reordered.enums[0].cases.swapAt(0, 1)
        #expect(reordered.storageHash != Self.schema.storageHash)
    }
}
