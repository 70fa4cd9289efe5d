import Foundation
import RealmSwift
import XCTest

// The new schema (version 2) of the migration tests. Old data (version 1) is given to
// `MigrationTestBench.addOld` as dynamic values:
//   Owner { id: Int, first: String, last: String, age: String, pets: [Pet], favourite: Pet,
//           mood: String, tags: [String], legacy: String }
//   Pet { name: String }
//   Toy { label: String }   (dropped in version 2)
final class Owner: Object {
    @Persisted(primaryKey: true) var id: Int
    /// Renamed from `first`.
    @Persisted var givenName: String
    /// Made from `first` and `last` in the migration block.
    @Persisted var fullName: String
    /// Was a String: the type changed, so it takes its default.
    @Persisted var age: Int
    @Persisted var pets: List<Pet>
    @Persisted var favourite: Pet?
    /// Was a String: an enum with String raw values keeps it.
    @Persisted var mood: Mood
    @Persisted var tags: List<String>
    /// New properties take their defaults.
    @Persisted var nickname: String?
    @Persisted var score = 7
}

final class Pet: Object {
    @Persisted var name: String
    @Persisted var species = "dog"
    @Persisted(originProperty: "pets") var owners: LinkingObjects<Owner>
}

final class MigrationTestBenchTests: XCTestCase {
    private func bench() -> MigrationTestBench {
        let bench = MigrationTestBench(oldSchemaVersion: 1)
        let rex = bench.addOld("Pet", ["name": "Rex"])
        let fido = bench.addOld("Pet", ["name": "Fido"])
        bench.addOld(
            "Owner",
            [
                "id": 1, "first": "Ada", "last": "Lovelace", "age": "42", "pets": [rex, fido], "favourite": fido,
                "mood": "grumpy", "tags": ["math", "poetry"], "legacy": "gone",
            ])
        bench.addOld(
            "Owner",
            [
                "id": 2, "first": "Grace", "last": "Hopper", "age": "85", "pets": [DynamicObject](), "favourite": nil,
                "mood": "happy", "tags": [Any](), "legacy": "gone",
            ])
        bench.addOld("Toy", ["label": "ball"])
        return bench
    }

    private func configuration(_ block: @escaping MigrationBlock) -> Realm.Configuration {
        Realm.Configuration(inMemoryIdentifier: "bench-\(UUID().uuidString)", schemaVersion: 2, migrationBlock: block, objectTypes: [Owner.self, Pet.self])
    }

    func testAutomaticRulesRenameAndRetypedProperty() throws {
        let recorded = Recorded()
        let realm = try bench().migrate(
            with: configuration { migration, oldSchemaVersion in
                recorded.values["oldSchemaVersion"] = oldSchemaVersion
                migration.renameProperty(onType: "Owner", from: "first", to: "givenName")
                migration.enumerateObjects(ofType: "Owner") { old, new in
                    guard let old, let new else { return }
                    new["fullName"] = "\(old["first"] as? String ?? "") \(old["last"] as? String ?? "")"
                    if old["id"] as? Int == 1 {
                        recorded.values["oldAge"] = old["age"]
                        recorded.values["newAge"] = new["age"]
                        recorded.values["oldLegacy"] = old["legacy"]
                        recorded.values["newGivenName"] = new["givenName"]
                        recorded.values["newMood"] = new["mood"]
                        recorded.values["newPets"] = (new["pets"] as? List<MigrationObject>)?.compactMap { $0["name"] as? String }
                    }
                }
            })
        XCTAssertEqual(recorded.values["oldSchemaVersion"] as? UInt64, 1)
        XCTAssertEqual(recorded.values["oldAge"] as? String, "42", "the old value stays readable on the old object")
        XCTAssertEqual(recorded.values["newAge"] as? Int, 0, "a retyped property takes its default")
        XCTAssertEqual(recorded.values["oldLegacy"] as? String, "gone")
        XCTAssertEqual(recorded.values["newGivenName"] as? String, "Ada", "a renamed property receives the old values")
        XCTAssertEqual(recorded.values["newMood"] as? String, "grumpy", "an enum property holds its raw value in the dynamic API")
        XCTAssertEqual(recorded.values["newPets"] as? [String], ["Rex", "Fido"])

        let owners = realm.objects(Owner.self)
        XCTAssertEqual(owners.count, 2)
        let ada = try XCTUnwrap(realm.object(ofType: Owner.self, forPrimaryKey: 1))
        XCTAssertEqual(ada.givenName, "Ada")
        XCTAssertEqual(ada.fullName, "Ada Lovelace")
        XCTAssertEqual(ada.age, 0)
        XCTAssertEqual(ada.mood, .grumpy)
        XCTAssertEqual(Array(ada.tags), ["math", "poetry"])
        XCTAssertNil(ada.nickname)
        XCTAssertEqual(ada.score, 0, "an added property takes its type's zero, not the class's default, as realm-core adds a column (realm-swift issue #1793)")
        XCTAssertEqual(ada.pets.map(\.name), ["Rex", "Fido"])
        XCTAssertEqual(ada.pets.map(\.species), ["", ""], "the same for old objects of every type")
        XCTAssertTrue(ada.favourite === ada.pets[1], "links map to the same new objects")
        XCTAssertEqual(ada.pets[0].owners.map(\.id), [1])
        let grace = try XCTUnwrap(realm.object(ofType: Owner.self, forPrimaryKey: 2))
        XCTAssertEqual(grace.fullName, "Grace Hopper")
        XCTAssertEqual(grace.pets.count, 0)
        XCTAssertEqual(grace.tags.count, 0)
        XCTAssertEqual(realm.objects(Pet.self).count, 2)
        XCTAssertEqual(realm.configuration.schemaVersion, 2)
    }

    func testCreateDeleteAndEnumerate() throws {
        let recorded = Recorded()
        let realm = try bench().migrate(
            with: configuration { migration, _ in
                migration.enumerateObjects(ofType: "Toy") { old, new in
                    recorded.values["toy"] = old?["label"]
                    recorded.values["toyHasNew"] = new != nil
                }
                migration.enumerateObjects(ofType: "Pet") { _, new in
                    if new?["name"] as? String == "Fido" { migration.delete(new!) }
                }
                var visited: [String] = []
                migration.enumerateObjects(ofType: "Pet") { old, new in
                    visited.append("\(old?["name"] as? String ?? "-")/\(new?["name"] as? String ?? "-")")
                }
                recorded.values["visited"] = visited
                let nemo = migration.create("Pet", value: ["name": "Nemo", "species": "fish"])
                migration.enumerateObjects(ofType: "Owner") { old, new in
                    if old?["id"] as? Int == 1 {
                        (new?["pets"] as? List<MigrationObject>)?.append(nemo)
                        recorded.values["favouriteAfterDelete"] = new?["favourite"] ?? "nil"
                    }
                }
                recorded.values["deletedToys"] = migration.deleteData(forType: "Toy")
                recorded.values["deletedAgain"] = migration.deleteData(forType: "Toy")
            })
        XCTAssertEqual(recorded.values["toy"] as? String, "ball", "a type the new schema lacks is enumerated with its old objects")
        XCTAssertEqual(recorded.values["toyHasNew"] as? Bool, false)
        XCTAssertEqual(recorded.values["visited"] as? [String], ["Rex/Rex"], "a deleted object is no longer enumerated")
        XCTAssertEqual(recorded.values["favouriteAfterDelete"] as? String, "nil", "deleting an object clears the links to it")
        XCTAssertEqual(recorded.values["deletedToys"] as? Bool, true)
        XCTAssertEqual(recorded.values["deletedAgain"] as? Bool, false)

        let ada = try XCTUnwrap(realm.object(ofType: Owner.self, forPrimaryKey: 1))
        XCTAssertEqual(ada.pets.map(\.name), ["Rex", "Nemo"])
        XCTAssertNil(ada.favourite)
        XCTAssertEqual(realm.objects(Pet.self).map(\.name), ["Rex", "Nemo"])
        XCTAssertEqual(realm.objects(Pet.self).map(\.species), ["", "fish"], "an old pet's added property is its zero; a created one has what create gave it")
    }

    func testNewTypeEnumeratesTheObjectsCreatedInTheMigration() throws {
        final class Badge: Object {
            @Persisted var title: String
        }
        let recorded = Recorded()
        let realm = try bench().migrate(
            with: Realm.Configuration(
                inMemoryIdentifier: "bench-\(UUID().uuidString)", schemaVersion: 3,
                migrationBlock: { migration, _ in
                    migration.create("Badge", value: ["title": "first"])
                    migration.enumerateObjects(ofType: "Badge") { old, new in
                        recorded.count += 1
                        recorded.values["oldIsNil"] = old == nil
                        new?["title"] = "renamed"
                    }
                }, objectTypes: [Owner.self, Pet.self, Badge.self]))
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(recorded.values["oldIsNil"] as? Bool, true)
        XCTAssertEqual(realm.objects(Badge.self).map(\.title), ["renamed"])
    }

    func testDuplicatePrimaryKeysAfterTheBlockThrow() {
        let bench = MigrationTestBench(oldSchemaVersion: 1)
        bench.addOld("Pet", ["name": "Rex"])
        bench.addOld("Owner", ["id": 1, "first": "A", "mood": "happy"])
        bench.addOld("Owner", ["id": 1, "first": "B", "mood": "happy"])
        XCTAssertThrowsError(try bench.migrate(with: configuration { _, _ in })) { error in
            XCTAssertEqual("\(error)", "Primary key property 'Owner.id' has duplicate values after migration.")
        }
        // A block that resolves the duplicates migrates.
        XCTAssertNoThrow(
            try bench.migrate(
                with: configuration { migration, _ in
                    migration.enumerateObjects(ofType: "Owner") { old, new in
                        if old?["first"] as? String == "B" { new?["id"] = 2 }
                    }
                }))
    }

    func testWhatRealmWouldThrowInTheBlockIsReported() {
        XCTAssertThrowsError(
            try bench().migrate(
                with: configuration { migration, _ in
                    migration.renameProperty(onType: "Owner", from: "missing", to: "givenName")
                })
        ) { error in
            XCTAssertEqual("\(error)", "Cannot rename property 'Owner.missing' because it does not exist.")
        }
        XCTAssertThrowsError(
            try bench().migrate(
                with: configuration { migration, _ in
                    migration.renameProperty(onType: "Owner", from: "age", to: "givenName")
                })
        ) { error in
            XCTAssertTrue("\(error)".hasPrefix("Cannot rename property 'Owner.age' to 'givenName' because"), "\(error)")
        }
        XCTAssertThrowsError(
            try bench().migrate(
                with: configuration { migration, _ in
                    migration.renameProperty(onType: "Owner", from: "last", to: "age")
                })
        ) { error in
            XCTAssertEqual("\(error)", "Cannot rename property 'Owner.last' to 'age' because it would change from type 'string' to 'int'.")
        }
        XCTAssertThrowsError(
            try bench().migrate(
                with: configuration { migration, _ in
                    migration.enumerateObjects(ofType: "Owner") { _, new in new?["age"] = "42" }
                })
        ) { error in
            XCTAssertTrue("\(error)".hasPrefix("Invalid value '42' of type 'String' for 'int' property 'Owner.age'."), "\(error)")
        }
        XCTAssertThrowsError(
            try bench().migrate(
                with: configuration { migration, _ in
                    migration.enumerateObjects(ofType: "Owner") { _, new in new?["mood"] = Mood.happy }
                })
        ) { error in
            XCTAssertTrue("\(error)".contains("for 'string' property 'Owner.mood'"), "an enum value is not its raw value: \(error)")
        }
        XCTAssertThrowsError(
            try bench().migrate(
                with: configuration { migration, _ in
                    migration.enumerateObjects(ofType: "Owner") { old, _ in _ = old?["fullName"] }
                })
        ) { error in
            XCTAssertTrue("\(error)".hasPrefix("Invalid property name 'fullName' for class 'Owner'."), "\(error)")
        }
        XCTAssertThrowsError(
            try bench().migrate(
                with: configuration { migration, _ in
                    migration.enumerateObjects(ofType: "Owner") { old, new in new?["favourite"] = (old?["pets"] as? List<MigrationObject>)?.first }
                })
        ) { error in
            XCTAssertTrue("\(error)".hasPrefix("Object is already managed by another Realm"), "\(error)")
        }
    }

    func testSchemaVersionRules() throws {
        XCTAssertThrowsError(try MigrationTestBench(oldSchemaVersion: 3).migrate(with: configuration { _, _ in })) { error in
            XCTAssertEqual("\(error)", "Provided schema version 2 is less than last set version 3.")
        }
        let bench = MigrationTestBench(oldSchemaVersion: 2)
        bench.addOld("Pet", ["name": "Rex", "color": "brown"])
        XCTAssertThrowsError(try bench.migrate(with: configuration { _, _ in })) { error in
            XCTAssertTrue("\(error)".hasPrefix("Migration is required due to the following errors:"), "\(error)")
            XCTAssertTrue("\(error)".contains("Property 'Pet.color' has been removed."), "\(error)")
        }
        var deleting = configuration { _, _ in }
        deleting.schemaVersion = 2
        deleting.deleteRealmIfMigrationNeeded = true
        XCTAssertTrue(try bench.migrate(with: deleting).isEmpty)
        XCTAssertThrowsError(try bench.migrate(with: Realm.Configuration(schemaVersion: 3))) { error in
            XCTAssertTrue("\(error)".contains("objectTypes"), "\(error)")
        }
    }

    func testOldAndNewSchema() throws {
        let bench = MigrationTestBench(oldSchemaVersion: 1, oldPrimaryKeys: ["Owner": "id"])
        bench.addOld("Pet", ["name": "Rex"])
        bench.addOld("Owner", ["id": 1, "first": "Ada", "nickname": nil, "mood": "happy"])
        let recorded = Recorded()
        _ = try bench.migrate(
            with: configuration { migration, _ in
                recorded.values["oldOwnerKey"] = migration.oldSchema["Owner"]?.primaryKeyProperty?.name
                recorded.values["oldPetKeyIsNil"] = migration.oldSchema["Pet"]?.primaryKeyProperty == nil
                recorded.values["oldFirstType"] = migration.oldSchema["Owner"]?["first"]?.type
                recorded.values["oldNicknameOptional"] = migration.oldSchema["Owner"]?["nickname"]?.isOptional
                recorded.values["newOwnerKey"] = migration.newSchema["Owner"]?.primaryKeyProperty?.name
                recorded.values["newPets"] = migration.newSchema["Owner"]?["pets"].map { "\($0.isArray) \($0.objectClassName ?? "")" }
                recorded.values["newHasOwners"] = migration.newSchema["Pet"]?["owners"] != nil
                recorded.values["newTypes"] = migration.newSchema.objectSchema.map(\.className)
            })
        XCTAssertEqual(recorded.values["oldOwnerKey"] as? String, "id")
        XCTAssertEqual(recorded.values["oldPetKeyIsNil"] as? Bool, true, "old types have no primary key unless the bench names one")
        XCTAssertEqual(recorded.values["oldFirstType"] as? PropertyType, .string)
        XCTAssertEqual(recorded.values["oldNicknameOptional"] as? Bool, true)
        XCTAssertEqual(recorded.values["newOwnerKey"] as? String, "id")
        XCTAssertEqual(recorded.values["newPets"] as? String, "true Pet")
        XCTAssertEqual(recorded.values["newHasOwners"] as? Bool, false, "linking objects are computed, not among the properties")
        XCTAssertEqual(recorded.values["newTypes"] as? [String], ["Owner", "Pet"])
    }

    func testJSONDecodedOldValues() throws {
        let json = #"{"id": 3, "first": "Ada", "age": 42, "mood": "happy", "tags": ["x"], "flag": true}"#
        let values = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let bench = MigrationTestBench(oldSchemaVersion: 1)
        bench.addOld("Owner", values)
        let realm = try bench.migrate(with: configuration { _, _ in })
        let owner = try XCTUnwrap(realm.objects(Owner.self).first)
        XCTAssertEqual(owner.id, 3, "a JSON number is an int")
        XCTAssertEqual(owner.age, 42)
        XCTAssertEqual(owner.mood, .happy)
        XCTAssertEqual(Array(owner.tags), ["x"])
    }
}
