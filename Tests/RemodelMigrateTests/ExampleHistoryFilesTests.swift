import Foundation
import RemodelCore
import RemodelMigrate
import RemodelSchema
import RemodelTestSupport
import Testing

/// The example history in `Migrations/` is what `ExampleHistory` says, its newest snapshot is
/// today's `Schemas/`, and each snapshot is the canonical text of its source schema: the Swift
/// copy and the files cannot drift apart.
@Suite struct ExampleHistoryFilesTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    /// `Tests/RemodelMigrateTests/Resources/history/vN`, the source schema of version N < 3.
    static func source(version: Int) throws -> String {
        let folder = try #require(Bundle.module.url(forResource: "Resources", withExtension: nil))
        return folder.appendingPathComponent("history/v\(version)").path
    }

    @Test func migrationsFolderLoadsAsTheExampleHistory() throws {
        let loaded = MigrationHistoryLoader.load(migrations: Self.path("Migrations"))
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let history = try #require(loaded.history)
        let expected = ExampleHistory.history
        #expect(history.currentVersion == 3)
        #expect(history.snapshots.map(\.storageRelevant) == expected.snapshots.map(\.storageRelevant))
        #expect(history.snapshots.map(\.storageHash) == expected.snapshots.map(\.storageHash))
        #expect(history.migrations.map(\.version) == [1, 2, 3])
        #expect(history.migrations.map(\.name) == expected.migrations.map(\.name))
        #expect(history.migrations.map(\.steps) == expected.migrations.map(\.steps))
        for migration in history.migrations {
            let file = try #require(loaded.files[migration.version])
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(migration.checksum == SHA256.hexDigest(of: Array(bytes)))
        }
        // Step locations point at each step's kind in its file.
        let split = try #require(loaded.sources.migrations[2]?.steps[1].location)
        let lines = try String(contentsOfFile: split.file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[split.line - 1].dropFirst(split.column - 1).hasPrefix("split:"))
    }

    @Test func newestSnapshotIsTodaysSchema() throws {
        let schemas = SchemaLoader.load(path: Self.path("Schemas"))
        let schema = try #require(schemas.schema)
        // Storage must agree; documentation may change without a new version.
        let history = try #require(MigrationHistoryLoader.load(migrations: Self.path("Migrations")).history)
        #expect(MigrationHistoryLoader.checkSnapshotted(schema: schema, schemasPath: "Schemas", history: history, migrationsPath: "Migrations") == nil)
        #expect(schema.storageHash == ExampleHistory.v3.storageHash)
    }

    @Test(arguments: [1, 2])
    func olderSnapshotsAreTheCanonicalTextOfTheirSources(version: Int) throws {
        let source = SchemaLoader.load(path: try Self.source(version: version))
        #expect(source.diagnostics.isEmpty, "\(source.diagnostics)")
        let schema = try #require(source.schema)
        let snapshot = try String(contentsOfFile: Self.path("Migrations/snapshots/v\(version).yaml"), encoding: .utf8)
        #expect(snapshot == CanonicalYAML.text(of: schema), "re-create Migrations/ as Tests/RemodelMigrateTests/Resources/history/README.md says")
    }

    @Test func loadedHistoryMigratesTheExampleStore() throws {
        let loaded = MigrationHistoryLoader.load(migrations: Self.path("Migrations"))
        let history = try #require(loaded.history)
        let store = try ExampleMigrationTests().makeV1Store()
        defer { store.remove() }
        var migrator = Migrator(history: history)
        migrator.sources = loaded.sources
        let (plan, report) = try migrator.migrate(storeAt: store.path)
        #expect(plan.versions.map(\.version) == [2, 3])
        #expect(report.countsAfter == ["Note": 0, "Person": 7, "Dog": 6])
        let checksums = try store.query("SELECT \"checksum\" FROM \"_remodel_migrations\" ORDER BY \"version\"")
        #expect(checksums == history.migrations.dropFirst().map { [.text($0.checksum)] })
    }
}
