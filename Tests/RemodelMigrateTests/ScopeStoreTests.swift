import RemodelCore
import Testing

@testable import RemodelPlanning

/// Planning works on copies of a type's scope and stores them back; a copy taken before
/// another store must not silently replace what that store wrote (a check required on an
/// overwritten copy was once printed and never run).
@Suite struct ScopeStoreTests {
    @Test func anOutdatedCopyOfAScopeIsAPlannerFaultNotALostUpdate() throws {
        let note = ObjectType(name: "Note", primaryKey: "id", properties: [Property("id", .scalar(.string)), Property("title", .scalar(.string))])
        let schema = Schema(objects: [note])
        var planner = try VersionPlanner(
            old: schema, new: schema, migration: Migration(version: 2, name: "change", steps: [], checksum: "c"), sources: HistorySources(),
            nowMicroseconds: 0, customSteps: [], tableRewrite: .automatic)
        let target = VersionPlanner.StepTarget.embedded("Note")
        planner.embedded["Note"] = EmbeddedState(kind: .reshape, scope: PropertyScope(oldObject: note, newObject: note, properties: RenameMap()))

        var first = planner.scope(of: target)
        var outdated = planner.scope(of: target)
        first.values["title"] = .column("first", type: .scalar(.string))
        planner.store(first, at: target)
        #expect(planner.diagnostics.isEmpty)

        outdated.values["title"] = .column("outdated", type: .scalar(.string))
        planner.store(outdated, at: target)
        #expect(planner.scope(of: target).values["title"]?.expression == .column("first"))
        #expect(planner.diagnostics.map(\.rule) == ["migration-internal"])

        // A copy taken after the store is current.
        var current = planner.scope(of: target)
        current.values["title"] = .column("second", type: .scalar(.string))
        planner.store(current, at: target)
        #expect(planner.scope(of: target).values["title"]?.expression == .column("second"))
        #expect(planner.diagnostics.count == 1)
    }
}
