/// The value of a unique property, or the values of a unique group, of `Model`: it finds at
/// most one object. The generated code makes one per unique property and group, so that a
/// lookup by a natural key reads as the schema says it: `db.object(Trip.unique(name: "Paris"))`.
public struct UniqueKey<Model: PersistentModel>: Sendable {
    /// The condition the one object meets.
    public let filter: Filter<Model>

    public init(_ filter: Filter<Model>) {
        self.filter = filter
    }
}
