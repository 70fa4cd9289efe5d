import Foundation
import RemodelCore

/// The example app's history (v1 → v3) as Swift values: what `Migrations/` holds, used by
/// tests that must not depend on the YAML loader. Object types are in the order the schema
/// files merge them (DoggoDB.yaml, then Notes.yaml); step values are written as the loader
/// reads them (text, which the planner resolves to enum cases). Documentation and the
/// projection are left out: they do not affect stored data. `ExampleHistoryFilesTests`
/// checks that this copy equals `Migrations/`, storage-wise. Shared by the migration and code
/// generator tests (target RemodelTestSupport).
public enum ExampleHistory {
    public static let businessUnits = EnumType(
        name: "BusinessUnitEnum",
        cases: [
            ("customerEngineering", "Customer Engineering"), ("educationCommunityAndDocs", "Education, Community and Docs"),
            ("engineering", "Engineering"), ("financeAndOperations", "Finance and Operations"),
            ("humanResourcesAndRescruiting", "Human Resources and Recruiting"), ("management", "Management"),
            ("marketing", "Marketing"), ("product", "Product"), ("sales", "Sales"),
        ].map { EnumType.Case(name: $0.0, rawValue: .string($0.1)) })

    public static let note = ObjectType(
        name: "Note", primaryKey: "identifier",
        properties: [
            Property("identifier", .scalar(.string), default: .generated(.uuid)),
            Property("content", .scalar(.string)),
            Property("lastEdited", .scalar(.date), default: .generated(.now)),
        ])

    public static let v1 = Schema(objects: [
        ObjectType(
            name: "Person", primaryKey: "_id",
            properties: [
                Property("_id", .scalar(.objectId), default: .generated(.objectId)),
                Property("name", .scalar(.string), default: .string("")),
                Property("employeeId", .scalar(.string), default: .string("")),
                Property("company", .scalar(.string), default: .string("MongoDB")),
                Property("businessUnit", .scalar(.string), default: .string("")),
                Property("dogs", PropertyType(.object("Dog"), collection: .list)),
            ]),
        ObjectType(
            name: "Dog", primaryKey: "_id",
            properties: [
                Property("_id", .scalar(.uuid), default: .generated(.uuid)),
                Property("name", .scalar(.string), default: .string("")),
                Property("breed", .scalar(.string), default: .string("")),
                Property("weight", .scalar(.string), default: .string("")),
                Property(name: "person", kind: .inverse(type: "Person", property: "dogs")),
            ]),
        note,
    ])

    public static let v2 = Schema(
        enums: [businessUnits],
        objects: [
            ObjectType(
                name: "Person", primaryKey: "_id",
                properties: [
                    Property("_id", .scalar(.objectId), default: .generated(.objectId)),
                    Property("firstName", .scalar(.string), default: .string("")),
                    Property("lastName", .scalar(.string), default: .string("")),
                    Property("personId", .scalar(.string), default: .string("")),
                    Property("company", .scalar(.string), default: .string("MongoDB")),
                    Property("businessUnit", PropertyType(.enumeration("BusinessUnitEnum")), default: .enumCase("engineering")),
                    Property("dogs", PropertyType(.object("Dog"), collection: .list)),
                ]),
            v1.objects[1],
            note,
        ])

    public static let v3 = Schema(
        enums: [businessUnits],
        objects: [
            ObjectType(
                name: "Person", primaryKey: "_id",
                properties: [
                    Property("_id", .scalar(.objectId), default: .generated(.objectId)),
                    Property("firstName", .scalar(.string), default: .string("")),
                    Property("lastName", .scalar(.string), default: .string("")),
                    Property("personId", .scalar(.string), default: .string("")),
                    Property("company", .scalar(.string), default: .string("MongoDB")),
                    Property("businessUnit", PropertyType(.enumeration("BusinessUnitEnum")), default: .enumCase("engineering")),
                    Property("profileImageUrl", .scalar(.url, optional: true)),
                    Property("dogs", PropertyType(.object("Dog"), collection: .list)),
                ]),
            ObjectType(
                name: "Dog", primaryKey: "_id",
                properties: [
                    Property("_id", .scalar(.uuid), default: .generated(.uuid)),
                    Property("name", .scalar(.string), default: .string("")),
                    Property("breed", .scalar(.string), default: .string("")),
                    Property("weight", .scalar(.int), default: .int(0)),
                    Property("favoriteToy", .scalar(.string), default: .string("")),
                    Property("profileImageUrl", .scalar(.url, optional: true)),
                    Property("dateLastUpdated", .scalar(.date), default: .generated(.now)),
                    Property(name: "person", kind: .inverse(type: "Person", property: "dogs")),
                ]),
            note,
        ])

    public static let history = MigrationHistory(
        snapshots: [v1, v2, v3],
        migrations: [
            Migration(version: 1, name: "initial", steps: [], checksum: "c1"),
            Migration(
                version: 2, name: "split-person-name",
                steps: [
                    .renameProperty(type: "Person", from: "employeeId", to: "personId"),
                    .split(type: "Person", property: "name", into: ["firstName", "lastName"], separator: " "),
                    .mapValues(
                        type: "Person", property: "businessUnit",
                        values: [
                            .init(from: "Eng", to: .string("engineering")),
                            .init(from: "HR", to: .string("humanResourcesAndRescruiting")),
                            .init(from: "Docs", to: .string("educationCommunityAndDocs")),
                        ], otherwise: .string("engineering")),
                ], checksum: "c2"),
            Migration(
                version: 3, name: "dog-details",
                steps: [
                    .convert(type: "Dog", property: "weight", to: .scalar(.int), onError: .default)
                ], checksum: "c3"),
        ])

    /// Version 3 with the example's `Profile` projection: what `Schemas/` declares, apart from
    /// documentation, for tests of generated code.
    public static let v3WithProjection: Schema = {
        var schema = v3
        schema.projections = [
            Projection(
                name: "Profile", of: "Person",
                properties: [
                    .init(name: "firstName", keyPath: "firstName"),
                    .init(name: "lastNameInitial", keyPath: "lastName.localizedCapitalized.first", type: "Character?"),
                    .init(name: "personId", keyPath: "personId"),
                    .init(name: "businessUnit", keyPath: "businessUnit"),
                    .init(name: "profileImageUrl", keyPath: "profileImageUrl"),
                    .init(name: "dogs", keyPath: "dogs"),
                ])
        ]
        return schema
    }()
}
