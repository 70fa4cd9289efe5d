/// A read-only view of an object type (Realm's `Projection`), generated as a value type
/// built from its model.
public struct Projection: Hashable, Sendable {
    /// One property of the projection.
    public struct Property: Hashable, Sendable {
        /// The projection's name for the value.
        public var name: String
        /// The key path into the model, e.g. `firstName` or
        /// `lastName.localizedCapitalized.first`. Its first component is a property of the
        /// model.
        public var keyPath: String
        /// The Swift type of the result, required when the key path goes beyond one model
        /// property (a transform); `nil` means "the model property's type".
        public var type: String?
        public var doc: String?

        public init(name: String, keyPath: String, type: String? = nil, doc: String? = nil) {
            self.name = name
            self.keyPath = keyPath
            self.type = type
            self.doc = doc
        }

        /// The components of the key path.
        public var keyPathComponents: [String] {
            keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
    }

    public var name: String
    /// The object type projected.
    public var of: String
    public var properties: [Property]
    public var doc: String?

    public init(name: String, of: String, properties: [Property], doc: String? = nil) {
        self.name = name
        self.of = of
        self.properties = properties
        self.doc = doc
    }
}
