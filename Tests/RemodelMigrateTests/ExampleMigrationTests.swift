import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import RemodelTestSupport
import Testing

@Suite struct ExampleMigrationTests {
    /// A v1 store with the hard cases of the example data.
    func makeV1Store() throws -> StoreFixture {
        let store = try StoreFixture(schema: ExampleHistory.v1, version: 1)
        let people: [(UInt8, String, String, String)] = [
            (1, "Ada Lovelace", "E1", "Eng"),
            (2, "  Grace   Brewster Hopper ", "E2", "Engineering"),
            (3, "Cher", "E3", "HR"),
            (4, "", "", ""),
            (5, "Zoë Ünal", "E5", "Docs"),
            (6, "Bob", "E6", "Sales"),
            (7, "Linus", "E7", "Knitting"),
        ]
        for (n, name, employee, unit) in people {
            try store.execute(
                "INSERT INTO \"Person\" (\"_id\", \"name\", \"employeeId\", \"company\", \"businessUnit\") VALUES (?, ?, ?, 'MongoDB', ?)",
                [StoreFixture.objectID(n), .text(name), .text(employee), .text(unit)])
        }
        for (n, weight) in [(1, "12"), (2, ""), (3, "n/a"), (4, "12.5"), (5, " 7 "), (6, "-3")] as [(UInt8, String)] {
            try store.execute("INSERT INTO \"Dog\" (\"_id\", \"name\", \"breed\", \"weight\") VALUES (?, ?, 'mutt', ?)", [StoreFixture.uuid(n), .text("Dog \(n)"), .text(weight)])
        }
        for (owner, position, dog) in [(1, 0, 1), (1, 1, 2), (2, 0, 2), (5, 0, 3)] as [(UInt8, Int64, UInt8)] {
            try store.execute(
                "INSERT INTO \"Person.dogs\" (\"owner\", \"position\", \"value\") VALUES (?, ?, ?)", [StoreFixture.objectID(owner), .integer(position), StoreFixture.uuid(dog)])
        }
        return store
    }

    @Test func migratesV1ToV3() throws {
        let store = try makeV1Store()
        defer { store.remove() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (plan, report) = try Migrator(history: ExampleHistory.history).migrate(storeAt: store.path, now: now)
        #expect(plan.versions.map(\.version) == [2, 3])
        #expect(report.countsAfter == ["Note": 0, "Person": 7, "Dog": 6])

        let people = try store.query("SELECT \"firstName\", \"lastName\", \"personId\", \"businessUnit\", \"profileImageUrl\" FROM \"Person\" ORDER BY \"_id\"")
        #expect(
            people == [
                [.text("Ada"), .text("Lovelace"), .text("E1"), .text("Engineering"), .null],
                [.text("Grace"), .text("Brewster Hopper"), .text("E2"), .text("Engineering"), .null],
                [.text("Cher"), .text(""), .text("E3"), .text("Human Resources and Recruiting"), .null],
                [.text(""), .text(""), .text(""), .text("Engineering"), .null],
                [.text("Zoë"), .text("Ünal"), .text("E5"), .text("Education, Community and Docs"), .null],
                [.text("Bob"), .text(""), .text("E6"), .text("Sales"), .null],
                [.text("Linus"), .text(""), .text("E7"), .text("Engineering"), .null],
            ])
        let dogs = try store.query("SELECT \"weight\", \"favoriteToy\", \"profileImageUrl\", \"dateLastUpdated\" FROM \"Dog\" ORDER BY \"_id\"")
        let stamp = StoreValue.integer(1_800_000_000_000_000)
        #expect(
            dogs == [
                [.integer(12), .text(""), .null, stamp],
                [.integer(0), .text(""), .null, stamp],
                [.integer(0), .text(""), .null, stamp],
                [.integer(0), .text(""), .null, stamp],
                [.integer(7), .text(""), .null, stamp],
                [.integer(-3), .text(""), .null, stamp],
            ])
        #expect(try store.query("SELECT count(*) FROM \"Person.dogs\"") == [[.integer(4)]])
        #expect(try store.query("PRAGMA integrity_check") == [[.text("ok")]])
        #expect(try store.query("PRAGMA user_version") == [[.integer(3)]])
        #expect(
            try store.query("SELECT \"version\", \"name\", \"checksum\" FROM \"_remodel_migrations\" ORDER BY 1") == [
                [.integer(2), .text("split-person-name"), .text("c2")],
                [.integer(3), .text("dog-details"), .text("c3")],
            ])
        // The migrated store opens with the v3 schema: hash and layout agree.
        _ = try RemodelStore(path: store.path, schema: ExampleHistory.v3, version: 3)
    }

    @Test(arguments: [MigrationPlanner.TableRewrite.alterTable, .rebuild])
    func stepByStepAndEveryStrategyGiveTheSameStore(strategy: MigrationPlanner.TableRewrite) throws {
        let direct = try makeV1Store()
        let stepwise = try makeV1Store()
        defer {
            direct.remove()
            stepwise.remove()
        }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var migrator = Migrator(history: ExampleHistory.history)
        _ = try migrator.migrate(storeAt: direct.path, now: now)
        migrator.tableRewrite = strategy
        _ = try migrator.migrate(storeAt: stepwise.path, to: 2, now: now)
        _ = try migrator.migrate(storeAt: stepwise.path, to: 3, now: now)
        for table in ["Person", "Dog", "Person.dogs", "Note"] {
            let columns = try direct.query("SELECT name FROM pragma_table_info('\(table)') ORDER BY name").map { $0[0].description }
            let list = columns.map { $0.replacingOccurrences(of: "\"", with: "") }.map { "\"\($0)\"" }.joined(separator: ", ")
            #expect(try direct.query("SELECT \(list) FROM \"\(table)\" ORDER BY 1, 2") == stepwise.query("SELECT \(list) FROM \"\(table)\" ORDER BY 1, 2"), "table \(table)")
        }
        #expect(try stepwise.query("PRAGMA integrity_check") == [[.text("ok")]])
        #expect(try stepwise.query("PRAGMA foreign_key_check").isEmpty)
    }

    @Test func runningAgainIsANoOp() throws {
        let store = try makeV1Store()
        defer { store.remove() }
        let migrator = Migrator(history: ExampleHistory.history)
        _ = try migrator.migrate(storeAt: store.path)
        let hash = try store.fileHash()
        let (plan, _) = try migrator.migrate(storeAt: store.path)
        #expect(plan.isEmpty)
        #expect(try store.fileHash() == hash)
    }

    @Test func dryRunChangesNothing() throws {
        let store = try makeV1Store()
        defer { store.remove() }
        let hash = try store.fileHash()
        let (_, report) = try Migrator(history: ExampleHistory.history).migrate(storeAt: store.path, dryRun: true)
        #expect(report.dryRun)
        #expect(report.countsAfter["Dog"] == 6)
        #expect(try store.fileHash() == hash)
    }

    @Test func failedConversionNamesTheObjectsAndChangesNothing() throws {
        let store = try makeV1Store()
        defer { store.remove() }
        var history = ExampleHistory.history
        history.migrations[2].steps = [.convert(type: "Dog", property: "weight", to: .scalar(.int), onError: .fail)]
        let hash = try store.fileHash()
        #expect {
            try Migrator(history: history).migrate(storeAt: store.path)
        } throws: { error in
            guard case .data(let data) = error as? MigrationError else { return false }
            let message = "\(error)"
            return data.type == "Dog" && data.property == "weight" && data.count == 3 && data.step == "step 1 (convert)"
                && message.contains("00000000-0000-0000-0000-000000000002") && message.contains("\"n/a\"")
                && message.contains("Nothing was changed") && message.contains("onError: default")
        }
        #expect(try store.fileHash() == hash)
        #expect(try store.query("PRAGMA user_version") == [[.integer(1)]])
    }

    @Test func newRequiredPropertyWithoutDefaultIsAPlanningError() throws {
        var history = ExampleHistory.history
        history.snapshots[2].objects[1].properties.append(Property("chipNumber", .scalar(.string)))
        #expect {
            try Migrator(history: history).plan(from: 1)
        } throws: { error in
            let message = "\(error)"
            return message.contains("'Dog.chipNumber' is new and required but has no default") && message.contains("[migration-missing-value]")
        }
    }

    @Test func retypeWithoutConvertIsAPlanningError() throws {
        var history = ExampleHistory.history
        history.migrations[2].steps = []
        #expect {
            try Migrator(history: history).plan(from: 2)
        } throws: { error in
            "\(error)".contains("'Dog.weight' changes type from string to int") && "\(error)".contains("convert: { type: Dog, property: weight, to: int")
        }
    }

    @Test func planShowsImpactAndSQL() throws {
        let now = Date(timeIntervalSince1970: 1_796_045_382.5)
        let plan = try Migrator(history: ExampleHistory.history).plan(from: 1, now: now)
        let v2 = try #require(plan.versions.first)
        let summaries = v2.changes.map { "\($0.impact.rawValue): \($0.summary)" }
        #expect(summaries.contains("additive: rename property Person.employeeId to personId"))
        #expect(summaries.contains("data-dependent: split Person.name at \" \" into firstName, lastName"))
        #expect(summaries.contains("destructive: remove property Person.name and its values"))
        #expect(v2.statements.contains("ALTER TABLE \"Person\" RENAME COLUMN \"employeeId\" TO \"personId\""))
        // firstName takes the removed name column's slot: one pass over Person, no DROP COLUMN.
        #expect(v2.statements.contains("ALTER TABLE \"Person\" RENAME COLUMN \"name\" TO \"firstName\""))
        #expect(!v2.statements.contains { $0.contains("DROP COLUMN") })
        #expect(v2.statements.filter { $0.hasPrefix("UPDATE OR ROLLBACK \"Person\"") }.count == 1)
        // Dog.weight becomes an int in its own slot: declared INTEGER, then converted by Dog's
        // one UPDATE, which reads the old text as text.
        let v3 = try #require(plan.versions.last)
        #expect(v3.operations.contains { if case .retype(table: "Dog", column: "weight", type: .integer) = $0.operation { true } else { false } })
        #expect(
            v3.statements.filter { $0.hasPrefix("UPDATE OR ROLLBACK \"Dog\"") } == [
                "UPDATE OR ROLLBACK \"Dog\" SET \"weight\" = coalesce(remodel_parse_integer(CAST(\"weight\" AS TEXT), -9223372036854775808, 9223372036854775807), 0), \"favoriteToy\" = '', \"dateLastUpdated\" = 1796045382500000"
            ])
        #expect(!v3.statements.contains { $0.contains("DROP COLUMN") || $0.contains("__remodel_new") })
        // A `$now` default is stored in microseconds but shown as a date.
        let dateSummary = v3.changes.map(\.summary).first { $0.hasPrefix("add property Dog.dateLastUpdated") }
        #expect(dateSummary == "add property Dog.dateLastUpdated (date) = 2026-11-30T13:29:42.500000Z")
        #expect(plan.impact == .destructive)
    }

    @Test func refusesAStoreNewerThanTheHistory() throws {
        let store = try StoreFixture(schema: ExampleHistory.v3, version: 3)
        defer { store.remove() }
        var history = ExampleHistory.history
        history.snapshots.removeLast()
        history.migrations.removeLast()
        #expect {
            try Migrator(history: history).migrate(storeAt: store.path)
        } throws: { error in
            guard case .superseded = error as? StoreError else { return false }
            return true
        }
    }
}
