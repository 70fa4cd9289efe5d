import RemodelCore
import RemodelSchema

/// One rule of `remodel check` that a team may tune: its stable ID (what configuration,
/// acceptances and CI logs name), its severity unless configured, and what it guards
/// against. Problems that stop a history from running at all (an invalid schema, a version
/// that cannot be planned) are not tunable: they keep their own rule IDs and stay errors.
public struct CheckRule: Hashable, Sendable {
    public var id: String
    public var defaultSeverity: Diagnostic.Severity
    /// One line for the manual's rule table ("Check in CI") and `remodel check --help`.
    public var summary: String

    public init(_ id: String, _ defaultSeverity: Diagnostic.Severity, _ summary: String) {
        self.id = id
        self.defaultSeverity = defaultSeverity
        self.summary = summary
    }
}

/// Every tunable rule, in the order `--help` and the manual list them.
public enum CheckRules {
    public static let destructiveChange = CheckRule(
        "destructive-change", .error,
        "a new version deletes stored data (a removed type or property, links to another type, objects no one holds when a type becomes embedded) and its migration file does not accept it"
    )
    public static let dataDependentChange = CheckRule(
        "data-dependent-change", .warning,
        "whether a new version keeps every value depends on the data: a narrowing convert, optional → required, a new primary key, split, mapValues, set"
    )
    public static let breakingAPIChange = CheckRule(
        "breaking-api-change", .warning,
        "the generated Swift API changes incompatibly: a type, property, enum or case removed or renamed, a property's Swift type changed"
    )
    public static let unansweredQuestion = CheckRule(
        "draft-question-unanswered", .error,
        "a new migration file still has a draft's question commented out: left so, the change it asks about runs as drafted (a rename asked about deletes the data)"
    )
    public static let unusedAcceptance = CheckRule(
        "unused-acceptance", .warning,
        "a new migration file accepts a change the version does not make (a typo, or a change since undone)"
    )
    public static let generatedOutOfDate = CheckRule(
        "generated-out-of-date", .error,
        "with --generated DIR: the generated Swift in DIR differs from what `remodel generate` writes now"
    )
    public static let sumMissing = CheckRule(
        MigrationSum.Rule.missing, .warning,
        "the migrations folder has no remodel.sum (run `remodel migration hash`)"
    )
    public static let sumFileChanged = CheckRule(
        MigrationSum.Rule.fileChanged, .error,
        "a migration file or snapshot differs from its hash in remodel.sum: a version was edited after it was recorded"
    )
    public static let sumFileDeleted = CheckRule(
        MigrationSum.Rule.fileDeleted, .error,
        "a file remodel.sum records is missing (a snapshot or migration deleted)"
    )
    public static let sumFileUnrecorded = CheckRule(
        MigrationSum.Rule.fileUnrecorded, .error,
        "a migration file or snapshot is not in remodel.sum: added by hand, or two branches added the same version"
    )
    public static let sumOutdated = CheckRule(
        MigrationSum.Rule.unreleasedOutdated, .warning,
        "a new (not yet released) version's files differ from remodel.sum, as while its draft is edited: run `remodel migration hash` before merging"
    )
    public static let releasedVersionEdited = CheckRule(
        "released-version-edited", .error,
        "with --base REF: a version that REF already has differs from REF's files (released versions never change)"
    )

    public static let postgresTableRewrite = CheckRule(
        "postgres-table-rewrite", .warning,
        "with --engine postgresql: a version computes a value of every object or changes a column's type, which rewrites the table while the app waits")
    public static let postgresNotNullScan = CheckRule(
        "postgres-not-null-scan", .warning, "with --engine postgresql: a property becomes required, and SET NOT NULL reads the whole table while writes wait")
    public static let postgresBlockingIndex = CheckRule(
        "postgres-blocking-index", .warning, "with --engine postgresql: an index or unique group on an existing type, built without CONCURRENTLY")
    public static let postgresValidatingForeignKey = CheckRule(
        "postgres-validating-foreign-key", .warning, "with --engine postgresql: a link added to an existing type, whose foreign key is checked on every row while writes wait")
    public static let postgresRename = CheckRule(
        "postgres-rename", .warning, "with --engine postgresql: a type or property renamed while instances of the previous version still read the old name")
    public static let postgresVolatileDefault = CheckRule(
        "postgres-volatile-default", .warning, "with --engine postgresql: a property added with a default made for each object ($uuid, $objectId), computed for every row at once")

    public static let all: [CheckRule] = [
        destructiveChange, dataDependentChange, breakingAPIChange, unansweredQuestion, unusedAcceptance,
        generatedOutOfDate, sumMissing, sumFileChanged, sumFileDeleted, sumFileUnrecorded, sumOutdated, releasedVersionEdited,
        postgresTableRewrite, postgresNotNullScan, postgresBlockingIndex, postgresValidatingForeignKey, postgresRename, postgresVolatileDefault,
    ]

    /// The rule with ID `id`.
    public static func rule(_ id: String) -> CheckRule? {
        all.first { $0.id == id }
    }
}
