/// The names generated code declares and refers to, which a schema's names must leave free:
/// the one list `validate` (`RemodelSchema`) refuses and `generate` (`RemodelCodegen`) checks,
/// so that a schema the gate accepts compiles and saves. Each entry says which part of the
/// generated code needs it.
///
/// Generated code writes properties as `self.name`, and column types where only types are
/// looked up, so property names may otherwise equal any type name (`row`, `Column`, `String`).
public enum GeneratedNames {
    /// Type names generated code refers to unqualified, or modules it qualifies with: a schema
    /// type of one of these names would shadow it.
    public static let typeNames: Set<String> = swiftTypes.union(foundationTypes).union(storeTypes).union(modules).union([defaultManifestName])

    /// The Swift standard library's types the models and bridges use.
    public static let swiftTypes: Set<String> = [
        "Any", "Array", "Bool", "CaseIterable", "Character", "Codable", "Dictionary", "Double", "Error", "Float", "Hashable", "Identifiable",
        "Int", "Int8", "Int16", "Int32", "Int64", "Never", "Optional", "Sendable", "Set", "String", "Void",
    ]

    /// Foundation's types the models use for dates, data, URLs, UUIDs and decimals.
    public static let foundationTypes: Set<String> = ["Data", "Date", "Decimal", "URL", "UUID"]

    /// RemodelStore's and RemodelCore's types the bridges and the manifest use, and the nested
    /// types every store bridge declares (`Person.Columns`, `Person.Inverses`).
    public static let storeTypes: Set<String> = [
        "CollectionColumn", "Column", "Columns", "EmbeddedModel", "Inverse", "Inverses", "KeyedModel", "ObjectID", "PersistentModel",
        "RemodelStoreAPIVersion1", "RowDecoder", "RowEncoder", "Schema", "SchemaManifest", "StorableEnum",
    ]

    /// The modules generated code imports.
    public static let modules: Set<String> = ["Foundation", "RemodelCore", "RemodelStore", "Swift"]

    /// The manifest type `generate` declares unless told another name.
    public static let defaultManifestName = "RemodelSchemaManifest"

    /// Members every generated model has (`Identifiable`'s `id` and `ID`, `Hashable`'s
    /// `hashValue`, `Codable`'s `CodingKeys`), the nested types of its store bridge, and `self`,
    /// which no initializer can take: a property of one of these names would be declared twice
    /// or could not be set. (`id` is the primary key's own name when it is one; member keywords
    /// such as `Type` are written in backticks and compile.)
    public static let modelMembers: Set<String> = ["CodingKeys", "Columns", "ID", "Inverses", "hashValue", "id", "primaryKey", "self"]

    /// Members of `StorableValue` an embedded type's stored property would stand in for: a
    /// property `storageProblem: string?` would be taken as the reason every value with it
    /// set cannot be saved.
    public static let embeddedMembers: Set<String> = ["storageProblem"]

    /// Members every generated enum has (`CaseIterable`, `RawRepresentable`, `Hashable`).
    public static let enumMembers: Set<String> = ["allCases", "hashValue", "init", "rawValue"]
}
