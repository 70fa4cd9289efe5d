import Foundation
import RemodelCore
import RemodelMigrate
import RemodelSchema

/// The migration plans kept as reviewed reference files (`Tests/RemodelMigrateTests/References/Plans`):
/// the example history and Realm's example from their first versions, and a focused history
/// per step kind and per automatic change. Rendered with a fixed clock, so the text is the
/// same on every run. Shared by the reference test and `remodel-record-references`.
public enum PlanReferences {
    /// One reference: a history, the version it is planned from, the custom steps a program
    /// registers.
    public struct Case: Sendable {
        public var name: String
        public var history: MigrationHistory
        public var from: Int
        public var customSteps: [String] = []

        public init(name: String, history: MigrationHistory, from: Int, customSteps: [String] = []) {
            self.name = name
            self.history = history
            self.from = from
            self.customSteps = customSteps
        }
    }

    /// The instant `$now` stands for in every reference.
    public static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder of the reference files.
    public static var folder: URL { packageRoot.appendingPathComponent("Tests/RemodelMigrateTests/References/Plans") }

    /// The plan of `testCase` as `remodel migrate` prints it.
    public static func render(_ testCase: Case) throws -> String {
        var migrator = Migrator(history: testCase.history)
        for name in testCase.customSteps { migrator.register(name) { _ in } }
        return MigrationPlanRenderer.text(of: try migrator.plan(from: testCase.from, now: now), store: "app.db")
    }

    public static func all() throws -> [Case] {
        let realm = MigrationHistoryLoader.load(migrations: packageRoot.appendingPathComponent("Examples/RealmMigration/Migrations").path)
        guard let realmHistory = realm.history else { throw LoadError(description: "\(realm.diagnostics)") }
        return [
            Case(name: "example-from-v1", history: ExampleHistory.history, from: 1),
            Case(name: "example-from-v2", history: ExampleHistory.history, from: 2),
            Case(name: "realm-example-from-v1", history: realmHistory, from: 1),
            renameType, renameProperty, set, convert, split, mapValues, deleteObjects, createObjects, custom,
            embed, unembed, reshapeEmbedded, retarget, deepComposition,
        ]
    }

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    static func history(_ snapshots: [Schema], _ steps: [MigrationStep]) -> MigrationHistory {
        MigrationHistory(
            snapshots: snapshots,
            migrations: [
                Migration(version: 1, name: "initial", steps: [], checksum: "c1"),
                Migration(version: 2, name: "change", steps: steps, checksum: "c2"),
            ])
    }

    static func object(_ name: String, key: String? = "id", embedded: Bool = false, _ properties: [Property]) -> ObjectType {
        ObjectType(name: name, primaryKey: embedded ? nil : key, isEmbedded: embedded, properties: (key == nil || embedded ? [] : [Property("id", .scalar(.int))]) + properties)
    }

    static let renameType: Case = {
        let doggo = object("Doggo", [Property("name", .scalar(.string), indexed: true), Property("toys", PropertyType(.scalar(.string), collection: .list))])
        var dog = doggo
        dog.name = "Dog"
        let person = { (target: String) in
            object("Person", [Property("pet", PropertyType(.object(target), optional: true)), Property("dogs", PropertyType(.object(target), collection: .list))])
        }
        return Case(
            name: "step-renameType",
            history: history([Schema(objects: [doggo, person("Doggo")]), Schema(objects: [dog, person("Dog")])], [.renameType(from: "Doggo", to: "Dog")]), from: 1)
    }()

    static let renameProperty: Case = {
        let v1 = object("Pair", [Property("a", .scalar(.string), indexed: true), Property("b", .scalar(.int)), Property("employeeId", .scalar(.string))])
        let v2 = object("Pair", [Property("a", .scalar(.int)), Property("b", .scalar(.string), indexed: true), Property("personId", .scalar(.string))])
        return Case(
            name: "step-renameProperty",
            history: history(
                [Schema(objects: [v1]), Schema(objects: [v2])],
                [
                    .renameProperty(type: "Pair", from: "a", to: "b"), .renameProperty(type: "Pair", from: "b", to: "a"),
                    .renameProperty(type: "Pair", from: "employeeId", to: "personId"),
                ]), from: 1)
    }()

    static let set: Case = {
        let owner = object("Owner", [Property("name", .scalar(.string))])
        let v1 = Schema(objects: [
            object(
                "Person",
                [
                    Property("firstName", .scalar(.string)), Property("lastName", .scalar(.string, optional: true)),
                    Property("owner", PropertyType(.object("Owner"), optional: true)),
                ]), owner,
        ])
        let v2 = Schema(objects: [
            object(
                "Person",
                [
                    Property("firstName", .scalar(.string)), Property("lastName", .scalar(.string, optional: true)),
                    Property("owner", PropertyType(.object("Owner"), optional: true)),
                    Property("displayName", .scalar(.string), default: .string("")), Property("ownerName", .scalar(.string), default: .string("")),
                    Property("level", .scalar(.int), default: .int(0)),
                ]), owner,
        ])
        return Case(
            name: "step-set",
            history: history(
                [v1, v2],
                [
                    .set(type: "Person", property: "displayName", value: .template("{firstName} {lastName}")),
                    .set(type: "Person", property: "ownerName", value: .template("{owner.name}")),
                    .set(type: "Person", property: "level", value: .template("3")),
                ]), from: 1)
    }()

    static let convert: Case = {
        let v1 = object("Reading", [Property("count", .scalar(.string)), Property("price", .scalar(.string)), Property("when", .scalar(.string, optional: true))])
        let v2 = object("Reading", [Property("count", .scalar(.int)), Property("price", .scalar(.double), default: .double(-1)), Property("when", .scalar(.date, optional: true))])
        return Case(
            name: "step-convert",
            history: history(
                [Schema(objects: [v1]), Schema(objects: [v2])],
                [
                    .convert(type: "Reading", property: "count", to: .scalar(.int), onError: .fail),
                    .convert(type: "Reading", property: "price", to: .scalar(.double), onError: .default),
                    .convert(type: "Reading", property: "when", to: .scalar(.date, optional: true), onError: .null),
                ]), from: 1)
    }()

    static let split: Case = {
        let v1 = object("Person", [Property("name", .scalar(.string))])
        let v2 = object(
            "Person",
            [
                Property("first", .scalar(.string), default: .string("")), Property("middle", .scalar(.string), default: .string("")),
                Property("last", .scalar(.string), default: .string("")),
            ])
        return Case(
            name: "step-split",
            history: history(
                [Schema(objects: [v1]), Schema(objects: [v2])],
                [
                    .split(type: "Person", property: "name", into: ["first", "middle", "last"], separator: " ")
                ]), from: 1)
    }()

    static let mapValues: Case = {
        let unit = EnumType(name: "Unit", cases: [EnumType.Case(name: "engineering", rawValue: .string("Engineering")), EnumType.Case(name: "sales", rawValue: .string("Sales"))])
        let v1 = Schema(objects: [object("Person", [Property("unit", .scalar(.string)), Property("team", .scalar(.string, optional: true))])])
        let v2 = Schema(
            enums: [unit],
            objects: [object("Person", [Property("unit", PropertyType(.enumeration("Unit"))), Property("team", PropertyType(.enumeration("Unit"), optional: true))])])
        return Case(
            name: "step-mapValues",
            history: history(
                [v1, v2],
                [
                    .mapValues(type: "Person", property: "unit", values: [.init(from: "Eng", to: .enumCase("engineering"))], otherwise: .enumCase("sales")),
                    .mapValues(
                        type: "Person", property: "team", values: [.init(from: "Eng", to: .enumCase("engineering")), .init(from: "S", to: .enumCase("sales"))], otherwise: nil),
                ]), from: 1)
    }()

    static let deleteObjects: Case = {
        let note = object("Note", [Property("content", .scalar(.string)), Property("size", .scalar(.int))])
        let folder = object("Folder", [Property("pinned", PropertyType(.object("Note"), optional: true)), Property("notes", PropertyType(.object("Note"), collection: .list))])
        let log = object("Log", key: nil, [Property("line", .scalar(.string))])
        let schema = Schema(objects: [note, folder, log])
        return Case(
            name: "step-deleteObjects",
            history: history(
                [schema, schema],
                [
                    .deleteObjects(type: "Note", where: [.init(property: "content", value: .string("")), .init(property: "size", condition: .lessThan(.int(10)))]),
                    .deleteObjects(type: "Log", where: [.init(property: "line", condition: .startsWith("debug:"))]),
                ]), from: 1)
    }()

    static let createObjects: Case = {
        let dog = ObjectType(name: "Dog", primaryKey: "id", properties: [Property("id", .scalar(.uuid), default: .generated(.uuid)), Property("name", .scalar(.string))])
        let v1 = Schema(objects: [object("Person", [Property("name", .scalar(.string))])])
        let v2 = Schema(objects: [
            object(
                "Person",
                [
                    Property("name", .scalar(.string)), Property("dogs", PropertyType(.object("Dog"), collection: .list)),
                    Property("best", PropertyType(.object("Dog"), optional: true)),
                ]), dog,
        ])
        return Case(
            name: "step-createObjects",
            history: history(
                [v1, v2],
                [
                    .createObjects(
                        type: "Dog", objects: [[.init(property: "name", value: .string("Marley"))], [.init(property: "name", value: .string("Lassie"))]],
                        addTo: .init(type: "Person", property: "dogs", where: [.init(property: "name", value: .string("John"))])),
                    .createObjects(
                        type: "Dog", objects: [[.init(property: "name", value: .string("Toto"))]],
                        addTo: .init(type: "Person", property: "best", where: [.init(property: "name", value: .string("Jane"))])),
                ]), from: 1)
    }()

    static let custom: Case = {
        let dog = object("Dog", [Property("name", .scalar(.string))])
        let v1 = Schema(objects: [object("Person", [Property("phone", .scalar(.string)), Property("dogs", PropertyType(.object("Dog"), collection: .list))]), dog])
        return Case(name: "step-custom", history: history([v1, v1], [.custom(name: "normalisePhones", type: "Person", reads: ["Dog"])]), from: 1, customSteps: ["normalisePhones"])
    }()

    static let embed: Case = {
        let address = object("Address", [Property("street", .scalar(.string)), Property("city", .scalar(.string))])
        let embedded = object("Address", embedded: true, [Property("street", .scalar(.string)), Property("city", .scalar(.string))])
        let person = object(
            "Person", [Property("home", PropertyType(.object("Address"), optional: true)), Property("others", PropertyType(.object("Address"), collection: .list))])
        return Case(name: "auto-embed", history: history([Schema(objects: [person, address]), Schema(objects: [person, embedded])], []), from: 1)
    }()

    static let unembed: Case = {
        let embedded = object("Address", embedded: true, [Property("street", .scalar(.string))])
        let table = ObjectType(name: "Address", primaryKey: "id", properties: [Property("id", .scalar(.uuid), default: .generated(.uuid)), Property("street", .scalar(.string))])
        let person = object("Person", [Property("home", PropertyType(.object("Address"), optional: true))])
        return Case(name: "auto-unembed", history: history([Schema(objects: [person, embedded]), Schema(objects: [person, table])], []), from: 1)
    }()

    static let reshapeEmbedded: Case = {
        let old = object("Address", embedded: true, [Property("street", .scalar(.string)), Property("zip", .scalar(.int32)), Property("note", .scalar(.string, optional: true))])
        let new = object(
            "Address", embedded: true,
            [
                Property("road", .scalar(.string), renamedFrom: "street"), Property("zip", .scalar(.int)), Property("country", .scalar(.string), default: .string("NL")),
            ])
        let person = object(
            "Person", [Property("home", PropertyType(.object("Address"), optional: true)), Property("others", PropertyType(.object("Address"), collection: .list))])
        return Case(name: "auto-reshape-embedded", history: history([Schema(objects: [person, old]), Schema(objects: [person, new])], []), from: 1)
    }()

    static let retarget: Case = {
        let dog = object("Dog", [Property("name", .scalar(.string))])
        let cat = object("Cat", [Property("name", .scalar(.string))])
        let v1 = Schema(objects: [
            object("Person", [Property("pets", PropertyType(.object("Dog"), collection: .list)), Property("best", PropertyType(.object("Dog"), optional: true))]), dog, cat,
        ])
        let v2 = Schema(objects: [
            object("Person", [Property("pets", PropertyType(.object("Cat"), collection: .list)), Property("best", PropertyType(.object("Cat"), optional: true))]), dog, cat,
        ])
        return Case(name: "auto-retarget-links", history: history([v1, v2], []), from: 1)
    }()

    /// Twenty `mapValues` on one property, each mapping what the one before made.
    public static let deepComposition: Case = {
        let v1 = object("Item", [Property("code", .scalar(.string))])
        // Each step maps the codes the previous one made: a0 → a1 → … → a20.
        let steps = (1...20).map { index in
            MigrationStep.mapValues(
                type: "Item", property: "code", values: [.init(from: "a\(index - 1)", to: .string("a\(index)")), .init(from: "b\(index - 1)", to: .string("b\(index)"))],
                otherwise: nil)
        }
        return Case(name: "deep-composition", history: history([Schema(objects: [v1]), Schema(objects: [v1])], steps), from: 1)
    }()
}
