import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import Testing

/// Faults a new user found by writing steps against a small store (people owning dogs of an
/// int enum size): values computed wrongly with no error, errors for correct data, and data
/// errors that were raw SQLite text. Each test failed before its fix.
@Suite struct TrialFaultTests {
    static let size = EnumType(
        name: "Size", rawType: .int,
        cases: [
            EnumType.Case(name: "small", rawValue: .int(1)), EnumType.Case(name: "large", rawValue: .int(2)),
        ])
    static let person = ObjectType(
        name: "Person", primaryKey: "id",
        properties: [
            Property("id", .scalar(.string)), Property("name", .scalar(.string), default: .string("")),
            Property("dogs", PropertyType(.object("Dog"), collection: .list)),
        ])
    static let dog = ObjectType(
        name: "Dog", primaryKey: "id",
        properties: [
            Property("id", .scalar(.string)), Property("size", PropertyType(.enumeration("Size")), default: .enumCase("small")),
            Property("owner", PropertyType(.object("Person"), optional: true)),
        ])
    static let schema = Schema(enums: [size], objects: [person, dog])

    static func history(_ steps: [MigrationStep]) -> MigrationHistory {
        StepSemanticsTests.history([schema, schema], steps)
    }

    /// Ada owns Rex (large), Bob owns Fido (small).
    static func store() throws -> StoreFixture {
        let store = try StoreFixture(schema: schema, version: 1)
        try store.execute("INSERT INTO \"Person\" VALUES ('p1', 'Ada'), ('p2', 'Bob')")
        try store.execute("INSERT INTO \"Dog\" VALUES ('rex', 2, 'p1'), ('fido', 1, 'p2')")
        try store.execute("INSERT INTO \"Person.dogs\" VALUES ('p1', 0, 'rex'), ('p2', 0, 'fido')")
        return store
    }

    static func sizes(_ store: StoreFixture) throws -> [[StoreValue]] {
        try store.query("SELECT \"id\", \"size\" FROM \"Dog\" ORDER BY \"id\"")
    }

    static func failure(_ history: MigrationHistory, on store: StoreFixture) throws -> String {
        let hash = try store.fileHash()
        do {
            _ = try Migrator(history: history).migrate(storeAt: store.path)
        } catch {
            #expect(try store.fileHash() == hash, "a failed migration changed the store")
            return "\(error)"
        }
        Issue.record("the migration succeeded")
        return ""
    }

    static func planningDiagnostic(_ steps: [MigrationStep]) throws -> Diagnostic {
        try #require(PlanSafetyTests.planningError(history(steps))?.diagnostics.first)
    }

    // MARK: mapValues after mapValues

    /// A raw-value key compared with a value an earlier step computed (no column affinity):
    /// `'1'` never matched 1, and every dog ended small, with no error.
    @Test func aRawValueKeyMatchesTheValueAnEarlierStepComputed() throws {
        let store = try Self.store()
        defer { store.remove() }
        _ = try Migrator(
            history: Self.history([
                .mapValues(type: "Dog", property: "size", values: [.init(from: "large", to: .enumCase("small"))], otherwise: nil),
                .mapValues(type: "Dog", property: "size", values: [.init(from: "1", to: .enumCase("large"))], otherwise: .enumCase("small")),
            ])
        ).migrate(storeAt: store.path)
        #expect(try Self.sizes(store) == [[.text("fido"), .integer(2)], [.text("rex"), .integer(2)]])
    }

    /// The second step left values that already were cases of the enum unmapped: a data
    /// error for correct values.
    @Test func valuesAnEarlierStepMadeCasesStayAsTheyAre() throws {
        let store = try Self.store()
        defer { store.remove() }
        let step = MigrationStep.mapValues(type: "Dog", property: "size", values: [.init(from: "large", to: .enumCase("small"))], otherwise: nil)
        _ = try Migrator(history: Self.history([step, step])).migrate(storeAt: store.path)
        #expect(try Self.sizes(store) == [[.text("fido"), .integer(1)], [.text("rex"), .integer(1)]])
    }

    @Test func aKeyThatIsNeitherACaseNorANumberOfAnIntEnumIsAnError() throws {
        let diagnostic = try Self.planningDiagnostic([.mapValues(type: "Dog", property: "size", values: [.init(from: "huge", to: .enumCase("small"))], otherwise: nil)])
        #expect(diagnostic.message.contains("\"huge\" is neither a case nor a raw value of Size"))
        #expect(diagnostic.hint == "write one of its cases (small, large) or a whole number")
    }

    // MARK: Enum values in steps

    @Test func enumValuesAreCaseNamesAndMessagesListTheCases() throws {
        let raw = try Self.planningDiagnostic([.deleteObjects(type: "Dog", where: [.init(property: "size", condition: .equals(.int(2)))])])
        #expect(raw.message == "migration 2 step 1 (deleteObjects): where size: 2 is the raw value of case 'large' of Size: write the case name")
        #expect(raw.version == 2, "planning problems say which version's migration they belong to")
        let unknown = try Self.planningDiagnostic([.deleteObjects(type: "Dog", where: [.init(property: "size", condition: .equals(.int(5)))])])
        #expect(unknown.message.hasSuffix("is not a case of Size (its cases: small, large)"))
        #expect(!unknown.message.contains("Size?"))
        let typo = try Self.planningDiagnostic([
            .createObjects(type: "Dog", objects: [[.init(property: "id", value: .string("d")), .init(property: "size", value: .string("larg"))]], addTo: nil)
        ])
        #expect(typo.message.hasSuffix("\"larg\" is not a case of Size (did you mean 'large'? its cases: small, large)"))
    }

    // MARK: Collections and links named in steps

    @Test func aCollectionInAConditionOrTemplateIsNamedAsOne() throws {
        let condition = try Self.planningDiagnostic([.deleteObjects(type: "Person", where: [.init(property: "dogs", condition: .equals(.string("rex")))])])
        #expect(condition.message == "migration 2 step 1 (deleteObjects): 'Person.dogs' is list<Dog>: steps read single values (and to-one links), not collections")
        let template = try Self.planningDiagnostic([.set(type: "Dog", property: "id", value: .template("{owner.dogs}"))])
        #expect(template.message.contains("'Person.dogs' is list<Dog>"))
    }

    @Test func addToAPropertyThatIsNoLinkSaysWhatItIs() throws {
        let diagnostic = try Self.planningDiagnostic([
            .createObjects(
                type: "Dog", objects: [[.init(property: "id", value: .string("d"))]], addTo: MigrationStep.LinkTarget(type: "Person", property: "name", where: [])
            )
        ])
        #expect(diagnostic.message.hasSuffix("'Person.name' is string, not a link to Dog"))
        #expect(diagnostic.hint == "links to Dog: dogs")
    }

    @Test func addToAMapSaysItNeedsKeys() throws {
        var schema = Self.schema
        schema.objects[0].properties.append(Property("named", PropertyType(.object("Dog"), collection: .map)))
        let history = StepSemanticsTests.history(
            [schema, schema],
            [
                .createObjects(
                    type: "Dog", objects: [[.init(property: "id", value: .string("d"))]], addTo: MigrationStep.LinkTarget(type: "Person", property: "named", where: [])
                )
            ])
        let diagnostic = try #require(PlanSafetyTests.planningError(history)?.diagnostics.first)
        #expect(diagnostic.rule == "migration-unsupported-step")
        #expect(diagnostic.message.hasSuffix("'Person.named' is a map, which needs a key for each new object"))
        #expect(diagnostic.hint == "use a custom step to fill maps")
    }

    /// One property renamed to two names: which survived depended on the order of a dictionary.
    @Test func onePropertyRenamedTwiceIsAnErrorAtTheSecondRename() throws {
        var renamed = Self.schema
        renamed.objects[0].properties[1] = Property("title", .scalar(.string), default: .string(""))
        renamed.objects[0].properties.append(Property("label", .scalar(.string), default: .string("")))
        let history = StepSemanticsTests.history(
            [Self.schema, renamed],
            [
                .renameProperty(type: "Person", from: "name", to: "title"),
                .renameProperty(type: "Person", from: "name", to: "label"),
            ])
        let diagnostic = try #require(PlanSafetyTests.planningError(history)?.diagnostics.first)
        #expect(diagnostic.rule == "migration-rename-conflict")
        #expect(diagnostic.message.hasPrefix("migration 2 step 2 (renameProperty): renames 'Person.name' to 'label', but step 1 already renames it to 'title'"))
    }

    // MARK: Keys and links of new objects

    /// A raw `UNIQUE constraint failed` before, naming no step.
    @Test func aNewObjectWithAKeyInUseIsADataError() throws {
        let store = try Self.store()
        defer { store.remove() }
        let text = try Self.failure(Self.history([.createObjects(type: "Person", objects: [[.init(property: "id", value: .string("p1"))]], addTo: nil)]), on: store)
        #expect(text.contains("step 1 (createObjects): 1 Person object with a primary key that a new object of createObjects also has in Person.id: \"p1\""))
        #expect(text.contains("Nothing was changed"))
        #expect(!text.contains("SQLite"))
    }

    @Test func twoNewObjectsWithOneKeyAreAPlanningError() throws {
        let diagnostic = try Self.planningDiagnostic([
            .createObjects(
                type: "Person",
                objects: [
                    [.init(property: "id", value: .string("p7"))], [.init(property: "id", value: .string("p8"))], [.init(property: "id", value: .string("p7"))],
                ], addTo: nil)
        ])
        #expect(diagnostic.rule == "migration-duplicate-key")
        #expect(diagnostic.message.hasSuffix("new Person objects 1 and 3 have the same primary key \"p7\""))
    }

    /// `"Dog" row 3 links to a missing "Person"` before: a rowid, no property, no key.
    @Test func aLinkToAMissingObjectNamesBothEnds() throws {
        let store = try Self.store()
        defer { store.remove() }
        let text = try Self.failure(
            Self.history([
                .createObjects(
                    type: "Dog", objects: [[.init(property: "id", value: .string("max")), .init(property: "owner", value: .string("p9"))]], addTo: nil
                )
            ]), on: store)
        #expect(text.contains("Dog \"max\" links through 'owner' to a missing Person \"p9\""))
        // A list entry: the owner and the list.
        let list = try StoreFixture(schema: Self.schema, version: 1, file: "list.db")
        defer { list.remove() }
        try list.execute("INSERT INTO \"Person\" VALUES ('p1', 'Ada')")
        try list.execute("PRAGMA foreign_keys = OFF; INSERT INTO \"Person.dogs\" VALUES ('p1', 0, 'ghost')")
        let listText = try Self.failure(Self.history([.createObjects(type: "Dog", objects: [[.init(property: "id", value: .string("max"))]], addTo: nil)]), on: list)
        #expect(listText.contains("Person \"p1\" links through 'dogs' to a missing Dog \"ghost\""))
    }

    // MARK: Embedded values becoming objects

    static let address = ObjectType(name: "Address", isEmbedded: true, properties: [Property("street", .scalar(.string))])
    static let keyedAddress = ObjectType(name: "Address", primaryKey: "street", properties: [Property("street", .scalar(.string))])
    static let holder = ObjectType(
        name: "Person", primaryKey: "id",
        properties: [
            Property("id", .scalar(.string)), Property("home", PropertyType(.object("Address"), optional: true)),
            Property("offices", PropertyType(.object("Address"), collection: .list)),
        ])

    /// Keyed by its own street, two equal streets became a raw `UNIQUE constraint failed`.
    @Test func embeddedValuesWithOneKeyCannotBecomeObjects() throws {
        let v1 = Schema(objects: [Self.holder, Self.address])
        let v2 = Schema(objects: [Self.holder, Self.keyedAddress])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES ('p1', '{\"street\":\"Main\"}'), ('p2', '{\"street\":\"Main\"}'), ('p3', '{\"street\":\"Elm\"}')")
        let text = try Self.failure(StepSemanticsTests.history([v1, v2], []), on: store)
        #expect(text.contains("2 Address objects with a primary key that another Address would also have once they become objects"))
        #expect(text.contains("\"Main\" (\"p1\"), \"Main\" (\"p2\")"))
        #expect(!text.contains("Elm"))
        // Distinct keys migrate, one object per value.
        try store.execute("UPDATE \"Person\" SET \"home\" = '{\"street\":\"Dock\"}' WHERE \"id\" = 'p2'")
        _ = try Migrator(history: StepSemanticsTests.history([v1, v2], [])).migrate(storeAt: store.path)
        #expect(
            try store.query("SELECT \"id\", \"home\" FROM \"Person\" ORDER BY 1") == [[.text("p1"), .text("Main")], [.text("p2"), .text("Dock")], [.text("p3"), .text("Elm")]])
    }

    /// Owners were listed once per link (`Person p2, Person p2`), with no property, and quoted.
    @Test func anObjectHeldTwiceNamesEachHolderOncePerProperty() throws {
        let table = ObjectType(name: "Address", primaryKey: "id", properties: [Property("id", .scalar(.string)), Property("street", .scalar(.string))])
        let v1 = Schema(objects: [Self.holder, table])
        let v2 = Schema(objects: [Self.holder, Self.address])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Address\" VALUES ('a1', 'Main'), ('a2', 'Elm')")
        try store.execute("INSERT INTO \"Person\" VALUES ('p1', 'a1'), ('p2', 'a1'), ('p3', NULL)")
        try store.execute("INSERT INTO \"Person.offices\" VALUES ('p2', 0, 'a1'), ('p3', 0, 'a2'), ('p3', 1, 'a2')")
        let text = try Self.failure(StepSemanticsTests.history([v1, v2], []), on: store)
        #expect(text.contains("\"a1\" (Person p1 (home), Person p2 (home), Person p2 (offices)), \"a2\" (Person p3 (offices))"))
    }
}
