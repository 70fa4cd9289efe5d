import RemodelCore

/// DESIGN.md's example schema, built in Swift, for tests that do not read YAML.
enum ExampleSchemaValue {
    static let businessUnit = EnumType(name: "BusinessUnitEnum", cases: [
        ("customerEngineering", "Customer Engineering"),
        ("educationCommunityAndDocs", "Education, Community and Docs"),
        ("engineering", "Engineering"),
        ("financeAndOperations", "Finance and Operations"),
        ("humanResourcesAndRescruiting", "Human Resources and Recruiting"),
        ("management", "Management"),
        ("marketing", "Marketing"),
        ("product", "Product"),
        ("sales", "Sales"),
    ].map { EnumType.Case(name: $0.0, rawValue: .string($0.1)) })

    static let schema = Schema(
        enums: [businessUnit],
        objects: [
            ObjectType(name: "Note", primaryKey: "identifier", properties: [
                Property("identifier", .scalar(.string), default: .generated(.uuid)),
                Property("content", .scalar(.string)),
                Property("lastEdited", .scalar(.date), default: .generated(.now)),
            ]),
            ObjectType(name: "Person", primaryKey: "_id", properties: [
                Property("_id", .scalar(.objectId), default: .generated(.objectId)),
                Property("firstName", .scalar(.string), default: .string("")),
                Property("lastName", .scalar(.string), default: .string("")),
                Property("personId", .scalar(.string), default: .string("")),
                Property("company", .scalar(.string), default: .string("MongoDB")),
                Property("businessUnit", PropertyType(.enumeration("BusinessUnitEnum")), default: .enumCase("engineering")),
                Property("profileImageUrl", .scalar(.url, optional: true)),
                Property("dogs", PropertyType(.object("Dog"), collection: .list)),
            ]),
            ObjectType(name: "Dog", primaryKey: "_id", properties: [
                Property("_id", .scalar(.uuid), default: .generated(.uuid)),
                Property("name", .scalar(.string), default: .string("")),
                Property("breed", .scalar(.string), default: .string("")),
                Property("weight", .scalar(.int), default: .int(0)),
                Property("favoriteToy", .scalar(.string), default: .string("")),
                Property("profileImageUrl", .scalar(.url, optional: true)),
                Property("dateLastUpdated", .scalar(.date), default: .generated(.now)),
                Property(name: "person", kind: .inverse(type: "Person", property: "dogs")),
            ]),
        ],
        projections: [
            Projection(name: "Profile", of: "Person", properties: [
                .init(name: "firstName", keyPath: "firstName"),
                .init(name: "lastNameInitial", keyPath: "lastName.localizedCapitalized.first", type: "Character?"),
                .init(name: "personId", keyPath: "personId"),
                .init(name: "businessUnit", keyPath: "businessUnit"),
                .init(name: "profileImageUrl", keyPath: "profileImageUrl"),
                .init(name: "dogs", keyPath: "dogs"),
            ]),
        ]
    )
}
