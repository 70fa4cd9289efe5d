import Foundation
import RemodelCore
import RemodelExample
import RemodelGeneration
import RemodelMigrate
import RemodelStore
import RemodelTestSupport
import XCTest

@testable import RemodelTesting

/// The generated data covers what it promises, is repeatable, imports at its version; the
/// anonymiser keeps the shape; `MigrationTester` drives a migration test with typed models.
final class GeneratorAndToolsTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    private func everythingHistory() throws -> MigrationHistory {
        let input = HistoryInput.read(
            schemasPath: FilePaths.join(Self.root, "Tests/RemodelCodegenTests/Histories/RealmEverything/Schemas"),
            migrationsPath: FilePaths.join(Self.root, "Tests/RemodelCodegenTests/Histories/RealmEverything/Migrations"))
        return try XCTUnwrap(input.history, "\(input.diagnostics)")
    }

    private func objects(_ document: JSONValue, _ type: String) -> [[(String, JSONValue)]] {
        guard case .array(let list)? = document[type] else { return [] }
        return list.map { if case .object(let members) = $0 { members } else { [] } }
    }

    /// Every type and property, every enum case, null and a value in each optional property,
    /// empty and full collections, links to the object itself and to one object many share:
    /// and the document imports at its version.
    func testTheGeneratedDataCoversEveryKindOfValueAndImports() throws {
        let history = try everythingHistory()
        for version in 1...history.currentVersion {
            let schema = try XCTUnwrap(history.schema(at: version))
            let document = TestDataGenerator(schema: schema, seed: 7).document()
            XCTAssertNoThrow(try StoreJSON.check(document, schema: schema), "version \(version)")
            for type in schema.objects where !type.isEmbedded {
                let list = objects(document, type.name)
                XCTAssertGreaterThanOrEqual(list.count, 20, type.name)
                for property in type.storedProperties {
                    guard let propertyType = property.storedType else { continue }
                    let values = list.compactMap { object in object.first { $0.0 == property.name }?.1 }
                    XCTAssertEqual(values.count, list.count, "\(type.name).\(property.name) is missing from objects")
                    if propertyType.collection != nil {
                        XCTAssertTrue(values.contains { $0 == .array([]) || $0 == .object([]) }, "\(type.name).\(property.name) is never empty")
                        XCTAssertTrue(
                            values.contains { value in
                                switch value {
                                case .array(let elements): elements.count > 1
                                case .object(let members): members.count > 1
                                default: false
                                }
                            }, "\(type.name).\(property.name) never holds several values")
                    } else if propertyType.isOptional {
                        XCTAssertTrue(values.contains(.null), "\(type.name).\(property.name) is never null")
                        XCTAssertTrue(values.contains { $0 != .null }, "\(type.name).\(property.name) is always null")
                    }
                    if let name = propertyType.enumName, propertyType.collection == nil, let enumType = schema.enumType(named: name) {
                        for enumCase in enumType.cases {
                            let raw: JSONValue =
                                switch enumCase.rawValue {
                                case .string(let text): .string(text)
                                case .int(let number): .integer(number)
                                }
                            XCTAssertTrue(values.contains(raw), "\(type.name).\(property.name) never holds \(enumCase.name)")
                        }
                    }
                    if let target = propertyType.objectName, propertyType.collection == nil, schema.objectType(named: target)?.isEmbedded == false {
                        let keys = values.filter { $0 != .null }
                        XCTAssertLessThan(Set(keys.map(\.description)).count, keys.count, "\(type.name).\(property.name): no target is shared")
                    }
                }
            }
        }
    }

    func testTheSameSeedMakesTheSameDataAndAnotherSeedOther() throws {
        let schema = try XCTUnwrap(try everythingHistory().schema(at: 1))
        XCTAssertEqual(TestDataGenerator(schema: schema, seed: 1).document(), TestDataGenerator(schema: schema, seed: 1).document())
        XCTAssertNotEqual(TestDataGenerator(schema: schema, seed: 1).document(), TestDataGenerator(schema: schema, seed: 2).document())
    }

    /// Text aimed at a convert, a split and a mapValues reaches the property they read.
    func testValuesAreAimedAtTheStepsThatReadThem() throws {
        let schema = Schema(objects: [
            ObjectType(
                name: "Dog", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.string)), Property("weight", .scalar(.string)), Property("name", .scalar(.string)), Property("size", .scalar(.string)),
                ])
        ])
        var generator = TestDataGenerator(schema: schema, seed: 1)
        generator.aim(
            at: Migration(
                version: 2, name: "change",
                steps: [
                    .convert(type: "Dog", property: "weight", to: .scalar(.int), onError: .fail),
                    .split(type: "Dog", property: "name", into: ["first", "last"], separator: " | "),
                    .mapValues(type: "Dog", property: "size", values: [.init(from: "small", to: .string("S"))], otherwise: nil),
                ], checksum: ""),
            next: schema)
        let dogs = objects(generator.document(), "Dog")
        func values(_ property: String) -> [JSONValue] { dogs.compactMap { $0.first { $0.0 == property }?.1 } }
        XCTAssertTrue(values("weight").contains(.string("n/a")))
        XCTAssertTrue(values("weight").contains(.string("12")))
        XCTAssertTrue(values("name").contains(.string("no separator")))
        XCTAssertTrue(values("name").contains(.string("a | b | c")))
        XCTAssertTrue(values("size").contains(.string("small")))
        XCTAssertTrue(values("size").contains(.string("unmapped value")))
    }

    /// Text and URLs become made-up text of the same length and kinds of character; keys,
    /// links, enums, numbers and dates stay; equal texts stay equal.
    func testTheAnonymizerKeepsTheShapeAndNothingElse() throws {
        let history = ExampleHistory.history
        let schema = try XCTUnwrap(history.schema(at: 3))
        var parser = JSONParser(
            #"""
            { "Person": [{ "_id": "65a1b2c3d4e5f60718293a4b", "firstName": "Ada", "lastName": "Lovelace", "personId": "AL-1815", "company": "Analytical", "businessUnit": "Engineering", "profileImageUrl": "https://example.com/ada.png", "dogs": ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F"] },
                         { "_id": "65a1b2c3d4e5f60718293a4c", "firstName": "Ada", "lastName": "Byron", "personId": "", "company": "Analytical", "businessUnit": "Sales", "profileImageUrl": null, "dogs": [] }],
              "Dog": [{ "_id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "name": "Rex", "breed": "Collie", "weight": 12, "favoriteToy": "Bällchen 2", "profileImageUrl": null, "dateLastUpdated": "2024-01-15T10:30:00Z" }] }
            """#)
        let document = try parser.parse()
        let anonymous = FixtureAnonymizer(schema: schema).anonymize(document)
        XCTAssertNoThrow(try StoreJSON.check(anonymous, schema: schema))
        let people = objects(anonymous, "Person")
        let dog = try XCTUnwrap(objects(anonymous, "Dog").first)
        func value(_ object: [(String, JSONValue)], _ name: String) -> JSONValue? { object.first { $0.0 == name }?.1 }
        XCTAssertEqual(value(people[0], "_id"), .string("65a1b2c3d4e5f60718293a4b"))
        XCTAssertEqual(value(people[0], "businessUnit"), .string("Engineering"))
        XCTAssertEqual(value(people[0], "dogs"), .array([.string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")]))
        XCTAssertEqual(value(dog, "weight"), .integer(12))
        XCTAssertEqual(value(dog, "dateLastUpdated"), .string("2024-01-15T10:30:00Z"))
        guard case .string(let first)? = value(people[0], "firstName"), case .string(let id)? = value(people[0], "personId"),
            case .string(let toy)? = value(dog, "favoriteToy"), case .string(let url)? = value(people[0], "profileImageUrl")
        else { return XCTFail("text is missing") }
        XCTAssertNotEqual(first, "Ada")
        XCTAssertEqual(first.count, 3)
        XCTAssertTrue(first.first!.isUppercase && first.dropFirst().allSatisfy(\.isLowercase), first)
        XCTAssertEqual(value(people[1], "firstName"), .string(first), "equal texts stay equal")
        XCTAssertTrue(id.count == 7 && id.dropFirst(2).first == "-" && id.suffix(4).allSatisfy(\.isNumber), id)
        XCTAssertEqual(toy.count, "Bällchen 2".count)
        XCTAssertTrue(toy.hasSuffix(" 2") == false && toy.contains(" "), toy)
        XCTAssertTrue(url.hasPrefix("https://") && url.count == "https://example.com/ada.png".count && url.contains("."), url)
        XCTAssertFalse(anonymous.description.contains("Lovelace"))
    }

    /// Room's MigrationTestHelper without a device: a store at version 1 from JSON, migrated
    /// with the app's history, read with the generated models.
    func testAMigrationTestReadsTheMigratedStoreWithTheGeneratedModels() throws {
        let tester = try MigrationTester(manifest: RemodelSchemaManifest.self)
        defer { tester.removeStores() }
        let store = try tester.makeStore(
            version: 1,
            json: #"""
                { "Person": [{ "_id": "65a1b2c3d4e5f60718293a4b", "name": "Ada Lovelace", "employeeId": "AL-1", "businessUnit": "Engineering", "dogs": ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F"] }],
                  "Dog": [{ "_id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "name": "Rex", "breed": "Collie", "weight": "12" }] }
                """#)
        let report = try tester.migrate(store)
        XCTAssertEqual(report.toVersion, 3)
        let migrated = try tester.open(store, manifest: RemodelSchemaManifest.self)
        let people = try migrated.read { try $0.objects(Person.self).fetchAll() }
        XCTAssertEqual(people.map(\.firstName), ["Ada"])
        XCTAssertEqual(people.map(\.lastName), ["Lovelace"])
        XCTAssertEqual(people.map(\.personId), ["AL-1"])
        let dogs = try migrated.read { try $0.objects(Dog.self).fetchAll() }
        XCTAssertEqual(dogs.map(\.weight), [12])
        XCTAssertEqual(dogs.map(\.dateLastUpdated), [tester.now])
        // A store at a version the history does not have, and objects that do not fit.
        XCTAssertThrowsError(try tester.makeStore(version: 9, json: "{}")) { error in
            XCTAssertTrue("\(error)".contains("no version 9; its versions are 1 to 3"), "\(error)")
        }
        XCTAssertThrowsError(try tester.makeStore(version: 1, json: #"{ "Dog": [{ "_id": "x" }] }"#)) { error in
            XCTAssertTrue("\(error)".contains("Dog[0]"), "\(error)")
        }
    }

    /// Seeded generated values: the same for equal data, whether the versions run together or
    /// one by one; random otherwise (Realm's example creates dogs with $uuid keys in version 3).
    func testSeededMigrationsWriteTheSameGeneratedValues() throws {
        let input = HistoryInput.read(
            schemasPath: FilePaths.join(Self.root, "Examples/RealmMigration/Schemas"), migrationsPath: FilePaths.join(Self.root, "Examples/RealmMigration/Migrations"))
        var tester = try MigrationTester(migrator: Migrator(history: try XCTUnwrap(input.history)))
        defer { tester.removeStores() }
        let json = #"{ "Person": [{ "_id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "firstName": "John", "lastName": "Doe", "age": 42 }] }"#
        func migrated(together: Bool) throws -> JSONValue {
            let store = try tester.makeStore(version: 1, json: json)
            if together {
                try tester.migrate(store)
            } else {
                for version in 2...6 { try tester.migrate(store, to: version) }
            }
            return try tester.export(store)
        }
        tester.migrator.generatedValues = .seeded(5)
        let together = try migrated(together: true)
        XCTAssertEqual(together, try migrated(together: false))
        XCTAssertTrue(together.description.contains("Marley"), together.description)
        tester.migrator.generatedValues = .random
        XCTAssertNotEqual(try migrated(together: true), try migrated(together: true))
    }
}
