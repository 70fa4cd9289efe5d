import Foundation
import RemodelCore
import RemodelDiagram
import RemodelMigrate
import RemodelSchema

/// The diagrams kept as reviewed reference files (`Tests/RemodelDiagramTests/References`), in
/// both formats: the example app at each version of its history and its changes from version 1
/// to 3 (renames followed through the migration steps, as `remodel diagram --diff 1 3` follows
/// them), and focused schemas under `Tests/RemodelDiagramTests/Schemas` (embedded objects,
/// every collection, text each format could misread, every kind of change). Shared by the
/// reference tests and `remodel-record-references`.
public enum DiagramReferences {
    /// One reference: a name (`example-v1`) and its diagram.
    public struct Case: Sendable {
        public var name: String
        public var diagram: Diagram

        /// The reference file of this case in `format`: `example-v1.mmd`.
        public func fileName(_ format: DiagramFormat) -> String {
            "\(name).\(format.fileExtension)"
        }
    }

    /// The folder of the reference files.
    public static var folder: URL { PlanReferences.packageRoot.appendingPathComponent("Tests/RemodelDiagramTests/References") }

    /// The folder of the focused schemas.
    public static var schemas: URL { PlanReferences.packageRoot.appendingPathComponent("Tests/RemodelDiagramTests/Schemas") }

    /// Every case, the example's first.
    public static func all() throws -> [Case] {
        let loaded = MigrationHistoryLoader.load(migrations: PlanReferences.packageRoot.appendingPathComponent("Migrations").path)
        guard let history = loaded.history else { throw PlanReferences.LoadError(description: "\(loaded.diagnostics)") }
        var cases = (1...history.currentVersion).map { version in
            Case(name: "example-v\(version)", diagram: Diagram(schema: history.schema(at: version)!))
        }
        let plan = try Migrator(history: history).plan(from: 1, now: PlanReferences.now)
        cases.append(
            Case(
                name: "example-diff-1-\(history.currentVersion)",
                diagram: Diagram(
                    comparing: history.schema(at: 1)!, to: history.snapshots.last!, renames: plan.renamesAcrossVersions,
                    title: "Changes from version 1 to version \(history.currentVersion)")
            ))
        for (name, file) in [("embedded", "Embedded.yaml"), ("collections", "Collections.yaml"), ("awkward-text", "AwkwardText.yaml")] {
            cases.append(Case(name: name, diagram: Diagram(schema: try schema(file))))
        }
        cases.append(
            Case(
                name: "changes",
                diagram: Diagram(comparing: try schema("Changes/old.yaml"), to: try schema("Changes/new.yaml"), title: "Changes from Changes/old.yaml to Changes/new.yaml")
            ))
        return cases
    }

    /// The schema of the focused file `name` (under `schemas`).
    public static func schema(_ name: String) throws -> Schema {
        let result = SchemaLoader.load(path: schemas.appendingPathComponent(name).path)
        guard let schema = result.schema else { throw PlanReferences.LoadError(description: "\(name) does not load: \(result.diagnostics)") }
        return schema
    }
}
