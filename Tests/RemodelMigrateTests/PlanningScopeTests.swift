import Foundation
import RemodelCore
import RemodelMigrate
import RemodelTestSupport
import Testing

/// `HistoryCheck` plans each version on its scope (what it changes and what refers to that);
/// it must find exactly what planning the whole schemas finds. Every reference history, with
/// inert types around it (a ring of unrelated types, and a type linking to each of its types
/// so that key and shape changes reach an unchanged type), and with each of its steps left
/// out in turn (so that versions fail), is checked both ways.
@Suite struct PlanningScopeTests {
    static let cases = (try? PlanReferences.all()) ?? []

    /// Whole-plan diagnostics, version by version, as the check would report them.
    static func wholeDiagnostics(_ history: MigrationHistory) -> [Diagnostic] {
        let custom = history.customStepNames
        let planner = MigrationPlanner(history: history, customSteps: custom)
        var diagnostics: [Diagnostic] = []
        for version in stride(from: 2, through: history.currentVersion, by: 1) {
            do {
                _ = try planner.plan(from: version - 1, to: version, now: Date(timeIntervalSince1970: 0))
            } catch let error as MigrationPlanningError {
                diagnostics += error.diagnostics
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        return diagnostics.sortedByLocation()
    }

    /// `history` with inert types added to every snapshot: a ring of twelve, and a watcher
    /// linking to each object type that every version has, unembedded, under one name.
    static func surrounded(_ history: MigrationHistory) -> MigrationHistory {
        let stable =
            history.snapshots.first?.objects.map(\.name).filter { name in
                history.snapshots.allSatisfy { $0.objectType(named: name).map { !$0.isEmbedded && $0.primaryKey != nil } ?? false }
            } ?? []
        var ring: [ObjectType] = []
        for index in 0..<12 {
            ring.append(
                ObjectType(
                    name: "Inert\(index)", primaryKey: "id",
                    properties: [
                        Property("id", .scalar(.int)),
                        Property("label", .scalar(.string), default: .string("")),
                        Property("next", PropertyType(.object("Inert\((index + 1) % 12)"), optional: true)),
                        Property("many", PropertyType(.object("Inert\((index + 5) % 12)"), collection: .list)),
                    ]))
        }
        let watcher = ObjectType(
            name: "Watcher", primaryKey: "id",
            properties: [Property("id", .scalar(.int))]
                + stable.map { Property("watch\($0)", PropertyType(.object($0), optional: true)) }
                + [Property("ring", PropertyType(.object("Inert0"), optional: true))])
        var result = history
        for index in result.snapshots.indices {
            result.snapshots[index].objects = ring + result.snapshots[index].objects + [watcher]
        }
        return result
    }

    /// The history with step `step` of version `version` left out.
    static func without(_ history: MigrationHistory, version: Int, step: Int) -> MigrationHistory {
        var result = history
        result.migrations[version - 1].steps.remove(at: step)
        return result
    }

    /// The history with version `version`'s steps each given twice (contradicting writes).
    static func doubled(_ history: MigrationHistory, version: Int) -> MigrationHistory {
        var result = history
        result.migrations[version - 1].steps = result.migrations[version - 1].steps.flatMap { [$0, $0] }
        return result
    }

    /// The variants of a case's history: as it is, surrounded, each step left out, the steps doubled.
    static func variants(_ history: MigrationHistory) -> [MigrationHistory] {
        var histories = [history, surrounded(history)]
        for migration in history.migrations where !migration.steps.isEmpty {
            for step in migration.steps.indices {
                histories.append(surrounded(without(history, version: migration.version, step: step)))
            }
            histories.append(surrounded(doubled(history, version: migration.version)))
        }
        return histories
    }

    @Test(arguments: cases.map(\.name))
    func scopedCheckFindsWhatTheWholePlanFinds(name: String) throws {
        let testCase = try #require(Self.cases.first { $0.name == name })
        for history in Self.variants(testCase.history) {
            let whole = Self.wholeDiagnostics(history)
            #expect(HistoryCheck.diagnostics(of: history) == whole, "\(name): \(whole.map(\.message))")
            // The changes the check judges are the whole plan's, change for change.
            let custom = history.customStepNames
            for version in stride(from: 2, through: history.currentVersion, by: 1) {
                let plan = try? MigrationPlanner(history: history, customSteps: custom).plan(from: version - 1, to: version, now: Date(timeIntervalSince1970: 0))
                // The plan's own work (table rewrites, fresh definitions) covers only the scope's tables.
                func declared(_ changes: [PlannedChange]?) -> [PlannedChange]? {
                    changes?.filter { if case .plan = $0.subject { false } else { true } }
                }
                let scoped = HistoryCheck.plannedVersion(of: history, version: version)
                #expect(declared(scoped?.changes) == declared(plan?.versions.first?.changes), "\(name) version \(version)")
                #expect(scoped?.renames == plan?.versions.first?.renames, "\(name) version \(version) renames")
            }
        }
    }

    /// The variants include failing versions, or the comparison above proves little.
    @Test func theVariantsIncludeFailures() {
        let variants = Self.cases.flatMap { Self.variants($0.history) }
        let failing = variants.filter { Self.wholeDiagnostics($0).containsErrors }.count
        #expect(failing >= 10, "\(failing) of \(variants.count) variants fail")
    }

    /// The scope of a large schema's small change is small, so that the check can skip most types.
    @Test func aSmallChangeOfALargeSchemaIsPlannedOnASmallScope() throws {
        let base = Self.surrounded(ExampleHistory.history)
        var next = base.snapshots.last!
        let index = try #require(next.objects.firstIndex { $0.name == "Inert3" })
        next.objects[index].properties.append(Property("extra", PropertyType(.scalar(.string), optional: true)))
        var history = base
        history.snapshots.append(next)
        history.migrations.append(Migration(version: 4, name: "extra", steps: [], checksum: ""))
        #expect(HistoryCheck.diagnostics(of: history).isEmpty)
        #expect(HistoryCheck.scopeSize(old: base.snapshots.last!, new: next, migration: history.migrations.last!) == 7)
    }
}
