import RemodelCodegen
import RemodelCore
import RemodelSchema

extension GeneratorInput {
    /// What `remodel generate` generates for a loaded schema and history. One home for the
    /// generator's input, shared by `generate`, the build plugin's tool, `validate --realm` and
    /// `check`.
    package init(schema: Schema, result: SchemaLoadResult, schemasPath: String, migrations: MigrationHistoryLoadResult) {
        // The newest version is the schema files people edit: its problems point there.
        var sources = migrations.sources
        sources.schemas[migrations.currentVersion] = result.source
        self.init(
            schema: schema,
            schemaFiles: SchemaFolder.displayNames(of: result.files, schemasPath: schemasPath),
            version: migrations.currentVersion,
            history: migrations.history,
            sources: sources
        )
    }
}
