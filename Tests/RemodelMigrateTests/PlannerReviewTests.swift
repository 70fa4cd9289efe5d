import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore
import Testing

/// Faults a review of the typed planner found: each test failed on the planner before its fix.
@Suite struct PlannerReviewTests {
    static func person(_ extra: [Property] = []) -> ObjectType {
        ObjectType(
            name: "P", primaryKey: "id",
            properties: [
                Property("id", .scalar(.int)), Property("name", .scalar(.string), default: .string("")),
                Property("friend", PropertyType(.object("P"), optional: true)),
            ] + extra)
    }

    static func migrate(_ snapshots: [Schema], _ steps: [MigrationStep], rows: [String]) throws -> StoreFixture {
        let store = try StoreFixture(schema: snapshots[0], version: 1)
        for sql in rows { try store.execute(sql) }
        _ = try Migrator(history: StepSemanticsTests.history(snapshots, steps)).migrate(storeAt: store.path)
        return store
    }

    /// The links of a type removed in the same version were nulled after its table was
    /// dropped: "no such table".
    @Test func deletingObjectsThatARemovedTypeLinksToWorks() throws {
        let target = ObjectType(name: "B", primaryKey: "id", properties: [Property("id", .scalar(.int))])
        let linker = ObjectType(name: "A", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("b", PropertyType(.object("B"), optional: true))])
        let store = try Self.migrate(
            [Schema(objects: [linker, target]), Schema(objects: [target])],
            [
                .deleteObjects(type: "B", where: [.init(property: "id", condition: .equals(.int(1)))])
            ], rows: ["INSERT INTO \"B\" VALUES (1), (2)", "INSERT INTO \"A\" VALUES (10, 1)"])
        defer { store.remove() }
        #expect(try store.query("SELECT \"id\" FROM \"B\"") == [[.integer(2)]])
    }

    /// The condition was evaluated again after the links to the doomed objects were nulled:
    /// a condition on a link to the type itself then deleted nothing.
    @Test func aConditionOnASelfLinkDeletesWhatItChose() throws {
        let schema = Schema(objects: [Self.person()])
        let store = try Self.migrate(
            [schema, schema],
            [
                .deleteObjects(type: "P", where: [.init(property: "friend", condition: .equals(.int(1)))])
            ], rows: ["INSERT INTO \"P\" VALUES (1, 'a', 1), (2, 'b', 1), (3, 'c', 2)"])
        defer { store.remove() }
        #expect(try store.query("SELECT \"id\", \"friend\" FROM \"P\"") == [[.integer(3), .null]])
    }

    /// Values read through a self-link were kept before the deletions: the deleted friend's
    /// name survived, where a read through another table gave "".
    @Test func valuesReadThroughLinksSeeTheDeletions() throws {
        let v2 = Schema(objects: [Self.person([Property("friendName", .scalar(.string), default: .string(""))])])
        let store = try Self.migrate(
            [Schema(objects: [Self.person()]), v2],
            [
                .deleteObjects(type: "P", where: [.init(property: "name", condition: .equals(.string("x")))]),
                .set(type: "P", property: "friendName", value: .template("{friend.name}")),
            ], rows: ["INSERT INTO \"P\" VALUES (1, 'x', NULL), (2, 'y', 1), (3, 'z', 2)"])
        defer { store.remove() }
        #expect(try store.query("SELECT \"id\", \"friendName\" FROM \"P\" ORDER BY 1") == [[.integer(2), .text("")], [.integer(3), .text("y")]])
    }

    static let flagged = Schema(objects: [
        ObjectType(
            name: "F", primaryKey: "id",
            properties: [
                Property("id", .scalar(.int)), Property("flag", .scalar(.bool, optional: true)), Property("label", .scalar(.string), default: .string("")),
            ])
    ])

    /// Any key but true/yes/1 matched false; `on` meant false here and true in `convert`.
    @Test func mapValuesKeysOfABoolAreBoolWords() throws {
        let unknown = StepSemanticsTests.history(
            [Self.flagged, Self.flagged],
            [
                .mapValues(type: "F", property: "label", values: [], otherwise: nil),
                .mapValues(type: "F", property: "flag", values: [.init(from: "banana", to: .bool(true))], otherwise: nil),
            ])
        let diagnostic = try #require(PlanSafetyTests.planningError(unknown)?.diagnostics.first { $0.message.contains("banana") })
        #expect(diagnostic.message.hasSuffix("\"banana\" is not true or false, but the old values are bool?"))
        let store = try Self.migrate(
            [Self.flagged, Self.flagged],
            [
                .mapValues(type: "F", property: "flag", values: [.init(from: "on", to: .bool(false)), .init(from: "off", to: .bool(true))], otherwise: nil)
            ], rows: ["INSERT INTO \"F\" VALUES (1, 1, ''), (2, 0, ''), (3, NULL, '')"])
        defer { store.remove() }
        #expect(try store.query("SELECT \"flag\" FROM \"F\" ORDER BY \"id\"") == [[.integer(0)], [.integer(1)], [.null]])
    }

    /// A null bool in a template read "false"; null is written as "" everywhere else.
    @Test func aNullBoolInATemplateIsEmpty() throws {
        let store = try Self.migrate(
            [Self.flagged, Self.flagged], [.set(type: "F", property: "label", value: .template("[{flag}]"))],
            rows: ["INSERT INTO \"F\" VALUES (1, 1, ''), (2, 0, ''), (3, NULL, '')"])
        defer { store.remove() }
        #expect(try store.query("SELECT \"label\" FROM \"F\" ORDER BY \"id\"") == [[.text("[true]")], [.text("[false]")], [.text("[]")]])
    }

    /// A rename alone of an embedded type's property planned nothing: the stored JSON kept the
    /// old key, and the new property read null.
    @Test func renamingAPropertyOfAnEmbeddedTypeRewritesItsValues() throws {
        let holder = ObjectType(name: "H", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("address", PropertyType(.object("A"), optional: true))])
        let old = ObjectType(name: "A", isEmbedded: true, properties: [Property("note", .scalar(.string))])
        let new = ObjectType(name: "A", isEmbedded: true, properties: [Property("remark", .scalar(.string), renamedFrom: "note")])
        let store = try Self.migrate(
            [Schema(objects: [holder, old]), Schema(objects: [holder, new])], [],
            rows: ["INSERT INTO \"H\" VALUES (1, '{\"note\":\"hi\"}')"])
        defer { store.remove() }
        #expect(try store.query("SELECT \"address\" FROM \"H\"") == [[.text("{\"remark\":\"hi\"}")]])
    }

    /// Any failed step hid every missing-value error of the version, also those it had
    /// nothing to do with.
    @Test func aFailedStepHidesOnlyTheErrorsItCauses() throws {
        let other = ObjectType(name: "K", primaryKey: "id", properties: [Property("id", .scalar(.int))])
        var required = other
        required.properties.append(Property("req", .scalar(.string)))
        var flagged = Self.flagged
        flagged.objects.append(other)
        var v2 = Self.flagged
        v2.objects.append(required)
        let history = StepSemanticsTests.history([flagged, v2], [.set(type: "F", property: "flag", value: .template("maybe"))])
        let diagnostics = try #require(PlanSafetyTests.planningError(history)?.diagnostics)
        #expect(diagnostics.map(\.rule) == ["migration-invalid-value", "migration-missing-value"], "\(diagnostics)")
        #expect(diagnostics.last?.message.contains("'K.req' is new and required") == true)
    }
}
