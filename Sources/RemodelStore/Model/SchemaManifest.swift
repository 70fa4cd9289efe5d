import RemodelCore

/// What generated code tells the store about the schema it was generated from: one type per
/// app, e.g. `enum NotesSchema: SchemaManifest`.
///
/// `RemodelStore(path:manifest:)` creates a store at `version` or checks an existing one
/// against `version` and `schemaHash`.
public protocol SchemaManifest: Sendable {
    /// The schema version: the number of the newest migration (1 without migrations).
    static var version: Int { get }
    /// The schema the models were generated from.
    static var schema: Schema { get }
    /// `schema.storageHash`, computed at generation time.
    static var schemaHash: String { get }
    /// The migration history, for in-app upgrades; `nil` until the app has migrations.
    static var history: MigrationHistory? { get }
    /// The generated bridge types, one per non-embedded object type.
    static var models: [any PersistentModel.Type] { get }
}
