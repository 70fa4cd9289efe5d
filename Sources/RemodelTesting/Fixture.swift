import Foundation
import RemodelCore
import RemodelStore

/// One of the app's own data sets: a store's export (anonymised by the app team) kept in
/// `Migrations/fixtures/<version>/NAME.json`, migrated by `remodel test` with the generated
/// data.
public struct Fixture: Sendable, Hashable {
    /// The version the data belongs to (its folder's number).
    public var version: Int
    /// The file, as the user names it.
    public var path: String
    /// The objects, as an export document.
    public var document: JSONValue

    public init(version: Int, path: String, document: JSONValue) {
        self.version = version
        self.path = path
        self.document = document
    }

    /// The folder of fixtures inside the migrations folder; the history loader skips it.
    public static let folderName = "fixtures"

    /// `Migrations/fixtures/<version>`.
    public static func folder(in migrations: String, version: Int) -> String {
        FilePaths.join(FilePaths.join(migrations, folderName), String(version))
    }

    /// Every fixture of the migrations folder, oldest version first, and the problems of the
    /// files that are not fixtures (a folder not named by a version, a file that is no JSON
    /// object), located.
    public static func load(migrations: String) -> (fixtures: [Fixture], problems: [Diagnostic]) {
        let root = FilePaths.join(migrations, folderName)
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        guard manager.fileExists(atPath: root, isDirectory: &isFolder) else { return ([], []) }
        guard isFolder.boolValue, let entries = try? manager.contentsOfDirectory(atPath: root) else {
            let problem = Diagnostic(
                .error, rule: "fixture-folder", "'\(root)' is not a folder that can be read, so it holds no fixtures", at: SourceLocation(file: root, line: 1, column: 1),
                hint: "fixtures go in \(root)/<version>/NAME.json; move the file away")
            return ([], [problem])
        }
        var fixtures: [Fixture] = []
        var problems: [Diagnostic] = []
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let folder = FilePaths.join(root, entry)
            guard let version = Int(entry), version > 0, String(version) == entry else {
                problems.append(
                    Diagnostic(
                        .error, rule: "fixture-folder", "'\(folder)' is not named by a version number, so its fixtures belong to no version",
                        at: SourceLocation(file: folder, line: 1, column: 1), hint: "fixtures go in \(root)/<version>/NAME.json, e.g. \(root)/1/store.json"))
                continue
            }
            let names = ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            for name in names where !name.lowercased().hasSuffix(".json") || FilePaths.isDirectory(FilePaths.join(folder, name)) {
                // Only NAME.json files directly in the version's folder are read: say so of the rest.
                problems.append(
                    Diagnostic(
                        .error, rule: "fixture-folder", "'\(FilePaths.join(folder, name))' is not a fixture: only NAME.json files directly in '\(folder)' are read",
                        at: SourceLocation(file: FilePaths.join(folder, name), line: 1, column: 1), hint: "move it out of the fixtures folder, or rename it NAME.json"))
            }
            let files = names.filter { $0.lowercased().hasSuffix(".json") && !FilePaths.isDirectory(FilePaths.join(folder, $0)) }
            for file in files {
                let path = FilePaths.join(folder, file)
                let bytes: [UInt8]
                switch BoundedFile.read(path, limit: maximumBytes) {
                case .success(let read): bytes = read
                case .failure(.unreadable(let reason)):
                    problems.append(Diagnostic(.error, rule: "fixture-format", "cannot read '\(path)': \(reason)", at: SourceLocation(file: path, line: 1, column: 1)))
                    continue
                case .failure(.tooLarge(let size)):
                    problems.append(
                        Diagnostic(
                            .error, rule: "fixture-format",
                            "'\(path)' is too large for a fixture (\(BoundedFile.describe(size: size, limit: maximumBytes)); at most \(maximumBytes / 1_000_000) MB)",
                            at: SourceLocation(file: path, line: 1, column: 1), hint: "keep a smaller part of the store: fixtures are read whole by every test run"))
                    continue
                }
                do {
                    var parser = JSONParser(bytes: bytes)
                    let document = try parser.parse()
                    guard case .object = document else {
                        problems.append(
                            Diagnostic(
                                .error, rule: "fixture-format", "'\(path)' is not an export document: it holds \(document.kindDescription), not one JSON object",
                                at: SourceLocation(file: path, line: 1, column: 1), hint: "a fixture is what `remodel export` writes; record one with `remodel fixture record`"))
                        continue
                    }
                    fixtures.append(Fixture(version: version, path: path, document: document))
                } catch {
                    problems.append(
                        Diagnostic(
                            .error, rule: "fixture-format", error.message, at: SourceLocation(file: path, line: error.line, column: error.column),
                            hint: "a fixture is what `remodel export` writes; record one with `remodel fixture record`"))
                }
            }
        }
        return (fixtures, problems)
    }

    /// The largest fixture file read.
    public static let maximumBytes = 256 * 1024 * 1024
}

/// Replaces the text of an export document with made-up text of the same length and kind
/// (letters by letters of the same case, digits by digits, everything else kept), keeping
/// primary keys, links, enums, numbers, dates and every other value: a store's shape
/// without its people's words. The same text becomes the same made-up text everywhere, so
/// values that were equal stay equal.
public struct FixtureAnonymizer: Sendable {
    /// The schema the documents are in: it says which values are text.
    public let schema: Schema
    /// Makes the made-up text; the same seed makes the same text.
    public let seed: UInt64

    public init(schema: Schema, seed: UInt64 = 1) {
        self.schema = schema
        self.seed = seed
    }

    /// The document with its `string` and `url` values replaced.
    public func anonymize(_ document: JSONValue) -> JSONValue {
        guard case .object(let members) = document else { return document }
        return .object(
            members.map { name, objects in
                guard let type = schema.objectType(named: name), case .array(let list) = objects else { return (name, objects) }
                return (name, .array(list.map { anonymize($0, of: type) }))
            })
    }

    private func anonymize(_ object: JSONValue, of type: ObjectType) -> JSONValue {
        guard case .object(let properties) = object else { return object }
        return .object(
            properties.map { name, value in
                guard name != type.primaryKey, let propertyType = type.property(named: name)?.storedType else { return (name, value) }
                return (name, anonymize(value, as: propertyType))
            })
    }

    private func anonymize(_ value: JSONValue, as type: PropertyType) -> JSONValue {
        switch value {
        case .array(let elements) where type.collection != nil:
            return .array(elements.map { anonymize($0, as: type.element) })
        case .object(let entries) where type.collection == .map:
            return .object(entries.map { ($0.0, anonymize($0.1, as: type.element)) })
        default:
            break
        }
        switch type.base {
        case .scalar(.string):
            if case .string(let text) = value { return .string(madeUp(text)) }
        case .scalar(.url):
            // The scheme stays, so that the value is still a URL of its kind.
            if case .string(let text) = value, let colon = text.firstIndex(of: ":") {
                return .string(String(text[...colon]) + madeUp(String(text[text.index(after: colon)...])))
            }
        case .object(let name):
            if let target = schema.objectType(named: name), target.isEmbedded { return anonymize(value, of: target) }
        case .scalar, .enumeration:
            break
        }
        return value
    }

    /// Text of the same length and kinds of character, the same for the same text.
    func madeUp(_ text: String) -> String {
        var random = SeededRandom(seed: seed, "anonymize", text)
        let lower = Array("abcdefghijklmnopqrstuvwxyz")
        let digits = Array("0123456789")
        var result = ""
        for character in text {
            if character.isLetter {
                let letter = lower[Int.random(in: 0..<lower.count, using: &random)]
                result.append(character.isUppercase ? Character(letter.uppercased()) : letter)
            } else if character.isNumber {
                result.append(digits[Int.random(in: 0..<digits.count, using: &random)])
            } else {
                result.append(character)
            }
        }
        return result
    }
}
