import Foundation
import XCTest

/// Type-checks small Swift files against the built `RealmSwift` module with the toolchain's
/// `swiftc -typecheck`: declarations real realm-swift rejects must fail on their own line
/// with a relevant error, and the same declarations used correctly must compile (so a broken
/// harness or a too-strict mirror fails too). Never skipped: a missing `swiftc` or module is
/// a failure.
final class RejectionTests: XCTestCase {
    /// Models every snippet starts from (no URL conformance: one snippet checks that URL is
    /// not persistable without it).
    static let base = """
        import Foundation
        import RealmSwift

        enum Kind: String, PersistableEnum { case a, b }
        enum Level: Int, PersistableEnum { case low = 1, high = 2 }
        final class Address: EmbeddedObject {
            @Persisted var city: String
        }
        final class Person: Object {
            @Persisted(primaryKey: true) var _id: ObjectId
            @Persisted(indexed: true) var name: String
            @Persisted var dogs: List<Dog>
            @Persisted var tags: Map<String, Int?>
            @Persisted var kind: Kind
            @Persisted(indexed: true) var level: Level?
            @Persisted var address: Address?
        }
        final class Dog: Object {
            @Persisted(primaryKey: true) var _id: ObjectId
            @Persisted var owner: Person?
            @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
        }
        final class PersonProjection: Projection<Person> {
            @Projected(\\Person.name) var name: String
        }
        func useRealm(_ realm: Realm) throws {
            try realm.write { realm.add(Person(), update: .modified) }
            _ = realm.objects(PersonProjection.self).first?.name
            _ = realm.object(ofType: Person.self, forPrimaryKey: ObjectId.generate())
        }

        """

    static let urlConformance = """
        extension URL: @retroactive FailableCustomPersistable {
            public typealias PersistedType = String
            public init?(persistedValue: String) { self.init(string: persistedValue) }
            public var persistableValue: String { absoluteString }
        }

        """

    /// Lines realm-swift rejects, each with a fragment its error must mention.
    static let rejected: [(line: String, expected: String)] = [
        ("final class Bad: Object { @Persisted(primaryKey: true) var x: Double }", "_PrimaryKey"),
        ("final class Bad: Object { @Persisted var x: [Int] }", "_Persistable"),
        ("final class Bad: Object { @Persisted var x: Set<String> }", "_Persistable"),
        ("final class Bad: Object { @Persisted var m: Map<Int, String> }", "_MapKey"),
        ("final class Bad: Object { @Persisted(indexed: true) var d: Double }", "_Indexable"),
        ("final class Bad: Object { @Persisted(primaryKey: true) var d: Date }", "_PrimaryKey"),
        ("final class Bad: Object { @Persisted var u: URL }", "_Persistable"),
        ("struct Bad { @Persisted var x: Int }", "@Persisted can only be used as a property on a Realm object"),
        ("final class Bad: Object { @Persisted var x: List<[Int]> }", "RealmCollectionValue"),
        ("final class Bad: Object { @Persisted var x: AnyRealmValue? }", "_PersistableInsideOptional"),
        ("final class Bad: Object { @Persisted var x: List<AnyRealmValue?> }", "_RealmCollectionValueInsideOptional"),
        ("final class Bad: Object { @Persisted var x: List<Dog>? }", "_PersistableInsideOptional"),
        ("final class Bad: Object { @Persisted var x: [String: Int] }", "_Persistable"),
        ("final class Bad: Object { @Persisted(indexed: true) var x: Data }", "_Indexable"),
        ("final class Bad: Object { @Persisted(originProperty: \"dogs\") var x: List<Dog> }", "LinkingObjectsProtocol"),
        ("final class Bad: NSObject { @Persisted var x: Int }", "inherit from 'ObjectBase'"),
        ("func bad(_ realm: Realm) { _ = realm.objects(Address.self) }", "RealmFetchable"),
        ("func bad(_ realm: Realm) { realm.add(Address()) }", "add"),
        ("func bad(_ realm: Realm) { realm.add(Person(), update: true) }", "unavailable"),
        ("final class Bad: Projection<Person> { @Projected(\\Dog.owner) var owner: Person? }", "inherit from 'Projection<Dog>'"),
    ]

    /// Lines realm-swift accepts (some are rejected by its runtime schema checks only).
    static let accepted: [String] = [
        "final class Good: Object { @Persisted(primaryKey: true) var k: Int8 }",
        "final class Good: Object { @Persisted(primaryKey: true) var k: UUID? }",
        "final class Good: Object { @Persisted(primaryKey: true) var k: String = \"\" }",
        "final class Good: Object { @Persisted(primaryKey: true) var k: Kind }",
        "final class Good: Object { @Persisted(indexed: true) var b: Bool; @Persisted(indexed: true) var d: Date? }",
        "final class Good: Object { @Persisted var dog: Dog }",
        "final class Good: Object { @Persisted var dogs: List<Dog?>; @Persisted var m: Map<String, Dog?> }",
        "final class Good: Object { @Persisted var any: AnyRealmValue; @Persisted var list: List<AnyRealmValue> }",
        "final class Good: Object { @Persisted var d: Decimal128?; @Persisted var s: MutableSet<Decimal128> }",
        "final class Good: Object, Codable { @Persisted var name: String; @Persisted var n: Int? }",
        "final class Good: EmbeddedObject { @Persisted var kinds: List<Kind>; @Persisted var opt: Map<String, Level?> }",
    ]

    /// The control: the same API used correctly, URL included.
    static let control =
        base + urlConformance + """
            final class Good: Object {
                @Persisted(primaryKey: true) var _id: ObjectId
                @Persisted(indexed: true) var name: String
                @Persisted var dogs: List<Dog>
                @Persisted var owner: Person?
                @Persisted(originProperty: "dogs") var owners: LinkingObjects<Person>
                @Persisted var tags: Map<String, Int?>
                @Persisted var kind: Kind
                @Persisted var u: URL
                @Persisted var homepage: URL?
                @Persisted var links: List<URL>
            }
            func migrate() -> Realm.Configuration {
                Realm.Configuration(inMemoryIdentifier: "x", schemaVersion: 2, migrationBlock: { migration, _ in
                    migration.enumerateObjects(ofType: "Good") { old, new in new?["name"] = old?["first"] }
                    migration.renameProperty(onType: "Good", from: "a", to: "b")
                }, objectTypes: [Good.self, Person.self, Dog.self, Address.self])
            }

            """

    func testSnippetsRealmRejectsDoNotTypeCheck() throws {
        let checker = try SwiftTypeChecker()
        let control = try checker.typecheck(Self.control, name: "control")
        XCTAssertEqual(control.status, 0, "the control must type-check:\n\(control.output)")
        guard control.status == 0 else { return }

        for (index, entry) in Self.rejected.enumerated() {
            let source = Self.base + entry.line + "\n"
            let badLine = source.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            let name = "rejected\(index)"
            let result = try checker.typecheck(source, name: name)
            XCTAssertNotEqual(result.status, 0, "realm-swift rejects `\(entry.line)`, the mirror accepts it")
            let errors = result.output.split(separator: "\n").filter { $0.contains(": error:") }
            XCTAssertFalse(errors.isEmpty, "`\(entry.line)` failed without an error:\n\(result.output)")
            // Errors in the snippet are on the bad line only (the property wrapper's
            // enclosing-instance errors come without a location).
            for error in errors {
                let onBadLine = error.contains("\(name).swift:\(badLine):")
                XCTAssertTrue(onBadLine || error.hasPrefix("<unknown>:0:"), "`\(entry.line)`: an error off its line \(badLine):\n\(result.output)")
            }
            XCTAssertTrue(result.output.contains(entry.expected), "`\(entry.line)` fails, but not with '\(entry.expected)':\n\(result.output)")
        }
    }

    func testSnippetsRealmAcceptsTypeCheck() throws {
        let checker = try SwiftTypeChecker()
        for (index, line) in Self.accepted.enumerated() {
            let result = try checker.typecheck(Self.base + line + "\n", name: "accepted\(index)")
            XCTAssertEqual(result.status, 0, "realm-swift accepts `\(line)`, the mirror rejects it:\n\(result.output)")
        }
        // URL with realm-swift's documented conformance is persistable.
        let url = try checker.typecheck(Self.base + Self.urlConformance + "final class Good: Object { @Persisted var u: URL; @Persisted var m: Map<String, URL> }\n", name: "url")
        XCTAssertEqual(url.status, 0, url.output)
    }
}

/// Runs `swiftc -typecheck` against the directory holding the built `RealmSwift.swiftmodule`.
struct SwiftTypeChecker {
    let swiftc: URL
    let moduleDirectory: URL
    let folder: URL

    struct Result {
        var status: Int32
        var output: String
    }

    init() throws {
        swiftc = try Self.findSwiftc()
        moduleDirectory = try Self.findModuleDirectory()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("realm-mirror-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("module-cache"), withIntermediateDirectories: true)
    }

    func typecheck(_ source: String, name: String) throws -> Result {
        let file = folder.appendingPathComponent("\(name).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = swiftc
        process.arguments = [
            "-typecheck", "-swift-version", "6", "-I", moduleDirectory.path,
            "-module-cache-path", folder.appendingPathComponent("module-cache").path, file.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    /// `swiftc` from PATH (the toolchain running the tests puts its own first).
    static func findSwiftc() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw SetupError("no swiftc in PATH (\(path)): the rejection tests need the toolchain's swiftc")
    }

    /// The build directory's module folder: walking up from the test bundle (and the running
    /// executable), the first folder holding `Modules/RealmSwift.swiftmodule` or
    /// `RealmSwift.swiftmodule`.
    static func findModuleDirectory() throws -> URL {
        var starts: [URL] = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        starts += Bundle.allBundles.map(\.bundleURL)
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        var searched: [String] = []
        for start in starts {
            var folder = start.standardizedFileURL
            for _ in 0..<5 {
                for candidate in [folder.appendingPathComponent("Modules"), folder] {
                    searched.append(candidate.path)
                    if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("RealmSwift.swiftmodule").path) {
                        return candidate
                    }
                }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw SetupError("RealmSwift.swiftmodule not found near the test bundle; searched:\n" + searched.joined(separator: "\n"))
    }

    struct SetupError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
