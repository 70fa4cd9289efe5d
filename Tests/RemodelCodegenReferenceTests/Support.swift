import Foundation
import RemodelCore
import RemodelSchema
import RemodelStore
import XCTest

/// Helpers for exercising the compiled reference files.
enum Reference {
    /// `Tests/RemodelCodegenTests/Schemas/<name>`, or the package's `Schemas/` for `Example`.
    static func schemaFolder(_ name: String) -> String {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        if name == "Example" { return tests.deletingLastPathComponent().appendingPathComponent("Schemas").path }
        if ["StepKinds", "Trips", "Squashed"].contains(name) { return tests.appendingPathComponent("RemodelCodegenTests/Histories/\(name)/Schemas").path }
        return tests.appendingPathComponent("RemodelCodegenTests/Schemas/\(name)").path
    }

    /// The schema the YAML of a case loads to, read now, independently of the generated code.
    static func loadedSchema(_ name: String) throws -> Schema {
        let result = SchemaLoader.load(path: schemaFolder(name))
        return try XCTUnwrap(result.schema, "\(name) does not load: \(result.diagnostics.map(\.message))")
    }

    /// The string default of `object.property` as the YAML states it.
    static func stringDefault(_ schema: Schema, _ object: String, _ property: String) throws -> String {
        guard case .string(let text)? = schema.objectType(named: object)?.property(named: property)?.defaultValue else {
            throw XCTSkip("\(object).\(property) has no string default")
        }
        return text
    }

    /// Encodes `value` to JSON and decodes it back.
    static func jsonRoundTrip<T: Codable>(_ value: T) throws -> T {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(T.self, from: encoder.encode(value))
    }

    /// A store in a fresh temporary folder, removed when the test ends.
    static func store<M: SchemaManifest>(_ manifest: M.Type, test: XCTestCase) throws -> RemodelStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-codegen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return try RemodelStore(path: folder.appendingPathComponent("store.sqlite").path, manifest: manifest)
    }

    /// Asserts that the manifest embeds exactly the schema its YAML loads to, with its hash.
    static func assertManifest<M: SchemaManifest>(_ manifest: M.Type, matches name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let schema = try loadedSchema(name)
        // Compared through the canonical form, which spells every value (NaN included, which
        // `==` never equals) and every attribute, docs and projections too.
        XCTAssertEqual(CanonicalYAML.text(of: manifest.schema), CanonicalYAML.text(of: schema), "the manifest's schema differs from \(name)'s YAML", file: file, line: line)
        XCTAssertEqual(manifest.schemaHash, schema.storageHash, file: file, line: line)
        if ["Example", "StepKinds", "Trips", "Squashed"].contains(name) {
            let migrations = MigrationHistoryLoader.load(migrations: URL(fileURLWithPath: schemaFolder(name)).deletingLastPathComponent().appendingPathComponent("Migrations").path)
            let history = try XCTUnwrap(migrations.history, "the example has a migration history", file: file, line: line)
            let embedded = try XCTUnwrap(manifest.history, file: file, line: line)
            XCTAssertEqual(manifest.version, history.currentVersion, file: file, line: line)
            XCTAssertEqual(embedded.baseVersion, history.baseVersion, file: file, line: line)
            XCTAssertEqual(embedded.migrations, history.migrations, file: file, line: line)
            XCTAssertEqual(embedded.snapshots.map(CanonicalYAML.text(of:)), history.snapshots.map(CanonicalYAML.text(of:)), file: file, line: line)
        } else {
            XCTAssertEqual(manifest.version, 1, file: file, line: line)
            XCTAssertNil(manifest.history, file: file, line: line)
        }
        XCTAssertEqual(manifest.models.map { $0.schemaName }, schema.objects.filter { !$0.isEmbedded }.map(\.name), file: file, line: line)
    }
}
