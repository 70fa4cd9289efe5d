import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import RemodelTestSupport
import Testing

/// Histories the planner must refuse (contradicting steps, each at its step) or run safely
/// (deep compositions, thousands of steps), and the faults found trying Remodel on Realm's
/// migration cases: each test here failed on the planner before the typed plan.
@Suite struct PlanSafetyTests {
    static func history(_ snapshots: [Schema], _ steps: [MigrationStep]) -> MigrationHistory {
        StepSemanticsTests.history(snapshots, steps)
    }

    static func planningError(_ history: MigrationHistory, from version: Int = 1) -> MigrationPlanningError? {
        do {
            _ = try Migrator(history: history).plan(from: version)
            return nil
        } catch {
            return error as? MigrationPlanningError
        }
    }

    static let names = Schema(objects: [
        ObjectType(
            name: "Person", primaryKey: "id",
            properties: [
                Property("id", .scalar(.int)), Property("firstName", .scalar(.string)), Property("lastName", .scalar(.string)),
            ])
    ])
    static let fullName = Schema(objects: [
        ObjectType(
            name: "Person", primaryKey: "id",
            properties: [
                Property("id", .scalar(.int)), Property("fullName", .scalar(.string), default: .string("")),
            ])
    ])

    // MARK: Contradicting steps

    /// Uncommenting both rename questions of the first + last → full name draft: one column
    /// would survive, which one depended on dictionary order.
    @Test func twoRenamesIntoOneNameAreAnErrorAtTheSecond() throws {
        let history = Self.history(
            [Self.names, Self.fullName],
            [
                .renameProperty(type: "Person", from: "firstName", to: "fullName"),
                .renameProperty(type: "Person", from: "lastName", to: "fullName"),
            ])
        let error = try #require(Self.planningError(history))
        #expect(error.diagnostics.count == 1)
        let diagnostic = try #require(error.diagnostics.first)
        #expect(diagnostic.rule == "migration-rename-conflict")
        #expect(
            diagnostic.message
                == "migration 2 step 2 (renameProperty): renames 'Person.lastName' to 'fullName', but step 1 already renames 'firstName' to it: one property cannot continue two")
        #expect(diagnostic.hint?.contains("set: { value: \"{firstName} {lastName}\" }") == true)
        // In the other order the error is at the other step: the second rename is blamed.
        let reversed = Self.history(
            [Self.names, Self.fullName],
            [
                .renameProperty(type: "Person", from: "lastName", to: "fullName"),
                .renameProperty(type: "Person", from: "firstName", to: "fullName"),
            ])
        let other = try #require(Self.planningError(reversed)?.diagnostics.first)
        #expect(
            other.message
                == "migration 2 step 2 (renameProperty): renames 'Person.firstName' to 'fullName', but step 1 already renames 'lastName' to it: one property cannot continue two")
    }

    @Test func aRenameFromAPropertyTheNewVersionStillHasIsAnError() throws {
        var kept = Self.fullName
        kept.objects[0].properties.insert(Property("firstName", .scalar(.string)), at: 1)
        let history = Self.history([Self.names, kept], [.renameProperty(type: "Person", from: "firstName", to: "fullName")])
        let diagnostic = try #require(Self.planningError(history)?.diagnostics.first)
        #expect(diagnostic.rule == "migration-rename-conflict")
        #expect(diagnostic.message.contains("version 2 still has 'firstName'; a rename moves the values, and 'firstName' would start empty"))
        #expect(diagnostic.hint?.contains("value: \"{firstName}\"") == true)
    }

    @Test func twoWritesOfOnePropertyAreAnError() throws {
        let history = Self.history(
            [Self.names, Self.fullName],
            [
                .set(type: "Person", property: "fullName", value: .template("{firstName}")),
                .set(type: "Person", property: "fullName", value: .template("anonymous")),
            ])
        let diagnostic = try #require(Self.planningError(history)?.diagnostics.first)
        #expect(diagnostic.rule == "migration-conflicting-steps")
        #expect(diagnostic.message == "migration 2 step 2 (set): step 2 (set) sets 'Person.fullName', which step 1 (set) already set; the earlier value would never be used")
        // A step that reads the value the earlier one gave is a composition, not a conflict.
        let composed = Self.history(
            [Self.names, Self.fullName],
            [
                .set(type: "Person", property: "fullName", value: .template("{firstName}")),
                .set(type: "Person", property: "fullName", value: .template("{fullName} {lastName}")),
            ])
        #expect(Self.planningError(composed) == nil)
    }

    // MARK: Deep compositions

    static let code = Schema(objects: [ObjectType(name: "Item", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("code", .scalar(.string))])])

    /// 20 mapValues steps with two values each: SQLite's parser overflowed, and the SQL
    /// doubled at every step.
    @Test func twentyMapValuesStepsOnOnePropertyRun() throws {
        let history = PlanReferences.deepComposition.history
        let plan = try Migrator(history: history).plan(from: 1)
        #expect(plan.versions[0].statements.allSatisfy { $0.utf8.count < 4_000 }, "no statement grows with the number of steps")
        let store = try StoreFixture(schema: history.snapshots[0], version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Item\" VALUES (1, 'a0'), (2, 'b0')")
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"code\" FROM \"Item\" ORDER BY \"id\"") == [[.text("a20")], [.text("b20")]])
        #expect(try store.query("SELECT name FROM sqlite_temp_schema") == [])
    }

    /// 40 `set` steps that each read the property they set.
    @Test func fortySelfReferencingSetStepsRun() throws {
        let steps = (0..<40).map { _ in MigrationStep.set(type: "Item", property: "code", value: .template("{code}x")) }
        let store = try StoreFixture(schema: Self.code, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Item\" VALUES (1, 'c5')")
        _ = try Migrator(history: Self.history([Self.code, Self.code], steps)).migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"code\" FROM \"Item\"") == [[.text("c5" + String(repeating: "x", count: 40))]])
    }

    /// Thousands of steps: planning and running stay bounded (the old planner took gigabytes
    /// at 10,000).
    @Test func tenThousandStepsPlanAndRun() throws {
        let steps = (0..<10_000).map { index in MigrationStep.set(type: "Item", property: "code", value: .template(index % 2 == 0 ? "{code}-" : "{code}+")) }
        let history = Self.history([Self.code, Self.code], steps)
        let clock = ContinuousClock()
        let started = clock.now
        let plan = try Migrator(history: history).plan(from: 1)
        #expect(plan.versions[0].statements.allSatisfy { $0.utf8.count < 4_000 })
        let store = try StoreFixture(schema: Self.code, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Item\" VALUES (1, '')")
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        let value = try store.query("SELECT length(\"code\"), substr(\"code\", 1, 4) FROM \"Item\"")
        #expect(value == [[.integer(10_000), .text("-+-+")]])
        // Not a timing test: a bound that only a quadratic planner or executor would break.
        #expect(clock.now - started < .seconds(60))
    }

    // MARK: Realm's migration cases

    /// A type without a primary key: the DELETE was planned and never ran.
    @Test func deleteObjectsOnAKeylessTypeDeletes() throws {
        let log = Schema(objects: [ObjectType(name: "Log", properties: [Property("line", .scalar(.string)), Property("level", .scalar(.int))])])
        let store = try StoreFixture(schema: log, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Log\" VALUES ('a', 1), ('b', 5), ('c', 9)")
        _ = try Migrator(history: Self.history([log, log], [.deleteObjects(type: "Log", where: [.init(property: "level", condition: .greaterThanOrEqual(.int(5)))])])).migrate(
            storeAt: store.path)
        #expect(try store.query("SELECT \"line\" FROM \"Log\"") == [[.text("a")]])
    }

    /// A primary-key change that creates duplicates: a raw UNIQUE error before.
    @Test func aNewPrimaryKeyWithDuplicatesIsADataErrorNamingTheObjects() throws {
        let v1 = Schema(objects: [ObjectType(name: "User", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("email", .scalar(.string))])])
        let v2 = Schema(objects: [ObjectType(name: "User", primaryKey: "email", properties: [Property("id", .scalar(.int)), Property("email", .scalar(.string))])])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"User\" VALUES (1, 'a@x'), (2, 'b@x'), (3, 'a@x')")
        let hash = try store.fileHash()
        #expect {
            try Migrator(history: Self.history([v1, v2], [])).migrate(storeAt: store.path)
        } throws: { error in
            guard case .data(let data) = error as? MigrationError else { return false }
            return data.type == "User" && data.property == "email" && data.count == 2 && data.problem == "a primary key that another object would also have"
                && "\(error)".contains("\"a@x\"")
        }
        #expect(try store.fileHash() == hash)
    }

    static let owned = ObjectType(
        name: "Address", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("street", .scalar(.string)), Property("city", .scalar(.string, optional: true))])
    static let embeddedAddress = ObjectType(
        name: "Address", isEmbedded: true, properties: [Property("street", .scalar(.string)), Property("city", .scalar(.string, optional: true))])
    static func owner(_ list: Bool = false) -> ObjectType {
        ObjectType(
            name: "Person", primaryKey: "id",
            properties: [
                Property("id", .scalar(.int)), Property("home", PropertyType(.object("Address"), optional: true)),
            ] + (list ? [Property("others", PropertyType(.object("Address"), collection: .list))] : []))
    }

    /// A linked type that becomes embedded with no other change: a raw SQLite error before
    /// (DROP COLUMN on a foreign-key column). Each object moves into its one owner; objects
    /// no one holds are deleted and counted.
    @Test func aLinkedTypeBecomesEmbedded() throws {
        let v1 = Schema(objects: [Self.owner(true), Self.owned])
        let v2 = Schema(objects: [Self.owner(true), Self.embeddedAddress])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Address\" VALUES (1, 'Broadway', 'New York'), (2, 'Main St', NULL), (3, 'Nowhere', 'X'), (4, 'Elm', 'Y')")
        try store.execute("INSERT INTO \"Person\" VALUES (10, 1), (11, NULL)")
        try store.execute("INSERT INTO \"Person.others\" VALUES (11, 0, 2), (11, 1, 4)")
        let (_, report) = try Migrator(history: Self.history([v1, v2], [])).migrate(storeAt: store.path)
        #expect(
            try store.query("SELECT \"id\", \"home\" FROM \"Person\" ORDER BY 1") == [
                [.integer(10), .text("{\"city\":\"New York\",\"street\":\"Broadway\"}")], [.integer(11), .null],
            ])
        #expect(
            try store.query("SELECT \"value\" FROM \"Person.others\" ORDER BY \"position\"") == [
                // A null column becomes a null member: the object keeps every member it had.
                [.text("{\"city\":null,\"street\":\"Main St\"}")], [.text("{\"city\":\"Y\",\"street\":\"Elm\"}")],
            ])
        #expect(report.versions[0].notes == ["1 Address object deleted: no object held them, and an embedded object lives in its owner"])
        #expect(try store.query("SELECT name FROM sqlite_schema WHERE name LIKE 'Address%'") == [])
        #expect(try store.query("PRAGMA foreign_key_check").isEmpty)
        // The store opens with the new schema, and the generated models read the values.
        let opened = try RemodelStore(path: store.path, schema: v2, version: 2)
        let people = try opened.read { try $0.dynamicObjects(ofType: "Person") }
        #expect(people.count == 2)
        let byID = Dictionary(uniqueKeysWithValues: people.compactMap { person in person["id"].map { ($0, person) } })
        let home = "\(byID[.integer(10)]?["home"] ?? .null)"
        #expect(home.contains("Broadway"), "Person 10's home: \(home)")
        guard case .list(let others)? = byID[.integer(11)]?["others"] else {
            Issue.record("Person 11's others: \(byID[.integer(11)] ?? [:])")
            return
        }
        #expect(others.count == 2 && "\(others[0])".contains("Main St") && "\(others[1])".contains("Elm"), "\(others)")
    }

    @Test func anObjectWithTwoOwnersCannotBecomeEmbedded() throws {
        let v1 = Schema(objects: [Self.owner(), Self.owned])
        let v2 = Schema(objects: [Self.owner(), Self.embeddedAddress])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Address\" VALUES (1, 'Broadway', NULL)")
        try store.execute("INSERT INTO \"Person\" VALUES (10, 1), (11, 1)")
        let hash = try store.fileHash()
        #expect {
            try Migrator(history: Self.history([v1, v2], [])).migrate(storeAt: store.path)
        } throws: { error in
            let text = "\(error)"
            return text.contains("1 Address object with more than one object holding them") && text.contains("1 (Person 10 (home), Person 11 (home))")
                && text.contains("Nothing was changed")
        }
        #expect(try store.fileHash() == hash)
    }

    /// Embedded → linked: each embedded value becomes an object with a generated key.
    @Test func anEmbeddedTypeBecomesATable() throws {
        let table = ObjectType(
            name: "Address", primaryKey: "id",
            properties: [
                Property("id", .scalar(.uuid), default: .generated(.uuid)), Property("street", .scalar(.string)), Property("city", .scalar(.string, optional: true)),
            ])
        let v1 = Schema(objects: [Self.owner(true), Self.embeddedAddress])
        let v2 = Schema(objects: [Self.owner(true), table])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES (10, '{\"city\":\"New York\",\"street\":\"Broadway\"}'), (11, NULL)")
        try store.execute("INSERT INTO \"Person.others\" VALUES (11, 0, '{\"street\":\"Elm\"}')")
        _ = try Migrator(history: Self.history([v1, v2], [])).migrate(storeAt: store.path)
        #expect(try store.query("SELECT a.\"street\", a.\"city\" FROM \"Person\" p JOIN \"Address\" a ON a.\"id\" = p.\"home\"") == [[.text("Broadway"), .text("New York")]])
        #expect(try store.query("SELECT a.\"street\" FROM \"Person.others\" o JOIN \"Address\" a ON a.\"id\" = o.\"value\"") == [[.text("Elm")]])
        #expect(try store.query("SELECT count(*) FROM \"Address\"") == [[.integer(2)]])
        #expect(try store.query("PRAGMA foreign_key_check").isEmpty)
        _ = try RemodelStore(path: store.path, schema: v2, version: 2)
    }

    /// An embedded type's shape changes: a property renamed, one widened, one added.
    @Test func anEmbeddedTypeChangesShape() throws {
        let old = ObjectType(name: "Address", isEmbedded: true, properties: [Property("street", .scalar(.string)), Property("zip", .scalar(.int32))])
        let new = ObjectType(
            name: "Address", isEmbedded: true,
            properties: [
                Property("road", .scalar(.string), renamedFrom: "street"), Property("zip", .scalar(.int)), Property("country", .scalar(.string), default: .string("NL")),
            ])
        let v1 = Schema(objects: [Self.owner(true), old])
        let v2 = Schema(objects: [Self.owner(true), new])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES (10, '{\"street\":\"Dam\",\"zip\":1012}'), (11, NULL)")
        try store.execute("INSERT INTO \"Person.others\" VALUES (11, 0, '{\"street\":\"Elm\",\"zip\":7}')")
        _ = try Migrator(history: Self.history([v1, v2], [])).migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"home\" FROM \"Person\" ORDER BY \"id\"") == [[.text("{\"country\":\"NL\",\"road\":\"Dam\",\"zip\":1012}")], [.null]])
        #expect(try store.query("SELECT \"value\" FROM \"Person.others\"") == [[.text("{\"country\":\"NL\",\"road\":\"Elm\",\"zip\":7}")]])
    }

    /// A list or to-one link retargeted to another type: the old links go (Realm's rule),
    /// reported as destructive.
    @Test func retargetedLinksAreDropped() throws {
        let dog = ObjectType(name: "Dog", primaryKey: "id", properties: [Property("id", .scalar(.int))])
        let cat = ObjectType(name: "Cat", primaryKey: "id", properties: [Property("id", .scalar(.int))])
        func person(_ target: String) -> ObjectType {
            ObjectType(
                name: "Person", primaryKey: "id",
                properties: [
                    Property("id", .scalar(.int)), Property("best", PropertyType(.object(target), optional: true)),
                    Property("pets", PropertyType(.object(target), collection: .list)),
                ])
        }
        let v1 = Schema(objects: [person("Dog"), dog, cat])
        let v2 = Schema(objects: [person("Cat"), dog, cat])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Dog\" VALUES (1)")
        try store.execute("INSERT INTO \"Cat\" VALUES (1)")
        try store.execute("INSERT INTO \"Person\" VALUES (10, 1)")
        try store.execute("INSERT INTO \"Person.pets\" VALUES (10, 0, 1)")
        let (plan, _) = try Migrator(history: Self.history([v1, v2], [])).migrate(storeAt: store.path)
        #expect(
            plan.versions[0].changes.filter { $0.impact == .destructive }.map(\.summary).sorted() == [
                "drop the links of Person.best: it now links to Cat, not Dog", "drop the links of Person.pets: it now links to Cat, not Dog",
            ])
        #expect(try store.query("SELECT \"best\" FROM \"Person\"") == [[.null]])
        #expect(try store.query("SELECT count(*) FROM \"Person.pets\"") == [[.integer(0)]])
        #expect(try store.query("SELECT \"table\" FROM pragma_foreign_key_list('Person.pets') ORDER BY 1") == [[.text("Cat")], [.text("Person")]])
        _ = try RemodelStore(path: store.path, schema: v2, version: 2)
    }

    /// Templates and conditions read through to-one links: `{owner.name}`.
    @Test func stepsReadLinkedObjectsValues() throws {
        let owner = ObjectType(name: "Owner", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("name", .scalar(.string))])
        let dog = ObjectType(name: "Dog", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("owner", PropertyType(.object("Owner"), optional: true))])
        var labelled = dog
        labelled.properties.append(Property("label", .scalar(.string), default: .string("")))
        var renamed = owner
        renamed.properties[1] = Property("fullName", .scalar(.string))
        let v1 = Schema(objects: [owner, dog])
        let v2 = Schema(objects: [renamed, labelled])
        let history = Self.history(
            [v1, v2],
            [
                // The owner's name as it is at this step: renamed, and changed by the step before.
                .renameProperty(type: "Owner", from: "name", to: "fullName"),
                .set(type: "Owner", property: "fullName", value: .template("Dr {fullName}")),
                .set(type: "Dog", property: "label", value: .template("dog of {owner.fullName}")),
                .deleteObjects(type: "Dog", where: [.init(property: "owner.fullName", value: .string("Dr Gone"))]),
            ])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Owner\" VALUES (1, 'Ada'), (2, 'Gone')")
        try store.execute("INSERT INTO \"Dog\" VALUES (10, 1), (11, NULL), (12, 2)")
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"id\", \"label\" FROM \"Dog\" ORDER BY 1") == [[.integer(10), .text("dog of Dr Ada")], [.integer(11), .text("dog of ")]])
        #expect(try store.query("SELECT \"fullName\" FROM \"Owner\" ORDER BY \"id\"") == [[.text("Dr Ada")], [.text("Dr Gone")]])
    }

    /// Custom steps read other types of the old store, collections included.
    @Test func customStepsReadOtherTypes() throws {
        let dog = ObjectType(name: "Dog", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("name", .scalar(.string))])
        let person = ObjectType(
            name: "Person", primaryKey: "id",
            properties: [
                Property("id", .scalar(.int)), Property("summary", .scalar(.string), default: .string("")), Property("dogs", PropertyType(.object("Dog"), collection: .list)),
            ])
        let schema = Schema(objects: [person, dog])
        var migrator = Migrator(history: Self.history([schema, schema], [.custom(name: "summarise", type: "Person", reads: ["Dog"])]))
        migrator.register("summarise") { object in
            guard case .list(let keys) = object.old["dogs"] else { return }
            let names = try keys.map { key -> String in
                guard case .text(let name)? = try object.oldObjects.object("Dog", key: key)?["name"] else { return "?" }
                return name
            }
            object.new["summary"] = .text(names.joined(separator: " & "))
        }
        let store = try StoreFixture(schema: schema, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Dog\" VALUES (1, 'Rex'), (2, 'Fido')")
        try store.execute("INSERT INTO \"Person\" VALUES (10, '')")
        try store.execute("INSERT INTO \"Person.dogs\" VALUES (10, 0, 2), (10, 1, 1)")
        _ = try migrator.migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"summary\" FROM \"Person\"") == [[.text("Fido & Rex")]])
        #expect(try store.query("SELECT name FROM sqlite_temp_schema") == [])
        // Reading a type the step does not declare is an error naming what to add.
        var undeclared = Migrator(history: Self.history([schema, schema], [.custom(name: "peek", type: "Person")]))
        undeclared.register("peek") { object in _ = try object.oldObjects.all("Dog") }
        let other = try StoreFixture(schema: schema, version: 1)
        defer { other.remove() }
        try other.execute("INSERT INTO \"Person\" VALUES (10, '')")
        #expect { try undeclared.migrate(storeAt: other.path) } throws: { "\($0)".contains("reads: [Dog]") }
    }

    /// A data-only version (no schema change) runs its steps.
    @Test func aDataOnlyVersionRunsItsSteps() throws {
        let store = try StoreFixture(schema: Self.code, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Item\" VALUES (1, 'x'), (2, '')")
        let (plan, _) = try Migrator(
            history: Self.history(
                [Self.code, Self.code],
                [
                    .deleteObjects(type: "Item", where: [.init(property: "code", value: .string(""))]),
                    .set(type: "Item", property: "code", value: .template("{code}!")),
                ])
        ).migrate(storeAt: store.path)
        #expect(plan.versions.count == 1)
        #expect(try store.query("SELECT \"id\", \"code\" FROM \"Item\"") == [[.integer(1), .text("x!")]])
    }

    // MARK: Two openers at once

    /// Two app instances (here two stores in one process) open an older store together, both
    /// after reading its version: the second must not run the migration again. Both threads
    /// are known to have started before the lock is released, but not that both have read
    /// the version by then (nothing observable marks it): `MigrationCoreCommandTests`'
    /// two-process test waits for both plans, which are printed after the version is read.
    @Test func twoStoresOpeningAnOlderStoreTogetherMigrateItOnce() throws {
        let store = try StoreFixture(schema: Self.code, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Item\" VALUES (1, 'c5')")
        let history = Self.history([Self.code, Self.code], [.set(type: "Item", property: "code", value: .template("x{code}"))])
        // A third connection holds the write lock until both have read version 1 and wait.
        let holder = try Connection(path: store.path)
        try holder.execute("BEGIN IMMEDIATE")
        let group = DispatchGroup()
        let errors = Recorder<String>()
        let opened = Recorder<Int>()
        let started = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            group.enter()
            // Threads of their own: the test's pool may have too few to run both at once.
            Thread {
                started.signal()
                do {
                    _ = try RemodelStore(path: store.path, schema: Self.code, version: 2, options: OpenOptions(busyTimeout: 10, migrator: Migrator(history: history)))
                    opened.append(1)
                } catch {
                    errors.append("\(error)")
                }
                group.leave()
            }.start()
        }
        started.wait()
        started.wait()
        Thread.sleep(forTimeInterval: 0.5)
        try holder.execute("COMMIT")
        group.wait()
        #expect(errors.all == [])
        #expect(opened.all.count == 2)
        #expect(try store.query("SELECT \"code\" FROM \"Item\"") == [[.text("xc5")]])
        #expect(try store.query("SELECT \"version\" FROM \"_remodel_migrations\"") == [[.integer(2)]])
    }

    /// A primary key converted to another type: links to the objects and the objects' own
    /// collections follow the new keys.
    @Test func linksAndCollectionsFollowAConvertedPrimaryKey() throws {
        func person(_ key: ScalarType) -> ObjectType {
            ObjectType(name: "Person", primaryKey: "id", properties: [Property("id", .scalar(key)), Property("tags", PropertyType(.scalar(.string), collection: .list))])
        }
        let dog = ObjectType(name: "Dog", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("owner", PropertyType(.object("Person"), optional: true))])
        let team = ObjectType(name: "Team", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("members", PropertyType(.object("Person"), collection: .set))])
        let v1 = Schema(objects: [person(.string), dog, team])
        let v2 = Schema(objects: [person(.int), dog, team])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES ('7'), ('8')")
        try store.execute("INSERT INTO \"Person.tags\" VALUES ('7', 0, 'a'), ('8', 0, 'b'), ('8', 1, 'c')")
        try store.execute("INSERT INTO \"Dog\" VALUES (1, '8'), (2, NULL)")
        try store.execute("INSERT INTO \"Team\" VALUES (1)")
        try store.execute("INSERT INTO \"Team.members\" VALUES (1, '7'), (1, '8')")
        _ = try Migrator(history: Self.history([v1, v2], [.convert(type: "Person", property: "id", to: .scalar(.int), onError: .fail)])).migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"id\", typeof(\"id\") FROM \"Person\" ORDER BY 1") == [[.integer(7), .text("integer")], [.integer(8), .text("integer")]])
        #expect(
            try store.query("SELECT \"owner\", \"value\" FROM \"Person.tags\" ORDER BY 1, \"position\"") == [
                [.integer(7), .text("a")], [.integer(8), .text("b")], [.integer(8), .text("c")],
            ])
        #expect(try store.query("SELECT \"id\", \"owner\" FROM \"Dog\" ORDER BY 1") == [[.integer(1), .integer(8)], [.integer(2), .null]])
        #expect(try store.query("SELECT \"value\" FROM \"Team.members\" ORDER BY 1") == [[.integer(7)], [.integer(8)]])
        #expect(try store.query("PRAGMA foreign_key_check").isEmpty)
        #expect(try store.query("PRAGMA integrity_check") == [[.text("ok")]])
        _ = try RemodelStore(path: store.path, schema: v2, version: 2)
    }

    /// Steps on an embedded type's properties: a rename and a template, applied in every owner.
    @Test func stepsChangeEmbeddedValuesInEveryOwner() throws {
        let old = ObjectType(name: "Address", isEmbedded: true, properties: [Property("street", .scalar(.string)), Property("city", .scalar(.string, optional: true))])
        let new = ObjectType(name: "Address", isEmbedded: true, properties: [Property("road", .scalar(.string)), Property("city", .scalar(.string, optional: true))])
        let v1 = Schema(objects: [Self.owner(true), old])
        let v2 = Schema(objects: [Self.owner(true), new])
        let history = Self.history(
            [v1, v2],
            [
                .renameProperty(type: "Address", from: "street", to: "road"),
                .set(type: "Address", property: "city", value: .template("{city} ({road})")),
            ])
        let store = try StoreFixture(schema: v1, version: 1)
        defer { store.remove() }
        try store.execute("INSERT INTO \"Person\" VALUES (10, '{\"city\":\"Delft\",\"street\":\"Markt\"}'), (11, NULL)")
        try store.execute("INSERT INTO \"Person.others\" VALUES (11, 0, '{\"street\":\"Elm\"}')")
        _ = try Migrator(history: history).migrate(storeAt: store.path)
        #expect(try store.query("SELECT \"home\" FROM \"Person\" ORDER BY \"id\"") == [[.text("{\"city\":\"Delft (Markt)\",\"road\":\"Markt\"}")], [.null]])
        #expect(try store.query("SELECT \"value\" FROM \"Person.others\"") == [[.text("{\"city\":\" (Elm)\",\"road\":\"Elm\"}")]])
    }
}
