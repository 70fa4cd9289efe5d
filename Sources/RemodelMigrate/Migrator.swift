import CSQLite
import Foundation
import RemodelCore
import RemodelStore

/// Upgrades stores through a schema's version history: plans, rehearses (dry run), backs up
/// and migrates, in one transaction.
///
/// The CLI's `remodel migrate` and in-app upgrades both use it. Custom steps are Swift
/// closures registered by name:
///
/// ```swift
/// var migrator = Migrator(history: AppSchema.history!)
/// migrator.register("normalisePhones") { object in
///     if case .text(let phone) = object.old["phone"] { object.new["phone"] = .text(normalise(phone)) }
/// }
/// let report = try migrator.migrate(storeAt: path)
/// ```
public struct Migrator: Sendable {
    public var history: MigrationHistory
    /// How tables whose data changes are rewritten (see `MigrationPlanner.TableRewrite`).
    public var tableRewrite: MigrationPlanner.TableRewrite = .automatic
    /// Where the history is written, when it was loaded from files: planning errors then
    /// point at the step or schema line.
    public var sources = HistorySources()
    /// What opening an older store does, when this migrator is a store's `OpenOptions.migrator`.
    public var upgradePolicy: UpgradePolicy = .migrate
    /// Called as a migration advances (in-app upgrades and `migrate(storeAt:)` alike).
    public var progress: (@Sendable (MigrationProgress) -> Void)?
    /// Where the values of `$uuid` and `$objectId` defaults come from: random, as an app
    /// wants; seeded in tests that compare two migrations of the same data.
    public var generatedValues: GeneratedValues = .random
    /// Planner faults brought back for tests that prove `remodel test` catches them.
    package var reintroducedFaults: Set<PlannerFault> = []
    package private(set) var customSteps: [String: CustomStep] = [:]

    public init(history: MigrationHistory) {
        self.history = history
    }

    /// Makes the closure available to migrations whose files name it in a `custom` step.
    public mutating func register(_ name: String, _ step: @escaping CustomStep) {
        customSteps[name] = step
    }

    /// The plan from `version` to `target` (default: newest).
    public func plan(from version: Int, to target: Int? = nil, now: Date = Date()) throws -> MigrationPlan {
        var planner = MigrationPlanner(history: history, customSteps: Set(customSteps.keys), tableRewrite: tableRewrite, sources: sources)
        planner.reintroducedFaults = reintroducedFaults
        return try planner.plan(from: version, to: target, now: now)
    }

    /// What a store file says about itself, read without changing it.
    public func inspect(storeAt path: String) throws -> StoreState {
        try StoreState.read(path: path)
    }

    /// Migrates the store at `path` to `target` (default: newest). Throws `StoreError` for a
    /// file that is not a Remodel store or is newer than the history, `MigrationPlanningError`
    /// for a history that cannot take it there, `MigrationError` for data it cannot migrate;
    /// in every error case the file is unchanged. A store on read-only storage is refused
    /// (`StoreError.readOnly`), and a damaged one (`StoreError.damaged`, from
    /// `PRAGMA quick_check` under the write lock) before anything changes. A store another process migrated to the
    /// target meanwhile is left alone (`MigrationReport.outcome`) when its schema is the
    /// target's, and refused (`StoreError.schemaMismatch`) when another history took it there.
    public func migrate(
        storeAt path: String,
        to target: Int? = nil,
        dryRun: Bool = false,
        now: Date = Date(),
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws -> (plan: MigrationPlan, report: MigrationReport) {
        let state = try StoreState.read(path: path)
        try check(state)
        // Even a dry run takes the write lock, which read-only storage cannot give.
        try RemodelStore.checkWritable(path: path)
        let plan = try self.plan(from: state.version, to: target, now: now)
        guard !plan.isEmpty else {
            return (plan, MigrationReport(fromVersion: state.version, toVersion: state.version, versions: [], countsBefore: [:], countsAfter: [:], dryRun: dryRun, duration: .zero))
        }
        return (plan, try run(plan, onStoreAt: path, dryRun: dryRun, progress: progress ?? self.progress))
    }

    /// Runs a plan made for the store at `path` (its version is `plan.fromVersion`), as
    /// `migrate(storeAt:)` does once it has planned: for callers that run one plan on many
    /// stores of the same version (`remodel test`).
    package func run(
        _ plan: MigrationPlan, onStoreAt path: String, dryRun: Bool = false, isThrowaway: Bool = false, progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws -> MigrationReport {
        try run([plan], onStoreAt: path, dryRun: dryRun, isThrowaway: isThrowaway, progress: progress).last!
    }

    /// Runs plans one after the other on the store at `path`, each in its own transaction as
    /// separate `migrate` calls would, on one connection (which reads the store's schema once):
    /// `remodel test`'s version-by-version migrations.
    package func run(
        _ plans: [MigrationPlan], onStoreAt path: String, dryRun: Bool = false, isThrowaway: Bool = false, progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws -> [MigrationReport] {
        let connection = try Connection(path: path)
        connection.setBusyTimeout(Self.busyTimeout)
        do {
            return try plans.map { plan in
                var executor = MigrationExecutor(plan: plan, customSteps: customSteps, dryRun: dryRun, progress: progress)
                executor.generatedValues = generatedValues
                executor.isThrowaway = isThrowaway
                return try executor.run(on: connection)
            }
        } catch let error as SQLiteError where error.code == SQLITE_BUSY || error.code == SQLITE_LOCKED {
            // Another writer kept the store for the whole busy timeout: nothing has started.
            throw StoreError.locked(path: path, timeout: Self.busyTimeout, underlying: error)
        }
    }

    /// The migrations of `applied` (a store's record) whose files have changed since (their checksums
    /// differ): a released migration was edited, so stores migrated before and after the
    /// edit may hold different data.
    public func editedMigrations(_ applied: [AppliedMigration]) -> [(applied: AppliedMigration, now: Migration)] {
        applied.compactMap { applied in
            // A squash rewrote its baseline's file on purpose: a store recorded what was there before.
            guard applied.version > history.baseVersion, let now = history.migrations.first(where: { $0.version == applied.version }),
                !applied.checksum.isEmpty, !now.checksum.isEmpty, applied.checksum != now.checksum
            else { return nil }
            return (applied, now)
        }
    }

    /// How long a migration waits for another writer to finish before it gives up, in seconds.
    static let busyTimeout: Double = 5

    /// Refuses a store this history cannot migrate: one newer than the history (superseded),
    /// or one whose schema differs from the snapshot of its version.
    public func check(_ state: StoreState) throws {
        if state.version > history.currentVersion {
            throw StoreError.superseded(path: state.path, storeVersion: state.version, codeVersion: history.currentVersion)
        }
        if let expected = history.schema(at: state.version)?.storageHash, let hash = state.schemaHash, hash != expected {
            throw StoreError.schemaMismatch(path: state.path, version: state.version, storeHash: hash, codeHash: expected)
        }
    }
}

/// Where a migration's `$uuid` and `$objectId` values come from.
public enum GeneratedValues: Hashable, Sendable {
    /// New random values, as an app wants.
    case random
    /// A sequence made from the seed and each version: two migrations of equal data write
    /// equal values, whether they run the versions together or one by one (`remodel test`).
    case seeded(UInt64)
}

/// The version, schema hash and applied migrations a store records about itself.
public struct StoreState: Sendable {
    public var path: String
    public var version: Int
    public var schemaHash: String?
    /// The canonical schema text the store was written with.
    public var schemaText: String?
    /// The migrations the store records as applied (version, name, checksum, time).
    public var appliedMigrations: [AppliedMigration] = []

    static func read(path: String) throws -> StoreState {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.cannotOpen(path: path, reason: "no such file; check the path, or create the store first (remodel init --store FILE --version N)")
        }
        // The same checks and typed errors as `remodel status`: a folder, a damaged or foreign
        // file, a locked store.
        let info = try RemodelStore.inspect(path: path, busyTimeout: Migrator.busyTimeout)
        return StoreState(
            path: path, version: info.version,
            schemaHash: info.schemaHash.isEmpty ? nil : info.schemaHash,
            schemaText: info.schemaText.isEmpty ? nil : info.schemaText,
            appliedMigrations: info.appliedMigrations
        )
    }
}
