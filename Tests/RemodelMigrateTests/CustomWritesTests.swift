import Foundation
import RemodelCore
import RemodelMigrate
import RemodelTestSupport
import Testing

/// A custom step's `writes:` answers the planner's missing-step and missing-value errors for
/// the properties it names, and is checked like any step's names.
@Suite struct CustomWritesTests {
    static func note(_ tags: PropertyType, _ extra: [Property]) -> ObjectType {
        ObjectType(name: "Note", primaryKey: "id", properties: [Property("id", .scalar(.int)), Property("tags", tags)] + extra)
    }
    static let tag = ObjectType(name: "Tag", primaryKey: "name", properties: [Property("name", .scalar(.string))])
    static let v1 = Schema(objects: [note(PropertyType(.scalar(.string), collection: .list), [])])

    static func plan(_ v2: Schema, _ steps: [MigrationStep]) throws -> MigrationPlan {
        let history = MigrationHistory(
            snapshots: [v1, v2],
            migrations: [Migration(version: 1, name: "initial", steps: [], checksum: "c1"), Migration(version: 2, name: "change", steps: steps, checksum: "c2")])
        var migrator = Migrator(history: history)
        migrator.register("fill") { _ in }
        return try migrator.plan(from: 1, now: PlanReferences.now)
    }

    @Test func aRetypedCollectionNeedsAStepUnlessACustomStepWritesIt() throws {
        let v2 = Schema(objects: [Self.note(PropertyType(.object("Tag"), collection: .list), []), Self.tag])
        #expect(throws: (any Error).self) { try Self.plan(v2, [.custom(name: "fill", type: "Note")]) }
        let plan = try Self.plan(v2, [.custom(name: "fill", type: "Note", writes: ["tags"])])
        let summaries = plan.versions[0].changes.map(\.summary)
        #expect(summaries.contains("empty Note.tags for custom step 'fill', which writes it (the closure reads the old elements in `old`)"), "\(summaries)")
    }

    @Test func aNewRequiredPropertyACustomStepWritesNeedsADefault() throws {
        let required = Schema(objects: [Self.note(PropertyType(.scalar(.string), collection: .list), [Property("title", .scalar(.string))])])
        do {
            _ = try Self.plan(required, [.custom(name: "fill", type: "Note", writes: ["title"])])
            Issue.record("a required property without a default was accepted")
        } catch {
            #expect("\(error)".contains("custom step 'fill' writes 'Note.title', which is required and has no default"), "\(error)")
        }
        let optional = Schema(objects: [Self.note(PropertyType(.scalar(.string), collection: .list), [Property("title", .scalar(.string, optional: true))])])
        let plan = try Self.plan(optional, [.custom(name: "fill", type: "Note", writes: ["title"])])
        #expect(plan.versions[0].changes.map(\.summary).contains("start Note.title (string?) at NULL for custom step 'fill', which writes it"))
    }

    @Test func writesNamesAPropertyTheTypeStores() throws {
        do {
            _ = try Self.plan(Self.v1, [.custom(name: "fill", type: "Note", writes: ["tagz"])])
            Issue.record("an unknown property in writes was accepted")
        } catch {
            #expect("\(error)".contains("custom step 'fill' writes 'tagz', which 'Note' does not store in version 2"), "\(error)")
            #expect("\(error)".contains("did you mean 'tags'?"), "\(error)")
        }
    }
}
