/// An inverse relationship (`person: { inverse: Person.dogs }`): the objects of `Origin`
/// whose link property holds a given `Target`. Generated code declares one per inverse
/// property; the store answers it with a query.
///
/// ```swift
/// extension Dog {
///     public enum Inverses {
///         public static let person = Inverse<Dog, Person>(origin: "dogs")
///     }
/// }
/// let owners = try db.objects(linkingTo: dog, via: Dog.Inverses.person).fetchAll()
/// ```
public struct Inverse<Target: KeyedModel, Origin: PersistentModel>: Sendable {
    /// The link property of `Origin` that points at `Target`.
    public let origin: String

    public init(origin: String) {
        self.origin = origin
    }
}
