import Foundation
import RemodelCore
import RemodelMigrate
import RemodelPostgres
import RemodelSchema
import RemodelStore
import RemodelTestSupport
import Testing

/// Every step kind on both engines, from one test body: a two-version history written as a
/// user writes it (snapshots and a migration file), objects imported at version 1 from JSON,
/// the store migrated, and its export compared with the export the manual's rules (Docs/Guides.docc/MigrationFiles.md) give. Each
/// case runs on SQLite and on PostgreSQL, each with the table rewrite the planner picks and
/// with every changed table rebuilt (`MigrationPlanner.TableRewrite.rebuild`).
@Suite(.serialized) struct BothEnginesSemanticsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Where a case runs.
    enum Engine: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, sqliteRebuilding, postgres, postgresRebuilding

        var testDescription: String { rawValue }
        var isPostgres: Bool { self == .postgres || self == .postgresRebuilding }
        var rewrite: MigrationPlanner.TableRewrite { self == .sqliteRebuilding || self == .postgresRebuilding ? .rebuild : .automatic }
    }

    /// One step kind's history, objects and result.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var v1: String
        var v2: String
        var steps: String
        var input: String
        /// The export after the migration, or `nil` when it must fail.
        var expected: String?
        /// Text the error must contain, when the migration must fail.
        var error: String? = nil
        /// The closure a `custom` step calls, by name.
        var custom: (name: String, body: CustomStep)? = nil

        var testDescription: String { name }
    }

    @Test(arguments: Self.cases, Engine.allCases)
    func migratesAsREADMESays(_ example: Case, on engine: Engine) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-engines-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let history = try Self.history(example, in: folder)
        var migrator = Migrator(history: history)
        migrator.tableRewrite = engine.rewrite
        if let custom = example.custom { migrator.register(custom.name, custom.body) }
        var parser = JSONParser(example.input)
        let input = try parser.parse()
        let store: any EngineStore =
            engine.isPostgres
            ? try PostgresEngineStore(orSkip: { Skip($0) })
            : try SQLiteEngineStore(folder: folder)
        try store.importDocument(input, schema: history.schema(at: 1)!)
        let before = try store.export(history: history)
        do {
            try store.migrate(migrator)
        } catch {
            guard let expected = example.error else { throw error }
            #expect("\(error)".contains(expected), "\(error)")
            #expect("\(error)".contains("Nothing was changed"), "\(error)")
            #expect(try store.export(history: history) == before, "the store changed")
            return
        }
        #expect(example.error == nil, "the migration did not fail")
        var expectedParser = JSONParser(try #require(example.expected))
        let expected = try expectedParser.parse()
        let exported = try store.export(history: history)
        #expect(exported == expected, "\(exported.prettyText)")
    }

    // MARK: - The cases

    static let cases: [Case] = [
        Case(
            // A reshaped embedded object keeps its null members, on both engines.
            name: "an embedded type gains a property; set reads through an embedded object",
            v1: """
                objects:
                  Address:
                    embedded: true
                    properties:
                      street: string
                      zip: int?
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      home: Address?
                """,
            v2: """
                objects:
                  Address:
                    embedded: true
                    properties:
                      street: string
                      zip: int?
                      city: { type: string, default: Paris }
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      home: Address?
                      label: string
                """,
            steps: "  - set: { type: Person, property: label, value: \"{home.street} {home.zip}\" }\n",
            input:
                #"{"Person": [{"id": "p1", "home": {"street": "Rue de Rivoli", "zip": 75001}}, {"id": "p2", "home": null}, {"id": "p3", "home": {"street": "Broadway", "zip": null}}]}"#,
            expected:
                #"{"Person": [{"id": "p1", "home": {"city": "Paris", "street": "Rue de Rivoli", "zip": 75001}, "label": "Rue de Rivoli 75001"}, {"id": "p2", "home": null, "label": " "}, {"id": "p3", "home": {"city": "Paris", "street": "Broadway", "zip": null}, "label": "Broadway "}]}"#
        ),
        Case(
            name: "convert to and from dates, decimals and URLs by Swift's own rules",
            v1: """
                objects:
                  Row:
                    primaryKey: id
                    properties:
                      id: int
                      due: string
                      price: string
                      link: string
                      seen: date
                """,
            v2: """
                objects:
                  Row:
                    primaryKey: id
                    properties:
                      id: int
                      due: date?
                      price: decimal128?
                      link: url?
                      seen: string
                """,
            steps: """
                  - convert: { type: Row, property: due, to: date?, onError: null }
                  - convert: { type: Row, property: price, to: decimal128?, onError: null }
                  - convert: { type: Row, property: link, to: url?, onError: null }
                  - convert: { type: Row, property: seen, to: string }

                """,
            input:
                #"{"Row": [{"id": 1, "due": " 2024-05-01 ", "price": "1.50", "link": "https://example.com/a?b=c", "seen": "2026-12-03T12:00:00.250000Z"}, {"id": 2, "due": "2024-05-01T09:30+02:00", "price": "1e3", "link": "", "seen": "1969-12-31T23:59:59.999999Z"}, {"id": 3, "due": "May 1st", "price": "abc", "link": "not a url at all ::", "seen": "2026-01-01T00:00:00Z"}, {"id": 4, "due": "2024-05-01", "price": "1.50", "link": "https://example.com/a?b=c", "seen": "2026-01-01T00:00:00Z"}]}"#,
            expected:
                #"{"Row": [{"id": 1, "due": "2024-05-01T00:00:00Z", "price": "1.5", "link": "https://example.com/a?b=c", "seen": "2026-12-03T12:00:00.250000Z"}, {"id": 2, "due": "2024-05-01T07:30:00Z", "price": "1000", "link": null, "seen": "1969-12-31T23:59:59.999999Z"}, {"id": 3, "due": null, "price": null, "link": null, "seen": "2026-01-01T00:00:00Z"}, {"id": 4, "due": "2024-05-01T00:00:00Z", "price": "1.5", "link": "https://example.com/a?b=c", "seen": "2026-01-01T00:00:00Z"}]}"#
        ),
        Case(
            name: "custom reads the old objects and writes new values",
            v1: """
                objects:
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      phone: string
                  Dog:
                    primaryKey: id
                    properties:
                      id: string
                      owner: string
                """,
            v2: """
                objects:
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      phone: string
                      dogCount: { type: int, default: 0 }
                  Dog:
                    primaryKey: id
                    properties:
                      id: string
                      owner: string
                """,
            steps: "  - custom: { name: normalise, type: Person, reads: [Dog] }\n",
            input:
                #"{"Person": [{"id": "p1", "phone": "(555) 123-4567"}, {"id": "p2", "phone": "555.987"}], "Dog": [{"id": "d1", "owner": "p1"}, {"id": "d2", "owner": "p1"}, {"id": "d3", "owner": "p2"}]}"#,
            expected:
                #"{"Person": [{"id": "p1", "phone": "5551234567", "dogCount": 2}, {"id": "p2", "phone": "555987", "dogCount": 1}], "Dog": [{"id": "d1", "owner": "p1"}, {"id": "d2", "owner": "p1"}, {"id": "d3", "owner": "p2"}]}"#,
            custom: (
                "normalise",
                { object in
                    guard case .text(let phone) = object.old["phone"], case .text(let key) = object.old["id"] else { return }
                    object.new["phone"] = .text(String(phone.filter(\.isNumber)))
                    let dogs = try object.oldObjects.all("Dog").filter { $0["owner"] == .text(key) }
                    object.new["dogCount"] = .integer(Int64(dogs.count))
                }
            )
        ),
        Case(
            // The closure reads the old elements, creates the objects (their keys generated by
            // $uuid would do too) and writes the collection, which starts empty.
            name: "a custom step that writes a collection and creates the objects it links to",
            v1: "objects:\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      tags: list<string>\n",
            v2: """
                objects:
                  Note:
                    primaryKey: id
                    properties:
                      id: int
                      tags: list<Tag>
                      tagCount: { type: int, default: 0 }
                  Tag:
                    primaryKey: name
                    properties:
                      name: string
                      upper: string
                """,
            steps: "  - custom: { name: tagObjects, type: Note, writes: [tags] }\n",
            input: #"{"Note": [{"id": 1, "tags": ["b", "a", "b"]}, {"id": 2, "tags": ["c", "a"]}, {"id": 3, "tags": []}]}"#,
            // Each visit creates what it links to; A, created twice, is made once.
            expected:
                #"{"Note": [{"id": 1, "tags": ["B", "A"], "tagCount": 3}, {"id": 2, "tags": ["C", "A"], "tagCount": 2}, {"id": 3, "tags": [], "tagCount": 0}], "Tag": [{"name": "B", "upper": "yes"}, {"name": "A", "upper": "yes"}, {"name": "C", "upper": "yes"}]}"#,
            custom: (
                "tagObjects",
                { object in
                    guard case .list(let old) = object.old["tags"], case .list(let now) = object.new["tags"] else { return }
                    precondition(now.isEmpty, "a collection a custom step writes starts empty")
                    var seen: [StoreValue] = []
                    for case .text(let tag) in old where !seen.contains(.text(tag.uppercased())) {
                        seen.append(.text(tag.uppercased()))
                        object.create("Tag", ["name": .text(tag.uppercased()), "upper": .text("yes")])
                    }
                    object.new["tags"] = .list(seen)
                    object.new["tagCount"] = .integer(Int64(old.count))
                }
            )
        ),
        Case(
            name: "an object a custom step creates without a required value stops the migration",
            v1: "objects:\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      tags: list<string>\n",
            v2:
                "objects:\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      tags: list<Tag>\n  Tag:\n    primaryKey: name\n    properties:\n      name: string\n      upper: string\n",
            steps: "  - custom: { name: tagObjects, type: Note, writes: [tags] }\n",
            input: #"{"Note": [{"id": 1, "tags": ["b"]}]}"#,
            expected: nil,
            error: "it created a Tag that cannot be stored",
            custom: (
                "tagObjects",
                { object in
                    object.create("Tag", ["name": .text("b")])
                    object.new["tags"] = .list([.text("b")])
                }
            )
        ),
        Case(
            // low's raw value 0 now belongs to normal: read as it is, every low would become normal.
            name: "a removed case whose raw value a remaining case now has stops the migration",
            v1:
                "enums:\n  Level:\n    type: int\n    cases: { low: 0, normal: 1, high: 2 }\nobjects:\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      level: Level\n",
            v2: "enums:\n  Level:\n    type: int\n    cases: { normal: 0, high: 1 }\nobjects:\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      level: Level\n",
            steps: "  []\n",
            input: #"{"Note": [{"id": 1, "level": 0}, {"id": 2, "level": 1}, {"id": 3, "level": 2}]}"#,
            expected: nil,
            error: "1 Note object with values of enum cases removed from Level (low) in Note.level: 1 (0)"
        ),
        Case(
            name: "a value a custom step writes that is no case of its enum stops the migration",
            v1: "enums:\n  Priority:\n    type: string\n    cases: [low, high]\nobjects:\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      priority: Priority\n",
            v2: "enums:\n  Priority:\n    type: string\n    cases: [low, high]\nobjects:\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      priority: Priority\n",
            steps: "  - custom: { name: bump, type: Note }\n",
            input: #"{"Note": [{"id": 1, "priority": "low"}]}"#,
            expected: nil,
            error: "it set priority to a value version 2 forbids: \"urgent\" is no case of Priority (low, high)",
            custom: ("bump", { object in object.new["priority"] = .text("urgent") })
        ),
        Case(
            name: "embedded JSON a custom step writes that is no object of its type stops the migration",
            v1:
                "enums:\n  Priority:\n    type: string\n    cases: [low, high]\nobjects:\n  Box:\n    embedded: true\n    properties:\n      priority: Priority\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      box: Box?\n",
            v2:
                "enums:\n  Priority:\n    type: string\n    cases: [low, high]\nobjects:\n  Box:\n    embedded: true\n    properties:\n      priority: Priority\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      box: Box?\n",
            steps: "  - custom: { name: box, type: Note }\n",
            input: #"{"Note": [{"id": 1, "box": null}]}"#,
            expected: nil,
            error: "it set box to a value version 2 forbids: not an embedded Box: .priority:",
            custom: ("box", { object in object.new["box"] = .text(#"{"priority":"urgent"}"#) })
        ),
        Case(
            name: "a custom step that changes a primary key stops the migration",
            v1: "objects:\n  Note:\n    primaryKey: id\n    properties:\n      id: string\n",
            v2: "objects:\n  Note:\n    primaryKey: id\n    properties:\n      id: string\n",
            steps: "  - custom: { name: rekey, type: Note }\n",
            input: #"{"Note": [{"id": "A"}]}"#,
            expected: nil,
            error: "it changed the primary key 'id'",
            custom: ("rekey", { object in object.new["id"] = .text("a") })
        ),
        Case(
            name: "renameProperty, an added property with its default, a removed one",
            v1: """
                objects:
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      name: string
                      employeeId: string
                      age: int?
                """,
            v2: """
                objects:
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      name: string
                      personId: string
                      nickname: { type: string, default: none }
                      joined: { type: date, default: $now }
                """,
            steps: "  - renameProperty: { type: Person, from: employeeId, to: personId }\n",
            input: #"{"Person": [{"id": "p1", "name": "Ada", "employeeId": "E1", "age": 36}, {"id": "p2", "name": "Bob", "employeeId": "E2"}]}"#,
            expected:
                #"{"Person": [{"id": "p1", "name": "Ada", "personId": "E1", "nickname": "none", "joined": "2027-01-15T08:00:00Z"}, {"id": "p2", "name": "Bob", "personId": "E2", "nickname": "none", "joined": "2027-01-15T08:00:00Z"}]}"#
        ),
        Case(
            name: "renameType keeps objects, links, lists and their order",
            v1: """
                objects:
                  Doggo:
                    primaryKey: id
                    properties:
                      id: uuid
                      name: string
                      toys: "list<string>"
                  Person:
                    primaryKey: id
                    properties:
                      id: int
                      pet: Doggo?
                      dogs: "list<Doggo>"
                """,
            v2: """
                objects:
                  Dog:
                    primaryKey: id
                    properties:
                      id: uuid
                      name: string
                      toys: "list<string>"
                  Person:
                    primaryKey: id
                    properties:
                      id: int
                      pet: Dog?
                      dogs: "list<Dog>"
                """,
            steps: "  - renameType: { from: Doggo, to: Dog }\n",
            input:
                #"{"Doggo": [{"id": "00000000-0000-0000-0000-0000000000D1", "name": "Rex", "toys": ["rope", "ball"]}, {"id": "00000000-0000-0000-0000-0000000000D2", "name": "Fido", "toys": []}], "Person": [{"id": 1, "pet": "00000000-0000-0000-0000-0000000000D2", "dogs": ["00000000-0000-0000-0000-0000000000D2", "00000000-0000-0000-0000-0000000000D1"]}, {"id": 2, "pet": null, "dogs": []}]}"#,
            expected:
                #"{"Dog": [{"id": "00000000-0000-0000-0000-0000000000D1", "name": "Rex", "toys": ["rope", "ball"]}, {"id": "00000000-0000-0000-0000-0000000000D2", "name": "Fido", "toys": []}], "Person": [{"id": 1, "pet": "00000000-0000-0000-0000-0000000000D2", "dogs": ["00000000-0000-0000-0000-0000000000D2", "00000000-0000-0000-0000-0000000000D1"]}, {"id": 2, "pet": null, "dogs": []}]}"#
        ),
        Case(
            name: "set with a template reads values at that point of the migration",
            v1: """
                objects:
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      first: string
                      last: string?
                      age: int
                      active: bool
                """,
            v2: """
                objects:
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      first: string
                      last: string?
                      age: int
                      active: bool
                      label: string
                """,
            steps: "  - set: { type: Person, property: label, value: \"{first} {last} ({age}, {active}) {{x}}\" }\n",
            input:
                #"{"Person": [{"id": "p1", "first": "Ada", "last": "Lovelace", "age": 36, "active": true}, {"id": "p2", "first": "Cher", "last": null, "age": -1, "active": false}]}"#,
            expected:
                #"{"Person": [{"id": "p1", "first": "Ada", "last": "Lovelace", "age": 36, "active": true, "label": "Ada Lovelace (36, true) {x}"}, {"id": "p2", "first": "Cher", "last": null, "age": -1, "active": false, "label": "Cher  (-1, false) {x}"}]}"#
        ),
        Case(
            name: "split trims and cuts at the first separator",
            v1: "objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: int\n      name: string?\n",
            v2: "objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: int\n      first: string\n      middle: string\n      last: string\n",
            steps: "  - split: { type: Person, property: name, into: [first, middle, last], separator: \" \" }\n",
            input:
                #"{"Person": [{"id": 1, "name": "  Grace   Brewster Murray Hopper "}, {"id": 2, "name": "Cher"}, {"id": 3, "name": ""}, {"id": 4, "name": null}, {"id": 5, "name": "\tAda\nLovelace"}]}"#,
            expected:
                #"{"Person": [{"id": 1, "first": "Grace", "middle": "Brewster", "last": "Murray Hopper"}, {"id": 2, "first": "Cher", "middle": "", "last": ""}, {"id": 3, "first": "", "middle": "", "last": ""}, {"id": 4, "first": "", "middle": "", "last": ""}, {"id": 5, "first": "Ada\nLovelace", "middle": "", "last": ""}]}"#
        ),
        Case(
            name: "convert between text, numbers, bools and uuids, with each onError",
            v1: """
                objects:
                  Row:
                    primaryKey: id
                    properties:
                      id: int
                      count: string
                      maybe: string?
                      ratio: string
                      flag: string
                      code: int
                      key: string
                      back: uuid
                      on: bool
                """,
            v2: """
                objects:
                  Row:
                    primaryKey: id
                    properties:
                      id: int
                      count: { type: int, default: -1 }
                      maybe: int?
                      ratio: double
                      flag: bool
                      code: string
                      key: uuid?
                      back: string
                      on: string
                """,
            steps: """
                  - convert: { type: Row, property: count, to: int, onError: default }
                  - convert: { type: Row, property: maybe, to: int?, onError: null }
                  - convert: { type: Row, property: ratio, to: double, onError: default }
                  - convert: { type: Row, property: flag, to: bool, onError: default }
                  - convert: { type: Row, property: code, to: string }
                  - convert: { type: Row, property: key, to: uuid?, onError: null }
                  - convert: { type: Row, property: back, to: string }
                  - convert: { type: Row, property: on, to: string }

                """,
            input:
                #"{"Row": [{"id": 1, "count": " +007 ", "maybe": "12.5", "ratio": "-2.5e3", "flag": " YES ", "code": -9007199254740993, "key": "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "back": "00000000-0000-0000-0000-0000000000AB", "on": true}, {"id": 2, "count": "n/a", "maybe": "42", "ratio": "1e400", "flag": "maybe", "code": 0, "key": "not a uuid", "back": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "on": false}, {"id": 3, "count": "9999999999999999999", "maybe": null, "ratio": ".5", "flag": "0", "code": 7, "key": "", "back": "00000000-0000-0000-0000-000000000001", "on": true}]}"#,
            expected:
                #"{"Row": [{"id": 1, "count": 7, "maybe": null, "ratio": -2500.0, "flag": true, "code": "-9007199254740993", "key": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "back": "00000000-0000-0000-0000-0000000000AB", "on": "true"}, {"id": 2, "count": -1, "maybe": 42, "ratio": 0.0, "flag": false, "code": "0", "key": null, "back": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "on": "false"}, {"id": 3, "count": -1, "maybe": null, "ratio": 0.5, "flag": false, "code": "7", "key": null, "back": "00000000-0000-0000-0000-000000000001", "on": "true"}]}"#
        ),
        Case(
            name: "convert with onError fail stops with a data error and changes nothing",
            v1: "objects:\n  Dog:\n    primaryKey: id\n    properties:\n      id: string\n      weight: string\n",
            v2: "objects:\n  Dog:\n    primaryKey: id\n    properties:\n      id: string\n      weight: int\n",
            steps: "  - convert: { type: Dog, property: weight, to: int, onError: fail }\n",
            input: #"{"Dog": [{"id": "d1", "weight": "30"}, {"id": "d2", "weight": "heavy"}, {"id": "d3", "weight": "12.5"}]}"#,
            expected: nil,
            error: "2 Dog objects with values that cannot be converted to int in Dog.weight: \"d2\" (\"heavy\"), \"d3\" (\"12.5\")"
        ),
        Case(
            name: "mapValues into an enum, raw values kept, otherwise for the rest",
            v1: "objects:\n  Person:\n    primaryKey: id\n    properties:\n      id: int\n      unit: string?\n",
            v2: """
                enums:
                  Unit:
                    type: string
                    cases: { engineering: Engineering, sales: Sales, hr: Human Resources }
                objects:
                  Person:
                    primaryKey: id
                    properties:
                      id: int
                      unit: Unit?
                """,
            steps: "  - mapValues: { type: Person, property: unit, values: { Eng: engineering, HR: hr }, otherwise: sales }\n",
            input: #"{"Person": [{"id": 1, "unit": "Eng"}, {"id": 2, "unit": "HR"}, {"id": 3, "unit": "Engineering"}, {"id": 4, "unit": "eng"}, {"id": 5, "unit": null}]}"#,
            expected:
                #"{"Person": [{"id": 1, "unit": "Engineering"}, {"id": 2, "unit": "Human Resources"}, {"id": 3, "unit": "Engineering"}, {"id": 4, "unit": "Sales"}, {"id": 5, "unit": null}]}"#
        ),
        Case(
            name: "deleteObjects removes the objects and every link to them",
            v1: """
                objects:
                  Dog:
                    primaryKey: id
                    properties:
                      id: string
                      weight: int
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      best: Dog?
                      dogs: "list<Dog>"
                """,
            v2: """
                objects:
                  Dog:
                    primaryKey: id
                    properties:
                      id: string
                      weight: int
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      best: Dog?
                      dogs: "list<Dog>"
                """,
            steps: "  - deleteObjects: { type: Dog, where: { weight: { lt: 0 } } }\n",
            input:
                #"{"Dog": [{"id": "a", "weight": 3}, {"id": "b", "weight": -1}, {"id": "c", "weight": 5}], "Person": [{"id": "p", "best": "b", "dogs": ["a", "b", "c"]}, {"id": "q", "best": "c", "dogs": ["b"]}]}"#,
            expected:
                #"{"Dog": [{"id": "a", "weight": 3}, {"id": "c", "weight": 5}], "Person": [{"id": "p", "best": null, "dogs": ["a", "c"]}, {"id": "q", "best": "c", "dogs": []}]}"#
        ),
        Case(
            name: "createObjects with addTo appends to the matching objects' lists",
            v1: """
                objects:
                  Dog:
                    primaryKey: id
                    properties:
                      id: string
                      name: string
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      name: string
                      dogs: "list<Dog>"
                """,
            v2: """
                objects:
                  Dog:
                    primaryKey: id
                    properties:
                      id: string
                      name: string
                      age: { type: int, default: 1 }
                  Person:
                    primaryKey: id
                    properties:
                      id: string
                      name: string
                      dogs: "list<Dog>"
                """,
            steps:
                "  - createObjects: { type: Dog, objects: [{ id: max, name: Max }, { id: rex, name: Rex, age: 9 }], addTo: { type: Person, property: dogs, where: { name: Ada } } }\n",
            input: #"{"Dog": [{"id": "old", "name": "Old"}], "Person": [{"id": "p1", "name": "Ada", "dogs": ["old"]}, {"id": "p2", "name": "Bob", "dogs": []}]}"#,
            expected:
                #"{"Dog": [{"id": "old", "name": "Old", "age": 1}, {"id": "max", "name": "Max", "age": 1}, {"id": "rex", "name": "Rex", "age": 9}], "Person": [{"id": "p1", "name": "Ada", "dogs": ["old", "max", "rex"]}, {"id": "p2", "name": "Bob", "dogs": []}]}"#
        ),
        Case(
            name: "a removed property's slot, a retype, sets and maps across a rename",
            v1: """
                objects:
                  Item:
                    primaryKey: id
                    properties:
                      id: int
                      size: string
                      legacy: int
                      tags: "set<string>"
                      notes: "map<int>"
                """,
            v2: """
                objects:
                  Thing:
                    renamedFrom: Item
                    primaryKey: id
                    properties:
                      id: int
                      size: int
                      label: string
                      tags: "set<string>"
                      notes: "map<int>"
                """,
            steps: """
                  - convert: { type: Item, property: size, to: int, onError: default }
                  - set: { type: Thing, property: label, value: "n{legacy}" }

                """,
            input:
                #"{"Item": [{"id": 2, "size": "10", "legacy": 7, "tags": ["b", "a"], "notes": {"z": 1, "a": 2}}, {"id": 1, "size": "xl", "legacy": 8, "tags": [], "notes": {}}]}"#,
            // An integer key is SQLite's rowid: objects come in key order, not the order they were added in.
            expected:
                #"{"Thing": [{"id": 1, "size": 0, "label": "n8", "tags": [], "notes": {}}, {"id": 2, "size": 10, "label": "n7", "tags": ["a", "b"], "notes": {"a": 2, "z": 1}}]}"#
        ),
        Case(
            name: "a value becomes a link by key; a key no object has becomes null with onError null",
            v1: "objects:\n  Owner:\n    primaryKey: id\n    properties:\n      id: int\n  Pet:\n    primaryKey: id\n    properties:\n      id: int\n      owner: int32?\n",
            v2: "objects:\n  Owner:\n    primaryKey: id\n    properties:\n      id: int\n  Pet:\n    primaryKey: id\n    properties:\n      id: int\n      owner: Owner?\n",
            steps: "  - convert: { type: Pet, property: owner, to: Owner?, onError: null }\n",
            input: #"{"Owner": [{"id": 1}, {"id": 2}], "Pet": [{"id": 10, "owner": 1}, {"id": 11, "owner": null}, {"id": 12, "owner": 7}, {"id": 13, "owner": 2}]}"#,
            expected: #"{"Owner": [{"id": 1}, {"id": 2}], "Pet": [{"id": 10, "owner": 1}, {"id": 11, "owner": null}, {"id": 12, "owner": null}, {"id": 13, "owner": 2}]}"#
        ),
        Case(
            name: "a value becoming a link stops on a key no object has, with onError fail",
            v1: "objects:\n  Owner:\n    primaryKey: id\n    properties:\n      id: string\n  Pet:\n    primaryKey: id\n    properties:\n      id: int\n      owner: string\n",
            v2: "objects:\n  Owner:\n    primaryKey: id\n    properties:\n      id: string\n  Pet:\n    primaryKey: id\n    properties:\n      id: int\n      owner: Owner?\n",
            steps: "  - convert: { type: Pet, property: owner, to: Owner?, onError: fail }\n",
            input: #"{"Owner": [{"id": "ada"}], "Pet": [{"id": 10, "owner": "ada"}, {"id": 11, "owner": "bob"}]}"#,
            expected: nil,
            error: "1 Pet object with values that are no Owner's primary key, so they cannot become links to one in Pet.owner: 11 (\"bob\")"
        ),
        Case(
            name: "a link becomes the key of the object it pointed at",
            v1: "objects:\n  Owner:\n    primaryKey: id\n    properties:\n      id: int\n  Pet:\n    primaryKey: id\n    properties:\n      id: int\n      owner: Owner?\n",
            v2: "objects:\n  Owner:\n    primaryKey: id\n    properties:\n      id: int\n  Pet:\n    primaryKey: id\n    properties:\n      id: int\n      owner: string?\n",
            steps: "  - convert: { type: Pet, property: owner, to: string?, onError: fail }\n",
            input: #"{"Owner": [{"id": 1}, {"id": 2}], "Pet": [{"id": 10, "owner": 1}, {"id": 11, "owner": null}, {"id": 13, "owner": 2}]}"#,
            expected: #"{"Owner": [{"id": 1}, {"id": 2}], "Pet": [{"id": 10, "owner": "1"}, {"id": 11, "owner": null}, {"id": 13, "owner": "2"}]}"#
        ),
        Case(
            // New objects come after the existing ones, each step's in the order of their keys.
            name: "a list of values becomes a list of objects keyed by the values, in order, creating the missing ones",
            v1:
                "objects:\n  Tag:\n    primaryKey: name\n    properties:\n      name: string\n      color: { type: string, default: gray }\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      tags: list<string>\n      labels: set<string>\n",
            v2:
                "objects:\n  Tag:\n    primaryKey: name\n    properties:\n      name: string\n      color: { type: string, default: gray }\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      tags: list<Tag>\n      labels: set<Tag>\n",
            steps: "  - convert: { type: Note, property: tags, to: list<Tag>, onError: create }\n  - convert: { type: Note, property: labels, to: set<Tag>, onError: create }\n",
            input:
                #"{"Tag": [{"name": "home", "color": "blue"}], "Note": [{"id": 1, "tags": ["work", "home", "work"], "labels": ["a"]}, {"id": 2, "tags": ["urgent"], "labels": []}]}"#,
            expected:
                #"{"Tag": [{"name": "home", "color": "blue"}, {"name": "urgent", "color": "gray"}, {"name": "work", "color": "gray"}, {"name": "a", "color": "gray"}], "Note": [{"id": 1, "tags": ["work", "home", "work"], "labels": ["a"]}, {"id": 2, "tags": ["urgent"], "labels": []}]}"#
        ),
        Case(
            name: "a list of links becomes a list of the objects' keys",
            v1: "objects:\n  Tag:\n    primaryKey: id\n    properties:\n      id: int\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      tags: list<Tag>\n",
            v2: "objects:\n  Tag:\n    primaryKey: id\n    properties:\n      id: int\n  Note:\n    primaryKey: id\n    properties:\n      id: int\n      tags: list<string>\n",
            steps: "  - convert: { type: Note, property: tags, to: list<string> }\n",
            input: #"{"Tag": [{"id": 5}, {"id": 6}], "Note": [{"id": 1, "tags": [6, 5, 6]}]}"#,
            expected: #"{"Tag": [{"id": 5}, {"id": 6}], "Note": [{"id": 1, "tags": ["6", "5", "6"]}]}"#
        ),
        Case(
            name: "values of removed enum cases stop the migration",
            v1:
                "enums:\n  Priority:\n    type: string\n    cases: [low, normal, urgent]\nobjects:\n  Note:\n    primaryKey: id\n    properties:\n      id: string\n      priority: Priority\n",
            v2:
                "enums:\n  Priority:\n    type: string\n    cases: [normal, critical]\nobjects:\n  Note:\n    primaryKey: id\n    properties:\n      id: string\n      priority: Priority\n",
            steps: "  []\n",
            input: #"{"Note": [{"id": "a", "priority": "low"}, {"id": "b", "priority": "normal"}]}"#,
            expected: nil,
            error: "1 Note object with values of enum cases removed from Priority (low, urgent) in Note.priority: \"a\" (\"low\")"
        ),
        Case(
            name: "a mapValues on a type embedded in an embedded type maps each value once",
            v1:
                "enums:\n  Priority:\n    type: string\n    cases: [low, normal, urgent]\nobjects:\n  Inner:\n    embedded: true\n    properties:\n      priority: Priority\n  Box:\n    embedded: true\n    properties:\n      inner: Inner?\n  Owner:\n    primaryKey: id\n    properties:\n      id: int\n      box: Box?\n",
            v2:
                "enums:\n  Priority:\n    type: string\n    cases: [low, normal, urgent]\nobjects:\n  Inner:\n    embedded: true\n    properties:\n      priority: Priority\n  Box:\n    embedded: true\n    properties:\n      inner: Inner?\n  Owner:\n    primaryKey: id\n    properties:\n      id: int\n      box: Box?\n",
            steps: "  - mapValues: { type: Inner, property: priority, values: { low: normal, normal: urgent } }\n",
            input:
                #"{"Owner": [{"id": 1, "box": {"inner": {"priority": "low"}}}, {"id": 2, "box": {"inner": {"priority": "normal"}}}, {"id": 3, "box": {"inner": null}}, {"id": 4, "box": null}]}"#,
            expected:
                #"{"Owner": [{"id": 1, "box": {"inner": {"priority": "normal"}}}, {"id": 2, "box": {"inner": {"priority": "urgent"}}}, {"id": 3, "box": {"inner": null}}, {"id": 4, "box": null}]}"#
        ),
        Case(
            name: "values of removed enum cases in a type embedded in an embedded type stop the migration",
            v1:
                "enums:\n  Priority:\n    type: string\n    cases: [low, normal, urgent]\nobjects:\n  Inner:\n    embedded: true\n    properties:\n      priority: Priority\n  Box:\n    embedded: true\n    properties:\n      inner: Inner?\n  Owner:\n    primaryKey: id\n    properties:\n      id: int\n      box: Box?\n",
            v2:
                "enums:\n  Priority:\n    type: string\n    cases: [normal]\nobjects:\n  Inner:\n    embedded: true\n    properties:\n      priority: Priority\n  Box:\n    embedded: true\n    properties:\n      inner: Inner?\n  Owner:\n    primaryKey: id\n    properties:\n      id: int\n      box: Box?\n",
            steps: "  []\n",
            input:
                #"{"Owner": [{"id": 1, "box": {"inner": {"priority": "urgent"}}}, {"id": 2, "box": {"inner": {"priority": "normal"}}}, {"id": 3, "box": {"inner": null}}, {"id": 4, "box": null}]}"#,
            expected: nil,
            error: "1 Owner object with values of enum cases removed from Priority (low, urgent) in Owner.box.inner.priority: 1 (\"urgent\")"
        ),
    ]

    // MARK: - Helpers

    /// The two-version history of `example`, written as files and loaded as the CLI loads them.
    static func history(_ example: Case, in folder: URL) throws -> MigrationHistory {
        try load(example, in: folder).history
    }

    /// `history(_:in:)` with where its steps are written, for the locations of diagnostics.
    static func load(_ example: Case, in folder: URL) throws -> (history: MigrationHistory, sources: HistorySources) {
        let migrations = folder.appendingPathComponent("Migrations")
        try FileManager.default.createDirectory(at: migrations.appendingPathComponent("snapshots"), withIntermediateDirectories: true)
        try "description: v1\nsteps: []\n".write(to: migrations.appendingPathComponent("0001-initial.yaml"), atomically: true, encoding: .utf8)
        try ("description: v2\nsteps:\n" + example.steps).write(to: migrations.appendingPathComponent("0002-change.yaml"), atomically: true, encoding: .utf8)
        try example.v1.write(to: migrations.appendingPathComponent("snapshots/v1.yaml"), atomically: true, encoding: .utf8)
        try example.v2.write(to: migrations.appendingPathComponent("snapshots/v2.yaml"), atomically: true, encoding: .utf8)
        let loaded = MigrationHistoryLoader.load(migrations: migrations.path)
        guard let history = loaded.history else {
            throw HistoryProblem(description: loaded.diagnostics.map { "\($0)" }.joined(separator: "\n"))
        }
        return (history, loaded.sources)
    }

    struct HistoryProblem: Error, CustomStringConvertible {
        var description: String
    }

    struct Skip: Error, CustomStringConvertible {
        var description: String
        init(_ reason: String) { description = reason }
    }
}

/// A store on one engine, as the data commands use it.
protocol EngineStore {
    func importDocument(_ document: JSONValue, schema: Schema) throws
    func migrate(_ migrator: Migrator) throws
    func export(history: MigrationHistory) throws -> JSONValue
    func version() throws -> Int
}

struct SQLiteEngineStore: EngineStore {
    let path: String

    init(folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("store.db").path
    }

    func importDocument(_ document: JSONValue, schema: Schema) throws {
        _ = try RemodelStore.create(atomicallyAt: path, schema: schema, version: 1) { store in
            try StoreJSON.importDocument(document, into: store)
        }
    }

    func migrate(_ migrator: Migrator) throws {
        _ = try migrator.migrate(storeAt: path, now: BothEnginesSemanticsTests.now)
    }

    func export(history: MigrationHistory) throws -> JSONValue {
        let version = try version()
        let store = try RemodelStore(path: path, schema: history.schema(at: version)!, version: version, options: OpenOptions(readOnly: true))
        return try store.read { try StoreJSON.export($0) }
    }

    func version() throws -> Int {
        try RemodelStore.inspect(path: path).version
    }
}

struct PostgresEngineStore: EngineStore {
    let target: PostgresTarget

    init(orSkip skip: (String) -> any Error) throws {
        let server = try PostgresTestServer.shared(orSkip: skip)
        target = try PostgresTarget(server.url(database: try server.makeDatabase()) + "?schema=engines")
    }

    func importDocument(_ document: JSONValue, schema: Schema) throws {
        try PostgresStore.importDocument(document, into: target, source: "the data", expectedVersion: nil, recordedSchema: { _ in schema }, create: (schema, 1))
    }

    func migrate(_ migrator: Migrator) throws {
        _ = try PostgresMigrator(migrator).migrate(at: target, now: BothEnginesSemanticsTests.now)
    }

    func export(history: MigrationHistory) throws -> JSONValue {
        try PostgresStore.export(at: target) { text in loadSchema(yaml: text, file: "recorded").schema }.document
    }

    func version() throws -> Int {
        try PostgresStore.info(at: target) { _ in nil }.version
    }
}
