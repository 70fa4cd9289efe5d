import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore

/// Migration tests in an app's test target (XCTest or Swift Testing), without a device: make
/// a store at any version of the history from JSON or dynamic objects, migrate it with the
/// app's own custom steps, then open it with the generated models and assert.
///
/// ```swift
/// var tester = try MigrationTester(manifest: RemodelSchemaManifest.self)
/// tester.migrator.register("normalisePhones", normalisePhones)
/// let store = try tester.makeStore(version: 1, json: #"{ "Person": [{ "_id": "…", "name": "Ada Lovelace" }] }"#)
/// try tester.migrate(store)
/// let people = try tester.open(store, manifest: RemodelSchemaManifest.self).read { try $0.objects(Person.self).fetchAll() }
/// #expect(people.map(\.firstName) == ["Ada"])
/// ```
///
/// Stores live in a temporary folder of their own, removed by `removeStores()` (or left for
/// the system to clean up).
public struct MigrationTester: Sendable {
    /// The history and custom steps the stores are migrated with; register the app's custom
    /// steps on it as the app does.
    public var migrator: Migrator
    /// The time `$now` defaults take in migrations: fixed, so that results can be compared.
    public var now = Date(timeIntervalSince1970: 1_767_225_600)
    /// The folder the stores are made in.
    public let folder: String

    /// A tester for `migrator`'s history; `folder` defaults to a new temporary folder.
    public init(migrator: Migrator, folder: String? = nil) throws {
        self.migrator = migrator
        self.folder = folder ?? FilePaths.join(NSTemporaryDirectory(), "remodel-migration-test-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: self.folder, withIntermediateDirectories: true)
    }

    /// A tester for the history of the generated models (`Manifest.history`).
    public init<Manifest: SchemaManifest>(manifest: Manifest.Type, folder: String? = nil) throws {
        guard let history = manifest.history else {
            throw StoreError.invalidInput("\(Manifest.self) has no migration history (it is generated from a Migrations folder); create one with `remodel migration new NAME`")
        }
        try self.init(migrator: Migrator(history: history), folder: folder)
    }

    /// A new store at `version` holding the objects of `json`, an export document
    /// (`{ "Type": [ { … } ] }`, the format `remodel export` writes); returns its path. Throws
    /// `StoreError.invalidInput` naming each object that does not fit the version's schema.
    public func makeStore(version: Int, json: String, name: String? = nil) throws -> String {
        var parser = JSONParser(json)
        let document: JSONValue
        do {
            document = try parser.parse()
        } catch {
            throw StoreError.invalidInput("the JSON of the store at version \(version) is not valid at \(error.line):\(error.column): \(error.message)")
        }
        return try makeStore(version: version, document: document, name: name)
    }

    /// A new store at `version` holding the objects of an export document; returns its path.
    public func makeStore(version: Int, document: JSONValue, name: String? = nil) throws -> String {
        let schema = try schema(at: version)
        let checked = try StoreJSON.check(document, schema: schema, source: "the objects of version \(version)")
        return try makeStore(version: version, name: name) { store in
            _ = try StoreJSON.importDocument(checked, into: store)
        }
    }

    /// A new store at `version`, filled by `fill` with dynamic objects (`tx.insert(["name":
    /// .text("Rex")], ofType: "Dog")`, values in their stored form); returns its path.
    public func makeStore(version: Int, name: String? = nil, _ fill: (Transaction) throws -> Void) throws -> String {
        try makeStore(version: version, name: name) { store in try store.write(fill) }
    }

    private func makeStore(version: Int, name: String?, fill: (RemodelStore) throws -> Void) throws -> String {
        let schema = try schema(at: version)
        let path = FilePaths.join(folder, (name ?? "v\(version)-\(UUID().uuidString)") + ".store")
        try RemodelStore.create(atomicallyAt: path, schema: schema, version: version, fill: fill)
        return path
    }

    /// Migrates the store at `path` to `version` (default: the newest), as the app would,
    /// with `migrator`'s custom steps; returns the report. Throws `MigrationError` for data it
    /// cannot migrate (the store is then unchanged).
    @discardableResult
    public func migrate(_ path: String, to version: Int? = nil) throws -> MigrationReport {
        try migrator.migrate(storeAt: path, to: version, now: now).report
    }

    /// The store at `path` opened with the generated models of `manifest`: at the manifest's
    /// version, which the store must have reached.
    public func open<Manifest: SchemaManifest>(_ path: String, manifest: Manifest.Type) throws -> RemodelStore {
        try RemodelStore(path: path, manifest: manifest)
    }

    /// The objects of the store at `path` as an export document, to compare with expected JSON.
    public func export(_ path: String) throws -> JSONValue {
        let info = try RemodelStore.inspect(path: path)
        let store = try RemodelStore(path: path, schema: try schema(at: info.version), version: info.version, options: OpenOptions(maximumReaderCount: 1))
        return try store.read { try StoreJSON.export($0) }
    }

    /// Removes the folder and every store in it.
    public func removeStores() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func schema(at version: Int) throws -> Schema {
        guard let schema = migrator.history.schema(at: version) else {
            throw StoreError.invalidInput("the history has no version \(version); its versions are 1 to \(migrator.history.currentVersion)")
        }
        return schema
    }
}
