import Foundation
import RemodelCore
import RemodelMigrate
import RemodelStore

/// Migrates data of every version of a history to the newest, as users' devices will:
/// generated objects (`TestDataGenerator`, aimed at each version's steps) and the app's own
/// fixtures (`Fixture`), each imported at its version and migrated directly and version by
/// version. The two results must be equal, and the result must conform to the newest schema
/// and round-trip through export and import. What `remodel test` runs.
public struct HistoryTest: Sendable {
    /// The history and custom steps, as the app migrates.
    public var migrator: Migrator
    /// Makes the generated data (and the migrations' `$uuid` and `$objectId` values).
    public var seed: UInt64 = 1
    /// The fewest generated objects of each type per version.
    public var objects: Int = 20
    /// The app's own data sets.
    public var fixtures: [Fixture] = []
    /// Whether to generate data (fixtures alone otherwise).
    public var generates = true
    /// The time `$now` defaults take: fixed, so that results compare.
    public var now = Date(timeIntervalSince1970: 1_767_225_600)
    /// Where the stores are made (removed afterwards): by default /dev/shm where the system
    /// has that memory-backed folder (stores of a test need no disk, and thousands of commits
    /// run faster without one), else the temporary folder.
    public var workFolder: String?
    /// The plans every data set runs, made once per run.
    private(set) var plans = Plans()
    /// An empty store at the newest version, copied for each round trip.
    private var emptyNewest: String?

    /// A test of `migrator`'s history, with its custom steps and sources (for locations).
    public init(migrator: Migrator) {
        self.migrator = migrator
    }

    /// One data set to test: its version, what it is called, its objects.
    struct DataSet: Sendable {
        enum Source: Sendable {
            case document(JSONValue)
            /// Made when the set is tested, on the thread that tests it.
            case generated(TestDataGenerator)
        }

        var version: Int
        var name: String
        var source: Source
        var isGenerated: Bool

        var document: JSONValue {
            switch source {
            case .document(let document): document
            case .generated(let generator): generator.document()
            }
        }
    }

    /// The data sets, oldest version first: for each version the generated one, then its fixtures.
    func dataSets() -> [DataSet] {
        let history = migrator.history
        var sets: [DataSet] = []
        for version in history.versions {
            guard let schema = history.schema(at: version) else { continue }
            if generates {
                var generator = TestDataGenerator(schema: schema, seed: seed, minimumObjects: objects)
                if let migration = history.migration(to: version + 1), let next = history.schema(at: version + 1) {
                    generator.aim(at: migration, next: next)
                }
                sets.append(DataSet(version: version, name: "generated data (seed \(seed))", source: .generated(generator), isGenerated: true))
            }
            for fixture in fixtures where fixture.version == version {
                sets.append(DataSet(version: version, name: fixture.path, source: .document(fixture.document), isGenerated: false))
            }
        }
        return sets
    }

    /// Runs every data set (two at a time on two cores); `progress` hears of each one done.
    public func run(progress: (@Sendable (_ done: Int, _ total: Int, _ name: String) -> Void)? = nil) throws -> HistoryTestReport {
        let (folder, token) = try makeWorkFolder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            HalfMadeFiles.finished(token)
        }
        var test = self
        test.plans = try Plans(migrator: migrator, now: now)
        // Every round trip imports into an empty store of the newest version: made once, copied.
        let newest = migrator.history.currentVersion
        if let schema = migrator.history.schema(at: newest) {
            let empty = FilePaths.join(folder, "empty-v\(newest).store")
            _ = try RemodelStore.create(atomicallyAt: empty, schema: schema, version: newest) { _ in }
            test.emptyNewest = empty
        }
        let sets = dataSets()
        let counter = ProgressCounter()
        let results = Array(sets.enumerated()).concurrentMap { index, set -> HistoryTestReport.DataSetResult in
            let result = test.test(set, in: FilePaths.join(folder, "set\(index)"))
            progress?(counter.increment(), sets.count, "version \(set.version), \(set.name)")
            return result
        }
        return HistoryTestReport(newestVersion: migrator.history.currentVersion, dataSets: results)
    }

    /// A new scratch folder, registered as half made so that an interrupted run (Ctrl-C, a CI
    /// job's timeout) leaves nothing behind; what a dead run left goes first.
    private func makeWorkFolder() throws -> (folder: String, token: HalfMadeFiles.Token) {
        let parent = workFolder ?? (FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
        let marker = "remodel-test-"
        HalfMadeFiles.removeLeftovers(in: parent) { $0.hasPrefix(marker) ? HalfMadeFiles.processID(in: $0, after: marker) : nil }
        let folder = FilePaths.join(parent, "\(marker)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let token = HalfMadeFiles.started(folder, what: "the test's stores in '\(folder)'")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            HalfMadeFiles.finished(token)
            throw error
        }
        return (folder, token)
    }

    // MARK: - One data set

    /// Imports, migrates both ways, compares, checks conformance and the round trip.
    func test(_ set: DataSet, in folder: String) -> HistoryTestReport.DataSetResult {
        var set = set
        set.source = .document(set.document)
        var result = HistoryTestReport.DataSetResult(version: set.version, name: set.name, objects: Self.objectCount(set.document))
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            result.failure = try check(set, in: folder)
        } catch {
            result.failure = HistoryTestFailure(version: set.version, dataSet: set.name, kind: .internalError, message: "\(error)")
        }
        return result
    }

    private func check(_ set: DataSet, in folder: String) throws -> HistoryTestFailure? {
        let history = migrator.history
        let newest = history.currentVersion
        let base = FilePaths.join(folder, "v\(set.version).store")
        if let problem = importProblem(set.document, version: set.version, at: base, source: set.name) {
            return HistoryTestFailure(
                version: set.version, dataSet: set.name, kind: set.isGenerated ? .internalError : .importFailed,
                message: set.isGenerated ? "the generated data does not import at version \(set.version): \(problem)" : problem,
                hint: set.isGenerated
                    ? "this is a fault of remodel test's generator; please report it with the schema"
                    : "fix the fixture, or record it again from a store at version \(set.version) (remodel fixture record)")
        }
        if set.version < newest {
            let direct = FilePaths.join(folder, "direct.store")
            try FileManager.default.copyItem(atPath: base, toPath: direct)
            if let error = migrationError(at: direct, running: plans.direct(from: set.version)) {
                var failure = HistoryTestFailure(set, error)
                if set.isGenerated {
                    failure.minimalObjects = minimize(set, failingWith: error, in: folder)
                }
                return failure
            }
            let stepwise = FilePaths.join(folder, "stepwise.store")
            try FileManager.default.copyItem(atPath: base, toPath: stepwise)
            if let error = migrationError(at: stepwise, running: plans.stepwise(from: set.version)) {
                var failure = HistoryTestFailure(set, error)
                failure.kind = .resultsDiffer
                failure.message = "migrated version by version, the data fails at version \(failure.failingVersion ?? newest), but migrated directly it does not: \(error)"
                failure.hint = "a version's plan depends on the versions run with it; please report it with the history"
                return failure
            }
            let directData = try export(direct, version: newest)
            let stepwiseData = try export(stepwise, version: newest)
            if let difference = DocumentDifference.first(between: directData, and: stepwiseData, names: ("migrated directly", "migrated version by version")) {
                return HistoryTestFailure(
                    version: set.version, dataSet: set.name, kind: .resultsDiffer,
                    message: "migrated to version \(newest) directly and version by version, the results differ: \(difference)",
                    type: difference.type, property: difference.property,
                    hint: "the same data must reach the same result either way; a step that reads values of another version, or a custom step that is not repeatable, can cause it")
            }
            return try conformance(of: direct, exported: directData, set: set, in: folder)
        }
        return try conformance(of: base, exported: nil, set: set, in: folder)
    }

    /// Whether the migrated store conforms to the newest schema and round-trips through
    /// export and import.
    private func conformance(of store: String, exported known: JSONValue?, set: DataSet, in folder: String) throws -> HistoryTestFailure? {
        let newest = migrator.history.currentVersion
        guard let schema = migrator.history.schema(at: newest) else { return nil }
        do {
            try RemodelStore.checkIntegrity(path: store)
        } catch {
            return HistoryTestFailure(version: set.version, dataSet: set.name, kind: .doesNotConform, message: "the migrated store fails its integrity check: \(error)")
        }
        let exported: JSONValue
        let checked: StoreJSON.CheckedDocument
        do {
            exported = try known ?? export(store, version: newest)
            checked = try StoreJSON.check(exported, schema: schema, source: "the migrated data")
        } catch {
            return HistoryTestFailure(
                version: set.version, dataSet: set.name, kind: .doesNotConform, message: "the data migrated to version \(newest) does not conform to its schema: \(error)",
                hint: "a step leaves values the newest schema does not allow")
        }
        let copy = FilePaths.join(folder, "round-trip.store")
        if let problem = importProblem(checked, version: newest, at: copy, copying: emptyNewest) {
            return HistoryTestFailure(
                version: set.version, dataSet: set.name, kind: .roundTrip, message: "the data migrated to version \(newest) cannot be imported again from its export: \(problem)")
        }
        let again = try export(copy, version: newest)
        if let difference = DocumentDifference.first(between: exported, and: again, names: ("exported", "imported again")) {
            return HistoryTestFailure(
                version: set.version, dataSet: set.name, kind: .roundTrip,
                message: "the data migrated to version \(newest) changes when exported and imported again: \(difference)",
                type: difference.type, property: difference.property)
        }
        return nil
    }

    // MARK: - Stores

    /// Creates a store at `version` holding `document`; the problem as text when it cannot.
    func importProblem(_ document: JSONValue, version: Int, at path: String, source: String) -> String? {
        guard let schema = migrator.history.schema(at: version) else { return "there is no version \(version)" }
        do {
            return importProblem(try StoreJSON.check(document, schema: schema, source: source), version: version, at: path)
        } catch {
            return "\(error)"
        }
    }

    /// Creates a store at `version` holding a document checked against its schema: a copy of
    /// `empty`, an empty store of that version, when there is one.
    private func importProblem(_ checked: StoreJSON.CheckedDocument, version: Int, at path: String, copying empty: String? = nil) -> String? {
        do {
            if let empty {
                try FileManager.default.copyItem(atPath: empty, toPath: path)
                let store = try RemodelStore(path: path, schema: checked.schema, version: version, options: OpenOptions(maximumReaderCount: 1))
                try StoreJSON.importDocument(checked, into: store)
            } else {
                _ = try RemodelStore.create(atomicallyAt: path, schema: checked.schema, version: version) { store in
                    try StoreJSON.importDocument(checked, into: store)
                }
            }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Runs `parts` on the store at `path`, each in its own transaction on one connection,
    /// with seeded generated values (a store this test just made: no integrity check, no
    /// counts); the error that stopped them, if any.
    func migrationError(at path: String, running parts: [MigrationPlan]) -> MigrationError? {
        var migrator = self.migrator
        migrator.generatedValues = .seeded(seed)
        do {
            _ = try migrator.run(parts, onStoreAt: path, isThrowaway: true)
            return nil
        } catch let error as MigrationError {
            return error
        } catch {
            return .layout(version: parts.last?.toVersion ?? migrator.history.currentVersion, "\(error)")
        }
    }

    /// The objects of the store at `path`, opened at `version`.
    func export(_ path: String, version: Int) throws -> JSONValue {
        guard let schema = migrator.history.schema(at: version) else { return .null }
        let store = try RemodelStore(path: path, schema: schema, version: version, options: OpenOptions(maximumReaderCount: 1))
        return try store.read { try StoreJSON.export($0) }
    }

    static func objectCount(_ document: JSONValue) -> Int {
        StoreJSON.counts(of: document).reduce(0) { $0 + $1.count }
    }
}

/// The plans of a run: from each version to the newest (what `remodel migrate` plans for a
/// store at that version) and from each to the next, made once for every data set.
struct Plans: Sendable {
    private var direct: [Int: MigrationPlan] = [:]
    private var next: [Int: MigrationPlan] = [:]

    init() {}

    init(migrator: Migrator, now: Date) throws {
        let newest = migrator.history.currentVersion
        guard newest > 1 else { return }
        // Planned once; each part is what planning from its version gives (`MigrationPlan.part`).
        let whole = try migrator.plan(from: 1, now: now)
        for version in 1..<newest {
            direct[version] = whole.part(from: version, to: newest)
            next[version] = whole.part(from: version, to: version + 1)
        }
    }

    /// The plan from `version` to the newest, as one migration.
    func direct(from version: Int) -> [MigrationPlan] {
        direct[version].map { [$0] } ?? []
    }

    /// The plans from `version` to the newest, one version each.
    func stepwise(from version: Int) -> [MigrationPlan] {
        next.keys.filter { $0 >= version }.sorted().compactMap { next[$0] }
    }
}

/// Counts the data sets done across the threads that test them.
private final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0

    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        return done
    }
}
