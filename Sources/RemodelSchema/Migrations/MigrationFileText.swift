import RemodelCore

/// Reads one migration file's text as `MigrationHistoryLoader` reads each file of a folder:
/// its steps, where each is written, and every problem found in it. Meant for tools that hold
/// a file in memory (the fuzz targets); `target` is the schema of the version the file
/// produces, if known.
package func readMigrationFile(yaml bytes: [UInt8], file: String, target: Schema?) -> (steps: [MigrationStep], source: MigrationSource, diagnostics: [Diagnostic]) {
    let (root, problems) = YAMLParser(file: file, document: .migration).parse(bytes)
    guard problems.isEmpty, let root, !root.isNull else { return ([], MigrationSource(file: file, steps: [], stepsLocation: nil), problems) }
    let log = DiagnosticLog()
    let contents = MigrationFileReader(log: log, target: target).read(root, file: file)
    return (contents.steps, MigrationSource(file: file, steps: contents.sources, stepsLocation: contents.stepsLocation), log.diagnostics)
}
