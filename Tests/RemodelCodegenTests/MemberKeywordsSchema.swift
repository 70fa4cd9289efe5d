import RemodelCore

/// A schema with names the YAML validator refuses but Swift accepts in backticks.
enum MemberKeywordsSchema {
    static let schema = Schema(
        enums: [
            EnumType(
                name: "MemberKeywordCase",
                cases: [
                    EnumType.Case(name: "self", rawValue: .string("self")),
                    EnumType.Case(name: "Type", rawValue: .string("Type")),
                    EnumType.Case(name: "Protocol", rawValue: .string("Protocol")),
                    EnumType.Case(name: "Self", rawValue: .string("Self")),
                ])
        ],
        objects: [
            ObjectType(
                name: "MemberKeywordHolder", primaryKey: "Type",
                properties: [
                    Property("Type", .scalar(.string), default: .string("type")),
                    Property("init", .scalar(.int), default: .int(1)),
                    Property("Protocol", PropertyType(.enumeration("MemberKeywordCase")), default: .enumCase("self")),
                    Property("Self", PropertyType(.enumeration("MemberKeywordCase"), collection: .list)),
                ])
        ],
        projections: [
            Projection(
                name: "MemberKeywordView", of: "MemberKeywordHolder",
                properties: [
                    .init(name: "Type", keyPath: "init"),
                    .init(name: "init", keyPath: "Type"),
                    .init(name: "kind", keyPath: "Protocol.rawValue", type: "String"),
                ])
        ]
    )
}
