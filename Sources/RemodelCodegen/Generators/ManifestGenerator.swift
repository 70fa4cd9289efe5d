import RemodelCore

/// Generates the schema manifest: the one type that tells RemodelStore which schema, version,
/// migration history and models this code was generated from.
struct ManifestGenerator: Sendable {
    let name: String

    func declaration(schema: Schema, version: Int, history: MigrationHistory?) -> SwiftDeclaration {
        let models = schema.objects.filter { !$0.isEmbedded }.map { SwiftExpression.metatype(.name($0.name)) }
        return .enumeration(
            SwiftEnum(
                doc: """
                    The schema these models were generated from, embedded so that the app needs no YAML at
                    run time: pass it to `RemodelStore(path:manifest:)`.
                    """,
                name: name,
                inherits: [.name("SchemaManifest")],
                members: [
                    .property(
                        SwiftProperty(
                            doc: "The schema version: the number of the newest migration, 1 without migrations.",
                            isStatic: true, binding: .let, name: "version", type: nil, value: .int(version)
                        )),
                    .property(
                        SwiftProperty(
                            doc: "`schema.storageHash`, computed when the code was generated.",
                            isStatic: true, binding: .let, name: "schemaHash", type: nil, value: .string(schema.storageHash)
                        )),
                    .property(
                        SwiftProperty(
                            doc: "Every version's schema and the migrations between them; `nil` without migrations.",
                            isStatic: true, binding: .let, name: "history",
                            type: .optional(.member(.name("RemodelCore"), "MigrationHistory")),
                            // The newest snapshot is usually the schema itself: it refers to `schema`.
                            value: history.map {
                                SchemaExpressions.history($0, current: (schema, .identifier("schema"))) { .call(.identifier(Self.snapshotFunction($0)), []) }
                            } ?? .nil
                        )),
                    .property(
                        SwiftProperty(
                            doc: "The stored model types, in schema order.",
                            isStatic: true, binding: .let, name: "models",
                            type: .array(.existentialMetatype(.name("PersistentModel"))),
                            value: .array(models)
                        )),
                    .property(
                        SwiftProperty(
                            doc: "The schema, as the schema files declare it.",
                            isStatic: true, binding: .let, name: "schema",
                            type: .member(.name("RemodelCore"), "Schema"),
                            value: .call(.identifier(Self.schemaFunction), [])
                        )),
                ] + builders(schema: schema, history: history)
            ))
    }

    /// The function that builds the schema, and each older snapshot's.
    static let schemaFunction = "_remodelSchema"

    static func snapshotFunction(_ version: Int) -> String { "_remodelSnapshot\(version)" }

    /// The functions building the schema and the snapshots the schema is not, statement by
    /// statement (`SchemaExpressions.schemaStatements`).
    private func builders(schema: Schema, history: MigrationHistory?) -> [SwiftDeclaration] {
        var functions = [(Self.schemaFunction, schema)]
        // Every version once: the history's, then those only its upgrade path has.
        var seen: Set<Int> = []
        var next = history
        while let part = next {
            for (index, snapshot) in part.snapshots.enumerated() where snapshot != schema && seen.insert(part.baseVersion + index).inserted {
                functions.append((Self.snapshotFunction(part.baseVersion + index), snapshot))
            }
            next = part.upgradePath
        }
        let type = SwiftType.member(.name("RemodelCore"), "Schema")
        return functions.map { name, schema in
            .function(SwiftFunction(access: .private, isStatic: true, name: name, parameters: [], result: type, body: SchemaExpressions.schemaStatements(schema)))
        }
    }
}
