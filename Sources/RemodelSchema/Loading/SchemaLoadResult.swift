import RemodelCore

/// What loading a schema produced: the schema when it is valid, every diagnostic found, and
/// the files that were read.
public struct SchemaLoadResult: Sendable {
    /// The merged, validated schema; `nil` when any diagnostic is an error.
    public var schema: Schema?
    /// Every problem found, sorted by file, line and column. Warnings may accompany a schema.
    public var diagnostics: [Diagnostic]
    /// The schema files read, as paths the user would write them (`Schemas/Person.yaml`), in
    /// the order they were merged.
    public var files: [String]
    /// Where each type and property is declared, so that later checks (migration planning)
    /// can point at the line that causes a problem.
    public var source: SchemaSource

    public init(schema: Schema?, diagnostics: [Diagnostic], files: [String], source: SchemaSource = SchemaSource()) {
        self.schema = schema
        self.diagnostics = diagnostics
        self.files = files
        self.source = source
    }
}
