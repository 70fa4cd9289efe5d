import RemodelCore

/// The declarations every Realm output shares: realm-swift's documented conformance of `URL`
/// (`FailableCustomPersistable`, stored as its text) when the schema has URLs, and the value
/// conversions the bridges use.
enum RealmSupportGenerator {
    static func declarations(for schema: Schema, manifestName: String) -> [SwiftDeclaration] {
        var declarations: [SwiftDeclaration] = []
        let usesURL = schema.objects.contains { $0.storedProperties.contains { $0.storedType?.scalar == .url } }
        if usesURL {
            declarations.append(
                .comment([
                    "Realm has no URL type: URLs are stored as their text, as realm-swift's documentation shows for",
                    "FailableCustomPersistable. A text that is not a URL reads as nil. (The qualified names say that",
                    "the conformance of a Foundation type to a RealmSwift protocol is intended.)",
                ]))
            declarations.append(
                .extensionOf(
                    SwiftExtension(
                        extended: .name("Foundation.URL"),
                        conformances: [.name("RealmSwift.FailableCustomPersistable")],
                        members: [
                            .typeAlias(access: .public, name: "PersistedType", type: .name("String")),
                            .initializer(
                                SwiftInitializer(
                                    parameters: [SwiftParameter(name: "persistedValue", type: .name("String"))],
                                    body: [.expression(.call(.token("self.init"), [SwiftArgument("string", .identifier("persistedValue"))]))]
                                ).failable),
                            .property(SwiftProperty(name: "persistableValue", type: .name("String"), getter: [.returnValue(.identifier("absoluteString"))])),
                        ]
                    )))
        }
        let values = SwiftDeclaration.enumeration(
            SwiftEnum(
                doc: "Conversions between the plain models' values and Realm's, shared by the bridges.",
                access: .internal,
                name: RealmTypeMapper.valuesName,
                members: [
                    function(
                        "objectId", ("id", "ObjectID"), "ObjectId", doc: "A valid `ObjectID` is a valid `ObjectId`: the same 24 hexadecimal digits.",
                        .forcedTry(.call(.identifier("ObjectId"), [SwiftArgument("string", .member(.identifier("id"), "description"))]))),
                    function(
                        "objectId", ("text", "String"), "ObjectId", doc: "An `ObjectId` literal of the schema, checked before generation.",
                        .forcedTry(.call(.identifier("ObjectId"), [SwiftArgument("string", .identifier("text"))]))),
                    function(
                        "objectID", ("id", "ObjectId"), "ObjectID", doc: nil,
                        .forceUnwrap(.call(.identifier("ObjectID"), [.unlabelled(.member(.identifier("id"), "stringValue"))]))),
                    function(
                        "decimal128", ("value", "Decimal"), "Decimal128", doc: "A `Decimal`'s text is a valid `Decimal128`.",
                        .forcedTry(.call(.identifier("Decimal128"), [SwiftArgument("string", .member(.identifier("value"), "description"))]))),
                    function(
                        "decimal", ("value", "Decimal128"), "Decimal", doc: nil,
                        .binary(.call(.identifier("Decimal"), [SwiftArgument("string", .member(.identifier("value"), "stringValue"))]), "??", .implicitMember("nan"))),
                    .function(
                        SwiftFunction(
                            doc: "The object of `type` with primary key `key`, or a `RealmBridgeError` naming `link`.",
                            access: .internal,
                            isStatic: true,
                            name: "object<Target: Object, Key>",
                            parameters: [
                                SwiftParameter(label: "_", name: "type", type: .name("Target.Type")),
                                SwiftParameter(label: "forKey", name: "key", type: .name("Key")),
                                SwiftParameter(label: "in", name: "realm", type: .name("Realm")),
                                SwiftParameter(name: "link", type: .name("String")),
                            ],
                            isThrowing: true,
                            result: .name("Target"),
                            body: [
                                .guardElse(
                                    .binary(
                                        .token("let object"), "=",
                                        .call(
                                            .member(.identifier("realm"), "object"),
                                            [SwiftArgument("ofType", .identifier("type")), SwiftArgument("forPrimaryKey", .identifier("key"))])),
                                    [
                                        .throwError(
                                            .call(
                                                .identifier("RealmBridgeError"),
                                                [
                                                    SwiftArgument("link", .identifier("link")),
                                                    SwiftArgument(
                                                        "target",
                                                        .call(
                                                            .identifier("String"),
                                                            [
                                                                .unlabelled(
                                                                    .call(
                                                                        .member(.call(.identifier("String"), [SwiftArgument("describing", .identifier("type"))]), "dropFirst"),
                                                                        [.unlabelled(.int(5))]))
                                                            ])),
                                                    SwiftArgument("key", .call(.identifier("String"), [SwiftArgument("describing", .identifier("key"))])),
                                                ]))
                                    ]),
                                .returnValue(.identifier("object")),
                            ]
                        )),
                    .function(
                        SwiftFunction(
                            doc: "A Realm map as a dictionary, leaving out the entries `transform` gives no value for.",
                            access: .internal,
                            isStatic: true,
                            name: "dictionary<Value: RealmCollectionValue, Result>",
                            parameters: [
                                SwiftParameter(label: "_", name: "map", type: .named("Map", generics: [.name("String"), .name("Value")])),
                                SwiftParameter(label: "_", name: "transform", type: .name("(Value) -> Result?")),
                            ],
                            result: .dictionary(.name("String"), .name("Result")),
                            body: [
                                .variable("result", .dictionary(.name("String"), .name("Result")), .dictionary([])),
                                .forIn(
                                    "entry", .identifier("map"),
                                    [
                                        .ifThen(
                                            .binary(.token("let value"), "=", .call(.identifier("transform"), [.unlabelled(.member(.identifier("entry"), "value"))])),
                                            [
                                                .assignment(.subscripted(.identifier("result"), [.unlabelled(.member(.identifier("entry"), "key"))]), .identifier("value"))
                                            ])
                                    ]),
                                .returnValue(.identifier("result")),
                            ]
                        )),
                ]
            ))
        declarations.append(.extensionOf(SwiftExtension(extended: .name(manifestName), members: [values])))
        return declarations
    }

    private static func function(_ name: String, _ parameter: (String, String), _ result: String, doc: String?, _ value: SwiftExpression) -> SwiftDeclaration {
        .function(
            SwiftFunction(
                doc: doc,
                access: .internal,
                isStatic: true,
                name: name,
                parameters: [SwiftParameter(label: "_", name: parameter.0, type: .name(parameter.1))],
                result: .name(result),
                body: [.returnValue(value)]
            ))
    }
}

extension SwiftInitializer {
    /// The same initialiser as `init?`.
    var failable: SwiftInitializer {
        var copy = self
        copy.isFailable = true
        return copy
    }
}
