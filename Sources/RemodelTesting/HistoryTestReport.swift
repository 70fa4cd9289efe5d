import RemodelCore
import RemodelMigrate

/// What `HistoryTest.run` found: each data set and its failure, if any.
public struct HistoryTestReport: Sendable {
    /// One data set's outcome.
    public struct DataSetResult: Sendable {
        /// The version the data set is imported at.
        public var version: Int
        /// "generated data (seed 1)" or the fixture's file.
        public var name: String
        /// The number of objects it holds.
        public var objects: Int
        /// Why it failed; `nil` when it passed.
        public var failure: HistoryTestFailure?
    }

    /// The version every data set is migrated to.
    public var newestVersion: Int
    /// Every data set tested, oldest version first.
    public var dataSets: [DataSetResult]

    /// The failures, oldest version first.
    public var failures: [HistoryTestFailure] { dataSets.compactMap(\.failure) }
    /// Whether every data set passed.
    public var passed: Bool { failures.isEmpty }
}

/// One data set that did not migrate as it should: where, what, and the smallest data that
/// shows it.
public struct HistoryTestFailure: Sendable, Hashable, CustomStringConvertible {
    /// What went wrong; its raw value names the diagnostic's rule (`test-migration`).
    public enum Kind: String, Sendable, Hashable {
        /// A fixture does not import at its version.
        case importFailed = "import"
        /// The migration stopped on the data (a data error, dangling links, a failed custom step).
        case migrationFailed = "migration"
        /// Direct and version-by-version migration gave different results.
        case resultsDiffer = "results-differ"
        /// The migrated data breaks the newest schema.
        case doesNotConform = "conformance"
        /// The migrated data changes through export and import.
        case roundTrip = "round-trip"
        /// A fault of the test itself (its generator or its stores).
        case internalError = "internal"
    }

    /// The version the data set starts at.
    public var version: Int
    /// "generated data (seed 1)" or the fixture's file.
    public var dataSet: String
    /// What went wrong.
    public var kind: Kind
    /// What happened, in a sentence or more.
    public var message: String
    /// The version whose migration failed, if one did.
    public var failingVersion: Int?
    /// The step (or schema declaration) that failed, as `file:line:column`.
    public var location: SourceLocation?
    /// The object type and property the failure is about, when one is.
    public var type: String?
    public var property: String?
    /// The offending value, quoted as it is stored.
    public var value: String?
    /// The key of the first object holding it, as the migration names it.
    public var objectKey: String?
    /// How to fix it.
    public var hint: String?
    /// The smallest data (an export document) that still fails the same way: generated
    /// data, minimised.
    public var minimalObjects: JSONValue?

    /// A failure as `HistoryTest` reports it; the smallest data and the object's key are set after.
    public init(
        version: Int, dataSet: String, kind: Kind, message: String, failingVersion: Int? = nil, location: SourceLocation? = nil, type: String? = nil,
        property: String? = nil, value: String? = nil, hint: String? = nil
    ) {
        self.version = version
        self.dataSet = dataSet
        self.kind = kind
        self.message = message
        self.failingVersion = failingVersion
        self.location = location
        self.type = type
        self.property = property
        self.value = value
        self.hint = hint
    }

    /// The failure of a migration of `set`.
    init(_ set: HistoryTest.DataSet, _ error: MigrationError) {
        self.init(version: set.version, dataSet: set.name, kind: .migrationFailed, message: "\(error)")
        switch error {
        case .data(let data):
            failingVersion = data.version
            location = data.location
            type = data.type
            property = data.property
            value = data.examples.first?.value
            objectKey = data.examples.first?.key
            message =
                "migration to version \(data.version) (\(data.migrationName)), \(data.step): \(data.count) \(data.type) object\(data.count == 1 ? "" : "s") with \(data.problem)"
            hint = data.hint
        case .danglingLinks(let version, _), .customStepFailed(let version, _, _, _, _), .sqlite(let version, _), .layout(let version, _):
            failingVersion = version
        case .storeChanged:
            break
        }
        if case .customStepFailed(_, _, let type, _, _) = error { self.type = type }
    }

    /// The failure as `remodel test` prints it: the place first, then the data set, the value
    /// and the smallest data.
    public var description: String {
        var text = location.map { "\($0): " } ?? ""
        text += "error: \(message)\n"
        text += "  data: \(dataSet), imported at version \(version)"
        if let type, let objectKey { text += "; first offending object: \(type) \(objectKey)\(property.map { ", \($0)" } ?? "")\(value.map { " = \($0)" } ?? "")" }
        text += "\n"
        if let minimal = minimalDocument {
            text += "  smallest data that fails so (an export document: import it at version \(version) to see it): \(Self.compact(minimal, limit: 2000))\n"
        }
        if let hint { text += "  hint: \(hint)\n" }
        return text
    }

    /// The failure as a diagnostic (`remodel test --format`): located at the step, else at
    /// the fixture; the data set, the value and the smallest data as notes.
    public var diagnostic: Diagnostic {
        var notes: [Diagnostic.Note] = []
        let isFixture = !dataSet.hasPrefix("generated data")
        notes.append(Diagnostic.Note("data: \(dataSet), imported at version \(version)", at: isFixture ? SourceLocation(file: dataSet, line: 1, column: 1) : nil))
        if let type, let objectKey {
            notes.append(Diagnostic.Note("first offending object: \(type) \(objectKey)\(property.map { ", \($0)" } ?? "")\(value.map { " = \($0)" } ?? "")"))
        }
        if let minimal = minimalDocument {
            notes.append(Diagnostic.Note("smallest data that fails so (an export document: import it at version \(version) to see it): \(Self.compact(minimal, limit: 2000))"))
        }
        let place = location ?? (isFixture ? SourceLocation(file: dataSet, line: 1, column: 1) : nil)
        return Diagnostic(.error, rule: "test-\(kind.rawValue)", message, at: place, hint: hint, notes: notes, version: failingVersion)
    }

    /// The smallest data without the types it has no objects of.
    var minimalDocument: JSONValue? {
        guard case .object(let members)? = minimalObjects else { return nil }
        return .object(members.filter { $0.1 != .array([]) })
    }

    /// A value on one line, shortened past `limit` characters.
    static func compact(_ value: JSONValue, limit: Int = 400) -> String {
        let text = value.description
        return text.count <= limit ? text : String(text.prefix(limit - 3)) + "…"
    }
}

/// The first place two export documents differ.
struct DocumentDifference: CustomStringConvertible {
    var type: String?
    var property: String?
    var place: String
    var left: String
    var right: String
    var names: (String, String)

    var description: String {
        "\(place) is \(left) \(names.0) but \(right) \(names.1)"
    }

    static func first(between a: JSONValue, and b: JSONValue, names: (String, String)) -> DocumentDifference? {
        guard a != b else { return nil }
        guard case .object(let typesA) = a, case .object(let typesB) = b else {
            return DocumentDifference(place: "the document", left: HistoryTestFailure.compact(a), right: HistoryTestFailure.compact(b), names: names)
        }
        let right = Dictionary(typesB, uniquingKeysWith: { first, _ in first })
        for (type, objectsA) in typesA {
            let objectsB = right[type] ?? .array([])
            guard objectsA != objectsB else { continue }
            guard case .array(let listA) = objectsA, case .array(let listB) = objectsB else { continue }
            if listA.count != listB.count {
                return DocumentDifference(type: type, place: "the number of \(type) objects", left: "\(listA.count)", right: "\(listB.count)", names: names)
            }
            for (index, (objectA, objectB)) in zip(listA, listB).enumerated() where objectA != objectB {
                guard case .object(let propertiesA) = objectA, case .object(let propertiesB) = objectB else { continue }
                let valuesB = Dictionary(propertiesB, uniquingKeysWith: { first, _ in first })
                for (property, valueA) in propertiesA where valuesB[property] != valueA {
                    return DocumentDifference(
                        type: type, property: property, place: "\(type)[\(index)].\(property)", left: HistoryTestFailure.compact(valueA),
                        right: valuesB[property].map { HistoryTestFailure.compact($0) } ?? "missing", names: names)
                }
                return DocumentDifference(
                    type: type, place: "\(type)[\(index)]", left: HistoryTestFailure.compact(objectA), right: HistoryTestFailure.compact(objectB), names: names)
            }
        }
        return DocumentDifference(place: "the types", left: typesA.map(\.0).joined(separator: ", "), right: typesB.map(\.0).joined(separator: ", "), names: names)
    }
}
