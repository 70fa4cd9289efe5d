/// A model type that persists in a `RemodelStore`: the bridge that generated code provides
/// for each non-embedded object type of the schema.
///
/// The conformance reads and writes the type's stored properties *in declaration order*,
/// one `decode`/`encode` call per property, with no dictionaries and no `Codable`:
///
/// ```swift
/// extension Note: PersistentModel {
///     public static let schemaName = "Note"
///     public init(row: inout RowDecoder) throws {
///         self.init(identifier: try row.decode(), content: try row.decode(), lastEdited: try row.decode())
///     }
///     public func encode(to row: inout RowEncoder) throws {
///         try row.encode(identifier)
///         try row.encode(content)
///         try row.encode(lastEdited)
///     }
/// }
/// ```
///
/// Scalars, enums, links (the target's key), embedded objects and their optionals use
/// `decode()`/`encode(_:)`; list, set and map properties use `decodeList()`/`encodeList(_:)`,
/// `decodeSet()`/`encodeSet(_:)` and `decodeMap()`/`encodeMap(_:)`. Inverse relationships are
/// not stored and are skipped.
///
/// A model without a primary key conforms to this protocol only: it can be added, queried,
/// counted and deleted by filter. A model with a primary key also conforms to `KeyedModel`.
public protocol PersistentModel: Sendable {
    /// The typed column references of the model (`Person.Columns.firstName`), used by
    /// filters and sort orders.
    associatedtype Columns

    /// The object type's name in the schema, which is also its table's name.
    static var schemaName: String { get }

    /// Reads an object from the current row, one stored property after another in
    /// declaration order.
    init(row: inout RowDecoder) throws

    /// Writes the object's stored properties, one after another in declaration order.
    func encode(to row: inout RowEncoder) throws
}

/// A model with a primary key: its `id` is the primary-key property's value. Keyed models
/// can be upserted, read and deleted by key, and linked to.
///
/// ```swift
/// extension Person: KeyedModel {}   // Person.ID == ObjectID, id == _id
/// ```
public protocol KeyedModel: PersistentModel, Identifiable where ID: StorableValue & Hashable {}
