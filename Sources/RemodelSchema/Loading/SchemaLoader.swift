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
        let files: [String]
        switch SchemaFiles.find(at: path) {
        case .success(let found): files = found
        case .failure(let diagnostic): return SchemaLoadResult(schema: nil, diagnostics: [diagnostic], files: [])
        }
        let log = DiagnosticLog()
        let sources = files.compactMap { file in read(file, log: log).map { (file, $0) } }
        return load(sources, files: files, log: log)
    }

    /// Loads a schema from in-memory files (path and contents), as if read from disk.
    static func load(_ sources: [(file: String, bytes: [UInt8])], files: [String], log: DiagnosticLog = DiagnosticLog(), limits: YAMLLimits = .standard) -> SchemaLoadResult {
        var syntax = SchemaSyntax()
        let reader = SchemaFileReader(log: log)
        // Files that could not be read or parsed leave their declarations unknown; checking
        // names across files would then only report their absence, so that is skipped.
        var complete = sources.count == files.count
        for (file, bytes) in sources {
            if bytes.count > limits.maxFileSize {
                log.add(tooLarge(file, size: bytes.count, limits: limits))
                complete = false
                continue
            }
            let (root, problems) = YAMLParser(file: file, limits: limits).parse(bytes)
            log.add(contentsOf: problems)
            guard problems.isEmpty else {
                complete = false
                continue
            }
            guard let root, !root.isNull else {
                log.warning("empty-file", "the schema file is empty", at: SourceLocation(file: file, line: 1, column: 1), hint: "declare 'enums:', 'objects:' or 'projections:' in it, or delete it")
                continue
            }
            syntax.append(reader.read(root))
        }
        let origin = files.first.map { SourceLocation(file: $0, line: 1, column: 1) }
        var schema: Schema?
        if complete {
            schema = SchemaValidator(syntax: syntax, log: log, origin: origin).validate()
        }
        if log.hasErrors { schema = nil }
        return SchemaLoadResult(schema: schema, diagnostics: log.diagnostics.sortedByLocation(), files: files)
    }

    private static func read(_ file: String, log: DiagnosticLog, limits: YAMLLimits = .standard) -> [UInt8]? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file)
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > limits.maxFileSize {
            log.add(tooLarge(file, size: size, limits: limits))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            log.error("file-unreadable", "cannot read '\(file)'", at: nil, hint: "check that the file exists and is readable")
            return nil
        }
        return [UInt8](data)
    }

    private static func tooLarge(_ file: String, size: Int, limits: YAMLLimits) -> Diagnostic {
        .error(
            "file-too-large", "the schema file is \(size / 1_000_000) MB; schema files are limited to \(limits.maxFileSize / 1_000_000) MB",
            at: SourceLocation(file: file, line: 1, column: 1), hint: "split the schema into several files, or check that this is the right file"
        )
    }
}

/// Loads a schema from YAML text, as if it were the file `file`. Meant for tests and tools
/// that hold a schema in memory.
public func loadSchema(yaml: String, file: String) -> SchemaLoadResult {
    SchemaLoader.load([(file, Array(yaml.utf8))], files: [file])
}

