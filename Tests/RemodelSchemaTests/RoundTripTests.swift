import Foundation
import RemodelCore
import RemodelSchema
import XCTest

/// The canonical form (`CanonicalYAML.text(of:)`) is itself a schema file: loading it must
/// give back an equal schema, or snapshots and stores would drift from their source.
final class RoundTripTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func assertRoundTrip(_ schema: Schema, file: StaticString = #filePath, line: UInt = #line) {
        let text = CanonicalYAML.text(of: schema)
        let reloaded = loadSchema(yaml: text, file: "canonical.yaml")
        XCTAssertEqual(reloaded.diagnostics, [], "canonical text:\n\(text)", file: file, line: line)
        XCTAssertEqual(reloaded.schema, schema, "canonical text:\n\(text)", file: file, line: line)
        if let again = reloaded.schema {
            XCTAssertEqual(CanonicalYAML.text(of: again), text, file: file, line: line)
        }
    }

    func testExampleSchemaLoadsAsTheIssueDescribesIt() throws {
        let result = SchemaLoader.load(path: Self.packageRoot.appendingPathComponent("Schemas").path)
        XCTAssertEqual(result.diagnostics, [])
        let schema = try XCTUnwrap(result.schema)
        XCTAssertEqual(schema.objects.map(\.name), ["Person", "Dog", "Note"])
        XCTAssertEqual(schema.enums.map(\.name), ["BusinessUnitEnum"])
        XCTAssertEqual(schema.projections.map(\.name), ["Profile"])

        let note = try XCTUnwrap(schema.objectType(named: "Note"))
        XCTAssertEqual(note.primaryKey, "identifier")
        XCTAssertEqual(note.properties.map(\.name), ["identifier", "content", "lastEdited"])
        XCTAssertEqual(note.property(named: "identifier")?.defaultValue, .generated(.uuid))
        XCTAssertEqual(note.property(named: "content")?.defaultValue, nil)
        XCTAssertEqual(note.property(named: "lastEdited")?.storedType, .scalar(.date))
        XCTAssertEqual(note.property(named: "lastEdited")?.defaultValue, .generated(.now))

        let unit = try XCTUnwrap(schema.enumType(named: "BusinessUnitEnum"))
        XCTAssertEqual(unit.rawType, .string)
        XCTAssertEqual(unit.cases.count, 9)
        XCTAssertEqual(unit.enumCase(named: "humanResourcesAndRescruiting")?.rawValue, .string("Human Resources and Recruiting"))
        XCTAssertEqual(unit.enumCase(named: "educationCommunityAndDocs")?.rawValue, .string("Education, Community and Docs"))

        let person = try XCTUnwrap(schema.objectType(named: "Person"))
        XCTAssertEqual(person.primaryKey, "_id")
        XCTAssertEqual(person.properties.map(\.name), ["_id", "firstName", "lastName", "personId", "company", "businessUnit", "profileImageUrl", "dogs"])
        XCTAssertEqual(person.property(named: "_id")?.defaultValue, .generated(.objectId))
        XCTAssertEqual(person.property(named: "company")?.defaultValue, .string("MongoDB"))
        XCTAssertEqual(person.property(named: "firstName")?.defaultValue, .string(""))
        XCTAssertEqual(person.property(named: "businessUnit")?.defaultValue, .enumCase("engineering"))
        XCTAssertEqual(person.property(named: "profileImageUrl")?.storedType, .scalar(.url, optional: true))
        XCTAssertEqual(person.property(named: "dogs")?.storedType, PropertyType(.object("Dog"), collection: .list))

        let dog = try XCTUnwrap(schema.objectType(named: "Dog"))
        XCTAssertEqual(dog.primaryKey, "_id")
        XCTAssertEqual(dog.property(named: "_id")?.storedType, .scalar(.uuid))
        XCTAssertEqual(dog.property(named: "weight")?.defaultValue, .int(0))
        XCTAssertEqual(dog.property(named: "person")?.kind, .inverse(type: "Person", property: "dogs"))

        let profile = try XCTUnwrap(schema.projection(named: "Profile"))
        XCTAssertEqual(profile.of, "Person")
        XCTAssertEqual(profile.properties.map(\.name), ["firstName", "lastNameInitial", "personId", "businessUnit", "profileImageUrl", "dogs"])
        XCTAssertEqual(profile.properties[1].keyPath, "lastName.localizedCapitalized.first")
        XCTAssertEqual(profile.properties[1].type, "Character?")
    }

    func testExampleSchemaRoundTripsThroughItsCanonicalForm() throws {
        let result = SchemaLoader.load(path: Self.packageRoot.appendingPathComponent("Schemas").path)
        assertRoundTrip(try XCTUnwrap(result.schema))
    }

    /// A schema that uses every type, key and kind of default.
    static let everyFeature = Schema(
        enums: [
            EnumType(
                name: "Mood",
                cases: [
                    .init(name: "happy", rawValue: .string("Happy :)")),
                    .init(name: "on", rawValue: .string("yes")),
                    .init(name: "quoted", rawValue: .string("say \"hi\"\n")),
                ], renamedFrom: "Feeling", doc: "How it feels."),
            EnumType(name: "Level", rawType: .int, cases: [.init(name: "low", rawValue: .int(-1)), .init(name: "high", rawValue: .int(10))]),
        ],
        objects: [
            ObjectType(
                name: "Owner", primaryKey: "key",
                properties: [
                    Property("key", .scalar(.string), default: .generated(.uuid)),
                    Property("flag", .scalar(.bool), default: .bool(true)),
                    Property("count", .scalar(.int), default: .int(-42), indexed: true),
                    Property("tiny", .scalar(.int8), default: .int(-128)),
                    Property("small", .scalar(.int16), default: .int(32767)),
                    Property("medium", .scalar(.int32), default: .int(7)),
                    Property("large", .scalar(.int64), default: .int(Int64.max)),
                    Property("ratio", .scalar(.float), default: .double(2.5)),
                    Property("precise", .scalar(.double), default: .double(1e20)),
                    Property("infinite", .scalar(.double), default: .double(-.infinity)),
                    Property("text", .scalar(.string), default: .string("null")),
                    Property("literalDollar", .scalar(.string), default: .string("$uuid")),
                    Property("blob", .scalar(.data, optional: true), default: .string("AAEC")),
                    Property("born", .scalar(.date), default: .string("2024-05-01T12:00:00Z")),
                    Property("price", .scalar(.decimal128), default: .string("12.50")),
                    Property("oid", .scalar(.objectId), default: .string("5f1b2c3d4e5f6a7b8c9d0e1f")),
                    Property("ident", .scalar(.uuid), default: .string("123E4567-E89B-12D3-A456-426614174000")),
                    Property("home", .scalar(.url), default: .string("https://example.com/a?b=c")),
                    Property("nothing", .scalar(.string, optional: true), default: .null),
                    Property("mood", PropertyType(.enumeration("Mood")), default: .enumCase("on")),
                    Property("level", PropertyType(.enumeration("Level"), optional: true), default: .enumCase("high")),
                    Property("pets", PropertyType(.object("Pet"), collection: .list), doc: "All pets."),
                    Property("favorites", PropertyType(.object("Pet"), collection: .set)),
                    Property("bestPet", PropertyType(.object("Pet"), optional: true)),
                    Property("petsByName", PropertyType(.object("Pet"), optional: true, collection: .map)),
                    Property("scores", PropertyType(.scalar(.int), optional: true, collection: .list)),
                    Property("address", PropertyType(.object("Address"), optional: true)),
                    Property("addresses", PropertyType(.object("Address"), collection: .list)),
                    Property("moods", PropertyType(.enumeration("Mood"), collection: .set)),
                    Property("renamed", .scalar(.string), default: .string("x"), renamedFrom: "oldName", doc: "Renamed: keep \"quotes\"."),
                ], doc: "Owns pets."),
            ObjectType(
                name: "Pet", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int64)),
                    Property("owners", PropertyType(.object("Owner"), optional: true)),
                    Property(name: "ownedBy", kind: .inverse(type: "Owner", property: "pets"), doc: "Owners listing it."),
                    Property(name: "favoriteOf", kind: .inverse(type: "Owner", property: "favorites")),
                ], renamedFrom: "Animal"),
            ObjectType(
                name: "Address", isEmbedded: true,
                properties: [
                    Property("street", .scalar(.string), default: .string("")),
                    Property("geo", PropertyType(.object("Geo"), optional: true)),
                ]),
            ObjectType(
                name: "Geo", isEmbedded: true,
                properties: [
                    Property("lat", .scalar(.double), default: .double(0))
                ]),
        ],
        projections: [
            Projection(
                name: "OwnerCard", of: "Owner",
                properties: [
                    .init(name: "key", keyPath: "key"),
                    .init(name: "initial", keyPath: "text.first", type: "Character?", doc: "First letter."),
                ], doc: "A card.")
        ]
    )

    /// Found by the schema fuzz target: text holding U+FFFE or U+FFFF (written `\uFFFE` in a
    /// schema) was written out raw, and libyaml refuses such a snapshot.
    func testNonCharactersRoundTripEscaped() throws {
        let loaded = loadSchema(yaml: "objects:\n  Note:\n    properties:\n      text: { type: string, default: \"a\\uFFFEb\\uFFFFc\" }\n", file: "n.yaml")
        let schema = try XCTUnwrap(loaded.schema, "\(loaded.diagnostics)")
        XCTAssertEqual(schema.objects.first?.properties.first?.defaultValue, .string("a\u{FFFE}b\u{FFFF}c"))
        XCTAssertTrue(CanonicalYAML.text(of: schema).contains(#""a\uFFFEb\uFFFFc""#))
        assertRoundTrip(schema)
    }

    func testSchemaUsingEveryFeatureRoundTrips() {
        assertRoundTrip(Self.everyFeature)
    }
}
