/// A complete, validated object schema: every enum, object type and projection of an app,
/// in declaration order.
///
/// `Schema` is a plain value with no source locations; it is what generated code embeds, what
/// a store records and what migrations diff. `RemodelSchema` builds it from YAML.
public struct Schema: Hashable, Sendable {
    public var enums: [EnumType]
    public var objects: [ObjectType]
    public var projections: [Projection]

    public init(enums: [EnumType] = [], objects: [ObjectType] = [], projections: [Projection] = []) {
        self.enums = enums
        self.objects = objects
        self.projections = projections
    }

    /// The enum named `name`, if the schema declares one.
    public func enumType(named name: String) -> EnumType? {
        enums.first { $0.name == name }
    }

    /// The object type named `name`, if the schema declares one.
    public func objectType(named name: String) -> ObjectType? {
        objects.first { $0.name == name }
    }

    /// The projection named `name`, if the schema declares one.
    public func projection(named name: String) -> Projection? {
        projections.first { $0.name == name }
    }

    /// True when the schema declares nothing at all.
    public var isEmpty: Bool {
        enums.isEmpty && objects.isEmpty && projections.isEmpty
    }
}
