import Foundation
import RemodelCore
import RemodelMigrate
import RemodelTestSupport
import Testing

/// Printed = executed: in every reference plan, and in the plans of the histories whose checks
/// once were printed and never run, each change that describes a check owns a query that
/// runs, and each query names the offending objects by key.
@Suite struct DescribedChecksRunTests {
    /// Removed enum cases, at the top level, optional, as an int enum, inside an embedded
    /// object and inside an embedded object's embedded member: the checks a version once
    /// printed and skipped.
    static let removedCases: [PlanReferences.Case] = {
        let priority = { (cases: [String]) in EnumType(name: "Priority", cases: cases.map { EnumType.Case(name: $0, rawValue: .string($0)) }) }
        let level = { (cases: [String: Int64]) in
            EnumType(name: "Level", rawType: .int, cases: cases.sorted { $0.value < $1.value }.map { EnumType.Case(name: $0.key, rawValue: .int($0.value)) })
        }
        let inner = ObjectType(name: "Inner", isEmbedded: true, properties: [Property("priority", PropertyType(.enumeration("Priority")))])
        let box = ObjectType(
            name: "Box", isEmbedded: true,
            properties: [Property("priority", PropertyType(.enumeration("Priority"))), Property("inner", PropertyType(.object("Inner"), optional: true))])
        let note = ObjectType(
            name: "Note", primaryKey: "id",
            properties: [
                Property("id", .scalar(.string)), Property("priority", PropertyType(.enumeration("Priority"))),
                Property("maybe", PropertyType(.enumeration("Priority"), optional: true)),
                Property("level", PropertyType(.enumeration("Level"))), Property("box", PropertyType(.object("Box"), optional: true)),
                Property("boxes", PropertyType(.object("Box"), collection: .list)),
            ])
        let v1 = Schema(enums: [priority(["low", "normal", "urgent"]), level(["low": 1, "normal": 2])], objects: [note, box, inner])
        let v2 = Schema(enums: [priority(["normal", "critical"]), level(["normal": 2])], objects: [note, box, inner])
        let history = MigrationHistory(
            snapshots: [v1, v2],
            migrations: [Migration(version: 1, name: "initial", steps: [], checksum: "c1"), Migration(version: 2, name: "change", steps: [], checksum: "c2")])
        return [PlanReferences.Case(name: "removed-enum-cases", history: history, from: 1)]
    }()

    static let cases = ((try? PlanReferences.all()) ?? []) + removedCases

    @Test(arguments: cases.map(\.name))
    func everyDescribedCheckHasAQueryThatRuns(name: String) throws {
        let testCase = try #require(Self.cases.first { $0.name == name })
        var migrator = Migrator(history: testCase.history)
        for custom in testCase.customSteps { migrator.register(custom) { _ in } }
        let plan = try migrator.plan(from: testCase.from, now: PlanReferences.now)
        var described = 0
        for version in plan.versions {
            for (index, change) in version.changes.enumerated() where change.summary.hasPrefix("check ") {
                described += 1
                let runs = version.operations(ofChange: index).filter {
                    switch $0.operation {
                    case .check, .foreignKeyCheck: true
                    default: false
                    }
                }
                #expect(!runs.isEmpty, "version \(version.version): '\(change.summary)' describes a check that has no query")
            }
            for check in version.checks {
                // The offending objects by key (or their owner's, for elements), a value, at most ten.
                #expect(check.query.columns.count == 2, "\(check.sql)")
                #expect((check.query.limit ?? 0) > 0 && (check.query.limit ?? 0) <= 10, "\(check.sql)")
                #expect(!check.problem.isEmpty && !check.hint.isEmpty)
            }
        }
        if name == "removed-enum-cases" {
            // Each narrowed property: Note.priority, Note.maybe, Note.level, the embedded Box.priority in box and
            // boxes, and Inner.priority inside the single Box.
            let checked = Set(plan.versions[0].checks.map { "\($0.type).\($0.property ?? "")" })
            #expect(
                checked.isSuperset(of: ["Note.priority", "Note.maybe", "Note.level", "Note.box.priority", "Note.boxes.priority", "Note.box.inner.priority"]), "\(checked.sorted())")
            #expect(described >= 4)
        }
    }
}
