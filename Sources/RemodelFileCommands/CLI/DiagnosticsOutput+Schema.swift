import RemodelCore
import RemodelGeneration
import RemodelSchema

extension DiagnosticsOutput {
    /// Loads the schema at the `--schemas` path and prints its diagnostics; returns the
    /// schema, or throws `ExitError(status: 1)` when it has errors. For commands that need a
    /// valid schema before doing anything else.
    package static func loadSchema(_ arguments: ParsedArguments, format: DiagnosticFormat = .text) throws -> Schema {
        let result = SchemaLoader.load(path: arguments.schemasPath)
        print(result.diagnostics, format: format)
        guard let schema = result.schema else { throw ExitError(status: ExitStatus.failure) }
        return schema
    }
}
