import Foundation
import RemodelCore
import RemodelExample
import RemodelMigrate
import RemodelStore
import XCTest

/// The documentation's articles (Docs/Guides.docc and the libraries' catalogs): their code is
/// code that compiles, and it does what the articles say.
final class DocumentationTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Files that are compiled and run: by this test target, by `RemodelPostgresTests` (the
    /// PostgreSQL article), by `IntegrationTests/run.sh` (the outside package) and by `RemodelRealmTests` (the launch path, whose generated manifest is
    /// named `RealmExampleManifest`; an app's is `RemodelSchemaManifest`).
    static let compiledSources: [(path: String, renaming: [String: String])] = [
        ("Tests/RemodelExampleTests/DocumentationSnippets.swift", [:]),
        ("Tests/RemodelExampleTests/LiveDataSnippets.swift", [:]),
        ("Tests/RemodelPostgresTests/PostgresDocumentationSnippets.swift", [:]),
        ("IntegrationTests/OutsidePackage/Package.swift", [:]),
        ("IntegrationTests/OutsidePackage/Sources/Zoo/main.swift", [:]),
        ("Tests/RemodelRealmTests/LaunchPathTests.swift", ["RealmExampleManifest": "RemodelSchemaManifest"]),
    ]

    /// Schemas the tools read: the outside package's, this package's, and the manual's examples
    /// (Docs/Examples, each validated by `ManualExamplesTests`).
    static let yamlSources = [
        "Docs/Examples/SchemaLanguage.yaml", "Docs/Examples/RealmNotes.yaml", "IntegrationTests/OutsidePackage/Schemas/Zoo.yaml", "Schemas/DoggoDB.yaml", "Schemas/Notes.yaml",
        "Schemas/Profiles.yaml",
    ]

    /// The articles the documentation promises.
    static let articles = [
        "Docs/Guides.docc/GettingStarted.md",
        "Docs/Guides.docc/MovingOffRealm.md",
        "Sources/RemodelStore/RemodelStore.docc/TheStore.md",
        "Sources/RemodelStore/RemodelStore.docc/LiveDataInSwiftUI.md",
        "Sources/RemodelMigrate/RemodelMigrate.docc/MigrationsInTheApp.md",
    ]

    // MARK: The articles' code is compiled code

    func testEveryArticleSwiftBlockIsCompiledCode() throws {
        let sources = try Self.compiledSources.map { source in
            var text = try Self.read(source.path)
            for (from, to) in source.renaming { text = text.replacingOccurrences(of: from, with: to) }
            return (source.path, Self.lines(text))
        }
        try checkBlocks(language: "swift", against: sources)
    }

    func testEveryArticleYAMLBlockIsFromASchema() throws {
        try checkBlocks(language: "yaml", against: Self.yamlSources.map { ($0, Self.lines(try Self.read($0))) })
    }

    /// The check can fail: a block with one word changed is not found.
    func testAChangedBlockIsNotFound() throws {
        let snippets = Self.lines(try Self.read(Self.compiledSources[0].path))
        let block = ["let store = try RemodelStore(path: url.path, manifest: RemodelSchemaManifest.self)"]
        XCTAssertNotNil(Self.firstLine(of: block, in: snippets))
        XCTAssertNil(Self.firstLine(of: ["let store = try RemodelStore(path: url.path, manifest: RemodelSchemaManifest.Type)"], in: snippets))
        XCTAssertNil(Self.firstLine(of: block + ["store.close()"], in: snippets))
    }

    func testEveryPromisedArticleHasSwiftCode() throws {
        for article in Self.articles {
            let blocks = Self.codeBlocks(in: try Self.read(article), language: "swift")
            XCTAssertFalse(blocks.isEmpty, "\(article) shows no Swift code")
        }
    }

    private func checkBlocks(language: String, against sources: [(String, [String])]) throws {
        var checked = 0
        for article in try Self.catalogArticles() {
            for block in Self.codeBlocks(in: try Self.read(article), language: language) {
                checked += 1
                let found = sources.contains { Self.firstLine(of: block.lines, in: $0.1) != nil }
                XCTAssertTrue(
                    found,
                    "\(article):\(block.line): this ```\(language) block is not in \(sources.map(\.0).joined(separator: ", ")); write it there first (so that it is compiled or read by the tools), then copy it:\n\(block.lines.joined(separator: "\n"))"
                )
            }
        }
        XCTAssertGreaterThan(checked, 0, "no ```\(language) block found in the catalogs")
    }

    /// Every article of every catalog: `Docs/*.docc` and `Sources/*/*.docc`.
    static func catalogArticles() throws -> [String] {
        let fileManager = FileManager.default
        var catalogs: [String] = []
        for folder in ["Docs", "Sources"] {
            let top = packageRoot.appendingPathComponent(folder)
            for name in try fileManager.contentsOfDirectory(atPath: top.path) {
                if name.hasSuffix(".docc") { catalogs.append("\(folder)/\(name)") }
                let inner = top.appendingPathComponent(name).path
                for innerName in (try? fileManager.contentsOfDirectory(atPath: inner)) ?? [] where innerName.hasSuffix(".docc") {
                    catalogs.append("\(folder)/\(name)/\(innerName)")
                }
            }
        }
        let articles = catalogs.flatMap { catalog in
            ((try? fileManager.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(catalog).path)) ?? [])
                .filter { $0.hasSuffix(".md") }
                .map { "\(catalog)/\($0)" }
        }
        XCTAssertTrue(Set(Self.articles).isSubset(of: articles), "missing articles: \(Set(Self.articles).subtracting(articles).sorted())")
        return articles.sorted()
    }

    /// The fenced blocks of `language` in a Markdown text, with the line each starts on.
    static func codeBlocks(in text: String, language: String) -> [(line: Int, lines: [String])] {
        var blocks: [(line: Int, lines: [String])] = []
        var current: (line: Int, lines: [String])?
        for (index, line) in lines(text).enumerated() {
            if var block = current {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append(block)
                    current = nil
                } else {
                    block.lines.append(line)
                    current = block
                }
            } else if line.trimmingCharacters(in: .whitespaces) == "```\(language)" {
                current = (index + 2, [])
            }
        }
        return blocks
    }

    /// Where `block` starts in `file` as a run of lines, all indented alike; nil if it is not there.
    static func firstLine(of block: [String], in file: [String]) -> Int? {
        guard let first = block.first, block.count <= file.count else { return nil }
        for start in 0...(file.count - block.count) where file[start].hasSuffix(first) {
            let indent = String(file[start].dropLast(first.count))
            guard indent.allSatisfy({ $0 == " " }) else { continue }
            let matches = zip(block, file[start...]).allSatisfy { expected, actual in
                expected.isEmpty ? actual.isEmpty : actual == indent + expected
            }
            if matches { return start + 1 }
        }
        return nil
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// Lines without trailing white space.
    static func lines(_ text: String) -> [String] {
        text.components(separatedBy: "\n").map { line in
            var line = Substring(line)
            while line.last?.isWhitespace == true { line = line.dropLast() }
            return String(line)
        }
    }

    // MARK: The articles' code does what they say

    private func temporaryStoreURL() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remodel-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder.appendingPathComponent("app.remodel")
    }

    func testTheStoreArticle() async throws {
        let store = try TheStoreSnippets.open(at: try temporaryStoreURL())
        let (rex, ada) = try TheStoreSnippets.write(to: store)
        do {
            try await store.write { try $0.insert(rex) }
            XCTFail("inserting the dog twice did not throw")
        } catch StoreError.duplicateKey {}
        XCTAssertEqual(try TheStoreSnippets.query(store), [ada])
        let (person, heavyDogs, herDogs, owners) = try TheStoreSnippets.fetch(rex, ada, from: store)
        XCTAssertEqual(person, ada)
        XCTAssertEqual(heavyDogs, 1)
        XCTAssertEqual(herDogs.map(\.id), [rex.id], "read back to the microsecond, the dog's date is not the one in memory")
        XCTAssertEqual(owners, [ada])
        var notes: [String] = []
        try TheStoreSnippets.eachNote(in: store) { notes.append($0.content) }
        XCTAssertEqual(notes, ["Walk Rex"])

        XCTAssertEqual(try TheStoreSnippets.change(rex, in: store), 1)
        let weight = try await store.read { try $0.object(Dog.self, forKey: rex.id)?.weight }
        XCTAssertEqual(weight, 32)
        let noteCount = try await store.read { try $0.count(Note.self) }
        XCTAssertEqual(noteCount, 0)

        let changes = expectation(description: "a change to people is reported")
        changes.assertForOverFulfill = false
        let watcher = Task {
            await TheStoreSnippets.watchPeople(in: store) { change in
                if change.typeName == "Person" { changes.fulfill() }
            }
        }
        // The stream reports commits after it started: write until the watcher has seen one.
        let writer = Task {
            while !Task.isCancelled {
                try await store.write { try $0.upsert(Person(firstName: "Grace")) }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
        }
        await fulfillment(of: [changes], timeout: 10)
        watcher.cancel()
        writer.cancel()

        XCTAssertTrue(try TheStoreSnippets.delete(rex, from: store))
        let dogs = try await store.read { try $0.object(Person.self, forKey: ada.id)?.dogs }
        XCTAssertEqual(dogs, [], "the deleted dog left the list that held it")
    }

    /// A store of version 1 of the example app at `url`, holding the version 1 fixture's objects.
    private func makeVersion1Store(at url: URL, history: MigrationHistory) throws {
        let old = try RemodelStore(path: url.path, schema: try XCTUnwrap(history.schema(at: 1)), version: 1)
        var parser = JSONParser(try Self.read("Tests/RemodelMigrateTests/Resources/fixtures/v1.json"))
        _ = try StoreJSON.importDocument(try parser.parse(), into: old)
    }

    /// A store written by version 1 of the example app opens, upgraded, in the current one.
    func testMigrationsInTheAppArticle() throws {
        let url = try temporaryStoreURL()
        let history = try XCTUnwrap(RemodelSchemaManifest.history)
        try makeVersion1Store(at: url, history: history)
        XCTAssertThrowsError(try RemodelStore(path: url.path, manifest: RemodelSchemaManifest.self, options: OpenOptions(migrator: MigrationsInTheAppSnippets.refusing()))) {
            error in
            guard case StoreError.migrationNeeded = error else { return XCTFail("expected migrationNeeded, got \(error)") }
        }

        let seen = Locked<[Int]>([])
        let store = try MigrationsInTheAppSnippets.open(at: url) { step in seen.update { $0.append(step.version) } }
        XCTAssertEqual(store.version, RemodelSchemaManifest.version)
        XCTAssertEqual(Set(seen.value), Set(2...RemodelSchemaManifest.version), "progress reports every version it runs")
        let ada = try store.read { try $0.objects(Person.self).filter { $0.firstName == "Ada" }.fetchOne() }
        XCTAssertEqual(ada?.lastName, "Lovelace", "version 2 split the name")
        XCTAssertEqual(ada?.businessUnit, .engineering, "version 2 mapped 'Eng'")

        // A custom step the history does not name is registered and never called.
        let custom = MigrationsInTheAppSnippets.withCustomStep()
        XCTAssertEqual(try custom.plan(from: 1).versions.count, RemodelSchemaManifest.version - 1)
    }

    /// "Migrating stores": the store opened with the manifest's history upgrades a version 1
    /// store as it opens it.
    func testMigratingStoresArticle() throws {
        let url = try temporaryStoreURL()
        let history = try XCTUnwrap(RemodelSchemaManifest.history)
        try makeVersion1Store(at: url, history: history)
        let store = try ManualSnippets.openUpgrading(at: url)
        XCTAssertEqual(store.version, RemodelSchemaManifest.version)
        XCTAssertGreaterThan(try store.read { try $0.objects(Person.self).count() }, 0, "the objects of version 1 came along")
        // The custom step of "Migration files and steps" registers under its name and, as the
        // example history names no such step, leaves the plan as it was.
        var migrator = Migrator(history: history)
        ManualSnippets.registerTagObjects(on: &migrator)
        XCTAssertEqual(try migrator.plan(from: 1).versions.count, RemodelSchemaManifest.version - 1)
    }

    /// An app older than its store is refused, and the file is left as it is.
    func testANewerStoreIsRefused() throws {
        let url = try temporaryStoreURL()
        let history = try XCTUnwrap(RemodelSchemaManifest.history)
        let newer = RemodelSchemaManifest.version + 1
        _ = try RemodelStore(path: url.path, schema: try XCTUnwrap(history.schema(at: RemodelSchemaManifest.version)), version: newer)
        XCTAssertNil(try MigrationsInTheAppSnippets.openRefusingDowngrades(at: url))
        XCTAssertEqual(try RemodelStore.inspect(path: url.path).version, newer)
    }
}

/// A value that closures on other threads update.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
