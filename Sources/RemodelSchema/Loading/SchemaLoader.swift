import Foundation
import RemodelCore

/// Loads a schema from YAML files: reads, parses, merges and validates them, reporting every
/// problem with its file, line and column.
public enum SchemaLoader {
    /// Loads the schema at `path`: a directory (every `*.yaml` and `*.yml` file below it,
    /// sorted by relative path and merged into one schema) or a single file.
    ///
    /// Diagnostics name files the way `path` does: `load(path: "Schemas")` reports
    /// `Schemas/Person.yaml`. Never throws and never crashes on bad input: unreadable,
    /// oversized, binary or malformed files are diagnostics like any other.
    public static func load(path: String) -> SchemaLoadResult {
        // Files are read and parsed in parallel, then merged in path order and validated.
        let files: [String]
        switch SchemaFiles.find(at: path) {
        case .success(let found): files = found
        case .failure(let diagnostic): return SchemaLoadResult(schema: nil, diagnostics: [diagnostic], files: [])
        }
        let outcomes = files.concurrentMap { file in
            switch read(file, limits: YAMLLimits.standard) {
            case .bytes(let bytes): parse(file, bytes: bytes, limits: YAMLLimits.standard)
            case .failed(let outcome): outcome
            }
        }
        return merge(outcomes, files: files)
    }

    /// Loads a schema from in-memory files (path and contents), as if read from disk.
    static func load(_ sources: [(file: String, bytes: [UInt8])], files: [String], limits: YAMLLimits = .standard) -> SchemaLoadResult {
        let outcomes = sources.concurrentMap { parse($0.file, bytes: $0.bytes, limits: limits) }
        return merge(outcomes, files: files)
    }

    /// What one file contributed: its declarations, its problems, and whether it could be
    /// read in full.
    private struct FileOutcome {
        var syntax = SchemaSyntax()
        var diagnostics: [Diagnostic]
        var isComplete: Bool
    }

    /// Parses one file and reads its declarations; independent of every other file.
    private static func parse(_ file: String, bytes: [UInt8], limits: YAMLLimits) -> FileOutcome {
        if bytes.count > limits.maxFileSize {
            return FileOutcome(diagnostics: [tooLarge(file, size: bytes.count, limits: limits)], isComplete: false)
        }
        let (root, problems) = YAMLParser(file: file, limits: limits).parse(bytes)
        guard problems.isEmpty else { return FileOutcome(diagnostics: problems, isComplete: false) }
        guard let root, !root.isNull else {
            let warning = Diagnostic.warning(
                "empty-file", "the schema file is empty", at: SourceLocation(file: file, line: 1, column: 1),
                hint: "declare 'enums:', 'objects:' or 'projections:' in it, or delete it"
            )
            return FileOutcome(diagnostics: [warning], isComplete: true)
        }
        let log = DiagnosticLog()
        let syntax = SchemaFileReader(log: log).read(root)
        return FileOutcome(syntax: syntax, diagnostics: log.diagnostics, isComplete: true)
    }

    /// Merges the files in order and validates the whole schema. Files that could not be read
    /// or parsed leave their declarations unknown; checking names across files would then only
    /// report their absence, so that is skipped.
    private static func merge(_ outcomes: [FileOutcome], files: [String]) -> SchemaLoadResult {
        let log = DiagnosticLog()
        var syntax = SchemaSyntax()
        syntax.objects.reserveCapacity(outcomes.reduce(0) { $0 + $1.syntax.objects.count })
        for outcome in outcomes {
            log.add(contentsOf: outcome.diagnostics)
            syntax.append(outcome.syntax)
        }
        var schema: Schema?
        if outcomes.allSatisfy(\.isComplete) {
            let origin = files.first.map { SourceLocation(file: $0, line: 1, column: 1) }
            schema = SchemaValidator(syntax: syntax, log: log, origin: origin).validate()
        }
        if log.hasErrors { schema = nil }
        return SchemaLoadResult(schema: schema, diagnostics: log.diagnostics.sortedByLocation(), files: files, source: syntax.source)
    }

    private enum ReadResult {
        case bytes([UInt8])
        case failed(FileOutcome)
    }

    /// The bytes of `file`, or the outcome explaining why they cannot be used.
    private static func read(_ file: String, limits: YAMLLimits) -> ReadResult {
        switch BoundedFile.read(file, limit: limits.maxFileSize) {
        case .success(let bytes):
            return .bytes(bytes)
        case .failure(.tooLarge(let size)):
            return .failed(FileOutcome(diagnostics: [tooLarge(file, size: size, limits: limits)], isComplete: false))
        case .failure(.unreadable(let reason)):
            let diagnostic = Diagnostic.error("file-unreadable", "cannot read '\(file)': \(reason)", at: nil, hint: "check that the file exists and is readable")
            return .failed(FileOutcome(diagnostics: [diagnostic], isComplete: false))
        }
    }

    private static func tooLarge(_ file: String, size: Int?, limits: YAMLLimits) -> Diagnostic {
        .error(
            "file-too-large",
            "the schema file is \(BoundedFile.describe(size: size, limit: limits.maxFileSize)); schema files are limited to \(limits.maxFileSize / 1_000_000) MB, and read whole",
            at: SourceLocation(file: file, line: 1, column: 1), hint: "split the schema into several files, or check that this is the right file"
        )
    }
}

/// Loads a schema from YAML text, as if it were the file `file`. Meant for tests and tools
/// that hold a schema in memory.
public func loadSchema(yaml: String, file: String) -> SchemaLoadResult {
    SchemaLoader.load([(file, Array(yaml.utf8))], files: [file])
}
