import Foundation

/// Where the parts of a version history are written, so that problems found while planning a
/// migration point at the step or the schema line that causes them. Loading from files fills
/// it; a history embedded in generated code has none.
public struct HistorySources: Hashable, Sendable {
    /// The migration file of each version.
    public var migrations: [Int: MigrationSource]
    /// The declarations of each version's schema: its snapshot, or for the newest version the
    /// schema files people edit.
    public var schemas: [Int: SchemaSource]

    public init(migrations: [Int: MigrationSource] = [:], schemas: [Int: SchemaSource] = [:]) {
        self.migrations = migrations
        self.schemas = schemas
    }

    /// Where step `index` of version `version` is written, or its file's start; with `value`,
    /// where the field's value is rather than its key.
    public func location(version: Int, step index: Int?, field: StepField? = nil, value: Bool = false) -> SourceLocation? {
        guard let migration = migrations[version] else { return nil }
        guard let index, migration.steps.indices.contains(index) else { return migration.start }
        let step = migration.steps[index]
        guard let field else { return step.location }
        return (value ? step.values[field] : nil) ?? step.fields[field] ?? step.location
    }
}

/// One migration file and where each of its steps is written.
public struct MigrationSource: Hashable, Sendable {
    public var file: String
    public var steps: [StepSource]
    /// Where the file's `steps:` key is (or its first line when it has none).
    public var stepsLocation: SourceLocation?

    public init(file: String, steps: [StepSource] = [], stepsLocation: SourceLocation? = nil) {
        self.file = file
        self.steps = steps
        self.stepsLocation = stepsLocation
    }

    /// The place to report a problem of the whole migration.
    public var start: SourceLocation { stepsLocation ?? SourceLocation(file: file, line: 1, column: 1) }
}

/// Where one step is written: its kind key, and each of its values by place (`from`, `into.1`,
/// `values.Eng`, `where.content`, `objects.0.name`).
public struct StepSource: Hashable, Sendable {
    public var location: SourceLocation
    public var fields: [StepField: SourceLocation]
    /// Where the values of nested keys are (`where.content` → `""`), when they differ from
    /// the key's place.
    public var values: [StepField: SourceLocation]

    public init(location: SourceLocation, fields: [StepField: SourceLocation] = [:], values: [StepField: SourceLocation] = [:]) {
        self.location = location
        self.fields = fields
        self.values = values
    }
}

/// Where the declarations of one schema are written.
///
/// Only diagnostics read it, so a schema that loads without problems need not build it: the
/// loader gives it as a function, run at the first read (5 ms for 1,000 types of 20 members).
public struct SchemaSource: Hashable, Sendable {
    private var storage: Storage

    /// Object types and enums by name.
    public var declarations: [String: DeclarationSource] {
        get { storage.value }
        set { storage = Storage(newValue) }
        _modify {
            // The storage lets go of the dictionary first, so that a write changes it in place.
            var value = storage.value
            storage = Storage([:])
            defer { storage = Storage(value) }
            yield &value
        }
    }

    public init(declarations: [String: DeclarationSource] = [:]) {
        storage = Storage(declarations)
    }

    /// Declarations that `build` returns when they are first read.
    public init(building build: @escaping @Sendable () -> [String: DeclarationSource]) {
        storage = Storage(build)
    }

    public static func == (left: SchemaSource, right: SchemaSource) -> Bool {
        left.storage === right.storage || left.declarations == right.declarations
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(declarations)
    }

    /// The declarations, or the function that builds them, built once under a lock.
    private final class Storage: @unchecked Sendable {
        private let lock = NSLock()
        private var built: [String: DeclarationSource]?
        private var build: (@Sendable () -> [String: DeclarationSource])?

        init(_ declarations: [String: DeclarationSource]) { built = declarations }
        init(_ build: @escaping @Sendable () -> [String: DeclarationSource]) { self.build = build }

        var value: [String: DeclarationSource] {
            lock.lock()
            defer { lock.unlock() }
            if let built { return built }
            let value = build?() ?? [:]
            built = value
            build = nil
            return value
        }
    }

    /// Where type `type` is declared, or its member (property or case) `member`.
    public func location(of type: String, member: String? = nil) -> SourceLocation? {
        guard let declaration = declarations[type] else { return nil }
        return member.flatMap { declaration.member($0) } ?? declaration.location
    }
}

/// Where one type is declared, and each of its properties (or cases).
public struct DeclarationSource: Hashable, Sendable {
    /// A member's place relative to its declaration's: lines below it, and its column.
    public struct Offset: Hashable, Sendable {
        public var lines: Int
        public var column: Int

        public init(lines: Int, column: Int) {
            self.lines = lines
            self.column = column
        }
    }

    public var location: SourceLocation
    /// Each member's place relative to `location`, so that a declaration that moves (lines
    /// added above it in a later snapshot) shares its members' places as they are.
    public var memberOffsets: [String: Offset]

    public init(location: SourceLocation, members: [String: SourceLocation] = [:]) {
        self.location = location
        memberOffsets = members.mapValues { Offset(lines: $0.line - location.line, column: $0.column) }
    }

    public init(location: SourceLocation, memberOffsets: [String: Offset]) {
        self.location = location
        self.memberOffsets = memberOffsets
    }

    /// Where member `name` is declared.
    public func member(_ name: String) -> SourceLocation? {
        memberOffsets[name].map { SourceLocation(file: location.file, line: location.line + $0.lines, column: $0.column) }
    }
}
