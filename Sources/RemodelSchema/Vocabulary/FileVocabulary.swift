import RemodelCore

/// The words of schema and migration files: every mapping's keys, what each key means and
/// what shape its value takes. The loader accepts exactly these keys (its readers take their
/// key lists from here) and `JSONSchemaWriter` describes them to editors, so the two cannot
/// drift apart.
///
/// Shapes are structural only: whether a name resolves, a default fits its type or two steps
/// contradict each other is the validator's and the planner's business.
package enum FileVocabulary {}

/// What a value may look like, as far as its shape goes.
package indirect enum ValueShape: Sendable {
    /// A name the file declares or refers to: an ASCII identifier (`Person`, `_id`).
    case name
    /// A member of a declared type: `Person.dogs`.
    case member
    /// Text. A plain number or boolean is read as its text, as YAML writes it.
    case text
    /// Plain `true` or `false`.
    case bool
    /// A property type as written: `string`, `url?`, `Dog?`, and with `collections`, also
    /// `list<Dog>`, `set<string>`, `map<int?>`.
    case typeExpression(collections: Bool)
    /// A single value: text, a number, a boolean or null.
    case scalar
    /// One of a closed set of words.
    case word([String])
    /// A list of one shape; `nonEmpty` when at least one item is needed.
    case list(ValueShape, nonEmpty: Bool)
    /// A mapping with fixed keys.
    case mapping(MappingVocabulary)
    /// A mapping from keys the user chooses (matching `keys`) to values of one shape.
    case entries(keys: KeyPattern, value: ValueShape, nonEmpty: Bool)
    /// Exactly this boolean (`all: true`).
    case exactly(Bool)
    /// Any of several shapes (a type written short, or as a mapping with options).
    case either([ValueShape])
    /// The shape, or nothing (`null`): an empty section.
    case orNull(ValueShape)
    /// A shape with its own description (for one alternative of `either`).
    case described(ValueShape, String)
}

/// What the keys of an `entries` mapping must look like.
package enum KeyPattern: Sendable {
    /// Declared names: identifiers.
    case name
    /// A property, or a path through links: `name`, `owner.name`.
    case path
    /// Anything: old values of a `mapValues`; the subjects of `accept:` (`Type.property`, which
    /// `remodel check` matches against its findings, warning about one that matches none).
    case any
}

/// One key of a mapping with fixed keys.
package struct VocabularyKey: Sendable {
    package var name: String
    package var isRequired: Bool
    /// What the key means, for editors' hovers and completion lists.
    package var summary: String
    package var value: ValueShape

    package init(_ name: String, required: Bool = false, _ value: ValueShape, _ summary: String) {
        self.name = name
        self.isRequired = required
        self.summary = summary
        self.value = value
    }

    /// A key of a step (or of `addTo:`): the spelling the reader records places under and the
    /// planner blames.
    package init(_ key: StepKey, required: Bool = false, _ value: ValueShape, _ summary: String) {
        self.init(key.rawValue, required: required, value, summary)
    }
}

/// A mapping with fixed keys: a file, a declaration, a property, a step.
package struct MappingVocabulary: Sendable {
    /// Its name among the JSON Schema's definitions (`object`, `step.renameType`).
    package var id: String
    /// What the mapping is.
    package var summary: String
    package var keys: [VocabularyKey]
    /// Keys that exclude others: when the first is present, none of the second may be.
    package var exclusions: [(key: String, excludes: [String])] = []
    /// Keys of which at least one must be present (an inverse or a type).
    package var needsOneOf: [String] = []
    /// Whether the mapping holds exactly one of its keys: a step names its kind by its only
    /// key, a comparison is one.
    package var exactlyOneKey = false

    /// The key names, in the order the language documents them.
    package var keyNames: [String] { keys.map(\.name) }
    package var requiredKeys: [String] { keys.filter(\.isRequired).map(\.name) }
    package var optionalKeys: [String] { keys.filter { !$0.isRequired }.map(\.name) }
}

// MARK: - Schema files

extension FileVocabulary {
    /// The keys a property given as a mapping cannot have when it is an inverse.
    package static let inverseExcludes = ["type", "default", "primaryKey", "indexed", "unique", "renamedFrom"]

    /// A schema file (and a snapshot, which is one in canonical form).
    package static let schemaFile = MappingVocabulary(
        id: "schemaFile",
        summary: "A Remodel schema file. All *.yaml files under Schemas/ form one schema; each may hold enums, objects and projections.",
        keys: [
            VocabularyKey("enums", .orNull(.entries(keys: .name, value: .mapping(enumDeclaration), nonEmpty: false)), "Enums persisted as their raw values: one 'Name:' per enum."),
            VocabularyKey(
                "objects", .orNull(.entries(keys: .name, value: .mapping(objectDeclaration), nonEmpty: false)), "Object types, each stored in its own table: one 'Name:' per type."),
            VocabularyKey(
                "projections", .orNull(.entries(keys: .name, value: .mapping(projectionDeclaration), nonEmpty: false)),
                "Read-only views of an object type (Realm's Projection): one 'Name:' per projection."),
        ]
    )

    /// `enums: { BusinessUnitEnum: … }`.
    package static let enumDeclaration = MappingVocabulary(
        id: "enum",
        summary: "An enum, persisted as the raw value of its case.",
        keys: [
            VocabularyKey("type", .word(EnumType.RawType.allCases.map(\.rawValue)), "The raw values' type: string (the default) or int."),
            VocabularyKey(
                "cases", required: true,
                .either([
                    .described(
                        // YAML reads a plain `true` as a boolean; the loader, as the case name `true`.
                        .list(.either([.name, .bool]), nonEmpty: true), "Case names; each raw value is its name (string enums only)."
                    ),
                    .described(.entries(keys: .name, value: .scalar, nonEmpty: true), "Case names mapped to their raw values, e.g. 'engineering: Engineering'."),
                ]),
                "The cases, in order: a list of names, or a mapping of names to raw values."
            ),
            VocabularyKey("renamedFrom", .name, "The enum's previous name: a rename the next migration applies."),
            VocabularyKey("doc", .text, "Documentation, copied into the generated Swift."),
        ]
    )

    /// `objects: { Person: … }`.
    package static let objectDeclaration = MappingVocabulary(
        id: "object",
        summary: "An object type: one table, one column per property.",
        keys: [
            VocabularyKey("primaryKey", .name, "The property that identifies each object (string, an integer type, objectId or uuid). Needed to be the target of links."),
            VocabularyKey("embedded", .bool, "true for a value owned by the object that holds it (Realm's EmbeddedObject): no primary key, deleted with its owner."),
            VocabularyKey("renamedFrom", .name, "The type's previous name: a rename the next migration applies, keeping its objects."),
            VocabularyKey("doc", .text, "Documentation, copied into the generated Swift."),
            VocabularyKey(
                "unique", .list(.list(.name, nonEmpty: true), nonEmpty: true),
                "Groups of properties whose values together are unique, e.g. [[firstName, lastName]]: no two objects hold the same values (null never collides)."
            ),
            VocabularyKey(
                "indexes", .list(.list(.name, nonEmpty: true), nonEmpty: true),
                "Groups of properties indexed together, in order, e.g. [[lastName, firstName]]: for fast queries on them."),
            VocabularyKey(
                "properties", required: true,
                .entries(
                    keys: .name,
                    value: .either([.described(.typeExpression(collections: true), "The property's type, e.g. 'string', 'url?' or 'list<Dog>'."), .mapping(property)]),
                    nonEmpty: true),
                "The properties, in the order of the generated initialiser: 'name: type', or 'name: { type: …, default: … }'."
            ),
        ]
    )

    /// One property written as a mapping: `{ type: string, default: "" }` or `{ inverse: Person.dogs }`.
    package static let property = MappingVocabulary(
        id: "property",
        summary: "A property: a stored value (type) or an inverse relationship (inverse).",
        keys: [
            VocabularyKey(
                "type", .typeExpression(collections: true),
                "The type: bool, int, int8, int16, int32, int64, float, double, string, data, date, decimal128, objectId, uuid, url, an enum, an object (a link, or a value when the object is embedded), list<T>, set<T> or map<T>; T? for optional."
            ),
            VocabularyKey(
                "inverse", .member, "The link this property inverts, as 'Type.property' (Realm's LinkingObjects): the objects whose link points here. Computed, not stored."),
            VocabularyKey(
                "default", .scalar,
                "The value of a new object and of existing objects when the property is added: a literal of the type, an enum case name, null, or $uuid, $objectId, $now."),
            VocabularyKey("primaryKey", .bool, "true to make this the object's primary key (as the object's primaryKey: does)."),
            VocabularyKey("indexed", .bool, "true to index the property's column, for fast queries on it."),
            VocabularyKey("unique", .bool, "true when no two objects may hold the same value (null never collides); the property is indexed."),
            VocabularyKey("renamedFrom", .name, "The property's previous name: a rename the next migration applies, keeping its values."),
            VocabularyKey("doc", .text, "Documentation, copied into the generated Swift."),
        ],
        exclusions: [(key: "inverse", excludes: inverseExcludes)],
        needsOneOf: ["type", "inverse"]
    )

    /// `projections: { Profile: … }`.
    package static let projectionDeclaration = MappingVocabulary(
        id: "projection",
        summary: "A projection: a read-only value type built from an object (Realm's Projection).",
        keys: [
            VocabularyKey("of", required: true, .name, "The object type it projects."),
            VocabularyKey("doc", .text, "Documentation, copied into the generated Swift."),
            VocabularyKey(
                "properties", required: true,
                .entries(keys: .name, value: .either([.described(.text, "The key path it reads, e.g. 'firstName'."), .mapping(projectionProperty)]), nonEmpty: true),
                "The projection's properties: 'name: keyPath', or 'name: { keyPath: …, type: … }'."
            ),
        ]
    )

    /// One projection property written as a mapping.
    package static let projectionProperty = MappingVocabulary(
        id: "projectionProperty",
        summary: "A projection property read through a key path.",
        keys: [
            VocabularyKey("keyPath", required: true, .text, "The key path from the object, e.g. 'lastName.localizedCapitalized.first'."),
            VocabularyKey("type", .text, "The Swift type of the key path's result (e.g. 'Character?'), needed when it is not a property's own type."),
            VocabularyKey("doc", .text, "Documentation, copied into the generated Swift."),
        ]
    )
}

// MARK: - Migration files

extension FileVocabulary {
    /// A migration file, `Migrations/NNNN-name.yaml`.
    package static let migrationFile = MappingVocabulary(
        id: "migrationFile",
        summary:
            "A Remodel migration file: the steps from the previous version's schema to this one's. Changes that need no step (added and removed types and properties, renamedFrom) are applied from the snapshots.",
        keys: [
            VocabularyKey("description", .text, "What this version changes, for people."),
            VocabularyKey("steps", .orNull(.list(.mapping(step), nonEmpty: false)), "The steps, run in order: one '- kind: { … }' per step."),
            VocabularyKey("accept", .orNull(.mapping(accept)), "The changes remodel check asks a reviewer to accept, each with why it is intended."),
            VocabularyKey(
                "squashedFrom", .scalar,
                "In a baseline 'remodel migration squash --through N' wrote: the first version it folds (versions squashedFrom…N are now this one version); stores older than N are refused."
            ),
        ]
    )

    /// `accept: { destructive: { Person.name: why } }`.
    package static let accept = MappingVocabulary(
        id: "accept",
        summary: "Changes of this version declared intended, each with the reason.",
        keys: ChangeAcceptance.Kind.allCases.map { kind in
            VocabularyKey(kind.rawValue, .orNull(.entries(keys: .any, value: .text, nonEmpty: false)), acceptSummary[kind] ?? "")
        }
    )

    private static let acceptSummary: [ChangeAcceptance.Kind: String] = [
        .destructive: "Stored data this version deletes (a removed type or property): 'Type.property: why'.",
        .dataDependent: "Changes whose outcome depends on the data (a narrowing conversion, a property becoming required): 'Type.property: why'.",
        .breaking: "Changes to the generated Swift API that code must follow (a removed or renamed type, property or case): 'Type.property: why'.",
        .locking: "Changes that lock or rewrite a table on PostgreSQL in the default mode (remodel check --engine postgresql): 'Type.property: why'.",
    ]

    /// One step kind: the key that names it in a step, and the mapping of its options.
    package struct StepKind: Sendable {
        package var kind: MigrationStep.Kind
        package var mapping: MappingVocabulary

        /// The key that names it in a step.
        package var name: String { kind.rawValue }

        init(_ kind: MigrationStep.Kind, summary: String, keys: [VocabularyKey], exclusions: [(key: StepKey, excludes: [StepKey])] = [], needsOneOf: [StepKey] = []) {
            self.kind = kind
            mapping = MappingVocabulary(
                id: "step.\(kind.rawValue)", summary: summary, keys: keys,
                exclusions: exclusions.map { (key: $0.key.rawValue, excludes: $0.excludes.map(\.rawValue)) }, needsOneOf: needsOneOf.map(\.rawValue))
        }
    }

    /// Every step kind, in `MigrationStep.Kind` order.
    package static let stepKinds: [StepKind] = MigrationStep.Kind.allCases.map(stepKind)

    /// The vocabulary of one step kind: a switch over every kind, so that a new kind cannot
    /// be left out of the reader, the vocabulary or the JSON Schema.
    private static func stepKind(_ kind: MigrationStep.Kind) -> StepKind {
        switch kind {
        case .renameType:
            StepKind(
                .renameType, summary: "Renames an object type or enum, keeping its objects.",
                keys: [
                    VocabularyKey(.from, required: true, .name, "The old name."),
                    VocabularyKey(.to, required: true, .name, "The new name."),
                ])
        case .renameProperty:
            StepKind(
                .renameProperty, summary: "Renames a property, keeping its values.",
                keys: [
                    typeKey, VocabularyKey(.from, required: true, .name, "The old property name."),
                    VocabularyKey(.to, required: true, .name, "The new property name."),
                ])
        case .set:
            StepKind(
                .set, summary: "Sets a property of every object from a template of its values.",
                keys: [
                    typeKey, propertyKey("The property it writes."),
                    VocabularyKey(
                        "value", required: true, .scalar,
                        "A literal (null, unquoted, for no value; a quoted \"null\" is text), or a template such as \"{firstName} {lastName}\" reading the object's values (and linked objects', '{owner.name}')."
                    ),
                ])
        case .convert:
            StepKind(
                .convert, summary: "Converts a property's values to another type.",
                keys: [
                    typeKey, propertyKey("The property it converts."),
                    VocabularyKey(
                        "to", required: true, .typeExpression(collections: true),
                        "The new type: a scalar type, an enum or an object type (a value becomes a link to the object whose primary key it is), optional with '?'; a list or set of values becomes one of objects and back."
                    ),
                    VocabularyKey(
                        "onError", .orNull(.word(MigrationStep.ConversionFailure.allCases.map(\.rawValue))),
                        "What a value that does not convert becomes: fail stops the migration naming the objects (the default), default uses the property's default, null stores null; for values becoming links, create makes the object a value names when none has that key."
                    ),
                ])
        case .split:
            StepKind(
                .split, summary: "Splits a text property into several at a separator.",
                keys: [
                    typeKey, propertyKey("The property it splits."),
                    VocabularyKey(.into, required: true, .list(.name, nonEmpty: true), "The properties that get the parts, in order; the last gets the rest."),
                    VocabularyKey(.separator, required: true, .text, "The text between parts, e.g. \" \"."),
                ])
        case .mapValues:
            StepKind(
                .mapValues, summary: "Replaces old values of a property by new ones (an enum remap).",
                keys: [
                    typeKey, propertyKey("The property whose values it maps."),
                    VocabularyKey(.values, required: true, .entries(keys: .any, value: .scalar, nonEmpty: true), "Old values mapped to new ones, e.g. '{ Eng: engineering }'."),
                    VocabularyKey(.otherwise, .scalar, "The new value of every value 'values' does not list; without it they must already be valid."),
                ])
        case .deleteObjects:
            StepKind(
                .deleteObjects, summary: "Deletes the objects that match conditions, or all of a type.",
                keys: [
                    typeKey, VocabularyKey(.where, conditions, "Conditions on properties; objects matching all of them are deleted."),
                    VocabularyKey(.all, .exactly(true), "true deletes every object of the type (instead of 'where')."),
                ], exclusions: [(key: .all, excludes: [.where])], needsOneOf: [.where, .all])
        case .deduplicate:
            StepKind(
                .deduplicate, summary: "Keeps one object of each group sharing values and deletes the others; what linked to them links to the kept one.",
                keys: [
                    typeKey,
                    VocabularyKey(
                        .by, required: true, .list(.name, nonEmpty: true),
                        "The properties whose values make a group (e.g. those becoming unique); an object with a null among them is in no group."),
                    VocabularyKey(
                        .keep, .word(MigrationStep.Keep.allCases.map(\.rawValue)),
                        "Which object of a group stays: first (the default) or last, by 'orderBy' and then by primary key."),
                    VocabularyKey(.orderBy, .name, "The property that orders each group (null first); without it, the primary key alone."),
                ])
        case .createObjects:
            StepKind(
                .createObjects, summary: "Creates objects, optionally linking each from an existing object.",
                keys: [
                    typeKey,
                    VocabularyKey(
                        "objects", required: true, .list(.orNull(.entries(keys: .name, value: .scalar, nonEmpty: false)), nonEmpty: true),
                        "The new objects, each a mapping of property values (the rest get their defaults)."),
                    VocabularyKey(.addTo, .mapping(linkTarget), "The existing object whose link each new object is added to."),
                ])
        case .custom:
            StepKind(
                .custom, summary: "Runs Swift code registered under a name: in the app (Migrator's customSteps) or an app's own remodel tool.",
                keys: [
                    VocabularyKey(.name, required: true, .name, "The name the closure is registered under."),
                    VocabularyKey(.type, .name, "The object type whose objects the closure visits, one old and new object at a time."),
                    VocabularyKey(.reads, .list(.name, nonEmpty: true), "Other types of the old store the closure reads."),
                    VocabularyKey(
                        "writes", .list(.name, nonEmpty: true),
                        "Properties of the type the closure gives their values (a retyped collection, a new property): they need no other step, and start empty, at their default or null."
                    ),
                ])
        }
    }

    /// One item of `steps:`: a mapping whose only key names the step's kind.
    package static let step = MappingVocabulary(
        id: "step",
        summary: "One step: its kind as the only key, e.g. '- renameProperty: { type: Person, from: employeeId, to: personId }'.",
        keys: stepKinds.map { VocabularyKey($0.name, .mapping($0.mapping), $0.mapping.summary) },
        exactlyOneKey: true
    )

    private static let typeKey = VocabularyKey(.type, required: true, .name, "The object type, by its name in this version.")

    private static func propertyKey(_ summary: String) -> VocabularyKey {
        VocabularyKey(.property, required: true, .name, summary)
    }

    /// `createObjects`' `addTo:`.
    package static let linkTarget = MappingVocabulary(
        id: "linkTarget",
        summary: "The existing object a new object is linked from.",
        keys: [
            VocabularyKey(.type, required: true, .name, "The type of the object that holds the link."),
            VocabularyKey(.property, required: true, .name, "Its link (to-one) or list property the new object is added to."),
            VocabularyKey(.where, required: true, conditions, "Conditions choosing that object."),
        ]
    )

    /// `where: { content: "", weight: { lt: 0 } }`: one condition per property (or `owner.name`),
    /// a value it must equal or one comparison.
    package static let conditions = ValueShape.entries(
        keys: .path,
        value: .either([.described(.scalar, "The value it must equal."), .mapping(comparison)]),
        nonEmpty: true
    )

    /// One condition: a value (equality) or a one-key comparison.
    package static let comparison = MappingVocabulary(
        id: "comparison",
        summary: "One comparison with a value.",
        keys: MigrationStep.Condition.keywords.map { keyword in
            let list = keyword == "in" || keyword == "notIn"
            return VocabularyKey(keyword, list ? .list(.scalar, nonEmpty: true) : .scalar, comparisonSummary[keyword] ?? "")
        },
        exactlyOneKey: true
    )

    private static let comparisonSummary = [
        "equals": "Equal to the value.", "not": "Not equal to the value.", "lt": "Less than the value.", "lte": "Less than or equal to the value.",
        "gt": "Greater than the value.", "gte": "Greater than or equal to the value.", "in": "One of the listed values.", "notIn": "None of the listed values.",
        "contains": "Text containing the value.", "startsWith": "Text starting with the value.", "endsWith": "Text ending with the value.",
    ]
}
