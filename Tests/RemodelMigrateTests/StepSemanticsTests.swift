import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import Testing

/// Every migration step and option against what the manual's "Migration files and steps" (Docs/Guides.docc/MigrationFiles.md) promises, on small
/// histories built as Swift values.
@Suite struct StepSemanticsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    // MARK: renameType

    @Test func renameTypeKeepsObjectsLinksListsAndSideTables() throws {
        let doggo = ObjectType(
            name: "Doggo", primaryKey: "id",
            properties: [
                Property("id", .scalar(.string)),
                Property("name", .scalar(.string), indexed: true),
                Property("toys", PropertyType(.scalar(.string), collection: .list)),
            ])
        func person(_ dogType: String, list: String = "dogs") -> ObjectType {
            ObjectType(
                name: "Person", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.string)),
                    Property("pet", PropertyType(.object(dogType), optional: true)),
                    Property(list, PropertyType(.object(dogType), collection: .list)),
                ])
        }
        var dog = doggo
        dog.name = "Dog"
        var dogV3 = dog
        dogV3.properties[1].name = "title"
        let v1 = Schema(objects: [doggo, person("Doggo")])
        let v2 = Schema(objects: [dog, person("Dog")])
        let v3 = Schema(objects: [dogV3, person("Dog", list: "pets")])
        let history = Self.history(
            [v1, v2, v3], [.renameType(from: "Doggo", to: "Dog")],
            [
                .renameProperty(type: "Dog", from: "name", to: "title"),
                .renameProperty(type: "Person", from: "dogs", to: "pets"),
            ])

        let store = try Self.migrateDirectAndStepwise(Migrator(history: history), from: v1) { store in
            try store.execute("INSERT INTO \"Doggo\" (\"id\", \"name\") VALUES ('d1', 'Rex'), ('d2', 'Fido')")
            try store.execute("INSERT INTO \"Doggo.toys\" (\"owner\", \"position\", \"value\") VALUES ('d1', 0, 'ball'), ('d1', 1, 'rope'), ('d2', 0, 'bone')")
            try store.execute("INSERT INTO \"Person\" (\"id\", \"pet\") VALUES ('p1', 'd2'), ('p2', NULL)")
            try store.execute("INSERT INTO \"Person.dogs\" (\"owner\", \"position\", \"value\") VALUES ('p1', 0, 'd1'), ('p1', 1, 'd2'), ('p2', 0, 'd2')")
        }
        defer { store.remove() }

        #expect(try store.query("SELECT \"id\", \"title\" FROM \"Dog\" ORDER BY 1") == [[.text("d1"), .text("Rex")], [.text("d2"), .text("Fido")]])
        #expect(
            try store.query("SELECT \"owner\", \"position\", \"value\" FROM \"Dog.toys\" ORDER BY 1, 2") == [
                [.text("d1"), .integer(0), .text("ball")], [.text("d1"), .integer(1), .text("rope")], [.text("d2"), .integer(0), .text("bone")],
            ])
        #expect(try store.query("SELECT \"id\", \"pet\" FROM \"Person\" ORDER BY 1") == [[.text("p1"), .text("d2")], [.text("p2"), .null]])
        #expect(
            try store.query("SELECT \"owner\", \"position\", \"value\" FROM \"Person.pets\" ORDER BY 1, 2") == [
                [.text("p1"), .integer(0), .text("d1")], [.text("p1"), .integer(1), .text("d2")], [.text("p2"), .integer(0), .text("d2")],
            ])
        #expect(try store.query("SELECT type, name FROM sqlite_schema WHERE name LIKE '%Doggo%' OR tbl_name LIKE '%Doggo%' OR sql LIKE '%Doggo%'") == [])
        #expect(try store.query("SELECT \"table\" FROM pragma_foreign_key_list('Person')") == [[.text("Dog")]])
        #expect(try store.query("SELECT \"table\" FROM pragma_foreign_key_list('Person.pets') ORDER BY 1") == [[.text("Dog")], [.text("Person")]])
        #expect(try Self.indexes(of: "Person.pets", in: store) == [[.text("Person.pets.value"), .text("value")]])
        #expect(try store.query("SELECT name FROM sqlite_schema WHERE name LIKE '%Person.dogs%'") == [])
        #expect(try store.query("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'Dog' AND sql IS NOT NULL") == [[.text("Dog.title.index")]])
        #expect(try store.query("PRAGMA foreign_key_check").isEmpty)
        #expect(try store.query("PRAGMA integrity_check") == [[.text("ok")]])
        _ = try RemodelStore(path: store.path, schema: v3, version: 3)
    }

    @Test func theReportCountsARenamedTypeOnOneLine() throws {
        let doggo = ObjectType(name: "Doggo", primaryKey: "id", properties: [Property("id", .scalar(.int))])
        let gone = ObjectType(name: "Gone", primaryKey: "id", properties: [Property("id", .scalar(.int))])
        var dog = doggo
        dog.name = "Dog"
        var hound = doggo
        hound.name = "Hound"
        // Doggo → Dog → Hound over two versions; Gone is removed.
        let history = Self.history(
            [Schema(objects: [doggo, gone]), Schema(objects: [dog]), Schema(objects: [hound])],
            [.renameType(from: "Doggo", to: "Dog")], [.renameType(from: "Dog", to: "Hound")])
        let store = try StoreFixture(schema: history.snapshots[0], version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Doggo\" VALUES (1), (2)")
        try store.execute("INSERT INTO \"Gone\" VALUES (1)")
        let (plan, report) = try Migrator(history: history).migrate(storeAt: store.path)
        #expect(plan.renamedTypes == ["Hound": "Doggo"])
        let text = MigrationPlanRenderer.text(of: report, store: "app.db")
        #expect(text.hasSuffix("Objects:\n  Gone               1 → removed\n  Hound (was Doggo)  2 → 2\n"), "\(text)")
    }

    @Test func renameTypeMayTakeTheNameOfARemovedType() throws {
        let oldDog = ObjectType(name: "Dog", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("legacy", .scalar(.string))])
        let doggo = ObjectType(name: "Doggo", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("name", .scalar(.string))])
        var dog = doggo
        dog.name = "Dog"
        let v1 = Schema(objects: [oldDog, doggo])
        let v2 = Schema(objects: [dog])
        // In one version the schema's Dog would both continue the old Dog and be the renamed
        // Doggo: a contradiction, refused at the step.
        let oneVersion = Self.history([v1, v2], [.renameType(from: "Doggo", to: "Dog")])
        let error = #expect(throws: MigrationPlanningError.self) { try Migrator(history: oneVersion).plan(from: 1) }
        #expect(error?.diagnostics.map(\.rule) == ["migration-rename-conflict"])
        #expect(error?.description.contains("remove 'Dog' in one version and rename 'Doggo' to it in the next") == true)
        // Removing the old Dog first, then renaming, takes its name.
        let v2WithoutDog = Schema(objects: [doggo])
        let twoVersions = Self.history([v1, v2WithoutDog, v2], [], [.renameType(from: "Doggo", to: "Dog")])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Dog\" VALUES (1, 'old')")
        try store.execute("INSERT INTO \"Doggo\" VALUES (7, 'Rex'), (8, 'Fido')")
        _ = try Migrator(history: twoVersions).migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"id\", \"name\" FROM \"Dog\" ORDER BY 1") == [[.integer(7), .text("Rex")], [.integer(8), .text("Fido")]])
        #expect(try store.query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE '\\_remodel%' ESCAPE '\\'") == [[.text("Dog")]])
    }

    @Test func renameTypeSwapsTwoTypesWithTheSameIndexedAndListProperties() throws {
        func type(_ name: String, _ extra: String) -> ObjectType {
            ObjectType(
                name: name, primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)),
                    Property("label", .scalar(.string), indexed: true),
                    Property(extra, .scalar(.string), default: .string("")),
                    Property("tags", PropertyType(.scalar(.string), collection: .list)),
                    Property("friends", PropertyType(.object(name), collection: .list)),
                ])
        }
        // Version 2 calls the old A "B" and the old B "A"; each keeps its own extra property.
        let v1 = Schema(objects: [type("A", "onlyA"), type("B", "onlyB")])
        let v2 = Schema(objects: [type("B", "onlyA"), type("A", "onlyB")])
        let history = Self.history([v1, v2], [.renameType(from: "A", to: "B"), .renameType(from: "B", to: "A")])
        // Each rename lists its own statements: A goes through a temporary name, B does not.
        let plan = try #require(Migrator(history: history).plan(from: 1).versions.first)
        let renameA = try #require(plan.changes.first { $0.summary == "rename type A to B" })
        let renameB = try #require(plan.changes.first { $0.summary == "rename type B to A" })
        #expect(
            plan.statements(of: renameA).filter { $0.contains("RENAME TO") && !$0.contains(".") } == [
                "ALTER TABLE \"A\" RENAME TO \"A__remodel_renaming\"", "ALTER TABLE \"A__remodel_renaming\" RENAME TO \"B\"",
            ])
        #expect(plan.statements(of: renameB).filter { $0.contains("RENAME TO") && !$0.contains(".") } == ["ALTER TABLE \"B\" RENAME TO \"A\""])
        let store = try Self.migrateDirectAndStepwise(Migrator(history: history), from: v1) { store in
            try store.execute("INSERT INTO \"A\" (\"id\", \"label\", \"onlyA\") VALUES (1, 'was A', 'a')")
            try store.execute("INSERT INTO \"B\" (\"id\", \"label\", \"onlyB\") VALUES (2, 'was B', 'b')")
            try store.execute("INSERT INTO \"A.tags\" (\"owner\", \"position\", \"value\") VALUES (1, 0, 'tag of A')")
            try store.execute("INSERT INTO \"B.tags\" (\"owner\", \"position\", \"value\") VALUES (2, 0, 'tag of B')")
            try store.execute("INSERT INTO \"A\" (\"id\", \"label\", \"onlyA\") VALUES (3, 'friend of A', '')")
            try store.execute("INSERT INTO \"A.friends\" (\"owner\", \"position\", \"value\") VALUES (1, 0, 3)")
        }
        defer { store.remove() }
        #expect(
            try store.query("SELECT \"id\", \"label\", \"onlyA\" FROM \"B\" ORDER BY 1") == [
                [.integer(1), .text("was A"), .text("a")], [.integer(3), .text("friend of A"), .text("")],
            ])
        #expect(try store.query("SELECT \"id\", \"label\", \"onlyB\" FROM \"A\"") == [[.integer(2), .text("was B"), .text("b")]])
        #expect(try store.query("SELECT \"owner\", \"value\" FROM \"B.tags\"") == [[.integer(1), .text("tag of A")]])
        #expect(try store.query("SELECT \"owner\", \"value\" FROM \"A.tags\"") == [[.integer(2), .text("tag of B")]])
        #expect(try Self.indexes(of: "A", in: store) == [[.text("A.label.index"), .text("label")]])
        #expect(try Self.indexes(of: "B", in: store) == [[.text("B.label.index"), .text("label")]])
        #expect(try store.query("SELECT \"owner\", \"value\" FROM \"B.friends\"") == [[.integer(1), .integer(3)]])
        #expect(try Self.indexes(of: "A.friends", in: store) == [[.text("A.friends.value"), .text("value")]])
        #expect(try Self.indexes(of: "B.friends", in: store) == [[.text("B.friends.value"), .text("value")]])
        #expect(try store.query("PRAGMA foreign_key_check").isEmpty)
        #expect(try store.query("SELECT name FROM sqlite_schema WHERE name LIKE '%remodel_renaming%'") == [])
        #expect(try store.query("PRAGMA integrity_check") == [[.text("ok")]])
        _ = try RemodelStore(path: store.path, schema: v2, version: 2)
    }

    @Test func renamedEnumKeepsValuesAndRewritesChangedRawValues() throws {
        let old = EnumType(name: "Colour", cases: [EnumType.Case(name: "red", rawValue: .string("R")), EnumType.Case(name: "blue", rawValue: .string("B"))])
        let new = EnumType(
            name: "Hue",
            cases: [
                EnumType.Case(name: "red", rawValue: .string("Red")), EnumType.Case(name: "blue", rawValue: .string("B")), EnumType.Case(name: "green", rawValue: .string("G")),
            ])
        func schema(_ enumType: EnumType) -> Schema {
            Schema(
                enums: [enumType],
                objects: [
                    ObjectType(
                        name: "Car", primaryKey: "id",
                        properties: [
                            Property("id", .scalar(.int)),
                            Property("paint", PropertyType(.enumeration(enumType.name))),
                            Property("trim", PropertyType(.enumeration(enumType.name), optional: true)),
                            Property("stripes", PropertyType(.enumeration(enumType.name), collection: .list)),
                        ])
                ])
        }
        let store = try StoreFixture(schema: schema(old), version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Car\" VALUES (1, 'R', NULL), (2, 'B', 'R')")
        try store.execute("INSERT INTO \"Car.stripes\" VALUES (1, 0, 'B'), (1, 1, 'R')")
        _ = try Migrator(history: Self.history([schema(old), schema(new)], [.renameType(from: "Colour", to: "Hue")])).migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"paint\", \"trim\" FROM \"Car\" ORDER BY \"id\"") == [[.text("Red"), .null], [.text("B"), .text("Red")]])
        #expect(try store.query("SELECT \"value\" FROM \"Car.stripes\" ORDER BY \"position\"") == [[.text("B")], [.text("Red")]])
        _ = try RemodelStore(path: store.path, schema: schema(new), version: 2)
    }

    // MARK: renameProperty

    @Test func renamePropertySwapsTwoNamesAndTheirTypes() throws {
        let v1 = Schema(objects: [
            ObjectType(
                name: "Pair", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)),
                    Property("a", .scalar(.string)),
                    Property("b", .scalar(.int), indexed: true),
                    Property("c", .scalar(.string, optional: true)),
                ])
        ])
        let v2 = Schema(objects: [
            ObjectType(
                name: "Pair", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)),
                    Property("a", .scalar(.int), indexed: true),
                    Property("b", .scalar(.string)),
                    Property("c", .scalar(.string, optional: true)),
                ])
        ])
        let v3 = Schema(objects: [
            ObjectType(
                name: "Pair", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)),
                    Property("alpha", .scalar(.int), indexed: true, renamedFrom: "a"),
                    Property("b", .scalar(.string)),
                    Property("c", .scalar(.string, optional: true)),
                ])
        ])
        let history = Self.history(
            [v1, v2, v3],
            [
                .renameProperty(type: "Pair", from: "a", to: "b"),
                .renameProperty(type: "Pair", from: "b", to: "a"),
            ], [])
        let store = try Self.migrateDirectAndStepwise(Migrator(history: history), from: v1) { store in
            try store.execute("INSERT INTO \"Pair\" (\"id\", \"a\", \"b\", \"c\") VALUES (1, 'x', 5, 'kept'), (2, 'y', -3, NULL)")
        }
        defer { store.remove() }

        #expect(
            try store.query("SELECT \"id\", \"alpha\", \"b\", \"c\" FROM \"Pair\" ORDER BY 1") == [
                [.integer(1), .integer(5), .text("x"), .text("kept")],
                [.integer(2), .integer(-3), .text("y"), .null],
            ])
        #expect(
            try store.query("SELECT name, type, \"notnull\" FROM pragma_table_info('Pair') ORDER BY name") == [
                [.text("alpha"), .text("INTEGER"), .integer(1)], [.text("b"), .text("TEXT"), .integer(1)],
                [.text("c"), .text("TEXT"), .integer(0)], [.text("id"), .text("INTEGER"), .integer(1)],
            ])
        #expect(try Self.indexes(of: "Pair", in: store) == [[.text("Pair.alpha.index"), .text("alpha")]])
        _ = try RemodelStore(path: store.path, schema: v3, version: 3)
    }

    @Test(arguments: [MigrationPlanner.TableRewrite.automatic, .rebuild])
    func swappingNamesMovesTheIndexToTheColumnThatHasTheIndexedName(strategy: MigrationPlanner.TableRewrite) throws {
        func schema(indexed: String) -> Schema {
            Schema(objects: [
                ObjectType(
                    name: "Pair", primaryKey: "id",
                    properties: [
                        Property("id", .scalar(.int)), Property("a", .scalar(.string), indexed: indexed == "a"), Property("b", .scalar(.string), indexed: indexed == "b"),
                    ])
            ])
        }
        let history = Self.history(
            [schema(indexed: "a"), schema(indexed: "a")],
            [
                .renameProperty(type: "Pair", from: "a", to: "b"),
                .renameProperty(type: "Pair", from: "b", to: "a"),
            ])
        let store = try StoreFixture(schema: schema(indexed: "a"), version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Pair\" VALUES (1, 'x', 'y')")
        var migrator = Migrator(history: history)
        migrator.tableRewrite = strategy
        _ = try migrator.migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"a\", \"b\" FROM \"Pair\"") == [[.text("y"), .text("x")]])
        #expect(try Self.indexes(of: "Pair", in: store) == [[.text("Pair.a.index"), .text("a")]])
    }

    // MARK: set

    @Test func setTemplatesReadValuesAtThatPointOfTheMigration() throws {
        let units = EnumType(name: "Unit", cases: [EnumType.Case(name: "engineering", rawValue: .string("Engineering"))])
        let v1 = Schema(
            enums: [units],
            objects: [
                ObjectType(
                    name: "Person", primaryKey: "id",
                    properties: [
                        Property("id", .scalar(.int)),
                        Property("firstName", .scalar(.string)),
                        Property("lastName", .scalar(.string, optional: true)),
                        Property("age", .scalar(.int, optional: true)),
                        Property("score", .scalar(.double)),
                        Property("active", .scalar(.bool)),
                        Property("unit", PropertyType(.enumeration("Unit"), optional: true)),
                        Property("nickname", .scalar(.string, optional: true)),
                    ])
            ])
        let v2 = Schema(
            enums: [units],
            objects: [
                ObjectType(
                    name: "Person", primaryKey: "id",
                    properties: [
                        Property("id", .scalar(.int)),
                        Property("firstName", .scalar(.string)),
                        Property("lastName", .scalar(.string, optional: true)),
                        Property("age", .scalar(.int, optional: true)),
                        Property("score", .scalar(.double)),
                        Property("active", .scalar(.bool)),
                        Property("unit", PropertyType(.enumeration("Unit"), optional: true)),
                        Property("displayName", .scalar(.string), default: .string("")),
                        Property("label", .scalar(.string), default: .string("")),
                        Property("motto", .scalar(.string), default: .string("")),
                        Property("initial", .scalar(.string), default: .string("")),
                        Property("website", .scalar(.url, optional: true)),
                        Property("level", .scalar(.int), default: .int(0)),
                    ])
            ])
        let history = Self.history(
            [v1, v2],
            [
                .set(type: "Person", property: "displayName", value: .template("{firstName} {lastName}")),
                .set(type: "Person", property: "label", value: .template("{{{firstName}}} is {age}, score {score}, active={active}, unit {unit}, aka {nickname}")),
                .set(type: "Person", property: "motto", value: .template("literal {{braces}} and }}")),
                .set(type: "Person", property: "lastName", value: .null),
                .set(type: "Person", property: "firstName", value: .template("Dr {firstName}")),
                .set(type: "Person", property: "initial", value: .template("{firstName}/{lastName}")),
                .set(type: "Person", property: "website", value: .template("https://example.com/{id}")),
                .set(type: "Person", property: "level", value: .template("3")),
            ])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES (1, 'Ada', 'Lovelace', 36, 2.5, 1, 'Engineering', 'Countess'), (2, 'Cher', NULL, NULL, 0.0, 0, NULL, NULL)")
        _ = try Migrator(history: history).migrate(storeAt: store.path, now: Self.now)

        #expect(
            try store.query("SELECT \"displayName\", \"label\", \"motto\", \"lastName\", \"firstName\", \"initial\", \"website\", \"level\" FROM \"Person\" ORDER BY \"id\"") == [
                [
                    .text("Ada Lovelace"), .text("{Ada} is 36, score 2.5, active=true, unit Engineering, aka Countess"), .text("literal {braces} and }"),
                    .null, .text("Dr Ada"), .text("Dr Ada/"), .text("https://example.com/1"), .integer(3),
                ],
                [
                    .text("Cher "), .text("{Cher} is , score 0.0, active=false, unit , aka "), .text("literal {braces} and }"),
                    .null, .text("Dr Cher"), .text("Dr Cher/"), .text("https://example.com/2"), .integer(3),
                ],
            ])
        _ = try RemodelStore(path: store.path, schema: v2, version: 2)
    }

    @Test func setRefusesNullForARequiredPropertyAndTemplatesForNonText() throws {
        let v1 = Schema(objects: [ObjectType(name: "T", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("name", .scalar(.string))])])
        let v2 = Schema(objects: [
            ObjectType(
                name: "T", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)), Property("name", .scalar(.string)), Property("count", .scalar(.int), default: .int(0)),
                ])
        ])
        let nullRequired = Self.history([v1, v2], [.set(type: "T", property: "name", value: .null)])
        #expect(throws: MigrationPlanningError.self) { try Migrator(history: nullRequired).plan(from: 1) }
        let templatedInt = Self.history([v1, v2], [.set(type: "T", property: "count", value: .template("{name}"))])
        let error = #expect(throws: MigrationPlanningError.self) { try Migrator(history: templatedInt).plan(from: 1) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("a template with placeholders makes text"))
    }

    @Test func aValueOfTheWrongFormSaysWhatFormIsExpected() throws {
        let v1 = Schema(objects: [ObjectType(name: "T", primaryKey: "id", properties: [Property("id", .scalar(.int))])])
        let v2 = Schema(objects: [
            ObjectType(
                name: "T", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)), Property("seen", .scalar(.date, optional: true)),
                ])
        ])
        let history = Self.history([v1, v2], [.set(type: "T", property: "seen", value: .template("01/02/2026"))])
        let error = #expect(throws: MigrationPlanningError.self) { try Migrator(history: history).plan(from: 1) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("\"01/02/2026\" is not an ISO 8601 date-time such as 2024-03-01T09:30:00Z (or a date such as 2024-03-01)"))
        let fixed = Self.history([v1, v2], [.set(type: "T", property: "seen", value: .template("2026-01-01T00:00:00Z"))])
        #expect(throws: Never.self) { try Migrator(history: fixed).plan(from: 1) }
    }

    // MARK: convert

    @Test func convertScalarPairsWithOnErrorDefaultAndNull() throws {
        let v1 = Schema(objects: [
            ObjectType(
                name: "Reading", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)),
                    Property("count", .scalar(.int)),
                    Property("price", .scalar(.string)),
                    Property("flag", .scalar(.string)),
                    Property("whole", .scalar(.double)),
                    Property("when", .scalar(.string, optional: true)),
                    Property("ref", .scalar(.string, optional: true)),
                    Property("qty", .scalar(.string)),
                ])
        ])
        let v2 = Schema(objects: [
            ObjectType(
                name: "Reading", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)),
                    Property("count", .scalar(.string)),
                    Property("price", .scalar(.double), default: .double(-1)),
                    Property("flag", .scalar(.bool)),
                    Property("whole", .scalar(.int)),
                    Property("when", .scalar(.date, optional: true)),
                    Property("ref", .scalar(.uuid, optional: true)),
                    Property("qty", .scalar(.int), default: .int(99)),
                ])
        ])
        let history = Self.history(
            [v1, v2],
            [
                .convert(type: "Reading", property: "count", to: .scalar(.string), onError: .default),
                .convert(type: "Reading", property: "price", to: .scalar(.double), onError: .default),
                .convert(type: "Reading", property: "flag", to: .scalar(.bool), onError: .default),
                .convert(type: "Reading", property: "whole", to: .scalar(.int), onError: .default),
                .convert(type: "Reading", property: "when", to: .scalar(.date, optional: true), onError: .null),
                .convert(type: "Reading", property: "ref", to: .scalar(.uuid, optional: true), onError: .null),
                .convert(type: "Reading", property: "qty", to: .scalar(.int), onError: .default),
            ])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute(
            """
            INSERT INTO "Reading" VALUES
              (1, 42, ' 2.5 ', 'YES', 12.0, '2026-11-30T13:15:00Z', '00000000-0000-0000-0000-00000000000A', '+4'),
              (2, -7, '1e3', ' off ', -3.0, NULL, NULL, ' 007 '),
              (3, 0, 'abc', 'maybe', 12.5, 'yesterday', 'nope', '12.5'),
              (4, 9, '', 'True', 1e300, ' 2026-01-02T03:04:05Z', ' 00000000-0000-0000-0000-00000000000B ', '')
            """)
        _ = try Migrator(history: history).migrate(storeAt: store.path, now: Self.now)

        let iso = ISO8601DateFormatter()
        let when1 = Int64(iso.date(from: "2026-11-30T13:15:00Z")!.timeIntervalSince1970) * 1_000_000
        let when4 = Int64(iso.date(from: "2026-01-02T03:04:05Z")!.timeIntervalSince1970) * 1_000_000
        #expect(
            try store.query("SELECT \"count\", \"price\", \"flag\", \"whole\", \"when\", \"ref\", \"qty\" FROM \"Reading\" ORDER BY \"id\"") == [
                [.text("42"), .real(2.5), .integer(1), .integer(12), .integer(when1), StoreFixture.uuid(10), .integer(4)],
                [.text("-7"), .real(1000), .integer(0), .integer(-3), .null, .null, .integer(7)],
                [.text("0"), .real(-1), .integer(0), .integer(0), .null, .null, .integer(99)],
                [.text("9"), .real(-1), .integer(1), .integer(0), .integer(when4), StoreFixture.uuid(11), .integer(99)],
            ])
        #expect(
            try store.query("SELECT name, type FROM pragma_table_info('Reading') ORDER BY cid") == [
                [.text("id"), .text("INTEGER")], [.text("count"), .text("TEXT")], [.text("price"), .text("REAL")], [.text("flag"), .text("INTEGER")],
                [.text("whole"), .text("INTEGER")], [.text("when"), .text("INTEGER")], [.text("ref"), .text("BLOB")], [.text("qty"), .text("INTEGER")],
            ])
        _ = try RemodelStore(path: store.path, schema: v2, version: 2)
    }

    @Test func convertMorePairsWithOnErrorDefault() throws {
        let v1 = Schema(
            enums: [Self.unitEnum],
            objects: [
                ObjectType(
                    name: "Mixed", primaryKey: "id",
                    properties: [
                        Property("id", .scalar(.int)),
                        Property("big", .scalar(.int)),
                        Property("flag", .scalar(.int)),
                        Property("b", .scalar(.bool)),
                        Property("u", .scalar(.uuid)),
                        Property("d", .scalar(.date)),
                        Property("t", .scalar(.string)),
                        Property("raw", .scalar(.data)),
                        Property("unit", .scalar(.string)),
                        Property("e", PropertyType(.enumeration("Unit"))),
                        Property("x", .scalar(.double)),
                        Property("dec", .scalar(.string)),
                        Property("oid", .scalar(.string)),
                        Property("o", .scalar(.objectId)),
                        Property("link", .scalar(.string)),
                    ])
            ])
        let v2 = Schema(
            enums: [Self.unitEnum],
            objects: [
                ObjectType(
                    name: "Mixed", primaryKey: "id",
                    properties: [
                        Property("id", .scalar(.int)),
                        Property("big", .scalar(.int8)),
                        Property("flag", .scalar(.bool)),
                        Property("b", .scalar(.int)),
                        Property("u", .scalar(.string)),
                        Property("d", .scalar(.string)),
                        Property("t", .scalar(.data)),
                        Property("raw", .scalar(.string)),
                        Property("unit", PropertyType(.enumeration("Unit")), default: .enumCase("engineering")),
                        Property("e", .scalar(.string)),
                        Property("x", .scalar(.string)),
                        Property("dec", .scalar(.decimal128)),
                        Property("oid", .scalar(.objectId, optional: true)),
                        Property("o", .scalar(.string)),
                        Property("link", .scalar(.url)),
                    ])
            ])
        var steps: [MigrationStep] = v2.objects[0].properties.dropFirst().map { property in
            .convert(type: "Mixed", property: property.name, to: property.storedType!, onError: property.storedType!.isOptional ? .null : .default)
        }
        steps.removeAll { if case .convert(_, let name, _, _) = $0 { ["u", "d", "e", "x", "o"].contains(name) } else { false } }
        let history = Self.history([v1, v2], steps)
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        let stamp = Int64(ISO8601DateFormatter().date(from: "2026-11-30T13:15:00Z")!.timeIntervalSince1970) * 1_000_000 + 250_000
        let rows: [[StoreValue]] = [
            [
                .integer(1), .integer(100), .integer(1), .integer(1), StoreFixture.uuid(10), .integer(stamp), .text("hé"), .blob(Array("hi".utf8)),
                .text("Sales"), .text("Engineering"), .real(2.5), .text(" 12.50 "), .text("65000000000000000000000a"), StoreFixture.objectID(1), .text("https://x"),
            ],
            [
                .integer(2), .integer(300), .integer(2), .integer(0), StoreFixture.uuid(11), .integer(0), .text("x"), .blob([0xFF]),
                .text("sales"), .text("Sales"), .real(-1), .text("abc"), .text("nope"), StoreFixture.objectID(2), .text(""),
            ],
        ]
        for row in rows {
            try store.execute("INSERT INTO \"Mixed\" VALUES (\(Array(repeating: "?", count: row.count).joined(separator: ", ")))", row)
        }
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        let columns = v2.objects[0].properties.map { "\"\($0.name)\"" }.joined(separator: ", ")
        #expect(
            try store.query("SELECT \(columns) FROM \"Mixed\" ORDER BY \"id\"") == [
                [
                    .integer(1), .integer(100), .integer(1), .integer(1), .text("00000000-0000-0000-0000-00000000000A"), .text("2026-11-30T13:15:00.250000Z"),
                    .blob([0x68, 0xC3, 0xA9]), .text("hi"), .text("Sales"), .text("Engineering"), .text("2.5"), .text("12.5"), StoreFixture.objectID(10),
                    .text("650000000000000000000001"), .text("https://x"),
                ],
                [
                    .integer(2), .integer(0), .integer(0), .integer(0), .text("00000000-0000-0000-0000-00000000000B"), .text("1970-01-01T00:00:00Z"),
                    .blob([0x78]), .text(""), .text("Engineering"), .text("Sales"), .text("-1.0"), .text("0"), .null,
                    .text("650000000000000000000002"), .text(""),
                ],
            ])
        _ = try RemodelStore(path: store.path, schema: v2, version: 2)
    }

    @Test func convertingAPrimaryKeyRefusesDuplicates() throws {
        let v1 = Schema(objects: [
            ObjectType(name: "Note", primaryKey: "identifier", properties: [Property("identifier", .scalar(.string)), Property("content", .scalar(.string))])
        ])
        let v2 = Schema(objects: [ObjectType(name: "Note", primaryKey: "identifier", properties: [Property("identifier", .scalar(.int)), Property("content", .scalar(.string))])])
        let history = Self.history([v1, v2], [.convert(type: "Note", property: "identifier", to: .scalar(.int), onError: .fail)])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Note\" VALUES ('1', 'a'), (' 1', 'b'), ('2', 'c')")
        let hash = try store.fileHash()
        let error = #expect(throws: MigrationError.self) { try Migrator(history: history).migrate(storeAt: store.path) }
        guard case .data(let data) = error else {
            Issue.record("expected a data error")
            return
        }
        #expect(data.type == "Note" && data.property == "identifier" && data.count == 2)
        #expect("\(error!)".contains("2 Note objects with a primary key that another object would also have in Note.identifier"))
        #expect(try store.fileHash() == hash)

        try store.execute("UPDATE \"Note\" SET \"identifier\" = '3' WHERE \"content\" = 'b'")
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        #expect(
            try store.query("SELECT \"identifier\", \"content\" FROM \"Note\" ORDER BY 1") == [[.integer(1), .text("a")], [.integer(2), .text("c")], [.integer(3), .text("b")]])
    }

    @Test func becomingRequiredRefusesNulls() throws {
        let v1 = Schema(objects: [ObjectType(name: "Person", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("nick", .scalar(.string, optional: true))])])
        let v2 = Schema(objects: [ObjectType(name: "Person", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("nick", .scalar(.string))])])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES (1, 'a'), (2, NULL), (3, NULL)")
        let hash = try store.fileHash()
        let error = #expect(throws: MigrationError.self) { try Migrator(history: Self.history([v1, v2], [])).migrate(storeAt: store.path) }
        guard case .data(let data) = error else {
            Issue.record("expected a data error")
            return
        }
        #expect(data.step == "schema" && data.count == 2 && Set(data.examples.map(\.key)) == ["2", "3"])
        #expect("\(error!)".contains("no value, but 'nick' becomes required"))
        #expect(try store.fileHash() == hash)
    }

    @Test func valueStepsMayNameAPropertyByItsOldName() throws {
        let v1 = Schema(objects: [ObjectType(name: "Person", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("phone", .scalar(.string))])])
        let v2 = Schema(objects: [
            ObjectType(
                name: "Person", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)), Property("phoneNumber", .scalar(.string)), Property("label", .scalar(.string), default: .string("")),
                ])
        ])
        let history = Self.history(
            [v1, v2],
            [
                .set(type: "Person", property: "label", value: .template("{phone}|{phoneNumber}")),
                .deleteObjects(type: "Person", where: [.init(property: "phone", value: .string(""))]),
                .renameProperty(type: "Person", from: "phone", to: "phoneNumber"),
            ])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES (1, '555'), (2, ''), (3, '777')")
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        #expect(
            try store.query("SELECT \"id\", \"phoneNumber\", \"label\" FROM \"Person\" ORDER BY 1") == [
                [.integer(1), .text("555"), .text("555|555")], [.integer(3), .text("777"), .text("777|777")],
            ])
    }

    @Test func convertOnErrorFailNamesTheObjectsAndChangesNothing() throws {
        let v1 = Schema(objects: [ObjectType(name: "Reading", primaryKey: "id", properties: [Property("id", .scalar(.string)), Property("qty", .scalar(.string))])])
        let v2 = Schema(objects: [ObjectType(name: "Reading", primaryKey: "id", properties: [Property("id", .scalar(.string)), Property("qty", .scalar(.int))])])
        let history = Self.history([v1, v2], [.convert(type: "Reading", property: "qty", to: .scalar(.int), onError: .fail)])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute(
            """
            INSERT INTO "Reading" VALUES ('ok1', '1'), ('bad1', 'x1'), ('bad2', ''), ('bad3', 'n/a'), ('ok2', ' 3 '),
              ('bad4', '12.5'), ('bad5', '99999999999999999999'), ('bad6', 'abc')
            """)
        let hash = try store.fileHash()
        let error = #expect(throws: MigrationError.self) { try Migrator(history: history).migrate(storeAt: store.path) }
        guard case .data(let data) = error else {
            Issue.record("expected a data error, got \(String(describing: error))")
            return
        }
        #expect(data.version == 2 && data.migrationName == "v2" && data.type == "Reading" && data.property == "qty" && data.step == "step 1 (convert)")
        #expect(data.count == 6)
        #expect(data.examples.count == 5)
        #expect(data.examples.allSatisfy { $0.key.contains("bad") })
        let message = "\(error!)"
        #expect(message.contains("6 Reading objects with values that cannot be converted to int in Reading.qty"))
        #expect(message.contains("bad3") && message.contains("\"n/a\"") && message.contains("and 1 more") && message.contains("Nothing was changed"))
        #expect(try store.fileHash() == hash)
        #expect(try store.query("PRAGMA user_version") == [[.integer(1)]])
    }

    @Test(arguments: [MigrationStep.ConversionFailure.fail, .default])
    func convertNullIntoARequiredPropertyIsTheFallbackOrADataError(onError: MigrationStep.ConversionFailure) throws {
        let v1 = Schema(objects: [ObjectType(name: "Reading", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("qty", .scalar(.string, optional: true))])])
        let v2 = Schema(objects: [ObjectType(name: "Reading", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("qty", .scalar(.int))])])
        let history = Self.history([v1, v2], [.convert(type: "Reading", property: "qty", to: .scalar(.int), onError: onError)])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Reading\" VALUES (1, '5'), (2, NULL)")
        let hash = try store.fileHash()
        if onError == .fail {
            let error = #expect(throws: MigrationError.self) { try Migrator(history: history).migrate(storeAt: store.path) }
            guard case .data(let data) = error else {
                Issue.record("expected a data error")
                return
            }
            #expect(data.count == 1 && data.examples.map(\.key) == ["2"] && data.property == "qty")
            #expect(try store.fileHash() == hash)
        } else {
            _ = try Migrator(history: history).migrate(storeAt: store.path)
            #expect(try store.query("SELECT \"qty\" FROM \"Reading\" ORDER BY \"id\"") == [[.integer(5)], [.integer(0)]])
        }
    }

    @Test func convertOnErrorNullNeedsAnOptionalTarget() throws {
        let v1 = Schema(objects: [ObjectType(name: "Reading", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("qty", .scalar(.string))])])
        let v2 = Schema(objects: [ObjectType(name: "Reading", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("qty", .scalar(.int))])])
        let history = Self.history([v1, v2], [.convert(type: "Reading", property: "qty", to: .scalar(.int), onError: .null)])
        let error = #expect(throws: MigrationPlanningError.self) { try Migrator(history: history).plan(from: 1) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("onError: null needs 'Reading.qty' to be optional"))
    }

    @Test func convertChainsAcrossVersions() throws {
        func schema(_ type: ScalarType) -> Schema {
            Schema(objects: [ObjectType(name: "Reading", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("value", .scalar(type))])])
        }
        let history = Self.history(
            [schema(.string), schema(.double), schema(.int)],
            [.convert(type: "Reading", property: "value", to: .scalar(.double), onError: .fail)],
            [.convert(type: "Reading", property: "value", to: .scalar(.int), onError: .default)])
        let store = try Self.migrateDirectAndStepwise(Migrator(history: history), from: schema(.string)) { store in
            try store.execute("INSERT INTO \"Reading\" VALUES (1, ' 12.0 '), (2, '7.5'), (3, '1e2'), (4, '-0.0')")
        }
        defer { store.remove() }
        #expect(try store.query("SELECT \"value\" FROM \"Reading\" ORDER BY \"id\"") == [[.integer(12)], [.integer(0)], [.integer(100)], [.integer(0)]])
    }

    // MARK: split

    @Test func splitIntoThreePartsAtAMultiCharacterSeparator() throws {
        let v1 = Schema(objects: [ObjectType(name: "Track", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("title", .scalar(.string, optional: true))])])
        let v2 = Schema(objects: [
            ObjectType(
                name: "Track", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)),
                    Property("artist", .scalar(.string), default: .string("")),
                    Property("album", .scalar(.string), default: .string("")),
                    Property("song", .scalar(.string), default: .string("")),
                ])
        ])
        let history = Self.history([v1, v2], [.split(type: "Track", property: "title", into: ["artist", "album", "song"], separator: " - ")])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        let titles: [StoreValue] = [
            .text("  Queen - A Night at the Opera - Bohemian Rhapsody \t\n"),
            .text("Björk -  Debut  - Human Behaviour - Live"),
            .text("Cher"),
            .text("A - B"),
            .text(""),
            .null,
            .text("a -b - c"),
            .text("x - - y"),
        ]
        for (index, title) in titles.enumerated() {
            try store.execute("INSERT INTO \"Track\" (\"id\", \"title\") VALUES (?, ?)", [.integer(Int64(index + 1)), title])
        }
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        let expected: [[String]] = [
            ["Queen", "A Night at the Opera", "Bohemian Rhapsody"],
            ["Björk", "Debut", "Human Behaviour - Live"],
            ["Cher", "", ""],
            ["A", "B", ""],
            ["", "", ""],
            ["", "", ""],
            ["a -b", "c", ""],
            ["x", "- y", ""],
        ]
        #expect(try store.query("SELECT \"artist\", \"album\", \"song\" FROM \"Track\" ORDER BY \"id\"") == expected.map { $0.map(StoreValue.text) })
        #expect(try store.query("SELECT count(*) FROM pragma_table_info('Track') WHERE name = 'title'") == [[.integer(0)]])
    }

    // MARK: mapValues

    static let unitEnum = EnumType(
        name: "Unit",
        cases: [
            EnumType.Case(name: "engineering", rawValue: .string("Engineering")),
            EnumType.Case(name: "humanResources", rawValue: .string("Human Resources")),
            EnumType.Case(name: "sales", rawValue: .string("Sales")),
        ])

    static func mapValuesHistory(otherwise: DefaultValue?) -> (v1: Schema, history: MigrationHistory) {
        let v1 = Schema(objects: [
            ObjectType(
                name: "Person", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)), Property("unit", .scalar(.string)), Property("backup", .scalar(.string, optional: true)),
                ])
        ])
        let v2 = Schema(
            enums: [unitEnum],
            objects: [
                ObjectType(
                    name: "Person", primaryKey: "id",
                    properties: [
                        Property("id", .scalar(.int)),
                        Property("unit", PropertyType(.enumeration("Unit")), default: .enumCase("engineering")),
                        Property("backup", PropertyType(.enumeration("Unit"), optional: true)),
                    ])
            ])
        let mappings: [MigrationStep.ValueMapping] = [.init(from: "Eng", to: .string("engineering")), .init(from: "HR", to: .string("humanResources"))]
        return (
            v1,
            history(
                [v1, v2],
                [
                    .mapValues(type: "Person", property: "unit", values: mappings, otherwise: otherwise),
                    .mapValues(type: "Person", property: "backup", values: mappings, otherwise: nil),
                ])
        )
    }

    @Test func mapValuesToEnumCasesWithOtherwise() throws {
        let (v1, history) = Self.mapValuesHistory(otherwise: .string("sales"))
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES (1, 'Eng', 'HR'), (2, 'HR', NULL), (3, 'Engineering', 'Eng'), (4, 'eng', 'Sales'), (5, 'Eng ', NULL), (6, '', NULL)")
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        #expect(
            try store.query("SELECT \"unit\", \"backup\" FROM \"Person\" ORDER BY \"id\"") == [
                [.text("Engineering"), .text("Human Resources")],
                [.text("Human Resources"), .null],
                [.text("Engineering"), .text("Engineering")],
                [.text("Sales"), .text("Sales")],
                [.text("Sales"), .null],
                [.text("Sales"), .null],
            ])
    }

    @Test func mapValuesWithoutOtherwiseRefusesUnmappedValues() throws {
        let (v1, history) = Self.mapValuesHistory(otherwise: nil)
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES (1, 'Eng', NULL), (2, 'Knitting', NULL), (3, 'HR', 'HR'), (4, '', NULL)")
        let hash = try store.fileHash()
        let error = #expect(throws: MigrationError.self) { try Migrator(history: history).migrate(storeAt: store.path) }
        guard case .data(let data) = error else {
            Issue.record("expected a data error")
            return
        }
        #expect(data.type == "Person" && data.property == "unit" && data.step == "step 1 (mapValues)" && data.count == 2)
        #expect(Set(data.examples.map(\.key)) == ["2", "4"])
        #expect("\(error!)".contains("values that mapValues does not map (and there is no `otherwise`)") && "\(error!)".contains("\"Knitting\""))
        #expect(try store.fileHash() == hash)

        try store.execute("UPDATE \"Person\" SET \"unit\" = 'Sales' WHERE \"id\" IN (2, 4)")
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        #expect(
            try store.query("SELECT \"unit\", \"backup\" FROM \"Person\" ORDER BY \"id\"") == [
                [.text("Engineering"), .null], [.text("Sales"), .null], [.text("Human Resources"), .text("Human Resources")], [.text("Sales"), .null],
            ])
    }

    @Test func mapValuesKeysMayBeOldEnumCaseNamesOrRawValues() throws {
        let old = EnumType(
            name: "OldUnit",
            cases: [EnumType.Case(name: "eng", rawValue: .string("E")), EnumType.Case(name: "ops", rawValue: .string("O")), EnumType.Case(name: "hr", rawValue: .string("H"))])
        let v1 = Schema(
            enums: [old],
            objects: [ObjectType(name: "Person", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("unit", PropertyType(.enumeration("OldUnit")))])])
        let v2 = Schema(
            enums: [Self.unitEnum],
            objects: [ObjectType(name: "Person", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("unit", PropertyType(.enumeration("Unit")))])])
        let history = Self.history(
            [v1, v2],
            [
                .mapValues(
                    type: "Person", property: "unit",
                    values: [
                        .init(from: "eng", to: .string("engineering")), .init(from: "O", to: .string("sales")), .init(from: "hr", to: .string("humanResources")),
                    ], otherwise: nil)
            ])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES (1, 'E'), (2, 'O'), (3, 'H')")
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"unit\" FROM \"Person\" ORDER BY \"id\"") == [[.text("Engineering")], [.text("Sales")], [.text("Human Resources")]])
    }

    /// A retype in place declares the column with its new type before the UPDATE reads it: the
    /// old values must still compare as the old type did (text '01' is not the number 1), in
    /// place as in a rebuilt table.
    @Test(arguments: [MigrationPlanner.TableRewrite.automatic, .rebuild])
    func mapValuesToAnIntEnumComparesTheOldTextAsText(strategy: MigrationPlanner.TableRewrite) throws {
        let level = EnumType(
            name: "Level", rawType: .int,
            cases: [EnumType.Case(name: "low", rawValue: .int(1)), EnumType.Case(name: "high", rawValue: .int(2)), EnumType.Case(name: "none", rawValue: .int(0))])
        let v1 = Schema(objects: [
            ObjectType(name: "Reading", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("level", .scalar(.string)), Property("note", .scalar(.string))])
        ])
        let v2 = Schema(
            enums: [level],
            objects: [
                ObjectType(
                    name: "Reading", primaryKey: "id",
                    properties: [
                        Property("id", .scalar(.int)), Property("level", PropertyType(.enumeration("Level"))), Property("note", .scalar(.string)),
                    ])
            ])
        let history = Self.history(
            [v1, v2],
            [
                .mapValues(type: "Reading", property: "level", values: [.init(from: "01", to: .string("low")), .init(from: "1", to: .string("high"))], otherwise: .string("none"))
            ])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Reading\" VALUES (1, '01', 'a'), (2, '1', 'b'), (3, '1.0', 'c'), (4, 'x', 'd')")
        var migrator = Migrator(history: history)
        migrator.tableRewrite = strategy
        let plan = try migrator.plan(from: 1)
        let text = MigrationPlanRenderer.text(of: plan)
        #expect(text.contains("-- declare \"Reading\".\"level\" INTEGER") == (strategy == .automatic))
        _ = try migrator.migrate(storeAt: store.path)
        #expect(
            try store.query("SELECT \"level\", typeof(\"level\"), \"note\" FROM \"Reading\" ORDER BY \"id\"") == [
                [.integer(1), .text("integer"), .text("a")], [.integer(2), .text("integer"), .text("b")], [.integer(0), .text("integer"), .text("c")],
                [.integer(0), .text("integer"), .text("d")],
            ])
        #expect(try store.query("SELECT \"type\" FROM pragma_table_info('Reading') WHERE \"name\" = 'level'") == [[.text("INTEGER")]])
        _ = try RemodelStore(path: store.path, schema: v2, version: 2)
    }

    // MARK: deleteObjects

    @Test func deleteObjectsRemovesMatchesAndEveryLinkToThem() throws {
        let dogV1 = ObjectType(
            name: "Dog", primaryKey: "id",
            properties: [
                Property("id", .scalar(.string)),
                Property("name", .scalar(.string)),
                Property("breed", .scalar(.string, optional: true)),
                Property("weight", .scalar(.string)),
                Property("tags", PropertyType(.scalar(.string), collection: .list)),
                Property("mother", PropertyType(.object("Dog"), optional: true)),
                Property("friends", PropertyType(.object("Dog"), collection: .set)),
            ])
        var dogV2 = dogV1
        dogV2.properties[3] = Property("weight", .scalar(.int))
        let person = ObjectType(
            name: "Person", primaryKey: "id",
            properties: [
                Property("id", .scalar(.string)),
                Property("best", PropertyType(.object("Dog"), optional: true)),
                Property("dogs", PropertyType(.object("Dog"), collection: .list)),
                Property("favorites", PropertyType(.object("Dog"), collection: .set)),
            ])
        let v1 = Schema(objects: [dogV1, person])
        let v2 = Schema(objects: [dogV2, person])
        let history = Self.history(
            [v1, v2],
            [
                .convert(type: "Dog", property: "weight", to: .scalar(.int), onError: .fail),
                .deleteObjects(type: "Dog", where: [.init(property: "name", value: .string("Rex")), .init(property: "breed", value: .string("poodle"))]),
                .deleteObjects(type: "Dog", where: [.init(property: "breed", value: .null)]),
            ])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute(
            "INSERT INTO \"Dog\" (\"id\", \"name\", \"breed\", \"weight\") VALUES ('d1', 'Rex', 'poodle', 'n/a'), ('d2', 'Fido', 'poodle', '12'), ('d3', 'Rex', NULL, ''), ('d4', 'Max', 'beagle', '30')"
        )
        try store.execute("INSERT INTO \"Dog.tags\" VALUES ('d1', 0, 'curly'), ('d2', 0, 'fluffy'), ('d3', 0, 'stray'), ('d3', 1, 'old')")
        try store.execute("UPDATE \"Dog\" SET \"mother\" = CASE \"id\" WHEN 'd2' THEN 'd1' WHEN 'd4' THEN 'd2' WHEN 'd1' THEN 'd3' END")
        try store.execute("INSERT INTO \"Dog.friends\" VALUES ('d2', 'd1'), ('d2', 'd4'), ('d1', 'd2'), ('d4', 'd3')")
        try store.execute("INSERT INTO \"Person\" VALUES ('p1', 'd1'), ('p2', 'd4'), ('p3', 'd3')")
        try store.execute("INSERT INTO \"Person.dogs\" VALUES ('p1', 0, 'd1'), ('p1', 1, 'd2'), ('p1', 2, 'd3'), ('p1', 3, 'd4'), ('p2', 0, 'd3')")
        try store.execute("INSERT INTO \"Person.favorites\" VALUES ('p2', 'd1'), ('p2', 'd4'), ('p3', 'd3')")
        _ = try Migrator(history: history).migrate(storeAt: store.path)

        #expect(
            try store.query("SELECT \"id\", \"weight\", \"mother\" FROM \"Dog\" ORDER BY 1") == [[.text("d2"), .integer(12), .null], [.text("d4"), .integer(30), .text("d2")]])
        #expect(try store.query("SELECT \"owner\", \"value\" FROM \"Dog.friends\" ORDER BY 1, 2") == [[.text("d2"), .text("d4")]])
        #expect(try store.query("SELECT \"owner\", \"value\" FROM \"Dog.tags\" ORDER BY 1, \"position\"") == [[.text("d2"), .text("fluffy")]])
        #expect(try store.query("SELECT \"id\", \"best\" FROM \"Person\" ORDER BY 1") == [[.text("p1"), .null], [.text("p2"), .text("d4")], [.text("p3"), .null]])
        #expect(try store.query("SELECT \"owner\", \"value\" FROM \"Person.dogs\" ORDER BY 1, \"position\"") == [[.text("p1"), .text("d2")], [.text("p1"), .text("d4")]])
        #expect(try store.query("SELECT \"owner\", \"value\" FROM \"Person.favorites\" ORDER BY 1, 2") == [[.text("p2"), .text("d4")]])
        #expect(try store.query("PRAGMA foreign_key_check").isEmpty)
        #expect(try store.query("PRAGMA integrity_check") == [[.text("ok")]])
        let reopened = try RemodelStore(path: store.path, schema: v2, version: 2)
        #expect(try reopened.read { try $0.dynamicObjects(ofType: "Person").first { $0["id"] == .text("p1") }?["dogs"] } == .list([.text("d2"), .text("d4")]))
    }

    @Test func deleteObjectsOnARenamedTypeNamedByItsOldName() throws {
        func schema(_ dog: String) -> Schema {
            Schema(objects: [
                ObjectType(name: dog, primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("name", .scalar(.string))]),
                ObjectType(
                    name: "Person", primaryKey: "id",
                    properties: [
                        Property("id", .scalar(.int)), Property("pet", PropertyType(.object(dog), optional: true)), Property("dogs", PropertyType(.object(dog), collection: .list)),
                    ]),
            ])
        }
        let history = Self.history(
            [schema("Doggo"), schema("Dog")],
            [
                .deleteObjects(type: "Doggo", where: [.init(property: "name", value: .string("Rex"))]),
                .renameType(from: "Doggo", to: "Dog"),
            ])
        let store = try StoreFixture(schema: schema("Doggo"), version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Doggo\" VALUES (1, 'Rex'), (2, 'Fido')")
        try store.execute("INSERT INTO \"Person\" VALUES (10, 1), (11, 2)")
        try store.execute("INSERT INTO \"Person.dogs\" VALUES (10, 0, 1), (10, 1, 2), (11, 0, 1)")
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"id\", \"name\" FROM \"Dog\"") == [[.integer(2), .text("Fido")]])
        #expect(try store.query("SELECT \"id\", \"pet\" FROM \"Person\" ORDER BY 1") == [[.integer(10), .null], [.integer(11), .integer(2)]])
        #expect(try store.query("SELECT \"owner\", \"value\" FROM \"Person.dogs\" ORDER BY 1, \"position\"") == [[.integer(10), .integer(2)]])
        #expect(try store.query("PRAGMA foreign_key_check").isEmpty)
    }

    @Test func deleteObjectsAfterAConvertMatchesConvertedValuesAndSaysSo() throws {
        let v1 = Schema(objects: [ObjectType(name: "Dog", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("toy", .scalar(.string))])])
        let v2 = Schema(objects: [ObjectType(name: "Dog", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("toy", .scalar(.int), default: .int(0))])])
        let convert = MigrationStep.convert(type: "Dog", property: "toy", to: .scalar(.int), onError: .fail)
        let delete = MigrationStep.deleteObjects(type: "Dog", where: [.init(property: "toy", value: .string(""))])
        let after = Self.history([v1, v2], [convert, delete])
        let error = #expect(throws: MigrationPlanningError.self) { try Migrator(history: after).plan(from: 1) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("'toy' is int here, after step 1 (convert); to match its old values, put deleteObjects before that step"))
        // In the other order the empty toys go first, and the rest converts.
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Dog\" VALUES (1, ''), (2, '7')")
        _ = try Migrator(history: Self.history([v1, v2], [delete, convert])).migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"id\", \"toy\" FROM \"Dog\"") == [[.integer(2), .integer(7)]])
    }

    @Test func deleteObjectsWithoutConditionsDeletesEveryObjectAndItsLinks() throws {
        let note = ObjectType(
            name: "Note", primaryKey: "id",
            properties: [
                Property("id", .scalar(.int)), Property("content", .scalar(.string)), Property("tags", PropertyType(.scalar(.string), collection: .list)),
            ])
        let folder = ObjectType(
            name: "Folder", primaryKey: "id",
            properties: [
                Property("id", .scalar(.int)), Property("pinned", PropertyType(.object("Note"), optional: true)),
                Property("notes", PropertyType(.object("Note"), collection: .list)),
            ])
        let v1 = Schema(objects: [note, folder])
        // A data-only version: the schema does not change, the step deletes every note.
        let history = Self.history([v1, v1], [.deleteObjects(type: "Note", where: [])])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Note\" VALUES (1, 'a'), (2, 'b')")
        try store.execute("INSERT INTO \"Note.tags\" VALUES (1, 0, 'x')")
        try store.execute("INSERT INTO \"Folder\" VALUES (10, 1)")
        try store.execute("INSERT INTO \"Folder.notes\" VALUES (10, 0, 1), (10, 1, 2)")
        let (plan, _) = try Migrator(history: history).migrate(storeAt: store.path)
        #expect(plan.versions[0].changes.map(\.summary).contains("delete every Note"))
        #expect(try store.query("SELECT count(*) FROM \"Note\"") == [[.integer(0)]])
        #expect(try store.query("SELECT count(*) FROM \"Note.tags\"") == [[.integer(0)]])
        #expect(try store.query("SELECT \"id\", \"pinned\" FROM \"Folder\"") == [[.integer(10), .null]])
        #expect(try store.query("SELECT count(*) FROM \"Folder.notes\"") == [[.integer(0)]])
        #expect(try store.query("PRAGMA foreign_key_check").isEmpty)
    }

    // MARK: custom

    static func customHistory() -> (v1: Schema, history: MigrationHistory) {
        let v1 = Schema(objects: [
            ObjectType(
                name: "Person", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.string)), Property("name", .scalar(.string)), Property("phone", .scalar(.string)),
                ])
        ])
        let v2 = Schema(objects: [
            ObjectType(
                name: "Person", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.string)), Property("phoneNumber", .scalar(.string)), Property("greeting", .scalar(.string), default: .string("")),
                ])
        ])
        return (
            v1,
            history(
                [v1, v2],
                [
                    .custom(name: "normalisePhones", type: "Person"),
                    .renameProperty(type: "Person", from: "phone", to: "phoneNumber"),
                    .set(type: "Person", property: "greeting", value: .template("Hi {name}")),
                ])
        )
    }

    static func fillCustomStore(_ store: StoreFixture) throws {
        try store.execute("INSERT INTO \"Person\" VALUES ('p1', 'Ada', '+44 (0) 20-7946'), ('p2', 'Bob', '555 1234'), ('p3', 'Cy', '')")
    }

    @Test func customStepSeesOldAndNewValuesOfEveryObject() throws {
        let (v1, history) = Self.customHistory()
        let seen = Recorder<[String]>()
        var migrator = Migrator(history: history)
        migrator.register("normalisePhones") { object in
            guard case .text(let phone) = object.old["phone"] else { throw Refused(reason: "no old phone") }
            seen.append([
                object.type, object.new["id"]?.description ?? "-", object.old["name"]?.description ?? "-", object.new["greeting"]?.description ?? "-",
                object.new["phoneNumber"]?.description ?? "-", object.new["phone"]?.description ?? "absent", object.old["phoneNumber"]?.description ?? "absent",
            ])
            object.new["phoneNumber"] = .text(phone.filter(\.isNumber))
        }
        let store = try Self.migrateDirectAndStepwise(migrator, from: v1, fill: Self.fillCustomStore)
        defer { store.remove() }

        #expect(
            try store.query("SELECT \"id\", \"phoneNumber\", \"greeting\" FROM \"Person\" ORDER BY 1") == [
                [.text("p1"), .text("440207946"), .text("Hi Ada")], [.text("p2"), .text("5551234"), .text("Hi Bob")], [.text("p3"), .text(""), .text("Hi Cy")],
            ])
        let calls = seen.all
        #expect(calls.count == 6, "once per object, in each of the two migrated stores")
        #expect(Dictionary(grouping: calls, by: { $0[1] }).mapValues(\.count) == ["\"p1\"": 2, "\"p2\"": 2, "\"p3\"": 2])
        #expect(
            Set(calls) == [
                ["Person", "\"p1\"", "\"Ada\"", "\"Hi Ada\"", "\"+44 (0) 20-7946\"", "absent", "absent"],
                ["Person", "\"p2\"", "\"Bob\"", "\"Hi Bob\"", "\"555 1234\"", "absent", "absent"],
                ["Person", "\"p3\"", "\"Cy\"", "\"Hi Cy\"", "\"\"", "absent", "absent"],
            ])
    }

    @Test func throwingCustomStepFailsTheMigrationAndChangesNothing() throws {
        let (v1, history) = Self.customHistory()
        var migrator = Migrator(history: history)
        migrator.register("normalisePhones") { object in
            if object.new["id"] == .text("p2") { throw Refused(reason: "cannot read '555 1234'") }
            object.new["phoneNumber"] = .text("0")
        }
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try Self.fillCustomStore(store)
        let hash = try store.fileHash()
        let error = #expect(throws: MigrationError.self) { try migrator.migrate(storeAt: store.path) }
        guard case .customStepFailed(let version, let name, let type, let key, let underlying) = error else {
            Issue.record("expected customStepFailed")
            return
        }
        #expect(version == 2 && name == "normalisePhones" && type == "Person" && key.contains("p2") && underlying.contains("cannot read '555 1234'"))
        let message = "\(error!)"
        #expect(message.contains("custom step 'normalisePhones' failed on Person") && message.contains("p2") && message.contains("Nothing was changed"))
        #expect(try store.fileHash() == hash)
        #expect(try store.query("SELECT \"phone\" FROM \"Person\" ORDER BY \"id\"") == [[.text("+44 (0) 20-7946")], [.text("555 1234")], [.text("")]])
    }

    @Test func customStepWithoutAClosureIsAPlanningError() throws {
        let (_, history) = Self.customHistory()
        let error = #expect(throws: MigrationPlanningError.self) { try Migrator(history: history).plan(from: 1) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("migration-custom-step-unavailable"))
    }

    // MARK: Indexed properties

    static func indexedHistory(retype: Bool, rename: Bool) -> (v1: Schema, history: MigrationHistory) {
        let v1 = Schema(objects: [
            ObjectType(
                name: "Item", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)), Property("code", .scalar(.string), indexed: true), Property("name", .scalar(.string)),
                ])
        ])
        let newName = rename ? "sku" : "code"
        let v2 = Schema(objects: [
            ObjectType(
                name: "Item", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)), Property(newName, .scalar(retype ? .int : .string), indexed: true), Property("name", .scalar(.string)),
                ])
        ])
        var steps: [MigrationStep] = rename ? [.renameProperty(type: "Item", from: "code", to: newName)] : []
        if retype { steps.append(.convert(type: "Item", property: newName, to: .scalar(.int), onError: .fail)) }
        return (v1, history([v1, v2], steps))
    }

    @Test(arguments: [MigrationPlanner.TableRewrite.automatic, .alterTable, .rebuild], [false, true])
    func retypingAnIndexedPropertyKeepsItsIndex(strategy: MigrationPlanner.TableRewrite, rename: Bool) throws {
        let (v1, history) = Self.indexedHistory(retype: true, rename: rename)
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Item\" VALUES (1, '7', 'a'), (2, ' 42 ', 'b'), (3, '-1', 'c')")
        var migrator = Migrator(history: history)
        migrator.tableRewrite = strategy
        _ = try migrator.migrate(storeAt: store.path)
        let column = rename ? "sku" : "code"
        #expect(
            try store.query("SELECT \"\(column)\", \"name\" FROM \"Item\" ORDER BY \"id\"") == [
                [.integer(7), .text("a")], [.integer(42), .text("b")], [.integer(-1), .text("c")],
            ])
        #expect(try store.query("SELECT type FROM pragma_table_info('Item') WHERE name = '\(column)'") == [[.text("INTEGER")]])
        #expect(try Self.indexes(of: "Item", in: store) == [[.text("Item.\(column).index"), .text(column)]])
        #expect(try store.query("PRAGMA integrity_check") == [[.text("ok")]])
        _ = try RemodelStore(path: store.path, schema: history.snapshots[1], version: 2)
    }

    @Test func removingAnIndexedPropertyDropsItsIndex() throws {
        let v1 = Schema(objects: [
            ObjectType(
                name: "Item", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)), Property("code", .scalar(.string), indexed: true), Property("name", .scalar(.string)),
                ])
        ])
        let v2 = Schema(objects: [ObjectType(name: "Item", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("name", .scalar(.string))])])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Item\" VALUES (1, '7', 'a')")
        _ = try Migrator(history: Self.history([v1, v2], [])).migrate(storeAt: store.path)
        #expect(try store.query("SELECT name FROM pragma_table_info('Item') ORDER BY cid") == [[.text("id")], [.text("name")]])
        #expect(try Self.indexes(of: "Item", in: store) == [])
        #expect(try store.query("SELECT \"id\", \"name\" FROM \"Item\"") == [[.integer(1), .text("a")]])
    }

    @Test func aRenamedPropertyMayTakeTheNameOfARemovedIndexedOne() throws {
        let v1 = Schema(objects: [
            ObjectType(
                name: "Item", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)), Property("code", .scalar(.string), indexed: true), Property("sku", .scalar(.string)),
                ])
        ])
        let v2 = Schema(objects: [ObjectType(name: "Item", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("code", .scalar(.string), indexed: true)])])
        // In one version, 'code' would both continue and be the renamed 'sku': refused.
        let oneVersion = Self.history([v1, v2], [.renameProperty(type: "Item", from: "sku", to: "code")])
        let error = #expect(throws: MigrationPlanningError.self) { try Migrator(history: oneVersion).plan(from: 1) }
        #expect(error?.diagnostics.map(\.rule) == ["migration-rename-conflict"])
        // Removing the old 'code' in one version and renaming in the next takes its name.
        let v2WithoutCode = Schema(objects: [ObjectType(name: "Item", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("sku", .scalar(.string))])])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Item\" VALUES (1, 'old', 'new')")
        _ = try Migrator(history: Self.history([v1, v2WithoutCode, v2], [], [.renameProperty(type: "Item", from: "sku", to: "code")])).migrate(storeAt: store.path)
        #expect(try store.query("SELECT * FROM \"Item\"") == [[.integer(1), .text("new")]])
        #expect(try Self.indexes(of: "Item", in: store) == [[.text("Item.code.index"), .text("code")]])
    }

    // MARK: In-app upgrades

    static func inAppHistory() -> (v1: Schema, history: MigrationHistory) {
        let v1 = Schema(objects: [ObjectType(name: "Dog", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("weight", .scalar(.string))])])
        let v2 = Schema(objects: [ObjectType(name: "Dog", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("weight", .scalar(.int))])])
        let v3 = Schema(objects: [
            ObjectType(
                name: "Dog", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)), Property("weight", .scalar(.int)), Property("toy", .scalar(.string), default: .string("ball")),
                ])
        ])
        return (v1, history([v1, v2, v3], [.convert(type: "Dog", property: "weight", to: .scalar(.int), onError: .fail)], [.custom(name: "nameToys", type: "Dog")]))
    }

    static func inAppMigrator(_ history: MigrationHistory) -> Migrator {
        var migrator = Migrator(history: history)
        migrator.register("nameToys") { object in
            object.new["toy"] = .text("toy for \(object.old["weight"]?.description ?? "?")")
        }
        return migrator
    }

    @Test func inAppUpgradeMigratesAndReportsProgress() throws {
        let (v1, history) = Self.inAppHistory()
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Dog\" VALUES (1, '12'), (2, ' 7 ')")
        let reports = Recorder<MigrationProgress>()
        var migrator = Self.inAppMigrator(history)
        migrator.progress = { reports.append($0) }
        let opened = try RemodelStore(path: store.path, schema: history.snapshots[2], version: 3, options: OpenOptions(migrator: migrator))
        #expect(opened.version == 3)
        #expect(
            try opened.read { try $0.dynamicObjects(ofType: "Dog").map { [$0["id"], $0["weight"], $0["toy"]] } } == [
                [.integer(1), .integer(12), .text("toy for 12")], [.integer(2), .integer(7), .text("toy for 7")],
            ])
        #expect(try opened.appliedMigrations().map(\.name) == ["v2", "v3"])

        let progress = reports.all
        let total = try #require(progress.first?.total)
        #expect(total > 1)
        #expect(progress.allSatisfy { $0.total == total })
        #expect(progress.map(\.completed) == Array(1...total))
        #expect(progress.map(\.version) == progress.map(\.version).sorted())
        #expect(Set(progress.map(\.version)) == [2, 3])
        #expect(progress.contains { $0.activity.contains("UPDATE OR ROLLBACK \"Dog\"") || $0.activity.contains("ALTER TABLE \"Dog\"") })
        #expect(progress.contains { $0.version == 3 && $0.activity == "custom step nameToys on Dog" })
    }

    @Test func inAppUpgradeWithPolicyFailRefusesAndChangesNothing() throws {
        let (v1, history) = Self.inAppHistory()
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Dog\" VALUES (1, '12')")
        let hash = try store.fileHash()
        var migrator = Self.inAppMigrator(history)
        migrator.upgradePolicy = .fail
        let error = #expect(throws: StoreError.self) {
            try RemodelStore(path: store.path, schema: history.snapshots[2], version: 3, options: OpenOptions(migrator: migrator))
        }
        guard case .migrationNeeded(_, let storeVersion, let codeVersion) = error else {
            Issue.record("expected migrationNeeded, got \(String(describing: error))")
            return
        }
        #expect(storeVersion == 1 && codeVersion == 3)
        #expect("\(error!)".contains("is at schema version 1 and this code needs version 3"))
        #expect(try store.fileHash() == hash)
        #expect(try store.query("SELECT \"weight\" FROM \"Dog\"") == [[.text("12")]])
    }

    @Test func inAppUpgradeWithADataErrorRollsBack() throws {
        let (v1, history) = Self.inAppHistory()
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Dog\" VALUES (1, '12'), (2, 'heavy')")
        let hash = try store.fileHash()
        let error = #expect(throws: StoreError.self) {
            try RemodelStore(path: store.path, schema: history.snapshots[2], version: 3, options: OpenOptions(migrator: Self.inAppMigrator(history)))
        }
        guard case .migrationFailed(_, let reason) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("1 Dog object with values that cannot be converted to int in Dog.weight") && reason.contains("\"heavy\""))
        #expect(try store.fileHash() == hash)
    }

    @Test func inAppUpgradeWithPolicyDeleteAndRecreateGivesAnEmptyStoreAtTheNewVersion() throws {
        let (v1, history) = Self.inAppHistory()
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Dog\" VALUES (1, 'not a number')")
        var migrator = Migrator(history: history)
        migrator.upgradePolicy = .deleteAndRecreate
        let opened = try RemodelStore(path: store.path, schema: history.snapshots[2], version: 3, options: OpenOptions(migrator: migrator))
        #expect(opened.version == 3)
        #expect(try opened.read { try $0.dynamicObjects(ofType: "Dog") }.isEmpty)
        try opened.write { try $0.insert(["id": .integer(5), "weight": .integer(3), "toy": .text("rope")], ofType: "Dog") }
        #expect(try store.query("SELECT \"id\", \"weight\", \"toy\" FROM \"Dog\"") == [[.integer(5), .integer(3), .text("rope")]])
        #expect(try store.query("PRAGMA user_version") == [[.integer(3)]])
        #expect(
            try store.query("SELECT name, type FROM pragma_table_info('Dog') ORDER BY cid") == [
                [.text("id"), .text("INTEGER")], [.text("weight"), .text("INTEGER")], [.text("toy"), .text("TEXT")],
            ])
    }

    // MARK: Helpers

    /// A history with a stepless baseline and one migration (`v2`, `v3`, …) per step list.
    static func history(_ snapshots: [Schema], _ steps: [MigrationStep]...) -> MigrationHistory {
        var migrations = [Migration(version: 1, name: "initial", steps: [], checksum: "c1")]
        for (index, list) in steps.enumerated() {
            migrations.append(Migration(version: index + 2, name: "v\(index + 2)", steps: list, checksum: "c\(index + 2)"))
        }
        return MigrationHistory(snapshots: snapshots, migrations: migrations)
    }

    /// Migrates one store straight to the newest version and another one version at a time,
    /// rebuilding the tables it rewrites; both must end with the same tables, indexes and
    /// rows. Returns the first.
    static func migrateDirectAndStepwise(_ migrator: Migrator, from schema: Schema, fill: (StoreFixture) throws -> Void) throws -> StoreFixture {
        var rebuilding = migrator
        rebuilding.tableRewrite = .rebuild
        let direct = try StoreFixture(schema: schema, version: 1)
        let stepwise = try StoreFixture(schema: schema, version: 1)
        defer { stepwise.remove() }
        do {
            try fill(direct)
            try fill(stepwise)
            _ = try migrator.migrate(storeAt: direct.path, now: now)
            for version in 2...migrator.history.currentVersion {
                _ = try rebuilding.migrate(storeAt: stepwise.path, to: version, now: now)
            }
            #expect(try contents(of: direct) == contents(of: stepwise))
            #expect(try stepwise.query("PRAGMA user_version") == [[.integer(Int64(migrator.history.currentVersion))]])
        } catch {
            direct.remove()
            throw error
        }
        return direct
    }

    /// Every object table, side table and index of a store, with its rows (columns by name).
    static func contents(of store: StoreFixture) throws -> [String: [[StoreValue]]] {
        var result: [String: [[StoreValue]]] = [:]
        result["(schema)"] = try store.query("SELECT type, name, tbl_name FROM sqlite_schema WHERE name NOT LIKE '\\_remodel%' ESCAPE '\\' ORDER BY name")
        for row in try store.query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE '\\_remodel%' ESCAPE '\\'") {
            guard case .text(let table) = row[0] else { continue }
            let columns = try store.query("SELECT name FROM pragma_table_info('\(table)') ORDER BY name").compactMap { row -> String? in
                if case .text(let name) = row[0] { "\"\(name)\"" } else { nil }
            }
            let order = (1...columns.count).map(String.init).joined(separator: ", ")
            result[table] = try store.query("SELECT \(columns.joined(separator: ", ")) FROM \"\(table)\" ORDER BY \(order)")
        }
        return result
    }

    /// The explicit indexes of a table: name and indexed column.
    static func indexes(of table: String, in store: StoreFixture) throws -> [[StoreValue]] {
        try store.query(
            "SELECT s.name, i.name FROM sqlite_schema s, pragma_index_info(s.name) i WHERE s.type = 'index' AND s.tbl_name = '\(table)' AND s.sql IS NOT NULL ORDER BY 1")
    }
}

private struct Refused: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}

/// Collects values from `@Sendable` callbacks.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) {
        lock.withLock { values.append(value) }
    }

    var all: [Value] {
        lock.withLock { values }
    }
}
