import RemodelCore

/// Generates the Realm entry points on the schema manifest: `realmSchemaVersion`,
/// `realmObjectTypes`, `realmConfiguration(_:customSteps:)` (schema version and migration
/// block from `Migrations/`), `migrateRealm(_:from:customSteps:)` (the block itself, callable
/// from tests), the `RealmCustomSteps` closures, and `copyRealm(_:into:progress:)`, the move
/// from a Realm into a RemodelStore.
struct RealmManifestGenerator {
    let types: RealmTypeMapper
    let manifestName: String

    func declaration(migration: inout RealmMigrationGenerator) -> SwiftDeclaration {
        let body = migration.body()
        let objects = types.schema.objects
        var members: [SwiftDeclaration] = [
            .property(
                SwiftProperty(
                    doc:
                        "The newest version of `Migrations/`, \(migration.version): the schema version Realm records, when `firstSchemaVersion` (the Realm schema version of version 1) is 1.",
                    isStatic: true, binding: .let, name: "realmSchemaVersion", type: .name("UInt64"), value: .int(migration.version)
                )),
            .property(
                SwiftProperty(
                    doc: "The Realm classes of the schema, for `Realm.Configuration.objectTypes`.",
                    isStatic: true, name: "realmObjectTypes", type: .array(.name("ObjectBase.Type")),
                    getter: [.returnValue(.array(objects.map { .metatype(.name(RealmTypeMapper.className($0.name))) }))]
                )),
        ]
        members.append(customStepsDeclaration(migration.customSteps))
        let hasCustom = !migration.customSteps.isEmpty
        members.append(
            .function(
                SwiftFunction(
                    doc: """
                        `base` (a file URL, an encryption key, …) with this schema: its classes, its schema version, and a \
                        migration block that runs every step of `Migrations/` from the Realm's version on.\(hasCustom ? " `customSteps` are the closures of the custom steps." : "") \
                        An app whose Realm was at schema version K when it adopted Remodel passes `firstSchemaVersion: K` \
                        (version N is then schema version K + N − 1) and its own block for older Realms as \
                        `legacyMigration`, which runs first.
                        """,
                    isStatic: true,
                    name: "realmConfiguration",
                    parameters: [
                        SwiftParameter(
                            label: "_", name: "base", type: .member(.name("Realm"), "Configuration"), defaultValue: .call(.member(.identifier("Realm"), "Configuration"), [])),
                        SwiftParameter(name: "customSteps", type: .name("RealmCustomSteps"), defaultValue: hasCustom ? nil : .call(.identifier("RealmCustomSteps"), [])),
                        SwiftParameter(name: "firstSchemaVersion", type: .name("UInt64"), defaultValue: .int(1)),
                        SwiftParameter(name: "legacyMigration", type: .name("MigrationBlock?"), defaultValue: .nil),
                    ],
                    result: .member(.name("Realm"), "Configuration"),
                    body: [
                        .variable("configuration", nil, .identifier("base")),
                        .assignment(
                            .member(.identifier("configuration"), "schemaVersion"),
                            .binary(.binary(.identifier("firstSchemaVersion"), "+", .identifier("realmSchemaVersion")), "-", .int(1))),
                        .assignment(.member(.identifier("configuration"), "objectTypes"), .identifier("realmObjectTypes")),
                        .assignment(
                            .member(.identifier("configuration"), "migrationBlock"),
                            .closure(
                                ["migration", "oldSchemaVersion"],
                                .call(
                                    .identifier("migrateRealm"),
                                    [
                                        .unlabelled(.identifier("migration")), SwiftArgument("fromSchemaVersion", .identifier("oldSchemaVersion")),
                                        SwiftArgument("firstSchemaVersion", .identifier("firstSchemaVersion")), SwiftArgument("legacyMigration", .identifier("legacyMigration")),
                                        SwiftArgument("customSteps", .identifier("customSteps")),
                                    ]))),
                        .returnValue(.identifier("configuration")),
                    ]
                )))
        members.append(
            .function(
                SwiftFunction(
                    doc:
                        "The block of `realmConfiguration`: the app's `legacyMigration` for Realms older than `firstSchemaVersion`, then the steps of `Migrations/` after the Realm's version.",
                    isStatic: true,
                    name: "migrateRealm",
                    parameters: [
                        SwiftParameter(label: "_", name: "migration", type: .name("RealmSwift.Migration")),
                        SwiftParameter(label: "fromSchemaVersion", name: "schemaVersion", type: .name("UInt64")),
                        SwiftParameter(name: "firstSchemaVersion", type: .name("UInt64")),
                        SwiftParameter(name: "legacyMigration", type: .name("MigrationBlock?")),
                        SwiftParameter(name: "customSteps", type: .name("RealmCustomSteps")),
                    ],
                    body: [
                        .ifThen(
                            .binary(.identifier("schemaVersion"), "<", .identifier("firstSchemaVersion")),
                            [
                                .expression(
                                    .call(.optionalChain(.identifier("legacyMigration")), [.unlabelled(.identifier("migration")), .unlabelled(.identifier("schemaVersion"))]))
                            ]),
                        .comment("Version 1 is firstSchemaVersion; a Realm older than it is treated as written before Remodel (0)."),
                        .constant("version", .name("UInt64"), .token("schemaVersion < firstSchemaVersion ? 0 : schemaVersion - firstSchemaVersion + 1")),
                        .expression(
                            .call(
                                .identifier("migrateRealm"),
                                [
                                    .unlabelled(.identifier("migration")), SwiftArgument("from", .identifier("version")), SwiftArgument("customSteps", .identifier("customSteps")),
                                ])),
                    ]
                )))
        members.append(
            .function(
                SwiftFunction(
                    doc:
                        "Each version's steps after version `oldSchemaVersion` (0: a Realm written before Remodel), oldest first. Changes Realm makes by itself (removed properties, a type becoming embedded) are left to it; added properties get the schema's defaults, which Realm does not give them.",
                    isStatic: true,
                    name: "migrateRealm",
                    parameters: [
                        SwiftParameter(label: "_", name: "migration", type: .name("RealmSwift.Migration")),
                        SwiftParameter(label: "from", name: "oldSchemaVersion", type: .name("UInt64")),
                        SwiftParameter(name: "customSteps", type: .name("RealmCustomSteps")),
                    ],
                    body: body
                )))
        members.append(copyFunction())
        return .extensionOf(SwiftExtension(extended: .name(manifestName), members: members))
    }

    private func customStepsDeclaration(_ steps: [(name: String, type: String?, version: Int)]) -> SwiftDeclaration {
        var seen: Set<String> = []
        var members: [SwiftDeclaration] = []
        var parameters: [SwiftParameter] = []
        var assignments: [SwiftStatement] = []
        for step in steps where seen.insert(step.name).inserted {
            let type =
                step.type.map { _ in "@Sendable (_ oldObject: MigrationObject, _ newObject: MigrationObject) -> Void" } ?? "@Sendable (_ migration: RealmSwift.Migration) -> Void"
            let what = step.type.map { "called for every `\($0)` with its old and new object" } ?? "called once with the migration"
            members.append(.property(SwiftProperty(doc: "The custom step `\(step.name)` of version \(step.version), \(what).", binding: .let, name: step.name, type: .name(type))))
            parameters.append(SwiftParameter(name: step.name, type: .name("@escaping " + type)))
            assignments.append(.assignment(.selfMember(step.name), .identifier(step.name)))
        }
        members.append(.initializer(SwiftInitializer(parameters: parameters, body: assignments)))
        return .structure(
            SwiftStruct(
                doc: steps.isEmpty
                    ? "The closures of the custom steps of `Migrations/`: there are none."
                    : "The closures of the custom steps of `Migrations/`, which Realm's migration block calls.",
                name: "RealmCustomSteps", conformances: [.name("Sendable")], members: members
            ))
    }

    /// Object types in the order a copy writes them: link targets before the objects that
    /// link to them (declaration order where links form a cycle); embedded types are copied
    /// inside their owners.
    private var copyOrder: [ObjectType] {
        let objects = types.schema.objects.filter { !$0.isEmbedded }
        var placed: [ObjectType] = []
        var done: Set<String> = []
        var visiting: Set<String> = []
        func place(_ object: ObjectType) {
            guard !done.contains(object.name), visiting.insert(object.name).inserted else { return }
            for property in object.storedProperties {
                guard let target = property.storedType?.objectName, let targetType = types.schema.objectType(named: target) else { continue }
                if targetType.isEmbedded {
                    for inner in targetType.storedProperties {
                        if let innerTarget = inner.storedType?.objectName, let innerType = types.schema.objectType(named: innerTarget), !innerType.isEmbedded { place(innerType) }
                    }
                } else {
                    place(targetType)
                }
            }
            done.insert(object.name)
            placed.append(object)
        }
        objects.forEach(place)
        return placed
    }

    private func copyFunction() -> SwiftDeclaration {
        let order = copyOrder
        var body: [SwiftStatement] = []
        for object in order {
            body.append(
                .constant(
                    RealmTypeMapper.bridgeName(object.name) + "Objects", nil,
                    .call(.member(.identifier("realm"), "objects"), [.unlabelled(.metatype(.name(RealmTypeMapper.className(object.name))))])))
        }
        let total = order.map { SwiftExpression.member(.identifier(RealmTypeMapper.bridgeName($0.name) + "Objects"), "count") }
        body.append(
            .variable(
                "counter", nil,
                .call(
                    .identifier("RealmCopyCounter"),
                    [
                        SwiftArgument("totalOverall", total.isEmpty ? .int(0) : total.dropFirst().reduce(total[0]) { .binary($0, "+", $1) }),
                        SwiftArgument("progress", .identifier("progress")),
                    ])))
        var write: [SwiftStatement] = [.variable("report", nil, .call(.identifier("RealmCopyReport"), []))]
        for object in order {
            write.append(
                .constant("existing" + object.name, nil, .tryExpression(.call(.member(.identifier("transaction"), "count"), [.unlabelled(.metatype(.name(object.name)))]))))
            write.append(
                .guardElse(
                    .binary(.identifier("existing" + object.name), "==", .int(0)),
                    [
                        .throwError(
                            .call(
                                .member(.identifier("RealmCopyError"), "storeNotEmpty"),
                                [SwiftArgument("type", .string(object.name)), SwiftArgument("count", .identifier("existing" + object.name))]))
                    ]))
        }
        for object in order {
            let objects = SwiftExpression.identifier(RealmTypeMapper.bridgeName(object.name) + "Objects")
            let bridge = RealmTypeMapper.bridgeName(object.name)
            write.append(.expression(.call(.member(.identifier("counter"), "begin"), [.unlabelled(.string(object.name)), SwiftArgument("total", .member(objects, "count"))])))
            write.append(
                .forIn(
                    "object", objects,
                    [
                        .expression(.tryExpression(.call(.member(.identifier("transaction"), "insert"), [.unlabelled(.member(.identifier("object"), bridge))]))),
                        .expression(.call(.member(.identifier("counter"), "advance"), [])),
                    ]))
            write.append(
                .expression(
                    .tryExpression(
                        .call(
                            .member(.identifier("report"), "record"),
                            [
                                .unlabelled(.string(object.name)),
                                SwiftArgument("realm", .member(objects, "count")),
                                SwiftArgument("store", .tryExpression(.call(.member(.identifier("transaction"), "count"), [.unlabelled(.metatype(.name(object.name)))]))),
                            ]))))
        }
        write.append(.returnValue(.identifier("report")))
        body.append(.callWithClosure(.token("return try store.write"), [], parameters: ["transaction"], body: write))
        return .function(
            SwiftFunction(
                doc: """
                    Copies every object of `realm` into `store`, an empty store of this schema, in one transaction: link \
                    targets first, embedded objects inside their owners. Before it commits, the store must hold as many \
                    objects of each type as the Realm (else nothing is written). `progress` is called as the copy goes. \
                    The app-launch path: open the Realm with `realmConfiguration()`, copy, check the report, then delete \
                    the Realm's files.
                    """,
                isStatic: true,
                name: "copyRealm",
                parameters: [
                    SwiftParameter(label: "_", name: "realm", type: .name("Realm")),
                    SwiftParameter(label: "into", name: "store", type: .name("RemodelStore")),
                    SwiftParameter(name: "progress", type: .name("((RealmCopyProgress) -> Void)?"), defaultValue: .nil),
                ],
                isThrowing: true,
                result: .name("RealmCopyReport"),
                body: body
            ))
    }
}
